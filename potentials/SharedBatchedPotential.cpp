#include "potentials/SharedBatchedPotential.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "landscape/core/Fibres.h"

namespace landscape {

namespace {

// The longest a thread with nothing due sleeps before it looks again.
constexpr std::chrono::milliseconds kLongestIdleWait{1};

// The member's single-structure view.
class MemberPotential : public Potential {
 public:
  MemberPotential(SharedBatchedPotential::Member& member, const BatchedPotential& potential,
                  Potential* geometry)
      : m_member(member),
        m_potential(potential),
        m_geometry(geometry),
        m_gradient(potential.dimension()) {}

  std::size_t dimension() const override { return m_potential.dimension(); }
  std::string name() const override { return m_potential.name() + ", shared"; }
  Backend backend() const override { return m_potential.backend(); }
  double energy(const double* x) override { return energyGradient(x, m_gradient.data()); }
  double energyGradient(const double* x, double* g) override {
    double energy = 0.0;
    m_member.evaluate(1, x, g, &energy);
    return energy;
  }
  void energyGradients(std::size_t count, const double* x, double* g, double* energies) override {
    m_member.evaluate(count, x, g, energies);
  }
  bool hasGradientMetric() const override { return m_geometry && m_geometry->hasGradientMetric(); }
  double rmsGradient(const double* x, const double* g) override {
    return m_geometry ? m_geometry->rmsGradient(x, g) : Potential::rmsGradient(x, g);
  }
  bool overallMotionModes(const double* x, std::vector<double>& modes) const override {
    return m_geometry ? m_geometry->overallMotionModes(x, modes)
                      : Potential::overallMotionModes(x, modes);
  }
  bool diagonalMetric(std::vector<double>& w) const override {
    return m_geometry ? m_geometry->diagonalMetric(w) : Potential::diagonalMetric(w);
  }

 private:
  SharedBatchedPotential::Member& m_member;
  const BatchedPotential& m_potential;
  Potential* m_geometry;
  std::vector<double> m_gradient;
};

// The member's batched view: one request per call, inactive structures left out.
class MemberBatchedPotential : public BatchedPotential {
 public:
  MemberBatchedPotential(SharedBatchedPotential::Member& member, const BatchedPotential& potential,
                         Potential* geometry)
      : m_member(member), m_potential(potential), m_geometry(geometry) {}

  bool hasGradientMetric() const override { return m_geometry && m_geometry->hasGradientMetric(); }
  void rmsGradients(std::size_t batch, const double* x, const double* g, double* rms,
                    const std::uint8_t* active) override {
    if (!m_geometry) return BatchedPotential::rmsGradients(batch, x, g, rms, active);
    const std::size_t n = dimension();
    for (std::size_t b = 0; b < batch; ++b)
      if (active == nullptr || active[b] != 0)
        rms[b] = m_geometry->rmsGradient(x + b * n, g + b * n);
  }
  bool diagonalMetric(std::vector<double>& w) const override {
    return m_geometry ? m_geometry->diagonalMetric(w) : BatchedPotential::diagonalMetric(w);
  }

  std::size_t dimension() const override { return m_potential.dimension(); }
  std::string name() const override { return m_potential.name() + ", shared"; }
  Backend backend() const override { return m_potential.backend(); }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override {
    const std::size_t n = dimension();
    if (active == nullptr) return m_member.evaluate(batch, x, g, energy);
    std::vector<std::size_t> rows;
    for (std::size_t b = 0; b < batch; ++b)
      if (active[b] != 0) rows.push_back(b);
    m_x.resize(rows.size() * n);
    m_g.resize(rows.size() * n);
    m_energy.resize(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k)
      std::memcpy(&m_x[k * n], x + rows[k] * n, n * sizeof(double));
    if (!rows.empty()) m_member.evaluate(rows.size(), m_x.data(), m_g.data(), m_energy.data());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      std::memcpy(g + rows[k] * n, &m_g[k * n], n * sizeof(double));
      energy[rows[k]] = m_energy[k];
    }
  }

 private:
  SharedBatchedPotential::Member& m_member;
  const BatchedPotential& m_potential;
  Potential* m_geometry;
  std::vector<double> m_x, m_g, m_energy;
};

}  // namespace

SharedBatchedPotential::SharedBatchedPotential(BatchedPotential& potential, Options options)
    : m_potential(potential), m_options(options) {
  if (options.maxBatch == 0)
    throw std::invalid_argument("shared batched potential: maxBatch must be at least 1");
  if (options.copyPieces < 1)
    throw std::invalid_argument("shared batched potential: copyPieces must be at least 1, got " +
                                std::to_string(options.copyPieces));
}

SharedBatchStatistics SharedBatchedPotential::statistics() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_statistics;
}

int SharedBatchedPotential::members() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_members;
}

void SharedBatchedPotential::wake() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_changes.fetch_add(1, std::memory_order_release);
  m_changed.notify_all();
}

