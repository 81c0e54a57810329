#include "landscape/geometry/Hungarian.h"

#include "landscape/core/VectorDispatch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LANDSCAPE_HUNGARIAN_AVX2 1
#endif

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The hot loops, for AVX2 and for baseline x86-64 (core/VectorDispatch.h). Both give the same
// bits: they only subtract, add, compare and take minima, whose results do not depend on the order.

// min_j (row[j] - v[j]) over m >= 1 columns.
double leastReducedCost(const double* row, const double* v, std::size_t m) {
  double least = kInfinity;
  std::size_t j = 0;
#ifdef LANDSCAPE_HUNGARIAN_AVX2
  if (cpuHasAvx2()) {
    least = [&]() LANDSCAPE_TARGET_AVX2 {
      __m256d lowest = _mm256_set1_pd(kInfinity);
      for (; j + 4 <= m; j += 4)
        lowest =
            _mm256_min_pd(lowest, _mm256_sub_pd(_mm256_loadu_pd(row + j), _mm256_loadu_pd(v + j)));
      alignas(32) double lanes[4];
      _mm256_store_pd(lanes, lowest);
      return std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
    }();
  }
#endif
  for (; j < m; ++j) least = std::min(least, row[j] - v[j]);
  return least;
}

// The first j with row[j] - v[j] == least, for a least that some j attains.
std::size_t firstOfLeast(const double* row, const double* v, std::size_t m, double least) {
  std::size_t j = 0;
#ifdef LANDSCAPE_HUNGARIAN_AVX2
  if (cpuHasAvx2()) {
    const std::size_t found = [&]() LANDSCAPE_TARGET_AVX2 {
      const __m256d least4 = _mm256_set1_pd(least);
      for (; j + 4 <= m; j += 4) {
        const __m256d reduced = _mm256_sub_pd(_mm256_loadu_pd(row + j), _mm256_loadu_pd(v + j));
        const int equal = _mm256_movemask_pd(_mm256_cmp_pd(reduced, least4, _CMP_EQ_OQ));
        if (equal != 0) return j + static_cast<std::size_t>(__builtin_ctz(equal));
      }
      return m;
    }();
    if (found < m) return found;
  }
#endif
  while (!(row[j] - v[j] == least)) ++j;
  return j;
}

// Among the count open columns at distance lowest (at least one), the last free one, else the
// first.
std::size_t columnAtLeast(const double* distance, const char* free, std::size_t count,
                          double lowest) {
  std::size_t first = count, lastFree = count;
  const auto note = [&](std::size_t k) {
    if (first == count) first = k;
    if (free[k]) lastFree = k;
  };
  std::size_t k = 0;
#ifdef LANDSCAPE_HUNGARIAN_AVX2
  if (cpuHasAvx2()) {
    [&]() LANDSCAPE_TARGET_AVX2 {
      const __m256d lowest4 = _mm256_set1_pd(lowest);
      for (; k + 4 <= count; k += 4) {
        int equal =
            _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(distance + k), lowest4, _CMP_EQ_OQ));
        for (; equal != 0; equal &= equal - 1)
          note(k + static_cast<std::size_t>(__builtin_ctz(equal)));
      }
    }();
  }
#endif
  for (; k < count; ++k)
    if (distance[k] == lowest) note(k);
  return lastFree < count ? lastFree : first;
}

// Whether every entry is finite (x - x is 0 for finite x, NaN for infinities and NaN).
bool allFinite(const double* x, std::size_t count) {
  std::size_t k = 0;
  bool finite = true;
#ifdef LANDSCAPE_HUNGARIAN_AVX2
  if (cpuHasAvx2()) {
    finite = [&]() LANDSCAPE_TARGET_AVX2 {
      __m256d bad = _mm256_setzero_pd();
      for (; k + 4 <= count; k += 4) {
        const __m256d x4 = _mm256_loadu_pd(x + k);
        bad = _mm256_or_pd(bad,
                           _mm256_cmp_pd(_mm256_sub_pd(x4, x4), _mm256_setzero_pd(), _CMP_NEQ_UQ));
      }
      return _mm256_movemask_pd(bad) == 0;
    }();
  }
#endif
  for (; k < count; ++k) finite = finite && x[k] - x[k] == 0.0;
  return finite;
}

