#include "src/GminRanks.h"

#include <csignal>
#include <cstdlib>
#include <string>

#include "landscape/core/StopRequest.h"
#include "src/DistributedMinimiser.h"
#include "src/LongRun.h"

namespace landscape {

namespace {

// LANDSCAPE_FAULT_DRILL=RANK:ROUND[:stop] names the round at which `rank` dies (SIGKILL) or
// hangs (SIGSTOP: alive, so the launcher does not notice); round -1 when it names none.
FaultDrill faultDrill(int rank) {
  const char* drill = std::getenv("LANDSCAPE_FAULT_DRILL");
  if (!drill || !*drill) return {};
  char* end = nullptr;
  const long target = std::strtol(drill, &end, 10);
  if (*end != ':' || target != rank) return {};
  const long round = std::strtol(end + 1, &end, 10);
  if (round < 1) return {};
  if (*end == '\0') return {round, SIGKILL};
  if (std::string(end) == ":stop") return {round, SIGSTOP};
  return {};
}

}  // namespace

BatchedMinimiserMaker distributedMinimiserMaker(BatchedMinimiserMaker local,
                                                Communicator& ranks) {
  if (ranks.size() == 1) return local;
  return [local = std::move(local), &ranks](const LbfgsParams& params) {
    return std::unique_ptr<BatchedMinimiser>(
        std::make_unique<DistributedMinimiser>(local(params), ranks));
  };
}

int agreedWalkers(int walkers, Communicator& ranks) {
  return static_cast<int>(ranks.broadcast(walkers));
}

RankWalkerObserver::RankWalkerObserver(WalkerObserver& own, Communicator& ranks)
    : m_own(own), m_ranks(ranks), m_drill(faultDrill(ranks.rank())) {}

// One exchange: bit 1 a stop signal on some rank, bit 2 some rank's own rule.
bool RankWalkerObserver::stopRequested() {
  const unsigned any =
      m_ranks.anyBits((stopSignalled() ? 1u : 0u) | (m_own.stopRequested() ? 2u : 0u));
  if (any & 1u) requestStop();
  return any != 0;
}

void RankWalkerObserver::onRound(const WalkerRoundReport& r) {
  m_own.onRound(r);
  if (r.round == m_drill.round) std::raise(m_drill.signal);
}

}  // namespace landscape
