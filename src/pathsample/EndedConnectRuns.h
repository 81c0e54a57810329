#pragma once
// The connect runs of a growth cycle that had ended before the cycle merged, kept in the growth
// folder (DIR/ended-runs) so that `pathsample grow --resume` merges them instead of running their
// pairs again. A cycle that a stop or a kill cuts short merges nothing (the network must not
// depend on when a signal came), and a trp-cage cycle can hold hundreds of runs of minutes each;
// a run depends on its pair's endpoints and the connect settings alone, so the kept result is the
// one a new run would give, bit for bit.
//
// The file is a journal: a header, the growth settings, then one record per run, each with its
// own length and CRC-32, appended and flushed to disk as the run ends (a kill -9 loses at most the
// record being written), or written whole and atomically at a stop and after a merge.
// docs/database.md describes it.
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "landscape/paths/ConnectJobs.h"

namespace landscape {

/// Ended runs by their pair (the network's 0-based minima, as the growth record lists them).
using EndedConnectRuns = std::map<std::array<int, 2>, ConnectJobResult>;

/// The file of a growth folder.
std::string endedConnectRunsPath(const std::string& folder);

/// The start of a file: its header and the growth settings the runs were made with.
std::string encodeEndedConnectRunsStart(const std::string& settings);

/// One run's record: its pair with the energies of the pair's minima, then the run.
std::string encodeEndedConnectRun(const std::array<int, 2>& pair,
                                  const std::array<double, 2>& pairEnergies,
                                  const ConnectJobResult& job);

/// A whole file: the start, then every run's record.
std::string encodeEndedConnectRuns(const EndedConnectRuns& runs, const std::string& settings,
                                   const std::vector<double>& minimumEnergies);

/// One record of a file, as it lies: where it starts (its length field), its content and
/// whether its CRC-32 matches.
struct EndedConnectRunsRecord {
  std::size_t start = 0;
  std::string_view content;
  bool intact = false;
  std::size_t end() const;  ///< just past its CRC
};

/// The whole records of a file after its header (none when the header is not this version's),
/// up to the first that the bytes cut short.
std::vector<EndedConnectRunsRecord> endedConnectRunsRecords(std::string_view bytes);

struct EndedConnectRunsFile {
  EndedConnectRuns runs;
  /// The last record was cut short (a kill or a crash while it was appended): its run is not in
  /// `runs` and runs again; the file should be rewritten before anything is appended to it.
  bool lastRecordCutShort = false;
};

/// Reads what the functions above wrote. Throws std::runtime_error naming `path` for a damaged
/// file (a bad header, a record whose checksum does not match that is not the last one), other
/// growth settings, or a run whose pair is not one of `minimumEnergies`' minima or whose
/// endpoints' energies differ (another network's runs), or whose points do not have `dimension`
/// coordinates.
EndedConnectRunsFile decodeEndedConnectRuns(std::string_view bytes, const std::string& path,
                                            const std::string& settings,
                                            const std::vector<double>& minimumEnergies,
                                            std::size_t dimension);

}  // namespace landscape
