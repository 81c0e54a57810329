#pragma once
// A transition network (landscape/network/StoredNetwork.h) as the dict of numpy arrays that
// landscape.network.Network holds, and back: every field network.h5 keeps (docs/database.md), so
// that Network.read(path).write(other) loses nothing. Indices in the dict are 0-based rows of the
// minima arrays (numpy's), as in the file; PATHSAMPLE's files number minima from 1.
#include <nanobind/nanobind.h>

#include "landscape/network/Database.h"
#include "landscape/network/StoredNetwork.h"
#include "landscape/network/TransitionNetwork.h"

namespace landscape::python {

namespace nb = nanobind;

/// The dict of read_network: 'metadata', minima_* and ts_* arrays, set_a/set_b, 'growth'.
nb::dict networkToDict(const StoredTransitionNetwork& network, const DatabaseMetadata& metadata);

/// The network of a dict of that layout; optional fields may be missing (unknown). Throws
/// std::invalid_argument (ValueError) naming the first key whose shape or value is wrong.
/// `what` starts the messages ("write_network", "rates", ...). Without `coordinates` (kinetics:
/// energies, log products and orders suffice) the points' coordinates and spectra stay empty, so
/// that a large network is not copied for its rates.
StoredTransitionNetwork networkFromDict(const nb::dict& data, DatabaseMetadata& metadata,
                                        const std::string& what, bool coordinates = true);

/// A connect run's transition state as the network stores it (properties unknown).
StoredTransitionState storedTransitionState(const NetworkTransitionState& t);

/// A 0-based set of minima (any integer sequence) checked against `minima`: non-empty, integers in
/// range, each once. `name` ("a", "b") names it in messages.
std::vector<int> minimaSet(nb::handle values, std::size_t minima, const std::string& what,
                           const std::string& name);

}  // namespace landscape::python
