#include "landscape/geometry/Hungarian.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace landscape {

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
  const std::size_t n = static_cast<std::size_t>(rows);
  const std::size_t m = static_cast<std::size_t>(cols);
  std::vector<int> columnOfRow(n, -1);
  std::vector<int> rowOfColumn(m, -1);

  // Dual potentials: reduced costs c(i, j) - u[i] - v[j] are >= 0 for every assigned row and 0 on
  // its assigned edge, so the assignment is optimal once every row has one.
  std::vector<double> u(n, 0.0), v(m, 0.0);
  if (columnPotentials.size() == cols && columnPotentials.allFinite()) {
    for (std::size_t j = 0; j < m; ++j) v[j] = columnPotentials[static_cast<Eigen::Index>(j)];
  }
  // Row-major copy: every inner loop below walks along a row.
  std::vector<double> c(n * m);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) {
      c[i * m + j] = cost(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    }
  }

  // Row reduction (the initialisation of Jonker & Volgenant 1987): u[i] = min_j (c(i, j) - v[j])
  // is dual feasible for any v, and a row whose reduced-cheapest column is still free takes it at
  // zero reduced cost. Near a converged alignment, and with the previous solve's v, most rows are
  // settled here and the augmenting phase has little left to do.
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < n; ++i) {
    const double* row = &c[i * m];
    std::size_t best = 0;
    double least = row[0] - v[0];
    for (std::size_t j = 1; j < m; ++j) {
      const double reduced = row[j] - v[j];
      if (reduced < least) {
        least = reduced;
        best = j;
      }
    }
    u[i] = least;
    if (rowOfColumn[best] < 0) {
      rowOfColumn[best] = static_cast<int>(i);
      columnOfRow[i] = static_cast<int>(best);
    } else {
      pending.push_back(i);
    }
  }

  // Each pending row is assigned along a shortest augmenting path in reduced costs (Dijkstra over
  // alternating paths: the Hungarian method of Kuhn 1955 in the form of Jonker & Volgenant 1987),
  // then the potentials are shifted so that the invariant above holds again. Only columns not yet
  // scanned are visited, and ties go to free columns, which end the search early.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> distance(m);
  std::vector<int> predecessor(m);
  std::vector<std::size_t> remaining(m);
  std::vector<char> scannedRow(n), scannedColumn(m);
  for (const std::size_t start : pending) {
    std::fill(distance.begin(), distance.end(), inf);
    std::fill(scannedRow.begin(), scannedRow.end(), 0);
    std::fill(scannedColumn.begin(), scannedColumn.end(), 0);
    for (std::size_t j = 0; j < m; ++j) remaining[j] = m - 1 - j;  // deterministic order
    std::size_t unscanned = m;
    double reached = 0.0;  // length of the shortest path found so far
    std::size_t i = start;
    std::size_t sink = m;
    while (sink == m) {
      scannedRow[i] = 1;
      const double* row = &c[i * m];
      const double base = reached - u[i];
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
      scannedColumn[j] = 1;
      remaining[lowestAt] = remaining[--unscanned];
      if (rowOfColumn[j] < 0) {
        sink = j;
      } else {
        i = static_cast<std::size_t>(rowOfColumn[j]);
      }
    }

    u[start] += reached;
    for (std::size_t r = 0; r < n; ++r) {
      if (scannedRow[r] && r != start) {
        u[r] += reached - distance[static_cast<std::size_t>(columnOfRow[r])];
      }
    }
    for (std::size_t j = 0; j < m; ++j) {
      if (scannedColumn[j]) v[j] -= reached - distance[j];
    }
    for (std::size_t j = sink;;) {
      const std::size_t r = static_cast<std::size_t>(predecessor[j]);
      rowOfColumn[j] = static_cast<int>(r);
      const int previous = columnOfRow[r];
      columnOfRow[r] = static_cast<int>(j);
      if (r == start) break;
      j = static_cast<std::size_t>(previous);
    }
  }

  columnPotentials = Eigen::Map<const Eigen::VectorXd>(v.data(), cols);
  return columnOfRow;
}

}  // namespace landscape