// One step of the shortest-path search over the columns not yet scanned, held in scan order k:
// distance[k] = min(distance[k], base + row[column[k]] - v[k]), predecessor[k] = row where that
// shortened it. Returns the least distance.
double relaxColumns(const double* row, double base, std::int64_t rowIndex, std::size_t count,
                    const std::int64_t* column, const double* v, double* distance,
                    std::int64_t* predecessor) {
  double lowest = kInfinity;
  std::size_t k = 0;
#ifdef LANDSCAPE_HUNGARIAN_AVX2
  if (cpuHasAvx2()) {
    lowest = [&]() LANDSCAPE_TARGET_AVX2 {
      const __m256d base4 = _mm256_set1_pd(base);
      const __m256d from4 = _mm256_castsi256_pd(_mm256_set1_epi64x(rowIndex));
      __m256d least = _mm256_set1_pd(kInfinity);
      for (; k + 4 <= count; k += 4) {
        const __m256i columns = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(column + k));
        const __m256d cost = _mm256_i64gather_pd(row, columns, 8);
        const __m256d path = _mm256_sub_pd(_mm256_add_pd(base4, cost), _mm256_loadu_pd(v + k));
        const __m256d old = _mm256_loadu_pd(distance + k);
        const __m256d shorter = _mm256_cmp_pd(path, old, _CMP_LT_OQ);
        const __m256d d = _mm256_blendv_pd(old, path, shorter);
        _mm256_storeu_pd(distance + k, d);
        double* const from = reinterpret_cast<double*>(predecessor + k);
        _mm256_storeu_pd(from, _mm256_blendv_pd(_mm256_loadu_pd(from), from4, shorter));
        least = _mm256_min_pd(least, d);
      }
      alignas(32) double lanes[4];
      _mm256_store_pd(lanes, least);
      return std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
    }();
  }
#endif
  for (; k < count; ++k) {
    const double path = base + row[column[k]] - v[k];
    if (path < distance[k]) {
      distance[k] = path;
      predecessor[k] = rowIndex;
    }
    lowest = std::min(lowest, distance[k]);
  }
  return lowest;
}

// One solve: the row-major costs, the dual potentials u (rows) and v (columns), and the matching.
// Invariant: reduced costs c(i, j) - u[i] - v[j] are >= 0 for every assigned row and 0 on its
// assigned edge, so the assignment is optimal once every row has one.
class AssignmentSolver {
 public:
  AssignmentSolver(const AssignmentCost& cost, const Eigen::VectorXd& columnPotentials);

  /// Row reduction, then one shortest augmenting path per row left over.
  void solve();
  const std::vector<int>& columnOfRow() const { return m_columnOfRow; }
  const std::vector<double>& columnPotentials() const { return m_v; }

 private:
  std::vector<std::size_t> reduceRows();
  void augment(std::size_t start);
  std::size_t shortestPath(std::size_t start, double& reached);
  void shiftPotentials(std::size_t start, double reached);
  void flipPath(std::size_t start, std::size_t sink);

  std::size_t m_n, m_m;
  const double* m_c;  // row-major: every inner loop walks along a row
  std::vector<double> m_u, m_v;
  std::vector<int> m_columnOfRow, m_rowOfColumn;
  // Shortest-path search: length of the path to each scanned column and the row before it.
  std::vector<double> m_distance;
  std::vector<int> m_predecessor;
  std::vector<std::size_t> m_scannedRows, m_scannedColumns;  // in the order of the scan
  // The columns not yet scanned, in scan order, each with its potential, free flag, tentative
  // distance and predecessor alongside, so that the search's inner loop reads them in a row.
  std::vector<std::int64_t> m_openColumn, m_openPredecessor;
  std::vector<double> m_openV, m_openDistance;
  std::vector<char> m_openFree;
};

AssignmentSolver::AssignmentSolver(const AssignmentCost& cost,
                                   const Eigen::VectorXd& columnPotentials)
    : m_n(static_cast<std::size_t>(cost.rows())),
      m_m(static_cast<std::size_t>(cost.cols())),
      m_c(cost.data()),
      m_u(m_n, 0.0),
      m_v(m_m, 0.0),
      m_columnOfRow(m_n, -1),
      m_rowOfColumn(m_m, -1),
      m_distance(m_m),
      m_predecessor(m_m),
      m_openColumn(m_m),
      m_openPredecessor(m_m),
      m_openV(m_m),
      m_openDistance(m_m),
      m_openFree(m_m) {
  if (columnPotentials.size() == cost.cols() && columnPotentials.allFinite()) {
    for (std::size_t j = 0; j < m_m; ++j) m_v[j] = columnPotentials[static_cast<Eigen::Index>(j)];
  }
}

void AssignmentSolver::solve() {
  for (const std::size_t start : reduceRows()) augment(start);
}

// Row reduction (the initialisation of Jonker & Volgenant 1987): u[i] = min_j (c(i, j) - v[j])
// is dual feasible for any v, and a row whose reduced-cheapest column is still free takes it at
// zero reduced cost. Near a converged alignment, and with the previous solve's v, most rows are
// settled here and the augmenting phase has little left to do. Returns the rows left over.
std::vector<std::size_t> AssignmentSolver::reduceRows() {
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < m_n; ++i) {
    const double* row = &m_c[i * m_m];
    // The first column of least reduced cost, and that cost's own bits (+0 or -0).
    const double least = leastReducedCost(row, m_v.data(), m_m);
    const std::size_t best = firstOfLeast(row, m_v.data(), m_m, least);
    m_u[i] = row[best] - m_v[best];
    if (m_rowOfColumn[best] < 0) {
      m_rowOfColumn[best] = static_cast<int>(i);
      m_columnOfRow[i] = static_cast<int>(best);
    } else {
      pending.push_back(i);
    }
  }
  return pending;
}

