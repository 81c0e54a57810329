#pragma once
// The connect runs that had ended when a stop cut their growth cycle short, kept in the growth
// folder (DIR/ended-runs) so that `pathsample grow --resume` merges them instead of running their
// pairs again. A stopped cycle merges nothing (the network must not depend on when a signal
// came), and a trp-cage cycle can hold hundreds of runs of minutes each; a run depends on its
// pair's endpoints and the connect settings alone, so the kept result is the one a new run would
// give, bit for bit. docs/database.md describes the file.
#include <array>
#include <map>
#include <string>
#include <vector>

#include "landscape/paths/ConnectJobs.h"

namespace landscape {

/// Ended runs by their pair (the network's 0-based minima, as the growth record lists them).
using EndedConnectRuns = std::map<std::array<int, 2>, ConnectJobResult>;

/// The file of a growth folder.
std::string endedConnectRunsPath(const std::string& folder);

/// The file's bytes: a header, the growth settings they were run with, each run with its pair and
/// the energies of the pair's minima, then a CRC-32 of everything before it.
std::string encodeEndedConnectRuns(const EndedConnectRuns& runs, const std::string& settings,
                                   const std::vector<double>& minimumEnergies);

/// Reads what encodeEndedConnectRuns wrote. Throws std::runtime_error naming `path` for a
/// damaged file (checksum, truncation), other growth settings, or a run whose pair is not one of
/// `minimumEnergies`' minima or whose endpoints' energies differ (another network's runs), or
/// whose points do not have `dimension` coordinates.
EndedConnectRuns decodeEndedConnectRuns(const std::string& bytes, const std::string& path,
                                        const std::string& settings,
                                        const std::vector<double>& minimumEnergies,
                                        std::size_t dimension);

}  // namespace landscape
