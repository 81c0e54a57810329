#pragma once
// The Hessian-derived fields of PATHSAMPLE's min.data and ts.data as datasets of /minima and
// /transition_states: log_product_frequencies, point_group_order, principal_moments and, when any
// point has them, hessian_eigenvalues. All are optional, so a file without them (gmin's) still
// reads, with unknown values. Part of the HDF5 database (Database.h).
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/Hdf5File.h"

namespace landscape::database {

/// After MinimaDatabase::append added `added` rows to the four base datasets, grows the optional
/// datasets of a network file by as many unknown rows, so that every dataset keeps n rows.
void extendOptionalMinimaColumns(hid_t group, std::size_t added, std::size_t atoms,
                                 hsize_t oldCount, const std::string& path);

/// Writes the Hessian-derived datasets of `points` (minima or transition states) into `group`.
/// Point is StoredNetworkMinimum or StoredTransitionState.
template <typename Point>
void writeProperties(hid_t group, const char* groupName, const std::vector<Point>& points,
                     const DatabaseMetadata& metadata, const std::string& path);

/// Reads the Hessian-derived datasets of `group` that exist into `points` (n rows each).
template <typename Point>
void readProperties(hid_t group, const char* groupName, std::vector<Point>& points,
                    std::size_t atoms, const std::string& path);

}  // namespace landscape::database
