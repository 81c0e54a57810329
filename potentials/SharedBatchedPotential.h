#pragma once
// One batched potential shared by many searches (the connect runs in flight of network growth):
// each search is a member, a thread or a fibre (landscape/core/Fibres), and asks for its
// structures (one, or a DNEB band's images) through views of its own, a Potential and a
// BatchedPotential; the requests of all members go to the batched potential together, as one call.
//
// When a call happens: as soon as every member is waiting for an answer (nothing any member does
// on the host can add to the batch any more), or the waiting structures reach maxBatch, or the
// oldest request has waited `patience` (a member busy on the host for long, e.g. aligning
// structures, does not hold the others up). The thread whose member completes the batch makes
// the call; nothing else runs in the background. Fibres wait without blocking their thread, so
// that a thread runs many searches at the cost of one (its fibres' requests leave together). The
// threads waiting for a call help it copy the structures in and the answers out.
//
// A structure's energy and gradient are the batched potential's bits for those coordinates, and
// the batched potentials of backends/BatchedPotentialFactory give the same bits whatever the
// batch (each structure is computed alone), so what a member computes does not depend on which
// other requests shared its call, on timing or on the number of members: a search run through a
// member gives the same result as the same search on the batched potential with a batch of one.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"

namespace landscape {

/// How full the shared calls were (for progress lines).
struct SharedBatchStatistics {
  long calls = 0;       ///< batched potential calls
  long structures = 0;  ///< structures evaluated in them
  long requests = 0;    ///< member requests they answered
  double callSeconds = 0.0;  ///< wall time spent in the calls (the potential busy)
  /// Of callSeconds, the time spent copying the members' structures into the batch and the
  /// answers back (the host half of a call besides the potential's own entry point).
  double copySeconds = 0.0;
  /// Adds another potential's calls (several shared potentials' calls together: their seconds
  /// are then summed, not wall time).
  SharedBatchStatistics& operator+=(const SharedBatchStatistics& other) {
    calls += other.calls;
    structures += other.structures;
    requests += other.requests;
    callSeconds += other.callSeconds;
    copySeconds += other.copySeconds;
    return *this;
  }
  /// Mean structures per call (0 before the first call).
  double meanBatch() const { return calls > 0 ? static_cast<double>(structures) / calls : 0.0; }
};

class SharedBatchedPotential {
 public:
  struct Options {
    std::size_t maxBatch = 4096;  ///< structures per call at most (a larger request is split)
    std::chrono::microseconds patience{2000};  ///< longest wait for members busy elsewhere
    /// When true the wait for members busy elsewhere is the last call's duration (within
    /// [minimumPatience, patience]): a member busy on the host for longer than a call takes then
    /// joins the next call instead of holding up everyone else's. Never changes a structure's bits.
    bool patienceFollowsCalls = false;
    std::chrono::microseconds minimumPatience{50};
    /// How long a waiting thread spins (yielding) for a change before it sleeps on the condition
    /// variable: a sleeping thread's wake-up costs tens of microseconds per round. 0: never spins.
    std::chrono::microseconds spin{50};
    /// Coordinates that are not plain Cartesians (rigid bodies): a single-structure potential of
    /// the same coordinates, never evaluated here, whose metric and overall motions
    /// (hasGradientMetric, rmsGradient, overallMotionModes, diagonalMetric) the members' views
    /// report, so that a search through a member converges and projects as it would on that
    /// potential. It must answer them from several threads at once (RigidBodyPotential does: they
    /// read its system's geometry alone) and outlive this object. Null: plain Cartesians.
    Potential* geometry = nullptr;
    /// The most pieces a call's copies (its members' structures into the batch, the answers
    /// back: a trp-cage call of 400 structures moves 2 x 2.9 MB) are cut into. The calling thread
    /// takes pieces, and so do the threads waiting for the call (their fibres all wait: the host's
    /// idle capacity, with no thread to wake); pieces are at least kBytesPerCopyPiece. 1: the
    /// calling thread copies alone. Never changes a structure's bits.
    int copyPieces = 16;
  };
  /// The least bytes worth a piece of their own (about 30 us of one thread's copying).
  static constexpr std::size_t kBytesPerCopyPiece = std::size_t{256} << 10;

  /// `potential` (not owned) must outlive this object and every member. Throws
  /// std::invalid_argument when maxBatch or copyPieces is less than 1.
  SharedBatchedPotential(BatchedPotential& potential, Options options);
  SharedBatchedPotential(BatchedPotential& potential)
      : SharedBatchedPotential(potential, Options{}) {}
  SharedBatchedPotential(const SharedBatchedPotential&) = delete;
  SharedBatchedPotential& operator=(const SharedBatchedPotential&) = delete;

