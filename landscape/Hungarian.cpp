#include "landscape/Hungarian.h"

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
  const Eigen::Index n = cost.rows();
  const Eigen::Index m = cost.cols();
  if (n > m) {
    throw std::invalid_argument("solveAssignment: the cost matrix must have no more rows than columns, got " +
                                std::to_string(n) + " x " + std::to_string(m));
  }
  if (!cost.allFinite()) {
    throw std::invalid_argument("solveAssignment: every entry of the cost matrix must be finite");
  }
  std::vector<int> assignment(static_cast<std::size_t>(n), -1);
  if (n == 0) {
    columnPotentials = Eigen::VectorXd::Zero(m);
    return assignment;
  }

  const std::size_t nn = static_cast<std::size_t>(n);
  const std::size_t mm = static_cast<std::size_t>(m);
  // Row-major copy: every inner loop below walks along a row.
  std::vector<double> c(nn * mm);
  for (std::size_t i = 0; i < nn; ++i) {
    for (std::size_t j = 0; j < mm; ++j) {
      c[i * mm + j] = cost(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    }
  }

  // Dual potentials u (rows), v (columns) with reduced costs c(i, j) - u[i] - v[j] >= 0 for every
  // matched row, and = 0 on its matched edge. Indices are 1-based; column 0 is a virtual column
  // that holds the row being added. rowOfColumn[j] == 0 means column j is free.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> u(nn + 1, 0.0), v(mm + 1, 0.0), minv(mm + 1);
  if (columnPotentials.size() == m && columnPotentials.allFinite()) {
    for (std::size_t j = 1; j <= mm; ++j) v[j] = columnPotentials[static_cast<Eigen::Index>(j - 1)];
  }
  std::vector<std::size_t> rowOfColumn(mm + 1, 0), way(mm + 1, 0);
  std::vector<char> used(mm + 1);

  // Row reduction (the initialisation of Jonker & Volgenant 1987): u[i] = min_j (c(i, j) - v[j])
  // is dual feasible for any v, and each row whose reduced-cheapest column is still free takes it
  // at zero reduced cost. Near a converged alignment, and with the previous solve's v, almost
  // every row is settled here and the O(n^2 m) phase has little left to do.
  std::vector<std::size_t> unmatched;
  for (std::size_t i = 1; i <= nn; ++i) {
    const double* row = &c[(i - 1) * mm];
    std::size_t best = 1;
    double least = row[0] - v[1];
    for (std::size_t j = 2; j <= mm; ++j) {
      const double reduced = row[j - 1] - v[j];
      if (reduced < least) {
        least = reduced;
        best = j;
      }
    }
    u[i] = least;
    if (rowOfColumn[best] == 0) {
      rowOfColumn[best] = i;
    } else {
      unmatched.push_back(i);
    }
  }

  // Each remaining row is added by growing a Dijkstra tree of alternating paths over reduced costs
  // until it reaches a free column, then flipping the path (Hungarian method, Kuhn 1955, in the
  // shortest-augmenting-path form).
  for (const std::size_t i : unmatched) {
    rowOfColumn[0] = i;
    std::size_t j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      const std::size_t i0 = rowOfColumn[j0];
      const double* row = &c[(i0 - 1) * mm];
      const double ui = u[i0];
      double delta = inf;
      std::size_t j1 = 0;
      for (std::size_t j = 1; j <= mm; ++j) {
        if (used[j]) continue;
        const double reduced = row[j - 1] - ui - v[j];
        if (reduced < minv[j]) {
          minv[j] = reduced;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (std::size_t j = 0; j <= mm; ++j) {
        if (used[j]) {
          u[rowOfColumn[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (rowOfColumn[j0] != 0);
    do {
      const std::size_t j1 = way[j0];
      rowOfColumn[j0] = rowOfColumn[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  for (std::size_t j = 1; j <= mm; ++j) {
    if (rowOfColumn[j] != 0) assignment[rowOfColumn[j] - 1] = static_cast<int>(j - 1);
  }
  columnPotentials.resize(m);
  for (std::size_t j = 1; j <= mm; ++j) columnPotentials[static_cast<Eigen::Index>(j - 1)] = v[j];
  return assignment;
}

}  // namespace landscape