void SharedBatchedPotential::Member::waitFor(const std::function<bool()>& ready) {
  const Aside aside(*this);
  if (FibreScheduler::onFibre()) {
    FibreScheduler::waitUntil(
        ready, [this](const std::function<bool()>& anyReady) { m_shared.awaitProgress(anyReady); });
    return;
  }
  std::unique_lock<std::mutex> lock(m_shared.m_mutex);
  while (!ready()) m_shared.m_changed.wait_for(lock, kLongestIdleWait);
}

void SharedBatchedPotential::join() {
  std::lock_guard<std::mutex> lock(m_mutex);
  ++m_members;
}

void SharedBatchedPotential::leave() {
  std::lock_guard<std::mutex> lock(m_mutex);
  --m_members;
  m_changes.fetch_add(1, std::memory_order_release);
  m_changed.notify_all();  // the members still here may be all that a call waited for
}

std::chrono::microseconds SharedBatchedPotential::patience() const {
  if (!m_options.patienceFollowsCalls) return m_options.patience;
  return std::clamp(m_lastCall, m_options.minimumPatience, m_options.patience);
}

bool SharedBatchedPotential::batchIsDue(std::chrono::steady_clock::time_point now) const {
  if (m_calling || m_waiting.empty()) return false;
  return static_cast<int>(m_waiting.size()) >= m_members ||
         m_waitingStructures >= m_options.maxBatch ||
         now - m_waiting.front()->arrived >= patience();
}

void SharedBatchedPotential::submit(Request& request) {
  std::unique_lock<std::mutex> lock(m_mutex);
  request.arrived = std::chrono::steady_clock::now();
  m_waiting.push_back(&request);
  m_waitingStructures += request.count;
  if (FibreScheduler::onFibre()) {
    // The thread's other fibres compute their next structures meanwhile; when all of them wait,
    // the thread makes the call (or waits for the one under way on another thread).
    lock.unlock();
    FibreScheduler::waitUntil([&request] { return request.done.load(std::memory_order_acquire); },
                              [this](const std::function<bool()>& anyReady) {
                                awaitProgress(anyReady);
                              });
  } else {
    while (!request.done.load(std::memory_order_relaxed)) {
      if (batchIsDue(std::chrono::steady_clock::now())) {
        callOnce(lock);
        continue;
      }
      waitForChange(lock);
    }
  }
  if (request.error) std::rethrow_exception(request.error);
}

void SharedBatchedPotential::awaitProgress(const std::function<bool()>& anyReady) {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!anyReady()) {
    if (batchIsDue(std::chrono::steady_clock::now())) {
      callOnce(lock);
      return;
    }
    waitForChange(lock);
  }
}

void SharedBatchedPotential::waitForChange(std::unique_lock<std::mutex>& lock) {
  helpCopy(lock);
  // A short spin first: with a core per thread the call under way usually ends within tens of
  // microseconds, and being woken from the condition variable costs as much again every round.
  if (m_options.spin.count() > 0) {
    const std::uint64_t seen = m_changes.load(std::memory_order_acquire);
    const auto until = std::chrono::steady_clock::now() + m_options.spin;
    lock.unlock();
    while (m_changes.load(std::memory_order_acquire) == seen &&
           std::chrono::steady_clock::now() < until) {
      if (m_copyOpen.load(std::memory_order_relaxed))
        takeCopyPieces();
      else
        std::this_thread::yield();
    }
    lock.lock();
    if (m_changes.load(std::memory_order_acquire) != seen) return;
  }
  // Bounded: work done elsewhere (Member::waitFor) may have finished while a helper copied
  // without the lock, after its waiter last looked.
  if (m_calling || m_waiting.empty())
    m_changed.wait_for(lock, kLongestIdleWait);
  else
    m_changed.wait_until(lock, m_waiting.front()->arrived + patience());
}

void SharedBatchedPotential::callOnce(std::unique_lock<std::mutex>& lock) {
  // The waiting requests in arrival order, up to maxBatch structures (at least one request).
  std::vector<Request*> taken;
  std::size_t structures = 0;
  std::size_t k = 0;
  for (; k < m_waiting.size(); ++k) {
    if (!taken.empty() && structures + m_waiting[k]->count > m_options.maxBatch) break;
    taken.push_back(m_waiting[k]);
    structures += m_waiting[k]->count;
  }
  m_waiting.erase(m_waiting.begin(), m_waiting.begin() + static_cast<std::ptrdiff_t>(k));
  m_waitingStructures -= structures;
  m_calling = true;
  lock.unlock();
  const auto began = std::chrono::steady_clock::now();

  const std::size_t n = m_potential.dimension();
  std::exception_ptr error;
  std::chrono::steady_clock::duration copied{0};
  try {
    // The batch is assembled where the potential's host entry point reads it (a device
    // potential's page-locked staging), or, when it has none or the call is split by maxBatch,
    // in arrays of our own (asking for the potential's would make it allocate arrays unused).
    BatchedPotential::HostArrays arrays{};
    if (structures <= m_options.maxBatch) arrays = m_potential.hostArrays(structures);
    if (arrays.x == nullptr) {
      m_x.resize(structures * n);
      m_g.resize(structures * n);
      m_energies.resize(structures);
      arrays = {m_x.data(), m_g.data(), m_energies.data()};
    }
    const auto copyIn = std::chrono::steady_clock::now();
    copyRequests(taken, structures, arrays, true);
    copied += std::chrono::steady_clock::now() - copyIn;
    for (std::size_t first = 0; first < structures; first += m_options.maxBatch) {
      const std::size_t count = std::min(m_options.maxBatch, structures - first);
      m_potential.energyGradient(count, arrays.x + first * n, arrays.g + first * n,
                                 arrays.energy + first, nullptr);
    }
    const auto copyOut = std::chrono::steady_clock::now();
    copyRequests(taken, structures, arrays, false);
    copied += std::chrono::steady_clock::now() - copyOut;
  } catch (...) {
    error = std::current_exception();
  }

  const auto took = std::chrono::steady_clock::now() - began;
  lock.lock();
  for (Request* r : taken) {
    r->error = error;
    r->done.store(true, std::memory_order_release);
  }
  m_calling = false;
  m_lastCall = std::chrono::duration_cast<std::chrono::microseconds>(took);
  m_statistics.callSeconds += std::chrono::duration<double>(took).count();
  m_statistics.copySeconds += std::chrono::duration<double>(copied).count();
  ++m_statistics.calls;
  m_statistics.structures += static_cast<long>(structures);
  m_statistics.requests += static_cast<long>(taken.size());
  m_changes.fetch_add(1, std::memory_order_release);
  m_changed.notify_all();
}

