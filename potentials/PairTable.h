#pragma once
// A pair potential V(r) given as a table, evaluated by quadratic interpolation (Supporting
// Information A of the MOIL GPU port, ../shared/seeds: on each piece of width w, knots at 0, w/2
// and w, a = (2g - 4h)/w^2, b = (4h - g)/w, c = V at the piece's start, with g and h the rises to
// the piece's end and middle). The energy is the interpolant and its gradient the interpolant's
// exact derivative, so minimisers see a consistent pair; the gradient jumps at knots by
// O(w^2 V'''), which the tests and docs/pair-potentials.md quantify.
//
// Table file (readPairTable): plain text, one "r V(r)" pair per line in the potential's units
// (reduced units, or Angstrom and kcal/mol), '#' starts a comment line; r increasing with a
// uniform spacing h and an odd number of rows (2P + 1 >= 3), giving P pieces of width 2h.
#include <functional>
#include <string>
#include <vector>

namespace landscape {

struct PairTable {
  double start = 0.0;  ///< r of the first knot (length)
  double width = 0.0;  ///< width of a piece (length): twice the file's row spacing
  std::vector<double> coefficients;  ///< (a, b, c) per piece: V = a z^2 + b z + c, z = r - knot
  std::string source;  ///< where it came from, for names and messages

  int pieces() const { return static_cast<int>(coefficients.size() / 3); }
  double end() const { return start + width * pieces(); }  ///< r of the last knot
  /// V and dV/dr at r (host; the same arithmetic as the kernels). NaN below start(); beyond
  /// end() the last piece's polynomial continues (a model's cutoff ends the table's use).
  void evaluate(double r, double& value, double& derivative) const;
};

/// The table through 2P + 1 samples values[k] = V(start + k spacing); piece i uses samples 2i,
/// 2i + 1 and 2i + 2. Throws std::invalid_argument for fewer than 3 or an even number of samples,
/// a spacing that is not positive and finite, or a non-finite sample.
PairTable pairTableFromSamples(double start, double spacing, const std::vector<double>& values,
                               const std::string& source);

/// f sampled at 2 pieces + 1 evenly spaced points from start to end (the analytic law tabulated,
/// for tests and the benchmark of tabulated against analytic).
PairTable tabulatePairFunction(const std::function<double(double)>& f, double start, double end,
                               int pieces, const std::string& source);

/// Reads a table file (format above). Throws std::runtime_error naming the file, the line and
/// the problem: a line that is not two numbers, r not increasing, a spacing that differs from the
/// mean by more than 1e-6 of it (r printed to too few digits), an even number of rows.
PairTable readPairTable(const std::string& path);

}  // namespace landscape
