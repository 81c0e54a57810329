#include "src/common/DistributedMinimiser.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "src/common/ByteStream.h"

namespace landscape {

namespace {

// One structure on the wire: its result's fields, then its n coordinates.
void put(ByteWriter& out, const LbfgsResult& r, const double* x, std::size_t n) {
  out.put(r.energy);
  out.put(r.rmsGradient);
  out.put(static_cast<std::int64_t>(r.functionCalls));
  out.put(static_cast<std::int32_t>(r.iterations));
  out.put(static_cast<std::int32_t>(r.status));
  out.putArray(x, n);
}

std::size_t wireSize(std::size_t n) {
  return 2 * sizeof(double) + sizeof(std::int64_t) + 2 * sizeof(std::int32_t) + n * sizeof(double);
}

void get(ByteReader& in, LbfgsResult& r, double* x, std::size_t n) {
  r.energy = in.get<double>();
  r.rmsGradient = in.get<double>();
  r.functionCalls = in.get<std::int64_t>();
  r.iterations = in.get<std::int32_t>();
  r.status = static_cast<LbfgsStatus>(in.get<std::int32_t>());
  in.getArray(x, n);
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

void DistributedMinimiser::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  const std::size_t n = dimension();
  const BatchSlice mine = batchSlice(batch, m_ranks.rank(), m_ranks.size());
  const std::uint64_t before = fingerprint(x, batch * n);
  if (mine.count() > 0) m_local->minimise(mine.count(), x + mine.first * n, results + mine.first);
  // The fingerprint of the whole batch, then this rank's structures.
  ByteWriter out;
  out.put(before);
  for (std::size_t b = mine.first; b < mine.last; ++b) put(out, results[b], x + b * n, n);
  // Every rank knows every rank's message size: its slice of the batch.
  std::vector<std::size_t> sizes;
  for (int r = 0; r < m_ranks.size(); ++r)
    sizes.push_back(sizeof before + batchSlice(batch, r, m_ranks.size()).count() * wireSize(n));
  const std::vector<std::vector<char>> received = m_ranks.allGather(out.bytes(), sizes);
  for (int r = 0; r < m_ranks.size(); ++r) {
    ByteReader in(received[static_cast<std::size_t>(r)],
                  "distributed minimiser: rank " + std::to_string(r) + "'s minima");
    if (in.get<std::uint64_t>() != before)
      throw std::runtime_error(
          "distributed minimiser: rank " + std::to_string(r) + " and rank " +
          std::to_string(m_ranks.rank()) +
          " hold different structures for the same batch: the ranks' copies of the walkers have "
          "diverged (every rank must run the same build on machines that compute alike)");
    const BatchSlice theirs = batchSlice(batch, r, m_ranks.size());
    for (std::size_t b = theirs.first; b < theirs.last; ++b) get(in, results[b], x + b * n, n);
    if (!in.done())
      throw std::runtime_error("distributed minimiser: rank " + std::to_string(r) +
                               " sent more than its structures");
  }
}

}  // namespace landscape