  std::size_t dimension() const { return m_potential.dimension(); }
  const BatchedPotential& potential() const { return m_potential; }
  SharedBatchStatistics statistics() const;
  /// Members now (threads or fibres whose searches are in flight).
  int members() const;
  /// Wakes the threads waiting here, so that a Member::waitFor whose ready() has turned true
  /// returns.
  void wake();

  /// A member: the views of one thread or fibre. While it exists the shared calls wait for it
  /// (up to the patience); destroy it when its work ends. Each view is for its own thread or
  /// fibre only; a member's views must not outlive it.
  class Member {
   public:
    explicit Member(SharedBatchedPotential& shared);
    ~Member();
    Member(const Member&) = delete;
    Member& operator=(const Member&) = delete;

    /// The structures x[count x n] evaluated in the next shared call: energies[count], g[count x n]
    /// (host arrays). Exceptions of the batched potential are rethrown here.
    void evaluate(std::size_t count, const double* x, double* g, double* energies);
    /// A single-structure view (owned by the caller; refers to this member).
    std::unique_ptr<Potential> potential();
    /// A batched view (owned by the caller; refers to this member): its calls are one request.
    std::unique_ptr<BatchedPotential> batched();
    SharedBatchedPotential& shared() { return m_shared; }
    /// Waits until ready() holds for work that is done elsewhere (a DNEB band relaxed whole:
    /// landscape/paths/SharedDnebBands), not counted meanwhile (as with an Aside). On a fibre the
    /// thread's other fibres go on, and when all of them wait the thread makes this potential's
    /// calls; elsewhere the thread blocks. Whoever makes ready() true calls wake() after.
    void waitFor(const std::function<bool()>& ready);

    /// While an Aside exists the member is not counted (it waits for other members, e.g. the
    /// fibres it started, and asks for nothing itself), so that no call waits for it.
    class Aside {
     public:
      explicit Aside(Member& member) : m_member(member) { m_member.m_shared.leave(); }
      ~Aside() { m_member.m_shared.join(); }
      Aside(const Aside&) = delete;
      Aside& operator=(const Aside&) = delete;

     private:
      Member& m_member;
    };

   private:
    SharedBatchedPotential& m_shared;
  };

 private:
  struct Request {
    std::size_t count = 0;
    const double* x = nullptr;
    double* g = nullptr;
    double* energies = nullptr;
    std::atomic<bool> done{false};  // read by its fibre's scheduler without the lock
    std::exception_ptr error;
    std::chrono::steady_clock::time_point arrived;
  };
  friend class Member;

  void join();
  void leave();
  void submit(Request& request);
  bool batchIsDue(std::chrono::steady_clock::time_point now) const;
  /// How long the oldest waiting request waits for members busy elsewhere (with the lock held).
  std::chrono::microseconds patience() const;
  /// A thread whose fibres all wait: returns once anyReady() holds, making the call when it is
  /// due (landscape/core/Fibres).
  void awaitProgress(const std::function<bool()>& anyReady);
  /// Blocks until the waiting requests change or the oldest has waited the patience.
  void waitForChange(std::unique_lock<std::mutex>& lock);
  /// Evaluates the waiting requests (called with the lock held; releases it during the call).
  void callOnce(std::unique_lock<std::mutex>& lock);
  /// Copies the taken requests' structures into x (in, true) or the answers out of g and
  /// energies (false), rows in request order, in up to copyPieces pieces shared with the waiting
  /// threads (by the calling thread, without the lock).
  void copyRequests(const std::vector<Request*>& taken, std::size_t structures,
                    const BatchedPotential::HostArrays& arrays, bool in);
  /// A waiting thread (lock held) takes pieces of the copies of the call under way, if any are
  /// left, releasing the lock meanwhile.
  void helpCopy(std::unique_lock<std::mutex>& lock);
  void takeCopyPieces();  // without the lock

  BatchedPotential& m_potential;
  Options m_options;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  int m_members = 0;
  bool m_calling = false;
  std::vector<Request*> m_waiting;
  std::size_t m_waitingStructures = 0;
  std::vector<double> m_x, m_g, m_energies;  // the call's staging (used by the caller only)
  SharedBatchStatistics m_statistics;
  std::chrono::microseconds m_lastCall{0};  // the last call's duration
  std::atomic<std::uint64_t> m_changes{0};  // bumped under the lock with every notify_all
  // The copies of the call under way, cut into pieces for the calling and the waiting threads.
  // A helper counts itself in before it looks at m_copyOpen, and the caller closes the copies
  // and waits for the helpers to leave before it reuses the task (sequentially consistent).
  std::atomic<bool> m_copyOpen{false};
  std::atomic<int> m_copyHelpers{0};
  std::atomic<std::size_t> m_copyNext{0}, m_copyDone{0};
  std::size_t m_copyPieces = 0;  // written by the caller while the copies are closed
  const std::function<void(std::size_t)>* m_copyTask = nullptr;  // ditto
};

}  // namespace landscape
