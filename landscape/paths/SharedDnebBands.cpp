#include "landscape/paths/SharedDnebBands.h"

#include <atomic>
#include <chrono>
#include <set>

namespace landscape {

// A run's view: one request per relax().
class SharedBandView : public DnebBands {
 public:
  SharedBandView(SharedDnebBands& shared, SharedBatchedPotential::Member& member)
      : m_shared(shared), m_member(member) {}
  std::size_t imageSize() const override { return m_shared.imageSize(); }
  std::string name() const override { return m_shared.name(); }
  void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
             std::vector<DnebRelaxedBand>& out) override {
    checkDnebBandJobs(jobs);
    SharedDnebBands::Request request;
    request.params = &params;
    request.jobs = &jobs;
    request.out = &out;
    m_shared.submit(request, m_member);
  }

 private:
  SharedDnebBands& m_shared;
  SharedBatchedPotential::Member& m_member;
};

SharedDnebBands::SharedDnebBands(DnebBands& bands)
    : m_bands(bands), m_service([this] { serve(); }) {}

SharedDnebBands::~SharedDnebBands() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
  }
  m_changed.notify_all();
  m_service.join();
}

std::unique_ptr<DnebBands> SharedDnebBands::view(SharedBatchedPotential::Member& member) {
  return std::make_unique<SharedBandView>(*this, member);
}

SharedBandStatistics SharedDnebBands::statistics() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_statistics;
}

void SharedDnebBands::submit(Request& request, SharedBatchedPotential::Member& member) {
  request.waker = &member.shared();
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_waiting.push_back(&request);
  }
  m_changed.notify_all();
  member.waitFor([&request] { return request.done.load(std::memory_order_acquire); });
  if (request.error) std::rethrow_exception(request.error);
}

void SharedDnebBands::serve() {
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    m_changed.wait(lock, [this] { return m_stopping || !m_waiting.empty(); });
    if (m_waiting.empty()) return;  // stopping, nothing left
    // Every waiting request with the first one's band settings, in arrival order (a band's bits
    // do not depend on the others of its call).
    std::vector<Request*> taken, left;
    for (Request* r : m_waiting)
      (sameDnebBandSettings(*r->params, *m_waiting.front()->params) ? taken : left).push_back(r);
    m_waiting = std::move(left);
    lock.unlock();
    std::vector<DnebBandJob> jobs;
    for (const Request* r : taken) jobs.insert(jobs.end(), r->jobs->begin(), r->jobs->end());
    std::exception_ptr error;
    std::vector<DnebRelaxedBand> relaxed;
    const auto began = std::chrono::steady_clock::now();
    try {
      m_bands.relax(*taken.front()->params, jobs, relaxed);
    } catch (...) {
      error = std::current_exception();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    {  // counted before any run hears its band, so that a run that returns sees its own call
      std::lock_guard<std::mutex> counting(m_mutex);
      ++m_statistics.calls;
      m_statistics.bands += static_cast<long>(jobs.size());
      m_statistics.callSeconds += seconds;
    }
    std::size_t next = 0;
    std::set<SharedBatchedPotential*> wakers;
    for (Request* r : taken) {
      if (error) {
        r->error = error;
      } else {
        r->out->assign(std::make_move_iterator(relaxed.begin() + next),
                       std::make_move_iterator(relaxed.begin() + next + r->jobs->size()));
        next += r->jobs->size();
      }
      wakers.insert(r->waker);
      r->done.store(true, std::memory_order_release);  // r may be gone from here on
    }
    for (SharedBatchedPotential* waker : wakers) waker->wake();
    lock.lock();
  }
}

}  // namespace landscape
