#pragma once
// The DNEB bands of many connect runs relaxed whole in shared calls (landscape/paths/DnebBands.h:
// on the GPU one launch, a block per band): each run asks through a view of its own, the band
// service's thread relaxes every band waiting when it comes round (the next call gathers those
// that arrive meanwhile) and hands each back to its run. A run waiting for its band steps aside
// from its shared batched potential (potentials/SharedBatchedPotential), whose calls for the
// other runs' searches go on meanwhile (on the GPU beside the band kernel, on another stream).
// A band's bits do not depend on the bands beside it, so neither does the network on timing.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "landscape/paths/DnebBands.h"
#include "potentials/SharedBatchedPotential.h"

namespace landscape {

/// How the band calls went (progress lines and benchmarks).
struct SharedBandStatistics {
  long calls = 0;
  long bands = 0;
  double callSeconds = 0.0;  ///< wall time of the calls (the device busy with bands)
};

class SharedDnebBands {
 public:
  /// `bands` (not owned) must outlive this object; its relax() is called from the service thread
  /// only.
  explicit SharedDnebBands(DnebBands& bands);
  ~SharedDnebBands();
  SharedDnebBands(const SharedDnebBands&) = delete;
  SharedDnebBands& operator=(const SharedDnebBands&) = delete;

  /// A view for one run: its relax() hands the jobs to the service and waits through `member`
  /// (SharedBatchedPotential::Member::waitFor). For the member's thread or fibre only.
  std::unique_ptr<DnebBands> view(SharedBatchedPotential::Member& member);
  SharedBandStatistics statistics() const;
  std::size_t imageSize() const { return m_bands.imageSize(); }
  std::string name() const { return m_bands.name() + ", shared"; }

 private:
  struct Request {
    const DnebParams* params = nullptr;
    const std::vector<DnebBandJob>* jobs = nullptr;
    std::vector<DnebRelaxedBand>* out = nullptr;
    SharedBatchedPotential* waker = nullptr;
    std::atomic<bool> done{false};
    std::exception_ptr error;
  };
  friend class SharedBandView;
  /// Queues the request and waits for it through `member`; rethrows its error.
  void submit(Request& request, SharedBatchedPotential::Member& member);
  void serve();

  DnebBands& m_bands;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<Request*> m_waiting;
  bool m_stopping = false;
  SharedBandStatistics m_statistics;
  std::thread m_service;
};

}  // namespace landscape
