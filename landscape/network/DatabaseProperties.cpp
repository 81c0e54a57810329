// The Hessian-derived datasets of minima and transition states (DatabaseProperties.h): written
// whole, read when present, and grown with unknown rows when minima are appended.
#include "landscape/network/DatabaseProperties.h"

#include <algorithm>
#include <cmath>

#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

namespace {

/// The optional datasets of a group of stationary points, with their shapes.
struct OptionalColumn {
  Column column;
  bool perCoordinate;  // width 3N (else `width`)
  hsize_t width;
};

std::vector<OptionalColumn> optionalPropertyColumns(const char* group) {
  return {{floatColumn(kLogProductDataset, group), false, 0},
          {integerColumn(kPointGroupOrderDataset, group), false, 0},
          {floatColumn(kPrincipalMomentsDataset, group), false, 3},
          {floatColumn(kHessianEigenvaluesDataset, group), true, 0}};
}

}  // namespace

void extendOptionalMinimaColumns(hid_t group, std::size_t added, std::size_t atoms,
                                 hsize_t oldCount, const std::string& path) {
  for (const OptionalColumn& optional : optionalPropertyColumns(kMinimaGroup)) {
    if (!hasDataset(group, optional.column, path)) continue;
    const hsize_t width = optional.perCoordinate ? 3 * static_cast<hsize_t>(atoms) : optional.width;
    OpenDataset set = openShapedDataset(group, optional.column, width, oldCount, path);
    const std::size_t values = added * std::max<hsize_t>(width, 1);
    if (optional.column.typeClass == H5T_INTEGER) {
      const std::vector<long> unknown(values, 0);
      appendRows(set, optional.column, added, unknown.data(), path);
    } else {
      const std::vector<double> unknown(values, kUnknownReal);
      appendRows(set, optional.column, added, unknown.data(), path);
    }
    check(set.dataset.close(), path, "cannot close dataset " + datasetPath(optional.column));
  }
}

template <typename Point>
void writeProperties(hid_t group, const char* groupName, const std::vector<Point>& points,
                     const DatabaseMetadata& metadata, const std::string& path) {
  const std::size_t n = points.size();
  const std::size_t width = 3 * metadata.atoms;
  std::vector<double> logProducts(n), moments(3 * n);
  std::vector<long> orders(n);
  bool anySpectrum = false;
  for (std::size_t i = 0; i < n; ++i) {
    const StationaryPointProperties& p = points[i].properties;
    logProducts[i] = p.logProductOfPositiveEigenvalues;
    orders[i] = p.pointGroupOrder;
    std::copy(p.principalMoments.begin(), p.principalMoments.end(), moments.begin() + 3 * i);
    anySpectrum = anySpectrum || !p.hessianEigenvalues.empty();
  }
  const std::vector<OptionalColumn> columns = optionalPropertyColumns(groupName);
  createFilledDataset(group, columns[0].column, 0, logProductUnit(metadata), n, logProducts.data(),
                      path);
  createFilledDataset(group, columns[1].column, 0, kCountUnit, n, orders.data(), path);
  createFilledDataset(group, columns[2].column, 3, momentUnit(metadata), n, moments.data(), path);
  if (anySpectrum) {
    // Rows of points whose Hessian was not computed are NaN.
    std::vector<double> spectra(n * width, kUnknownReal);
    for (std::size_t i = 0; i < n; ++i) {
      const std::vector<double>& e = points[i].properties.hessianEigenvalues;
      std::copy(e.begin(), e.end(), spectra.begin() + i * width);
    }
    createFilledDataset(group, columns[3].column, width, hessianUnit(metadata), n, spectra.data(),
                        path);
  }
}

template <typename Point>
void readProperties(hid_t group, const char* groupName, std::vector<Point>& points,
                    std::size_t atoms, const std::string& path) {
  const std::size_t n = points.size();
  const std::size_t width = 3 * atoms;
  const std::vector<OptionalColumn> columns = optionalPropertyColumns(groupName);
  if (hasDataset(group, columns[0].column, path)) {
    std::vector<double> values(n);
    OpenDataset set = openShapedDataset(group, columns[0].column, 0, n, path);
    readWhole(set, columns[0].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      points[i].properties.logProductOfPositiveEigenvalues = values[i];
    }
  }
  if (hasDataset(group, columns[1].column, path)) {
    std::vector<long> values(n);
    OpenDataset set = openShapedDataset(group, columns[1].column, 0, n, path);
    readWhole(set, columns[1].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      if (values[i] < 0 || values[i] > 1000000) {
        invalid(path, "dataset " + datasetPath(columns[1].column) + " row " + std::to_string(i) +
                          " holds " + std::to_string(values[i]) +
                          ", not a point-group order (0 = unknown)");
      }
      points[i].properties.pointGroupOrder = static_cast<int>(values[i]);
    }
  }
  if (hasDataset(group, columns[2].column, path)) {
    std::vector<double> values(3 * n);
    OpenDataset set = openShapedDataset(group, columns[2].column, 3, n, path);
    readWhole(set, columns[2].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      std::copy(values.begin() + 3 * i, values.begin() + 3 * i + 3,
                points[i].properties.principalMoments.begin());
    }
  }
  if (hasDataset(group, columns[3].column, path)) {
    std::vector<double> values(n * width);
    OpenDataset set = openShapedDataset(group, columns[3].column, width, n, path);
    readWhole(set, columns[3].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      const auto row = values.begin() + i * width;
      // A NaN row is a point whose Hessian was not computed.
      if (std::isnan(row[0])) continue;
      points[i].properties.hessianEigenvalues.assign(row, row + width);
    }
  }
}

template void writeProperties(hid_t, const char*, const std::vector<StoredNetworkMinimum>&,
                              const DatabaseMetadata&, const std::string&);
template void writeProperties(hid_t, const char*, const std::vector<StoredTransitionState>&,
                              const DatabaseMetadata&, const std::string&);
template void readProperties(hid_t, const char*, std::vector<StoredNetworkMinimum>&, std::size_t,
                             const std::string&);
template void readProperties(hid_t, const char*, std::vector<StoredTransitionState>&, std::size_t,
                             const std::string&);

}  // namespace landscape::database
