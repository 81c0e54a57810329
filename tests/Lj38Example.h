#pragma once
// OPTIM's LJ38 example (tests/data/lj38/optim: odata, finish, optim.out): its endpoints minimised
// as REOPTIMISEENDPOINTS does, the settings of its first DNEB run (NEWNEB 50 500 0.025) and its
// connect settings (BFGSTS and the rest of odata).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Connect.h"
#include "landscape/paths/Dneb.h"
#include "potentials/LennardJones.h"
#include "src/optim/OptimOdataFile.h"
#include "tests/TestData.h"

namespace landscape {

struct Lj38Example {
  std::vector<double> start, finish;
  DnebParams params;
  ConnectParams connect;
};

/// Empty when the example's files are missing.
inline std::optional<Lj38Example> lj38Example() {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finishFile = testDataPath("lj38/optim/finish");
  if (!odata || !finishFile) return std::nullopt;
  const OptimConfig config = readOdataFile(*odata);
  Lj38Example e{config.odataPoints, readCoordinates(*finishFile), config.settings.connect.dneb,
                config.settings.connect};
  EXPECT_EQ(e.start.size(), 114u);
  LennardJones lj(38);
  const Lbfgs minimiser(config.settings.endpointMinimiser);  // REOPTIMISEENDPOINTS
  EXPECT_TRUE(minimiser.minimize(lj, e.start).status == LbfgsStatus::Converged);
  EXPECT_TRUE(minimiser.minimize(lj, e.finish).status == LbfgsStatus::Converged);
  e.params.images = config.settings.connect.firstImages;
  e.params.iterations = config.settings.connect.firstIterations;
  return e;
}

}  // namespace landscape
