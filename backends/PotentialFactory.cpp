#include "backends/PotentialFactory.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpu/GpuDevice.h"
#include "potentials/GayBerne.h"
#include "potentials/GuptaPotential.h"
#include "potentials/LennardJones.h"
#include "potentials/PairPotential.h"
#include "potentials/SitePotential.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/Sop.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/AmberGbCuda.h"
#include "gpu/AmberGbListCuda.h"
#include "gpu/GayBerneCuda.h"
#include "gpu/GuptaCuda.h"
#include "gpu/LennardJonesCuda.h"
#include "gpu/PairPotentialCuda.h"
#include "gpu/SitePotentialCuda.h"
#include "gpu/SoftStickyDipoleCuda.h"
#include "gpu/SopCuda.h"
#endif

namespace landscape {

namespace {

void requireCuda() {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(
        "makePotential: backend 'cuda' was requested but no CUDA device found (" +
        gpuDescription() + ")");
#else
  throw std::runtime_error(
      "makePotential: backend 'cuda' was requested but this build has no CUDA support "
      "(reconfigure with -DLANDSCAPE_CUDA=ON on a machine with nvcc, or use backend 'cpu')");
#endif
}

std::unique_ptr<Potential> makeLennardJones(const PotentialSpec& spec, Backend backend) {
  if (spec.atoms < 2)
    throw std::invalid_argument(
        "makePotential: PotentialSpec.atoms must be >= 2 for Lennard-Jones, got " +
        std::to_string(spec.atoms));
  if (backend == Backend::Cpu) return std::make_unique<LennardJones>(spec.atoms);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<LennardJonesCuda>(spec.atoms);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

std::unique_ptr<Potential> makeAmberGb(const PotentialSpec& spec, Backend backend) {
  if (!spec.amberTopology)
    throw std::invalid_argument(
        "makePotential: PotentialSpec.amberTopology must hold the molecule for AMBER-GB");
  // Checked on every backend, so that --precision single fails the same way with --backend cpu.
  requirePrecision(spec.precision, amberGbPrecisions(), "AMBER-GB");
  if (backend == Backend::Cpu) return std::make_unique<AmberGb>(*spec.amberTopology, spec.amber);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  // sander's cut: the pairs within it and the Born-radius pairs within rgbmax + S_j are found by
  // a Verlet list (gpu/AmberGbListCuda); without a cut every pair is visited by the tile kernels.
  if (std::isfinite(spec.amber.cut))
    return std::make_unique<AmberGbListCuda>(*spec.amberTopology, spec.amber, spec.precision);
  return std::make_unique<AmberGbCuda>(*spec.amberTopology, spec.amber, spec.precision);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

std::unique_ptr<Potential> makeSop(const PotentialSpec& spec, Backend backend) {
  if (!spec.sopTopology)
    throw std::invalid_argument(
        "makePotential: PotentialSpec.sopTopology must hold the protein for SOP");
  if (backend == Backend::Cpu) return std::make_unique<Sop>(*spec.sopTopology);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<SopCuda>(*spec.sopTopology, spec.sopSkin);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

std::unique_ptr<Potential> makePair(const PotentialSpec& spec, Backend backend) {
  if (!spec.pairModel)
    throw std::invalid_argument(
        "makePotential: PotentialSpec.pairModel must hold the species, law and box of a pair "
        "potential");
  if (backend == Backend::Cpu) return std::make_unique<PairPotential>(*spec.pairModel);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<PairPotentialCuda>(*spec.pairModel);  // default skin
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

std::unique_ptr<Potential> makeGupta(const PotentialSpec& spec, Backend backend) {
  if (spec.atoms < 2)
    throw std::invalid_argument(
        "makePotential: PotentialSpec.atoms must be >= 2 for a Gupta cluster, got " +
        std::to_string(spec.atoms));
  spec.gupta.check();
  if (backend == Backend::Cpu) return std::make_unique<GuptaPotential>(spec.atoms, spec.gupta);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<GuptaCuda>(spec.atoms, spec.gupta);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

std::unique_ptr<Potential> makeSites(const PotentialSpec& spec, Backend backend) {
  if (!spec.siteModel)
    throw std::invalid_argument(
        "makePotential: PotentialSpec.siteModel must hold the sites of the rigid molecules");
  spec.siteModel->check();
  if (backend == Backend::Cpu) return std::make_unique<SitePotential>(*spec.siteModel);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<SitePotentialCuda>(*spec.siteModel);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

// The ellipsoid count of a Gay-Berne spec: atoms are its markers, 4 per ellipsoid.
std::size_t gayBerneEllipsoids(const PotentialSpec& spec, const char* who) {
  if (spec.atoms < 2 * kGayBerneMarkers || spec.atoms % kGayBerneMarkers != 0)
    throw std::invalid_argument(std::string(who) +
                                ": PotentialSpec.atoms counts Gay-Berne markers, 4 per ellipsoid "
                                "and at least 2 ellipsoids; got " +
                                std::to_string(spec.atoms));
  spec.gayBerne.check();
  return spec.atoms / kGayBerneMarkers;
}

std::unique_ptr<Potential> makeGayBerne(const PotentialSpec& spec, Backend backend) {
  const std::size_t ellipsoids = gayBerneEllipsoids(spec, "makePotential");
  if (backend == Backend::Cpu) return std::make_unique<GayBerne>(spec.gayBerne, ellipsoids);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<GayBerneCuda>(spec.gayBerne, ellipsoids);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

// The molecule count of an SSD spec: atoms are its markers, 4 per molecule.
std::size_t softStickyDipoleMolecules(const PotentialSpec& spec, const char* who) {
  if (spec.atoms < 2 * kSoftStickyDipoleMarkers || spec.atoms % kSoftStickyDipoleMarkers != 0)
    throw std::invalid_argument(std::string(who) +
                                ": PotentialSpec.atoms counts SSD water markers, 4 per molecule "
                                "and at least 2 molecules; got " +
                                std::to_string(spec.atoms));
  spec.softStickyDipole.check();
  return spec.atoms / kSoftStickyDipoleMarkers;
}

std::unique_ptr<Potential> makeSoftStickyDipole(const PotentialSpec& spec, Backend backend) {
  const std::size_t molecules = softStickyDipoleMolecules(spec, "makePotential");
  if (backend == Backend::Cpu)
    return std::make_unique<SoftStickyDipole>(spec.softStickyDipole, molecules);
  requireCuda();
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<SoftStickyDipoleCuda>(spec.softStickyDipole, molecules);
#else
  return nullptr;  // not reached: requireCuda() throws in builds without CUDA
#endif
}

}  // namespace

std::size_t softStickyDipoleMoleculesOf(const PotentialSpec& spec) {
  return softStickyDipoleMolecules(spec, "PotentialSpec");
}

std::size_t gayBerneEllipsoidsOf(const PotentialSpec& spec) {
  return gayBerneEllipsoids(spec, "PotentialSpec");
}

std::unique_ptr<Potential> makePotential(const PotentialSpec& spec, Backend backend) {
  switch (spec.kind) {
    case PotentialSpec::Kind::LennardJones:
      return makeLennardJones(spec, backend);
    case PotentialSpec::Kind::AmberGb:
      return makeAmberGb(spec, backend);
    case PotentialSpec::Kind::Sop:
      return makeSop(spec, backend);
    case PotentialSpec::Kind::Pair:
      return makePair(spec, backend);
    case PotentialSpec::Kind::Gupta:
      return makeGupta(spec, backend);
    case PotentialSpec::Kind::Sites:
      return makeSites(spec, backend);
    case PotentialSpec::Kind::GayBerne:
      return makeGayBerne(spec, backend);
    case PotentialSpec::Kind::SoftStickyDipole:
      return makeSoftStickyDipole(spec, backend);
  }
  throw std::invalid_argument("makePotential: PotentialSpec.kind holds an unknown value");
}

}  // namespace landscape
