#include "src/GminRanks.h"

#include <csignal>
#include <cstdlib>
#include <string>

#include "landscape/core/StopRequest.h"
#include "src/DistributedMinimiser.h"
#include "src/LongRun.h"

namespace landscape {

namespace {

// LANDSCAPE_FAULT_DRILL=RANK:ROUND names the round at which `rank` dies; -1 when it names none.
long drillRound(int rank) {
  const char* drill = std::getenv("LANDSCAPE_FAULT_DRILL");
  if (!drill || !*drill) return -1;
  char* end = nullptr;
  const long target = std::strtol(drill, &end, 10);
  if (*end != ':' || target != rank) return -1;
  const long round = std::strtol(end + 1, &end, 10);
  return *end == '\0' && round > 0 ? round : -1;
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
    : m_own(own), m_ranks(ranks), m_drillRound(drillRound(ranks.rank())) {}

bool RankWalkerObserver::stopRequested() {
  if (m_ranks.anyTrue(stopSignalled())) requestStop();
  return m_ranks.anyTrue(m_own.stopRequested());
}

void RankWalkerObserver::onRound(const WalkerRoundReport& r) {
  m_own.onRound(r);
  if (r.round == m_drillRound) std::raise(SIGKILL);
}

}  // namespace landscape
