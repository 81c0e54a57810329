#include "landscape/core/ThreadPool.h"

#include <stdexcept>
#include <string>

namespace landscape {

namespace {

std::function<void()>& workerStart() {
  static std::function<void()> start;
  return start;
}

}  // namespace

void ThreadPool::setWorkerStart(std::function<void()> start) { workerStart() = std::move(start); }

void ThreadPool::startWorker() {
  if (workerStart()) workerStart()();
}

ThreadPool::ThreadPool(int threads) {
  if (threads < 1)
    throw std::invalid_argument("a thread pool needs at least 1 thread, got " +
                                std::to_string(threads));
  m_workers.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) m_workers.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  for (std::thread& worker : m_workers) worker.join();
}

// Takes items until none is left; the first exception is kept for the caller.
void ThreadPool::drain() {
  for (std::size_t first = m_next.fetch_add(m_grain); first < m_count;
       first = m_next.fetch_add(m_grain)) {
    const std::size_t last = first + m_grain < m_count ? first + m_grain : m_count;
    for (std::size_t i = first; i < last; ++i) {
      try {
        (*m_task)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_error) m_error = std::current_exception();
      }
    }
  }
}

void ThreadPool::workerLoop() {
  std::size_t seen = 0;
  try {
    startWorker();
  } catch (...) {  // every forEach rethrows it to its caller
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_startError) m_startError = std::current_exception();
  }
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(m_mutex);
      m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
      if (m_stop) return;
      seen = m_generation;
    }
    drain();
    std::lock_guard<std::mutex> lock(m_mutex);
    if (--m_busy == 0) m_done.notify_one();
  }
}

void ThreadPool::forEach(std::size_t count, const std::function<void(std::size_t)>& task,
                         std::size_t grain) {
  if (grain == 0) throw std::invalid_argument("ThreadPool::forEach: grain must be at least 1");
  if (count == 0) return;
  if (m_workers.empty() || count == 1) {  // nothing to share: no locking, no wake-ups
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_task = &task;
    m_count = count;
    m_grain = grain;
    m_next = 0;
    m_error = nullptr;
    m_busy = static_cast<int>(m_workers.size());
    ++m_generation;
  }
  m_wake.notify_all();
  drain();
  std::unique_lock<std::mutex> lock(m_mutex);
  m_done.wait(lock, [&] { return m_busy == 0; });
  m_task = nullptr;
  if (m_startError) std::rethrow_exception(m_startError);
  if (m_error) std::rethrow_exception(m_error);
}

}  // namespace landscape
