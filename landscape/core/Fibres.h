#pragma once
// Cooperative fibres: many tasks on one thread, each with a stack of its own, that give the thread
// to one another only where they wait (FibreScheduler::waitUntil). Connect runs in flight are
// fibres: a search that asks for an energy waits while the other runs of its thread compute their
// next structures, and the thread then evaluates all of them in one batched call
// (potentials/SharedBatchedPotential). Switching fibres costs well under a microsecond and no
// kernel scheduling, where a thread per search costs a wake-up per structure and per search.
//
// Fibres never migrate between threads and never run at the same time on one thread, so what a
// fibre does between two waits is not interleaved with its thread's other fibres. Exceptions stay
// in their fibre and are rethrown where the fibres are waited for.
#include <cstddef>
#include <functional>
#include <vector>

namespace landscape {

class FibreScheduler {
 public:
  using Task = std::function<void()>;
  /// Stack of each fibre (reserved, committed as used; a guard page below it turns an overflow
  /// into a fault instead of corrupting memory). Connect runs need far less.
  static constexpr std::size_t kStackBytes = std::size_t{8} << 20;

  /// How a thread whose fibres all wait blocks: until anyReady() may have turned true (it reads
  /// what the fibres wait for; check it under the lock that guards their conditions before
  /// blocking, so that no wake-up is lost).
  using Idle = std::function<void(const std::function<bool()>& anyReady)>;

  /// Runs every task as a fibre and returns when all have ended, then rethrows the first
  /// exception a task threw. On a fibre, the new fibres join the others of its thread and the
  /// caller waits for them; elsewhere the calling thread runs them until they end.
  static void run(const std::vector<Task>& tasks);

  /// Whether the calling code runs on a fibre.
  static bool onFibre();

  /// On a fibre: returns once ready() holds, the thread's other fibres running meanwhile. When
  /// no fibre of the thread can go on, the scheduler calls the `idle` of one of the waiting
  /// fibres (make the batched call they wait for, or block until another thread has). With no
  /// idle among them the fibres would wait for one another forever: each is woken with
  /// std::logic_error instead (as with an exception from the idle). ready() is called from the
  /// scheduler, so it must only read what it waits for. A fibre must not wait while it handles an
  /// exception (in a catch block or a destructor run by unwinding): the thread's record of
  /// exceptions in flight is one for all its fibres. Not on a fibre: std::logic_error.
  static void waitUntil(const std::function<bool()>& ready, const Idle& idle = {});
};

}  // namespace landscape
