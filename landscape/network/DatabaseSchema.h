#pragma once
// The names in minima.h5 (schema_version 1): its groups, datasets and attributes, and the unit
// strings stamped on the datasets. docs/database.md is the schema's reference; this header is the
// one place the database's files take the names from. No HDF5 here.
#include <limits>
#include <string>

#include "landscape/network/Database.h"

namespace landscape::database {

// Names of the schema, version 1 (docs/database.md).
constexpr const char* kSchemaVersionAttribute = "schema_version";
constexpr const char* kMinimaGroup = "minima";
constexpr const char* kEnergyDataset = "energy";
constexpr const char* kCoordinatesDataset = "coordinates";
constexpr const char* kFirstFoundStepDataset = "first_found_step";
constexpr const char* kFunctionCallsDataset = "function_calls";
constexpr const char* kUnitsAttribute = "units";
constexpr const char* kCountUnit = "count";
// Additions for transition networks (still schema_version 1: new, optional datasets and a group).
constexpr const char* kTransitionStatesGroup = "transition_states";
constexpr const char* kLogProductDataset = "log_product_frequencies";
constexpr const char* kPointGroupOrderDataset = "point_group_order";
constexpr const char* kPrincipalMomentsDataset = "principal_moments";
constexpr const char* kHessianEigenvaluesDataset = "hessian_eigenvalues";
constexpr const char* kConnectedMinimaDataset = "minima";
constexpr const char* kEigenvalueDataset = "eigenvalue";
constexpr const char* kIndexUnit = "index (0-based row of /minima)";
// PATHSAMPLE's endpoint sets min.A and min.B (optional group, still schema_version 1).
constexpr const char* kEndpointsGroup = "endpoints";
constexpr const char* kSetADataset = "a";
constexpr const char* kSetBDataset = "b";
// A growth run's state (pathsample grow; optional group, still schema_version 1).
constexpr const char* kGrowthGroup = "growth";
constexpr const char* kGrowthCyclesAttribute = "cycles";
constexpr const char* kGrowthSettingsAttribute = "settings";
constexpr const char* kTriedPairsDataset = "tried_pairs";
constexpr const char* kPendingPairsDataset = "pending_pairs";

/// The value an optional real field gets when it is unknown (a row appended without it).
constexpr double kUnknownReal = std::numeric_limits<double>::quiet_NaN();

inline bool massWeighted(const DatabaseMetadata& m) { return m.hessianMasses == kAtomicMassesAmu; }
/// The unit of a Hessian eigenvalue of the stored properties.
inline std::string hessianUnit(const DatabaseMetadata& m) {
  return massWeighted(m) ? m.energyUnit + " / (amu " + m.lengthUnit + "^2), mass-weighted"
                         : m.energyUnit + " / " + m.lengthUnit + "^2, unit masses";
}
inline std::string logProductUnit(const DatabaseMetadata& m) {
  return "ln(" + hessianUnit(m) + ")";
}
/// The transition states' `eigenvalue` (the eigenvector search's): always unit masses.
inline std::string searchEigenvalueUnit(const DatabaseMetadata& m) {
  return m.energyUnit + " / " + m.lengthUnit + "^2, unit masses";
}
inline std::string momentUnit(const DatabaseMetadata& m) {
  return massWeighted(m) ? "amu " + m.lengthUnit + "^2" : m.lengthUnit + "^2, unit masses";
}

}  // namespace landscape::database
