#pragma once
// Summary statistics of benchmark samples (first-encounter benchmarks): mean, sample standard
// deviation, standard error of the mean and median.
#include <algorithm>
#include <cmath>
#include <vector>

namespace landscape {

struct Stats {
  double mean, stddev, median, stderrOfMean;
};

inline Stats stats(std::vector<double> v) {
  Stats s{0, 0, 0, 0};
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= v.size();
  for (double x : v) s.stddev += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(s.stddev / (v.size() - 1)) : 0.0;
  s.stderrOfMean = s.stddev / std::sqrt(static_cast<double>(v.size()));
  std::sort(v.begin(), v.end());
  s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  return s;
}

}  // namespace landscape
