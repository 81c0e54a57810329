// Cooperative fibres (landscape/core/Fibres): tasks interleave only where they wait, waits end
// when their condition holds, the idle of a waiting fibre runs when none can go on, exceptions
// reach the waiter, and fibres wait for one another forever only as an error.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "landscape/core/Fibres.h"

namespace landscape {
namespace {

TEST(Fibres, TasksInterleaveAtTheirWaits) {
  // Every task records its arrival, waits for all to arrive, then records its departure: each
  // departure comes after every arrival, which needs the tasks to interleave on one thread.
  constexpr int kTasks = 200;
  std::vector<int> order;
  int arrived = 0;
  std::vector<FibreScheduler::Task> tasks;
  for (int k = 0; k < kTasks; ++k)
    tasks.push_back([&, k] {
      EXPECT_TRUE(FibreScheduler::onFibre());
      order.push_back(k);
      ++arrived;
      FibreScheduler::waitUntil([&] { return arrived == kTasks; });
      order.push_back(kTasks + k);
    });
  EXPECT_FALSE(FibreScheduler::onFibre());
  FibreScheduler::run(tasks);
  ASSERT_EQ(order.size(), 2u * kTasks);
  for (int k = 0; k < kTasks; ++k) EXPECT_LT(order[static_cast<std::size_t>(k)], kTasks);
}

TEST(Fibres, IdleRunsWhenEveryFibreWaits) {
  // A stand-in for a shared batched call: each task waits for "its answer" in rounds; only the
  // idle hands answers out, once every fibre waits, so there are as many idles as rounds.
  constexpr int kTasks = 16, kRounds = 5;
  int round = 0, idles = 0;
  std::vector<int> requests(kTasks, -1);
  const FibreScheduler::Idle answer = [&](const std::function<bool()>& anyReady) {
    EXPECT_FALSE(anyReady());
    ++idles;
    ++round;
  };
  std::vector<FibreScheduler::Task> tasks;
  for (int k = 0; k < kTasks; ++k)
    tasks.push_back([&, k] {
      for (int r = 0; r < kRounds; ++r) {
        const int asked = round;
        FibreScheduler::waitUntil([&] { return round > asked; }, answer);
        requests[static_cast<std::size_t>(k)] = r;
      }
    });
  FibreScheduler::run(tasks);
  EXPECT_EQ(idles, kRounds);
  for (int r : requests) EXPECT_EQ(r, kRounds - 1);
}

TEST(Fibres, NestedRunWaitsForItsFibresAndRethrows) {
  std::vector<int> done;
  bool sibling = false;
  FibreScheduler::run({[&] {
                         // The children run on this thread beside the sibling fibre.
                         FibreScheduler::run({[&] { done.push_back(1); },
                                              [&] {
                                                FibreScheduler::waitUntil([&] { return sibling; });
                                                done.push_back(2);
                                              }});
                         done.push_back(3);
                         EXPECT_THROW(FibreScheduler::run({[] { throw std::runtime_error("x"); },
                                                           [&] { done.push_back(4); }}),
                                      std::runtime_error);
                       },
                       [&] { sibling = true; }});
  EXPECT_EQ(done, (std::vector<int>{1, 2, 3, 4}));
}

TEST(Fibres, FirstExceptionReachesTheCallerAfterEveryTaskEnded) {
  int ended = 0;
  try {
    FibreScheduler::run({[&] { throw std::invalid_argument("first"); },
                         [&] {
                           ++ended;
                           throw std::runtime_error("second");
                         },
                         [&] { ++ended; }});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "first");
  }
  EXPECT_EQ(ended, 2);
}

TEST(Fibres, FibresWaitingForEachOtherAreWokenWithAnError) {
  // Two fibres wait for each other and no idle can help: each wait throws instead of hanging.
  int errors = 0;
  bool a = false, b = false;
  EXPECT_NO_THROW(FibreScheduler::run({[&] {
                                         try {
                                           FibreScheduler::waitUntil([&] { return b; });
                                         } catch (const std::logic_error&) {
                                           ++errors;
                                         }
                                         a = true;
                                       },
                                       [&] {
                                         try {
                                           FibreScheduler::waitUntil([&] { return a; });
                                         } catch (const std::logic_error&) {
                                           ++errors;
                                         }
                                         b = true;
                                       }}));
  EXPECT_EQ(errors, 2);
  EXPECT_THROW(FibreScheduler::waitUntil([] { return true; }), std::logic_error);
}

TEST(Fibres, StacksHoldDeepFramesAndThreadsHaveTheirOwnFibres) {
  // A megabyte on each fibre's stack, fibres on two threads at once.
  const auto deep = [](int seed) {
    std::vector<FibreScheduler::Task> tasks;
    std::vector<long> sums(8);
    std::size_t filled = 0;
    for (std::size_t k = 0; k < sums.size(); ++k)
      tasks.push_back([&, k] {
        volatile char frame[1 << 20];
        std::memset(const_cast<char*>(frame), static_cast<int>(k) + seed, sizeof(frame));
        ++filled;  // every frame is filled before any is read
        FibreScheduler::waitUntil([&] { return filled == sums.size(); });
        long sum = 0;
        for (std::size_t i = 0; i < sizeof(frame); i += 4096) sum += frame[i];
        sums[k] = sum;
      });
    FibreScheduler::run(tasks);
    return sums;
  };
  std::vector<long> other;
  std::thread thread([&] { other = deep(1); });
  const std::vector<long> here = deep(0);
  thread.join();
  for (std::size_t k = 0; k < here.size(); ++k) {
    EXPECT_EQ(here[k], 256L * static_cast<long>(k));
    EXPECT_EQ(other[k], 256L * static_cast<long>(k + 1));
  }
}

}  // namespace
}  // namespace landscape
