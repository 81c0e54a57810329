#include "landscape/geometry/Hungarian.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace landscape {

namespace {

// One solve: the row-major costs, the dual potentials u (rows) and v (columns), and the matching.
// Invariant: reduced costs c(i, j) - u[i] - v[j] are >= 0 for every assigned row and 0 on its
// assigned edge, so the assignment is optimal once every row has one.
class AssignmentSolver {
 public:
  AssignmentSolver(const Eigen::MatrixXd& cost, const Eigen::VectorXd& columnPotentials);

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
  std::vector<double> m_c;  // row-major copy: every inner loop walks along a row
  std::vector<double> m_u, m_v;
  std::vector<int> m_columnOfRow, m_rowOfColumn;
  // Scratch of the shortest-path search, kept between rows.
  std::vector<double> m_distance;
  std::vector<int> m_predecessor;
  std::vector<std::size_t> m_remaining;
  std::vector<char> m_scannedRow, m_scannedColumn;
};

AssignmentSolver::AssignmentSolver(const Eigen::MatrixXd& cost,
                                   const Eigen::VectorXd& columnPotentials)
    : m_n(static_cast<std::size_t>(cost.rows())),
      m_m(static_cast<std::size_t>(cost.cols())),
      m_c(m_n * m_m),
      m_u(m_n, 0.0),
      m_v(m_m, 0.0),
      m_columnOfRow(m_n, -1),
      m_rowOfColumn(m_m, -1),
      m_distance(m_m),
      m_predecessor(m_m),
      m_remaining(m_m),
      m_scannedRow(m_n),
      m_scannedColumn(m_m) {
  if (columnPotentials.size() == cost.cols() && columnPotentials.allFinite()) {
    for (std::size_t j = 0; j < m_m; ++j) m_v[j] = columnPotentials[static_cast<Eigen::Index>(j)];
  }
  for (std::size_t i = 0; i < m_n; ++i) {
    for (std::size_t j = 0; j < m_m; ++j) {
      m_c[i * m_m + j] = cost(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    }
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
    std::size_t best = 0;
    double least = row[0] - m_v[0];
    for (std::size_t j = 1; j < m_m; ++j) {
      const double reduced = row[j] - m_v[j];
      if (reduced < least) {
        least = reduced;
        best = j;
      }
    }
    m_u[i] = least;
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
// Only columns not yet scanned are visited, and ties go to free columns, which end the search
// early.
std::size_t AssignmentSolver::shortestPath(std::size_t start, double& reached) {
  const double inf = std::numeric_limits<double>::infinity();
  // Plain pointers in the hot loop, as when these were locals of one function.
  double* const distance = m_distance.data();
  int* const predecessor = m_predecessor.data();
  std::size_t* const remaining = m_remaining.data();
  const int* const rowOfColumn = m_rowOfColumn.data();
  const double* const v = m_v.data();
  std::fill(m_distance.begin(), m_distance.end(), inf);
  std::fill(m_scannedRow.begin(), m_scannedRow.end(), 0);
  std::fill(m_scannedColumn.begin(), m_scannedColumn.end(), 0);
  for (std::size_t j = 0; j < m_m; ++j) remaining[j] = m_m - 1 - j;  // deterministic order
  std::size_t unscanned = m_m;
  reached = 0.0;  // length of the shortest path found so far
  std::size_t i = start;
  while (true) {
    m_scannedRow[i] = 1;
    const double* row = &m_c[i * m_m];
    const double base = reached - m_u[i];
    double lowest = inf;
    std::size_t lowestAt = 0;
    for (std::size_t k = 0; k < unscanned; ++k) {
      const std::size_t j = remaining[k];
      const double path = base + row[j] - v[j];
      const bool shorter = path < distance[j];
      const double d = shorter ? path : distance[j];
      predecessor[j] = shorter ? static_cast<int>(i) : predecessor[j];
      distance[j] = d;
      const bool better = d < lowest || (d == lowest && rowOfColumn[j] < 0);
      lowest = better ? d : lowest;
      lowestAt = better ? k : lowestAt;
    }
    reached = lowest;
    const std::size_t j = remaining[lowestAt];
    m_scannedColumn[j] = 1;
    remaining[lowestAt] = remaining[--unscanned];
    if (rowOfColumn[j] < 0) return j;
    i = static_cast<std::size_t>(rowOfColumn[j]);
  }
}

void AssignmentSolver::shiftPotentials(std::size_t start, double reached) {
  m_u[start] += reached;
  for (std::size_t r = 0; r < m_n; ++r) {
    if (m_scannedRow[r] && r != start) {
      m_u[r] += reached - m_distance[static_cast<std::size_t>(m_columnOfRow[r])];
    }
  }
  for (std::size_t j = 0; j < m_m; ++j) {
    if (m_scannedColumn[j]) m_v[j] -= reached - m_distance[j];
  }
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
  const Eigen::Index rows = cost.rows();
  const Eigen::Index cols = cost.cols();
  if (rows > cols) {
    throw std::invalid_argument(
        "solveAssignment: the cost matrix must have no more rows than columns, got " +
        std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (!cost.allFinite()) {
    throw std::invalid_argument("solveAssignment: every entry of the cost matrix must be finite");
  }
  AssignmentSolver solver(cost, columnPotentials);
  solver.solve();
  columnPotentials = Eigen::Map<const Eigen::VectorXd>(solver.columnPotentials().data(), cols);
  return solver.columnOfRow();
}

}  // namespace landscape
