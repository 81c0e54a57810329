// The GPU path of the mass-weighted log product (gpu/HessianLogProductCuda) against its CPU twin
// (NumericalHessian, HessianLogProduct): the finite-difference Hessian of the Ace-Ash-Nme minimum
// from the CUDA AMBER-GB potential, and the cuSOLVER factorisation (Cholesky at a minimum,
// eigenvalues at a transition state). Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "potentials/AmberGb.h"
#include "tests/AshMinima.h"
#include "tests/Lj7Structures.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/AmberGbCuda.h"
#include "gpu/HessianLogProductCuda.h"
#endif

namespace landscape {
namespace {

#ifdef LANDSCAPE_HAVE_CUDA

TEST(HessianLogProductCuda, AshMinimumMatchesTheCpuTwin) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const std::optional<AshMinima> ash = makeAshMinima();
  if (!ash) GTEST_SKIP() << "tests/data/gb/ash not found";
  AmberGb cpu(ash->topology);
  AmberGbCuda gpu(ash->topology);
  const Eigen::MatrixXd hCpu = numericalHessian(cpu, ash->first);
  const Eigen::MatrixXd hGpu = numericalHessianCuda(gpu, ash->first);
  const double scale = hCpu.cwiseAbs().maxCoeff();
  EXPECT_LT((hGpu - hCpu).cwiseAbs().maxCoeff() / scale, 1e-7);
  EXPECT_EQ((hGpu - hGpu.transpose()).cwiseAbs().maxCoeff(), 0.0);

  Eigen::MatrixXd a = hCpu, b = hCpu;
  massWeightHessian(a, ash->topology.masses);
  massWeightHessian(b, ash->topology.masses);
  const RigidBodyModes modes = RigidBodyModes::massWeighted(ash->first, ash->topology.masses);
  const HessianLogProduct onCpu = hessianLogProduct(a, modes);
  const HessianLogProduct onGpu = hessianLogProductCuda(b, modes);
  EXPECT_EQ(onGpu.method, LogProductMethod::Cholesky);
  EXPECT_EQ(onGpu.positiveEigenvalues, onCpu.positiveEigenvalues);
  EXPECT_NEAR(onGpu.logProduct, onCpu.logProduct, 1e-10 * std::abs(onCpu.logProduct));
  EXPECT_THROW(numericalHessianCuda(cpu, ash->first), std::invalid_argument);
}

TEST(HessianLogProductCuda, TransitionStateEigenvaluesMatchTheCpuTwin) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const std::vector<double> x = lj7CappedOctahedron();
  const RigidBodyModes modes(x);
  const Eigen::MatrixXd q = modes.complementBasis();
  Eigen::VectorXd lambda(q.cols());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) lambda[i] = i == 3 ? -1.5 : 0.2 + 3.0 * i;
  Eigen::MatrixXd a = q * lambda.asDiagonal() * q.transpose(), b = a;
  const HessianLogProduct onCpu = hessianLogProduct(a, modes);
  const HessianLogProduct onGpu = hessianLogProductCuda(b, modes);
  EXPECT_EQ(onGpu.method, LogProductMethod::EigenDecomposition);
  EXPECT_EQ(onGpu.negativeEigenvalues, 1);
  EXPECT_NEAR(onGpu.logProduct, onCpu.logProduct, 1e-10 * std::abs(onCpu.logProduct));
}

