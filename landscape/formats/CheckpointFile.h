#pragma once
// The basin-hopping checkpoint (`checkpoint` in gmin's output folder, docs/database.md): the
// complete BasinHoppingState plus the fingerprint of the options it was made with, as versioned
// text. Real numbers are written as C99 hexadecimal floats (%a), so every bit survives the round
// trip; the random engine's state is the standard's decimal form of mt19937_64. Written
// atomically (AtomicFile.h), so a crash leaves the previous checkpoint whole.
#include <string>
#include <utility>
#include <vector>

#include "landscape/search/BasinHoppingParams.h"
#include "landscape/search/BasinHoppingState.h"
#include "landscape/search/WalkerEnsemble.h"

namespace landscape {

/// Version 2 ends with the checksum line (CheckpointReader.h); version 1 files still read.
inline constexpr int kCheckpointVersion = 2;

/// Options a resumed run must share with the original: (name, value) pairs, compared as text.
using CheckpointFingerprint = std::vector<std::pair<std::string, std::string>>;

struct Checkpoint {
  CheckpointFingerprint fingerprint;
  long steps = 0;  ///< the total --steps the run was asked for
  /// The single chain, or walker 0 of a walker run (with the shared lowest minima).
  BasinHoppingState state;
  /// A walker run (gmin --walkers, WalkerEnsemble.h): walkers 1..W-1 (their `lowest` empty) and
  /// the replica-exchange state of BHPT; both empty for a single chain, whose file is unchanged.
  std::vector<BasinHoppingState> otherWalkers;
  bool exchanges = false;
  ReplicaExchange::State exchange;

  bool isWalkerRun() const { return !otherWalkers.empty() || exchanges; }
  int walkers() const { return 1 + static_cast<int>(otherWalkers.size()); }
  WalkerEnsembleState walkerState() const;
  void setWalkerState(WalkerEnsembleState ensemble);
};

/// Every field of `params` that changes the search, except steps and dumpInterval (which a
/// resumed run may change). Reals as %.17g, so equal text means equal values.
CheckpointFingerprint basinHoppingFingerprint(const BasinHoppingParams& params);

std::string formatCheckpoint(const Checkpoint& checkpoint);
/// Writes formatCheckpoint atomically; throws std::runtime_error naming the file on failure.
void writeCheckpointFile(const std::string& path, const Checkpoint& checkpoint);
/// Reads a checkpoint. Throws std::runtime_error with "path: " (missing or unreadable file) or
/// "path:line: " and what was expected when the text is not a complete checkpoint of this version.
Checkpoint readCheckpointFile(const std::string& path);

/// Throws std::runtime_error "path: the checkpoint was made with NAME = A, this run has NAME = B"
/// for the first entry that differs (or is missing on either side).
void checkFingerprint(const std::string& path, const CheckpointFingerprint& saved,
                      const CheckpointFingerprint& current);

}  // namespace landscape
