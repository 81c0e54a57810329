#include "landscape/core/StopRequest.h"

#include <atomic>

namespace landscape {

namespace {
// Lock-free, hence safe to store from a signal handler (C++17 [support.signal]).
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the stop flag must be lock-free");
}  // namespace

bool stopRequested() { return g_stop.load(std::memory_order_relaxed); }
void requestStop() { g_stop.store(true, std::memory_order_relaxed); }
void clearStopRequest() { g_stop.store(false, std::memory_order_relaxed); }

}  // namespace landscape
