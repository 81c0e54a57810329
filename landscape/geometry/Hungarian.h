#pragma once
// Linear sum assignment by the Hungarian method (Kuhn 1955; Munkres 1957) in its O(n^2 m)
// shortest-augmenting-path form with row and column potentials, started from Jonker & Volgenant's
// (1987) row reduction. Used by alignStructures() to find the optimal permutation of identical
// atoms for a fixed orientation.
#include <Eigen/Core>

#include <vector>

namespace landscape {

/// A cost matrix stored row by row, as the solver walks it (the alignment fills one directly).
using AssignmentCost = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Returns assignment with assignment[row] = column, each column used at most once, minimising
/// sum_row cost(row, assignment[row]). Requires cost.rows() <= cost.cols() and finite entries;
/// throws std::invalid_argument otherwise. A matrix without rows gives an empty assignment.
/// Deterministic: the same matrix gives the same answer.
std::vector<int> solveAssignment(const Eigen::MatrixXd& cost);

/// As above, warm-started for a sequence of similar problems (the permutation/rotation alternation
/// of alignStructures): columnPotentials may hold the column dual potentials of an earlier solve
/// with the same number of columns (any other size, or non-finite values, means a cold start) and
/// receives those of this solve. For a square matrix any finite potentials are a valid start
/// (each column's least cost, say); with more columns than rows only those of an earlier solve
/// of the same shape are. The assignment is optimal either way; only the time differs (and, where
/// several assignments tie, which of them comes back).
std::vector<int> solveAssignment(const Eigen::MatrixXd& cost, Eigen::VectorXd& columnPotentials);

/// The same for a matrix stored row by row, without a copy: the same answer, bit for bit.
std::vector<int> solveAssignment(const AssignmentCost& cost, Eigen::VectorXd& columnPotentials);

}  // namespace landscape
