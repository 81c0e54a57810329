#include "src/common/DistributedCharacterisation.h"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "landscape/core/IndexBlock.h"

namespace landscape {

void putProperties(ByteWriter& out, const StationaryPointProperties& p) {
  out.put(p.logProductOfPositiveEigenvalues);
  out.putVector(p.hessianEigenvalues);
  out.put(static_cast<std::int32_t>(p.pointGroupOrder));
  out.putArray(p.principalMoments.data(), p.principalMoments.size());
}

StationaryPointProperties getProperties(ByteReader& in) {
  StationaryPointProperties p;
  p.logProductOfPositiveEigenvalues = in.get<double>();
  p.hessianEigenvalues = in.getVector<double>();
  p.pointGroupOrder = in.get<std::int32_t>();
  in.getArray(p.principalMoments.data(), p.principalMoments.size());
  return p;
}

std::vector<StationaryPointProperties> characteriseOverRanks(
    Potential& potential, const std::vector<std::vector<double>>& points,
    const CharacterisationParams& params, Communicator& ranks) {
  if (ranks.size() == 1) return characteriseTogether(potential, points, params);
  const IndexBlock mine = indexBlock(points.size(), ranks.rank(), ranks.size());
  const std::vector<std::vector<double>> block(
      points.begin() + static_cast<std::ptrdiff_t>(mine.first),
      points.begin() + static_cast<std::ptrdiff_t>(mine.last));
  ByteWriter out;
  for (const StationaryPointProperties& p : characteriseTogether(potential, block, params))
    putProperties(out, p);
  const std::vector<std::vector<char>> received = ranks.allGather(out.bytes());
  std::vector<StationaryPointProperties> all;
  all.reserve(points.size());
  for (std::size_t r = 0; r < received.size(); ++r) {
    ByteReader in(received[r], "rank " + std::to_string(r) + "'s characterised points");
    const IndexBlock theirs = indexBlock(points.size(), static_cast<int>(r), ranks.size());
    for (std::size_t i = theirs.first; i < theirs.last; ++i) all.push_back(getProperties(in));
    if (!in.done())
      throw std::runtime_error("rank " + std::to_string(r) +
                               " sent more characterised points than its block");
  }
  return all;
}

}  // namespace landscape