// One HessianFactorisationCuda for many Hessians (a growth cycle's points): a minimum's
// (Cholesky), a transition state's (eigenvalues), of two sizes in turn, each the bits of a fresh
// hessianLogProductCuda.
TEST(HessianLogProductCuda, KeptFactorisationGivesTheBitsOfFreshOnes) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const std::optional<AshMinima> ash = makeAshMinima();
  if (!ash) GTEST_SKIP() << "tests/data/gb/ash not found";
  AmberGb cpu(ash->topology);
  Eigen::MatrixXd minimum = numericalHessian(cpu, ash->first);
  massWeightHessian(minimum, ash->topology.masses);
  const RigidBodyModes minimumModes =
      RigidBodyModes::massWeighted(ash->first, ash->topology.masses);
  const std::vector<double> x = lj7CappedOctahedron();
  const RigidBodyModes saddleModes(x);
  const Eigen::MatrixXd q = saddleModes.complementBasis();
  Eigen::VectorXd lambda(q.cols());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) lambda[i] = i == 3 ? -1.5 : 0.2 + 3.0 * i;
  const Eigen::MatrixXd saddle = q * lambda.asDiagonal() * q.transpose();
  HessianFactorisationCuda kept;
  for (int round = 0; round < 2; ++round) {
    for (const auto& [h, modes] :
         {std::pair<const Eigen::MatrixXd*, const RigidBodyModes*>{&minimum, &minimumModes},
          {&saddle, &saddleModes}}) {
      Eigen::MatrixXd a = *h, b = *h;
      const HessianLogProduct fresh = hessianLogProductCuda(a, *modes);
      const HessianLogProduct again = kept.logProduct(b, *modes);
      EXPECT_EQ(again.method, fresh.method);
      EXPECT_EQ(again.logProduct, fresh.logProduct) << "round " << round;
      EXPECT_EQ(again.negativeEigenvalues, fresh.negativeEigenvalues);
      EXPECT_EQ(again.positiveEigenvalues, fresh.positiveEigenvalues);
    }
  }
}

// Callers on several threads at once (characteriseTogether's) each take a handle of their own:
// every result is the bits of the same Hessian factorised alone.
TEST(HessianLogProductCuda, ConcurrentCallersGetTheBitsOfOneAtATime) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const std::optional<AshMinima> ash = makeAshMinima();
  if (!ash) GTEST_SKIP() << "tests/data/gb/ash not found";
  AmberGb cpu(ash->topology);
  std::vector<Eigen::MatrixXd> hessians = {numericalHessian(cpu, ash->first),
                                           numericalHessian(cpu, ash->second)};
  hessians.push_back(-hessians[0]);  // indefinite: the eigenvalue path
  std::vector<RigidBodyModes> modes;
  for (const std::vector<double>* x : {&ash->first, &ash->second, &ash->first})
    modes.push_back(RigidBodyModes::massWeighted(*x, ash->topology.masses));
  for (Eigen::MatrixXd& h : hessians) massWeightHessian(h, ash->topology.masses);
  std::vector<HessianLogProduct> alone;
  for (std::size_t k = 0; k < hessians.size(); ++k) {
    Eigen::MatrixXd a = hessians[k];
    alone.push_back(hessianLogProductCuda(a, modes[k]));
  }
  HessianFactorisationCuda shared;
  constexpr int kThreads = 6, kCalls = 4;
  std::vector<std::vector<HessianLogProduct>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int c = 0; c < kCalls; ++c) {
        const std::size_t k = static_cast<std::size_t>(t + c) % hessians.size();
        Eigen::MatrixXd a = hessians[k];
        got[static_cast<std::size_t>(t)].push_back(shared.logProduct(a, modes[k]));
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    for (int c = 0; c < kCalls; ++c) {
      const std::size_t k = static_cast<std::size_t>(t + c) % hessians.size();
      const HessianLogProduct& g = got[static_cast<std::size_t>(t)][static_cast<std::size_t>(c)];
      EXPECT_EQ(g.method, alone[k].method) << "thread " << t << " call " << c;
      EXPECT_EQ(g.logProduct, alone[k].logProduct) << "thread " << t << " call " << c;
      EXPECT_EQ(g.negativeEigenvalues, alone[k].negativeEigenvalues);
    }
  EXPECT_EQ(alone[2].method, LogProductMethod::EigenDecomposition);
}

#else

TEST(HessianLogProductCuda, AshMinimumMatchesTheCpuTwin) {
  GTEST_SKIP() << "this build has no CUDA support";
}
TEST(HessianLogProductCuda, TransitionStateEigenvaluesMatchTheCpuTwin) {
  GTEST_SKIP() << "this build has no CUDA support";
}
TEST(HessianLogProductCuda, KeptFactorisationGivesTheBitsOfFreshOnes) {
  GTEST_SKIP() << "this build has no CUDA support";
}
TEST(HessianLogProductCuda, ConcurrentCallersGetTheBitsOfOneAtATime) {
  GTEST_SKIP() << "this build has no CUDA support";
}

#endif

}  // namespace
}  // namespace landscape