void SharedBatchedPotential::copyRequests(const std::vector<Request*>& taken,
                                          std::size_t structures,
                                          const BatchedPotential::HostArrays& arrays, bool in) {
  const std::size_t n = m_potential.dimension();
  // Each piece is a run of whole requests of about equal bytes; row[k] is request k's first row.
  std::vector<std::size_t> row(taken.size() + 1, 0);
  for (std::size_t k = 0; k < taken.size(); ++k) row[k + 1] = row[k] + taken[k]->count;
  const auto copy = [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      const Request& r = *taken[k];
      if (in) {
        std::memcpy(arrays.x + row[k] * n, r.x, r.count * n * sizeof(double));
      } else {
        std::memcpy(r.g, arrays.g + row[k] * n, r.count * n * sizeof(double));
        std::memcpy(r.energies, arrays.energy + row[k], r.count * sizeof(double));
      }
    }
  };
  const std::size_t bytes = structures * n * sizeof(double);
  const std::size_t pieces = std::min(
      {static_cast<std::size_t>(m_options.copyPieces), taken.size(), bytes / kBytesPerCopyPiece});
  if (pieces <= 1) return copy(0, taken.size());
  // Piece p takes the requests whose first row lies in [p, p + 1) x structures / pieces.
  std::vector<std::size_t> first(pieces + 1, taken.size());
  first[0] = 0;
  for (std::size_t p = 1, k = 0; p < pieces; ++p) {
    while (k < taken.size() && row[k] * pieces < p * structures) ++k;
    first[p] = k;
  }
  const std::function<void(std::size_t)> piece = [&](std::size_t p) {
    copy(first[p], first[p + 1]);
  };
  m_copyTask = &piece;
  m_copyPieces = pieces;
  m_copyNext.store(0);
  m_copyDone.store(0);
  m_copyOpen.store(true);
  m_changed.notify_all();  // sleeping waiters come to help (a missed one only does not help)
  takeCopyPieces();
  while (m_copyDone.load(std::memory_order_acquire) < pieces) std::this_thread::yield();
  m_copyOpen.store(false);
  while (m_copyHelpers.load() != 0) std::this_thread::yield();
}

void SharedBatchedPotential::takeCopyPieces() {
  m_copyHelpers.fetch_add(1);
  if (m_copyOpen.load()) {
    for (std::size_t p; (p = m_copyNext.fetch_add(1)) < m_copyPieces;) {
      (*m_copyTask)(p);
      m_copyDone.fetch_add(1, std::memory_order_release);
    }
  }
  m_copyHelpers.fetch_sub(1);
}

void SharedBatchedPotential::helpCopy(std::unique_lock<std::mutex>& lock) {
  if (!m_copyOpen.load(std::memory_order_relaxed)) return;
  lock.unlock();
  takeCopyPieces();
  lock.lock();
}

SharedBatchedPotential::Member::Member(SharedBatchedPotential& shared) : m_shared(shared) {
  m_shared.join();
}

SharedBatchedPotential::Member::~Member() { m_shared.leave(); }

void SharedBatchedPotential::Member::evaluate(std::size_t count, const double* x, double* g,
                                              double* energies) {
  if (count == 0) return;
  Request request;
  request.count = count;
  request.x = x;
  request.g = g;
  request.energies = energies;
  m_shared.submit(request);
}

std::unique_ptr<Potential> SharedBatchedPotential::Member::potential() {
  return std::make_unique<MemberPotential>(*this, m_shared.m_potential,
                                           m_shared.m_options.geometry);
}

std::unique_ptr<BatchedPotential> SharedBatchedPotential::Member::batched() {
  return std::make_unique<MemberBatchedPotential>(*this, m_shared.m_potential,
                                                  m_shared.m_options.geometry);
}

}  // namespace landscape
