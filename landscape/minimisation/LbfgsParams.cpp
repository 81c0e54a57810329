#include "landscape/minimisation/LbfgsParams.h"

#include <cmath>
#include <stdexcept>

#include "landscape/core/Require.h"

namespace landscape {

void LbfgsParams::check() const {
  require(historySize >= 1, "L-BFGS history size m must be >= 1, got " + std::to_string(historySize));
  require(std::isfinite(initialGuess) && initialGuess > 0.0,
          "L-BFGS initial guess (DGUESS) must be > 0");
  require(std::isfinite(maxStep) && maxStep > 0.0, "L-BFGS max step must be > 0 (length)");
  require(std::isfinite(maxRise) && maxRise >= 0.0, "L-BFGS max rise must be >= 0 (energy)");
  require(maxBacktracks >= 0, "L-BFGS max backtracks must be >= 0");
  require(maxIterations >= 0, "L-BFGS max iterations must be >= 0");
  require(std::isfinite(rmsTolerance) && rmsTolerance > 0.0,
          "L-BFGS RMS gradient tolerance must be > 0");
}

}  // namespace landscape