// A pending row is assigned along a shortest augmenting path in reduced costs (Dijkstra over
// alternating paths: the Hungarian method of Kuhn 1955 in the form of Jonker & Volgenant 1987),
// then the potentials are shifted so that the invariant holds again.
void AssignmentSolver::augment(std::size_t start) {
  double reached = 0.0;
  const std::size_t sink = shortestPath(start, reached);
  shiftPotentials(start, reached);
  flipPath(start, sink);
}

// Returns the free column that ends the shortest path from row start, and its length in reached.
// Only columns not yet scanned are visited, in a fixed order (the last column first; a scanned
// column's place goes to the last open one), and among columns at the least distance the search
// takes the last free one in that order, else the first: ties go to free columns, which end the
// search early.
std::size_t AssignmentSolver::shortestPath(std::size_t start, double& reached) {
  std::int64_t* const column = m_openColumn.data();
  std::int64_t* const predecessor = m_openPredecessor.data();
  double* const v = m_openV.data();
  double* const distance = m_openDistance.data();
  char* const free = m_openFree.data();
  for (std::size_t k = 0; k < m_m; ++k) {
    const std::size_t j = m_m - 1 - k;
    column[k] = static_cast<std::int64_t>(j);
    predecessor[k] = -1;
    v[k] = m_v[j];
    distance[k] = kInfinity;
    free[k] = m_rowOfColumn[j] < 0;
  }
  m_scannedRows.clear();
  m_scannedColumns.clear();
  std::size_t open = m_m;
  reached = 0.0;  // length of the shortest path found so far
  std::size_t i = start;
  while (true) {
    m_scannedRows.push_back(i);
    const double lowest =
        relaxColumns(&m_c[i * m_m], reached - m_u[i], static_cast<std::int64_t>(i), open, column, v,
                     distance, predecessor);
    const std::size_t at = columnAtLeast(distance, free, open, lowest);
    const std::size_t j = static_cast<std::size_t>(column[at]);
    reached = distance[at];
    m_scannedColumns.push_back(j);
    m_distance[j] = distance[at];
    m_predecessor[j] = static_cast<int>(predecessor[at]);
    --open;
    column[at] = column[open];
    predecessor[at] = predecessor[open];
    v[at] = v[open];
    distance[at] = distance[open];
    free[at] = free[open];
    if (m_rowOfColumn[j] < 0) return j;
    i = static_cast<std::size_t>(m_rowOfColumn[j]);
  }
}

void AssignmentSolver::shiftPotentials(std::size_t start, double reached) {
  m_u[start] += reached;
  for (const std::size_t r : m_scannedRows) {
    if (r != start) m_u[r] += reached - m_distance[static_cast<std::size_t>(m_columnOfRow[r])];
  }
  for (const std::size_t j : m_scannedColumns) m_v[j] -= reached - m_distance[j];
}

// Every column on the path takes the row that reached it; start gets its first column.
void AssignmentSolver::flipPath(std::size_t start, std::size_t sink) {
  for (std::size_t j = sink;;) {
    const std::size_t r = static_cast<std::size_t>(m_predecessor[j]);
    m_rowOfColumn[j] = static_cast<int>(r);
    const int previous = m_columnOfRow[r];
    m_columnOfRow[r] = static_cast<int>(j);
    if (r == start) break;
    j = static_cast<std::size_t>(previous);
  }
}

}  // namespace

std::vector<int> solveAssignment(const Eigen::MatrixXd& cost) {
  Eigen::VectorXd columnPotentials;
  return solveAssignment(cost, columnPotentials);
}

std::vector<int> solveAssignment(const Eigen::MatrixXd& cost, Eigen::VectorXd& columnPotentials) {
  const AssignmentCost byRow = cost;
  return solveAssignment(byRow, columnPotentials);
}

std::vector<int> solveAssignment(const AssignmentCost& cost, Eigen::VectorXd& columnPotentials) {
  const Eigen::Index rows = cost.rows();
  const Eigen::Index cols = cost.cols();
  if (rows > cols) {
    throw std::invalid_argument(
        "solveAssignment: the cost matrix must have no more rows than columns, got " +
        std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (!allFinite(cost.data(), static_cast<std::size_t>(cost.size()))) {
    throw std::invalid_argument("solveAssignment: every entry of the cost matrix must be finite");
  }
  AssignmentSolver solver(cost, columnPotentials);
  solver.solve();
  columnPotentials = Eigen::Map<const Eigen::VectorXd>(solver.columnPotentials().data(), cols);
  return solver.columnOfRow();
}

}  // namespace landscape
