// libFuzzer target: the HDF5 minima and transition-network databases (landscape/network/Database)
// read through the project's reader. Structure-aware: the fuzzer's bytes decide what an HDF5 file
// holds (root attributes of any type and value, the /minima and /transition_states groups, their
// datasets' presence, types, ranks, shapes (also huge declared shapes without stored data) and
// values (NaN, infinities, out-of-range indices)); the file is written with the HDF5 library and
// then read with MinimaDatabase::read, count, readMetadata and TransitionNetworkDatabase::read.
// Raw bytes would mostly exercise libhdf5's own parser, which is not this project's code.
// Documented: std::runtime_error.
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "landscape/network/Database.h"

namespace {

// Writes one attribute of a type and value chosen by the fuzzer.
void writeAttribute(hid_t object, const char* name, FuzzedDataProvider& in) {
  if (!in.ConsumeBool()) return;  // absent
  const hid_t space = H5Screate(H5S_SCALAR);
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: {  // integer
      const long long value = in.ConsumeBool() ? in.ConsumeIntegralInRange<long long>(-2, 64)
                                               : in.ConsumeIntegral<long long>();
      const hid_t a = H5Acreate2(object, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
      if (a >= 0) H5Awrite(a, H5T_NATIVE_LLONG, &value), H5Aclose(a);
      break;
    }
    case 1: {  // float
      const double value = in.ConsumeFloatingPoint<double>();
      const hid_t a = H5Acreate2(object, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
      if (a >= 0) H5Awrite(a, H5T_NATIVE_DOUBLE, &value), H5Aclose(a);
      break;
    }
    case 2: {  // variable-length string
      const std::string value = in.ConsumeRandomLengthString(64);
      const hid_t type = H5Tcopy(H5T_C_S1);
      H5Tset_size(type, H5T_VARIABLE);
      const char* text = value.c_str();
      const hid_t a = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
      if (a >= 0) H5Awrite(a, type, &text), H5Aclose(a);
      H5Tclose(type);
      break;
    }
    default: {  // fixed-length string, null- or space-padded
      std::string value = in.ConsumeRandomLengthString(64);
      if (value.empty()) value = " ";
      const hid_t type = H5Tcopy(H5T_C_S1);
      H5Tset_size(type, value.size());
      H5Tset_strpad(type, in.ConsumeBool() ? H5T_STR_SPACEPAD : H5T_STR_NULLPAD);
      const hid_t a = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
      if (a >= 0) H5Awrite(a, type, value.data()), H5Aclose(a);
      H5Tclose(type);
      break;
    }
  }
  H5Sclose(space);
}

// Writes one dataset of a type, rank, shape and values chosen by the fuzzer; typical is the shape
// a valid file would have (rows x width, width 0 for 1-D).
void writeDataset(hid_t group, const char* name, hsize_t rows, hsize_t width, bool integer,
                  FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange(0, 7) == 0) return;  // absent
  const int shapeChoice = in.ConsumeIntegralInRange(0, 7);
  int rank = width == 0 ? 1 : 2;
  hsize_t dims[3] = {rows, width, 1};
  if (shapeChoice == 1) rank = in.ConsumeIntegralInRange(1, 3);
  if (shapeChoice == 2) dims[0] = in.ConsumeIntegralInRange<hsize_t>(0, 8);
  if (shapeChoice == 3) dims[1] = in.ConsumeIntegralInRange<hsize_t>(0, 8);
  // A huge declared shape in a chunked dataset: no data is stored, reads return the fill value.
  const bool huge = shapeChoice == 4;
  if (huge) dims[0] = hsize_t{1} << in.ConsumeIntegralInRange(20, 40);
  hsize_t maxDims[3] = {H5S_UNLIMITED, dims[1], dims[2]};
  const hid_t space = H5Screate_simple(rank, dims, maxDims);
  const hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
  hsize_t chunk[3] = {1, dims[1] == 0 ? 1 : dims[1], 1};
  H5Pset_chunk(properties, rank, chunk);
  const int typeChoice = in.ConsumeIntegralInRange(0, 5);
  hid_t fileType = integer ? H5T_STD_I64LE : H5T_IEEE_F64LE;
  if (typeChoice == 1) fileType = integer ? H5T_IEEE_F64LE : H5T_STD_I64LE;
  if (typeChoice == 2) fileType = integer ? H5T_STD_I32LE : H5T_IEEE_F32LE;
  const hid_t dataset =
      H5Dcreate2(group, name, fileType, space, H5P_DEFAULT, properties, H5P_DEFAULT);
  if (dataset >= 0 && !huge) {
    hsize_t count = 1;
    for (int r = 0; r < rank; ++r) count *= dims[r];
    if (count > 0 && count <= 4096) {
      if (H5Tget_class(fileType) == H5T_INTEGER) {
        std::vector<long long> values(count);
        for (long long& v : values)
          v = in.ConsumeBool() ? in.ConsumeIntegralInRange<long long>(-2, 8)
                               : in.ConsumeIntegral<long long>();
        H5Dwrite(dataset, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
      } else {
        std::vector<double> values(count);
        for (double& v : values) v = in.ConsumeFloatingPoint<double>();
        H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
      }
    }
  }
  if (dataset >= 0) H5Dclose(dataset);
  H5Pclose(properties);
  H5Sclose(space);
}

void writeGroup(hid_t file, const char* name, bool transitionStates, hsize_t atoms,
                FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange(0, 7) == 0) return;  // absent
  const hid_t group = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0) return;
  const hsize_t rows = in.ConsumeIntegralInRange<hsize_t>(0, 4);
  const hsize_t width = 3 * atoms;
  writeDataset(group, "energy", rows, 0, false, in);
  writeDataset(group, "coordinates", rows, width, false, in);
  if (transitionStates) {
    writeDataset(group, "minima", rows, 2, true, in);
    writeDataset(group, "eigenvalue", rows, 0, false, in);
  } else {
    writeDataset(group, "first_found_step", rows, 0, true, in);
    writeDataset(group, "function_calls", rows, 0, true, in);
  }
  writeDataset(group, "log_product_frequencies", rows, 0, false, in);
  writeDataset(group, "point_group_order", rows, 0, true, in);
  writeDataset(group, "principal_moments", rows, 3, false, in);
  writeDataset(group, "hessian_eigenvalues", rows, width, false, in);
  H5Gclose(group);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // the writer's own failures are not findings
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".h5");
  FuzzedDataProvider in(data, size);
  const hsize_t atoms = in.ConsumeIntegralInRange<hsize_t>(1, 4);
  {
    const hid_t h5 = H5Fcreate(file.path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (h5 < 0) return 0;
    for (const char* name :
         {"schema_version", "program", "created_by", "potential", "energy_unit", "length_unit"})
      writeAttribute(h5, name, in);
    // atoms: mostly the value the datasets were shaped for.
    if (in.ConsumeBool()) {
      const hid_t space = H5Screate(H5S_SCALAR);
      const long long value = static_cast<long long>(atoms);
      const hid_t a = H5Acreate2(h5, "atoms", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
      if (a >= 0) H5Awrite(a, H5T_NATIVE_LLONG, &value), H5Aclose(a);
      H5Sclose(space);
    } else {
      writeAttribute(h5, "atoms", in);
    }
    writeGroup(h5, "minima", false, atoms, in);
    writeGroup(h5, "transition_states", true, atoms, in);
    H5Fclose(h5);
  }
  const std::string& path = file.path();
  fuzz::expectOnly<std::runtime_error>([&] { MinimaDatabase::readMetadata(path); });
  fuzz::expectOnly<std::runtime_error>([&] { MinimaDatabase::count(path); });
  fuzz::expectOnly<std::runtime_error>([&] { MinimaDatabase::read(path); });
  fuzz::expectOnly<std::runtime_error>([&] {
    const StoredTransitionNetwork network = TransitionNetworkDatabase::read(path);
    const int n = static_cast<int>(network.minima.size());
    for (const StoredTransitionState& ts : network.transitionStates)
      if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n)
        std::abort();
  });
  return 0;
}
