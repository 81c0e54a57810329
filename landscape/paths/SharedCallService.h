#pragma once
// Jobs of many connect runs gathered into shared calls of a team engine that runs each job whole
// (DNEB bands: landscape/paths/SharedDnebBands; hybrid EF searches:
// landscape/paths/SharedTransitionStateSearches). Each run hands its jobs in and waits; a service
// thread per call lane takes every job waiting with the first one's settings when it comes round
// (the jobs that arrive meanwhile wait for the next free lane), makes the call and hands each run
// its results. A run waiting for its call steps aside from its shared batched potential
// (potentials/SharedBatchedPotential::Member::waitFor), whose calls for the other runs go on
// meanwhile. A job's bits do not depend on the jobs beside it, so neither does the network on
// timing or on the lanes.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <iterator>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "potentials/SharedBatchedPotential.h"

namespace landscape {

/// How the calls went (progress lines and benchmarks).
struct SharedCallStatistics {
  long calls = 0;
  long jobs = 0;
  double callSeconds = 0.0;  ///< wall time of the calls, summed over the lanes
};

template <class Params, class Job, class Result>
class SharedCallService {
 public:
  /// Runs every job of one call with the same settings; called from its lane's thread only.
  using Call = std::function<void(const Params&, const std::vector<Job>&, std::vector<Result>&)>;
  using SameSettings = bool (*)(const Params&, const Params&);

  /// One service thread per lane (at least one).
  SharedCallService(std::vector<Call> lanes, SameSettings same)
      : m_lanes(std::move(lanes)), m_same(same) {
    for (std::size_t k = 0; k < m_lanes.size(); ++k)
      m_service.emplace_back([this, k] { serve(m_lanes[k]); });
  }
  ~SharedCallService() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stopping = true;
    }
    m_changed.notify_all();
    for (std::thread& t : m_service) t.join();
  }
  SharedCallService(const SharedCallService&) = delete;
  SharedCallService& operator=(const SharedCallService&) = delete;

  /// Queues the jobs and waits for their call through `member`; rethrows the call's error.
  void submit(const Params& params, const std::vector<Job>& jobs, std::vector<Result>& out,
              SharedBatchedPotential::Member& member) {
    Request request;
    request.params = &params;
    request.jobs = &jobs;
    request.out = &out;
    request.waker = &member.shared();
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_waiting.push_back(&request);
    }
    m_changed.notify_one();
    member.waitFor([&request] { return request.done.load(std::memory_order_acquire); });
    if (request.error) std::rethrow_exception(request.error);
  }

  SharedCallStatistics statistics() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_statistics;
  }
  std::size_t lanes() const { return m_lanes.size(); }

 private:
  struct Request {
    const Params* params = nullptr;
    const std::vector<Job>* jobs = nullptr;
    std::vector<Result>* out = nullptr;
    SharedBatchedPotential* waker = nullptr;
    std::atomic<bool> done{false};
    std::exception_ptr error;
  };

  void serve(const Call& call) {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
      m_changed.wait(lock, [this] { return m_stopping || !m_waiting.empty(); });
      if (m_waiting.empty()) return;  // stopping, nothing left
      // Every waiting request with the first one's settings, in arrival order.
      std::vector<Request*> taken, left;
      for (Request* r : m_waiting)
        (m_same(*r->params, *m_waiting.front()->params) ? taken : left).push_back(r);
      m_waiting = std::move(left);
      const bool more = !m_waiting.empty();
      lock.unlock();
      if (more) m_changed.notify_one();  // another lane may take the rest
      std::vector<Job> jobs;
      for (const Request* r : taken) jobs.insert(jobs.end(), r->jobs->begin(), r->jobs->end());
      std::exception_ptr error;
      std::vector<Result> results;
      const auto began = std::chrono::steady_clock::now();
      try {
        call(*taken.front()->params, jobs, results);
      } catch (...) {
        error = std::current_exception();
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
      {  // counted before any run hears its results, so that a run that returns sees its call
        std::lock_guard<std::mutex> counting(m_mutex);
        ++m_statistics.calls;
        m_statistics.jobs += static_cast<long>(jobs.size());
        m_statistics.callSeconds += seconds;
      }
      std::size_t next = 0;
      std::set<SharedBatchedPotential*> wakers;
      for (Request* r : taken) {
        if (error) {
          r->error = error;
        } else {
          r->out->assign(std::make_move_iterator(results.begin() + next),
                         std::make_move_iterator(results.begin() + next + r->jobs->size()));
          next += r->jobs->size();
        }
        wakers.insert(r->waker);
        r->done.store(true, std::memory_order_release);  // r may be gone from here on
      }
      for (SharedBatchedPotential* waker : wakers) waker->wake();
      lock.lock();
    }
  }

  std::vector<Call> m_lanes;
  SameSettings m_same;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<Request*> m_waiting;
  bool m_stopping = false;
  SharedCallStatistics m_statistics;
  std::vector<std::thread> m_service;  // last: started once everything above exists
};

}  // namespace landscape
