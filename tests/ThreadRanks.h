#pragma once
// Ranks of a run played by threads of one process (for tests of src/common/Distributed*): K threads, each
// with its own ThreadRanks over one shared ThreadExchange, meet in allGather as MPI ranks meet in
// MPI_Allgatherv, so that the split and reassembly are tested in every build, MPI or not.
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "src/common/Communicator.h"

namespace landscape {

// What the K threads of ThreadRanks share: one all-gather at a time.
struct ThreadExchange {
  explicit ThreadExchange(int size) : slots(static_cast<std::size_t>(size)) {}
  std::mutex mutex;
  std::condition_variable done;
  std::vector<std::vector<char>> slots, gathered;
  int arrived = 0;
  long generation = 0;
};

class ThreadRanks : public Communicator {
 public:
  ThreadRanks(ThreadExchange& exchange, int rank) : m_exchange(exchange), m_rank(rank) {}
  int rank() const override { return m_rank; }
  int size() const override { return static_cast<int>(m_exchange.slots.size()); }
  int localRank() const override { return m_rank; }
  int localSize() const override { return size(); }
  std::string description() const override { return "threads"; }
  std::vector<std::vector<char>> allGather(const std::vector<char>& mine) override {
    std::unique_lock<std::mutex> lock(m_exchange.mutex);
    m_exchange.slots[static_cast<std::size_t>(m_rank)] = mine;
    const long generation = m_exchange.generation;
    if (++m_exchange.arrived == size()) {
      m_exchange.gathered = m_exchange.slots;
      m_exchange.arrived = 0;
      ++m_exchange.generation;
      m_exchange.done.notify_all();
    } else {
      m_exchange.done.wait(lock, [&] { return m_exchange.generation != generation; });
    }
    return m_exchange.gathered;
  }
  unsigned anyBits(unsigned) override { throw std::logic_error("not used"); }
  long broadcast(long) override { throw std::logic_error("not used"); }
  [[noreturn]] void abort(int code) override { std::exit(code); }

 private:
  ThreadExchange& m_exchange;
  int m_rank;
};

/// Runs body(ranks) on `size` threads, each with its own ThreadRanks, and waits for them all.
template <typename Body>
void onThreadRanks(int size, Body body) {
  ThreadExchange exchange(size);
  std::vector<std::thread> threads;
  for (int r = 0; r < size; ++r)
    threads.emplace_back([&exchange, &body, r] {
      ThreadRanks ranks(exchange, r);
      body(ranks);
    });
  for (std::thread& t : threads) t.join();
}

}  // namespace landscape
