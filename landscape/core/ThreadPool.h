#pragma once
// A small fixed pool of std::threads for work that splits into independent items (the structures
// of a batch). The caller's thread works too, so a pool of 1 thread runs everything inline and
// starts no thread at all. Items are handed out from an atomic counter, one at a time or `grain` at
// a time: which thread runs an item varies from run to run, so items must not depend on each other
// (each structure of a batch is computed alone, and results are therefore the same for any thread
// count).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace landscape {

class ThreadPool {
 public:
  /// threads >= 1 (the caller plus threads - 1 workers); throws std::invalid_argument otherwise.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(m_workers.size()) + 1; }

  /// Runs first on every worker thread of the pools made afterwards. A process of a multi-GPU run
  /// sets it to make its chosen device current (backends/GpuChoice): the CUDA runtime keeps the
  /// current device per host thread, and a worker would otherwise launch on device 0 with
  /// another device's memory. Set once at start-up, before any pool exists.
  static void setWorkerStart(std::function<void()> start);
  /// Runs that function (if any) on the calling thread: for a thread made outside a pool
  /// (std::async) that uses a pool or the device.
  static void startWorker();

  /// Calls task(i) once for every i in [0, count) and returns when all calls have returned. The
  /// first exception a task throws is rethrown here (the remaining items still run). A thread
  /// takes `grain` consecutive items at a time (>= 1; 1 balances long items of unequal cost best;
  /// for thousands of items of a microsecond each, one at a time is bound by the counter's cache
  /// line moving between the cores). Not reentrant: one forEach at a time per pool.
  void forEach(std::size_t count, const std::function<void(std::size_t)>& task,
               std::size_t grain = 1);

 private:
  void workerLoop();
  void drain();

  std::vector<std::thread> m_workers;
  std::mutex m_mutex;
  std::condition_variable m_wake, m_done;
  const std::function<void(std::size_t)>* m_task = nullptr;
  std::size_t m_count = 0;
  std::size_t m_grain = 1;
  std::atomic<std::size_t> m_next{0};
  std::size_t m_generation = 0;  // bumped for every forEach so that workers see new work
  int m_busy = 0;                // workers still inside the current generation
  bool m_stop = false;
  std::exception_ptr m_error;
  std::exception_ptr m_startError;  // from setWorkerStart's function on a worker
};

}  // namespace landscape
