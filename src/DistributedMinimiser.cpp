#include "src/DistributedMinimiser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace landscape {

namespace {

// One structure on the wire: its result's fields, then its n coordinates (the ranks run one
// binary, so doubles and integers travel as their bytes).
struct WireResult {
  double energy, rmsGradient;
  std::int64_t functionCalls;
  std::int32_t iterations, status;
};

std::size_t wireSize(std::size_t n) { return sizeof(WireResult) + n * sizeof(double); }

void pack(const BatchedLbfgsResult& r, const double* x, std::size_t n, char* out) {
  const WireResult w{r.energy, r.rmsGradient, r.functionCalls, r.iterations,
                     static_cast<std::int32_t>(r.status)};
  std::memcpy(out, &w, sizeof w);
  std::memcpy(out + sizeof w, x, n * sizeof(double));
}

void unpack(const char* in, std::size_t n, BatchedLbfgsResult& r, double* x) {
  WireResult w;
  std::memcpy(&w, in, sizeof w);
  r.energy = w.energy;
  r.rmsGradient = w.rmsGradient;
  r.functionCalls = static_cast<long>(w.functionCalls);
  r.iterations = w.iterations;
  r.status = static_cast<LbfgsStatus>(w.status);
  std::memcpy(x, in + sizeof w, n * sizeof(double));
}

// FNV-1a over the bytes of the batch as this rank has it before quenching: ranks that run the
// same walkers hold the same bytes.
std::uint64_t fingerprint(const double* x, std::size_t count) {
  std::uint64_t h = 14695981039346656037ull;
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(x);
  for (std::size_t i = 0; i < count * sizeof(double); ++i) {
    h ^= bytes[i];
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

BatchSlice batchSlice(std::size_t batch, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size)
    throw std::invalid_argument("batch slice: rank " + std::to_string(rank) + " of " +
                                std::to_string(size));
  const std::size_t ranks = static_cast<std::size_t>(size), r = static_cast<std::size_t>(rank);
  const std::size_t base = batch / ranks, extra = batch % ranks;
  BatchSlice s;
  s.first = r * base + std::min(r, extra);
  s.last = s.first + base + (r < extra ? 1 : 0);
  return s;
}

DistributedMinimiser::DistributedMinimiser(std::unique_ptr<BatchedMinimiser> local,
                                           Communicator& ranks)
    : m_local(std::move(local)), m_ranks(ranks) {
  if (!m_local) throw std::invalid_argument("distributed minimiser: no local minimiser");
}

std::string DistributedMinimiser::name() const {
  return m_local->name() + " on each of " + std::to_string(m_ranks.size()) + " ranks";
}

void DistributedMinimiser::minimise(std::size_t batch, double* x, BatchedLbfgsResult* results) {
  const std::size_t n = dimension();
  const BatchSlice mine = batchSlice(batch, m_ranks.rank(), m_ranks.size());
  const std::uint64_t before = fingerprint(x, batch * n);
  if (mine.count() > 0) m_local->minimise(mine.count(), x + mine.first * n, results + mine.first);
  // The fingerprint of the whole batch, then this rank's structures.
  std::vector<char> sent(sizeof before + mine.count() * wireSize(n));
  std::memcpy(sent.data(), &before, sizeof before);
  for (std::size_t b = mine.first; b < mine.last; ++b)
    pack(results[b], x + b * n, n, &sent[sizeof before + (b - mine.first) * wireSize(n)]);
  const std::vector<std::vector<char>> received = m_ranks.allGather(sent);
  for (int r = 0; r < m_ranks.size(); ++r) {
    const BatchSlice theirs = batchSlice(batch, r, m_ranks.size());
    const std::vector<char>& part = received[static_cast<std::size_t>(r)];
    if (part.size() != sizeof before + theirs.count() * wireSize(n))
      throw std::runtime_error("distributed minimiser: rank " + std::to_string(r) + " sent " +
                               std::to_string(part.size()) + " bytes, expected " +
                               std::to_string(sizeof before + theirs.count() * wireSize(n)));
    if (std::memcmp(part.data(), &before, sizeof before) != 0)
      throw std::runtime_error(
          "distributed minimiser: rank " + std::to_string(r) + " and rank " +
          std::to_string(m_ranks.rank()) +
          " hold different structures for the same batch: the ranks' copies of the walkers have "
          "diverged (every rank must run the same build on machines that compute alike)");
    for (std::size_t b = theirs.first; b < theirs.last; ++b)
      unpack(&part[sizeof before + (b - theirs.first) * wireSize(n)], n, results[b], x + b * n);
  }
}

}  // namespace landscape
