#pragma once
// The part of a host Team (landscape/core/TeamTerms.h) that both CPU twins of the batched GPU
// L-BFGS share: one host thread plays the T threads of a GPU team. Element-wise work needs no
// order; a sum forms thread t's partial over its components c = t, t + T, ... and reduces the
// partials in the device order (teamSumMirror). Include only from files compiled with
// -ffp-contract=off, as the twins are (CMakeLists.txt).
#include <cstddef>
#include <vector>

#include "landscape/core/TeamTerms.h"

namespace landscape {

class HostTeam {
 public:
  HostTeam(int dimension, int threads)
      : n(dimension), m_threads(threads), m_partials(3 * static_cast<std::size_t>(threads)) {}
  const int n;

  void sync() const {}
  bool isLeader() const { return true; }

  template <class F>
  void forOwned(F f) const {
    for (int c = 0; c < n; ++c) f(c, c);
  }
  template <int R, class F>
  TeamSum<R> sumOwned(F f) {
    static_assert(R <= 3, "the twin keeps scratch for 3 sums");
    for (int t = 0; t < m_threads; ++t) {
      TeamSum<R> partial;
      for (int r = 0; r < R; ++r) partial.v[r] = 0.0;
      for (int c = t; c < n; c += m_threads) f(c, c, partial);
      for (int r = 0; r < R; ++r) m_partials[r * m_threads + t] = partial.v[r];
    }
    TeamSum<R> out;
    for (int r = 0; r < R; ++r) out.v[r] = teamSumMirror(&m_partials[r * m_threads], m_threads);
    return out;
  }

 private:
  int m_threads;
  std::vector<double> m_partials;  // [3 x threads]
};

/// One warp of a GPU block as a twin plays it (a DNEB band's image, a search's displaced
/// structure): lane l owns components l, l + 32, ...; a sum adds each lane's terms in order, then
/// the lanes by the butterfly (warpButterflyMirror).
class HostWarpTeam {
 public:
  explicit HostWarpTeam(int dimension) : n(dimension) {}
  const int n;
  bool isLeader() const { return true; }
  void sync() const {}
  template <class F>
  void forEach(F f) const {
    for (int c = 0; c < n; ++c) f(c);
  }
  template <int R, class F>
  TeamSum<R> sum(F term) {
    return warpSumMirror<R>(n, term);
  }
};

}  // namespace landscape
