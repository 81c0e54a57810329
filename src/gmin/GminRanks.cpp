#include "src/gmin/GminRanks.h"

#include "landscape/core/StopRequest.h"
#include "src/common/LongRun.h"

namespace landscape {

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
  runFaultDrill(m_drill, r.round);
}

}  // namespace landscape
