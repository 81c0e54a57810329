#pragma once
// The fault drill of the MPI programs (docs/cluster.md, "Faults"): LANDSCAPE_FAULT_DRILL=RANK:ROUND
// in the environment makes rank RANK kill itself (SIGKILL) at round ROUND, and RANK:ROUND:stop
// stop itself (SIGSTOP: alive, so the launcher does not notice, a rank that hangs), so that what a
// job does when a rank dies or hangs can be tried deterministically. A round is gmin's walker
// round (src/gmin/GminRanks.h) or pathsample's growth cycle (src/pathsample/PathsampleGrowth.h).
namespace landscape {

/// The drill of one rank: the round at which it raises `signal` (-1: never).
struct FaultDrill {
  long round = -1;
  int signal = 0;
};

/// This rank's drill, from LANDSCAPE_FAULT_DRILL (none when unset or naming another rank).
FaultDrill faultDrill(int rank);

/// Raises the drill's signal when `round` is its round.
void runFaultDrill(const FaultDrill& drill, long round);

}  // namespace landscape
