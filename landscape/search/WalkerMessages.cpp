#include "landscape/search/WalkerMessages.h"

#include <cstdint>
#include <string>

namespace landscape {

namespace {

void putString(ByteWriter& out, const std::string& s) {
  out.putVector(std::vector<char>(s.begin(), s.end()));
}

std::string getString(ByteReader& in) {
  const std::vector<char> c = in.getVector<char>();
  return std::string(c.begin(), c.end());
}

void putVectors(ByteWriter& out, const std::vector<std::vector<double>>& v) {
  out.put(static_cast<std::uint64_t>(v.size()));
  for (const std::vector<double>& x : v) out.putVector(x);
}

std::vector<std::vector<double>> getVectors(ByteReader& in) {
  std::vector<std::vector<double>> v(in.getCount(sizeof(std::uint64_t)));
  for (std::vector<double>& x : v) x = in.getVector<double>();
  return v;
}

void putLong(ByteWriter& out, long v) { out.put(static_cast<std::int64_t>(v)); }
long getLong(ByteReader& in) { return static_cast<long>(in.get<std::int64_t>()); }

}  // namespace

void putStoredMinimum(ByteWriter& out, const StoredMinimum& m) {
  out.put(m.energy);
  out.putVector(m.coordinates);
  putLong(out, m.firstFoundStep);
  putLong(out, m.functionCalls);
}

StoredMinimum getStoredMinimum(ByteReader& in) {
  StoredMinimum m;
  m.energy = in.get<double>();
  m.coordinates = in.getVector<double>();
  m.firstFoundStep = getLong(in);
  m.functionCalls = getLong(in);
  return m;
}

void putBasinHoppingState(ByteWriter& out, const BasinHoppingState& s) {
  putLong(out, s.quench);
  out.putVector(s.markov);
  out.put(s.markovEnergy);
  out.put(s.stepSize);
  putLong(out, s.acceptedInWindow);
  putLong(out, s.stepsInWindow);
  putLong(out, s.functionCalls);
  putLong(out, s.restarts);
  putLong(out, s.failedQuenches);
  out.put(static_cast<std::uint8_t>(s.targetReached));
  putLong(out, s.targetQuench);
  putLong(out, s.targetFunctionCalls);
  putString(out, s.random);
  const NewRestart::State& r = s.newRestart;
  out.put(r.best);
  out.put(r.previousBest);
  out.putVector(r.bestCoords);
  out.putVector(r.previousBestCoords);
  putLong(out, r.bestStep);
  out.putVector(r.tabooEnergies);
  putVectors(out, r.tabooCoords);
  out.put(static_cast<std::uint64_t>(r.tabooNext));
  const Symmetrisation::State& y = s.symmetrisation;
  out.put(y.lastAttemptEnergy);
  out.put(static_cast<std::uint8_t>(y.ordinaryStepOwed));
  putVectors(out, y.candidates);
  out.put(static_cast<std::int32_t>(y.downhillStepsLeft));
  out.put(static_cast<std::int32_t>(y.quenched));
  out.put(y.bestEnergy);
  out.putVector(y.best);
  putString(out, y.detail);
  out.put(static_cast<std::uint64_t>(s.lowest.size()));
  for (const StoredMinimum& m : s.lowest) putStoredMinimum(out, m);
  out.putVector(s.pendingReseedStart);
  out.put(static_cast<std::uint8_t>(s.pendingReseed.action));
  out.put(static_cast<std::uint8_t>(s.pendingReseed.reason));
  out.put(s.pendingReseed.chainBestEnergy);
}

BasinHoppingState getBasinHoppingState(ByteReader& in) {
  BasinHoppingState s;
  s.quench = getLong(in);
  s.markov = in.getVector<double>();
  s.markovEnergy = in.get<double>();
  s.stepSize = in.get<double>();
  s.acceptedInWindow = getLong(in);
  s.stepsInWindow = getLong(in);
  s.functionCalls = getLong(in);
  s.restarts = getLong(in);
  s.failedQuenches = getLong(in);
  s.targetReached = in.get<std::uint8_t>() != 0;
  s.targetQuench = getLong(in);
  s.targetFunctionCalls = getLong(in);
  s.random = getString(in);
  NewRestart::State& r = s.newRestart;
  r.best = in.get<double>();
  r.previousBest = in.get<double>();
  r.bestCoords = in.getVector<double>();
  r.previousBestCoords = in.getVector<double>();
  r.bestStep = getLong(in);
  r.tabooEnergies = in.getVector<double>();
  r.tabooCoords = getVectors(in);
  r.tabooNext = static_cast<std::size_t>(in.get<std::uint64_t>());
  Symmetrisation::State& y = s.symmetrisation;
  y.lastAttemptEnergy = in.get<double>();
  y.ordinaryStepOwed = in.get<std::uint8_t>() != 0;
  y.candidates = getVectors(in);
  y.downhillStepsLeft = in.get<std::int32_t>();
  y.quenched = in.get<std::int32_t>();
  y.bestEnergy = in.get<double>();
  y.best = in.getVector<double>();
  y.detail = getString(in);
  s.lowest.resize(in.getCount(sizeof(double) + 3 * sizeof(std::uint64_t)));
  for (StoredMinimum& m : s.lowest) m = getStoredMinimum(in);
  s.pendingReseedStart = in.getVector<double>();
  s.pendingReseed.action = static_cast<NewRestart::Action>(in.get<std::uint8_t>());
  s.pendingReseed.reason = static_cast<NewRestart::Reason>(in.get<std::uint8_t>());
  s.pendingReseed.chainBestEnergy = in.get<double>();
  return s;
}

}  // namespace landscape
