#include "backends/BatchedPotentialFactory.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/GpuDevice.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/BatchedRigidBodyPotential.h"
#include "potentials/PerStructureBatchedPotential.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedAmberGbCuda.h"
#include "gpu/BatchedGayBerneCuda.h"
#include "gpu/BatchedGuptaCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#include "gpu/BatchedPairPotentialCuda.h"
#include "gpu/BatchedRigidBodyCuda.h"
#include "gpu/BatchedSitePotentialCuda.h"
#include "gpu/BatchedSoftStickyDipoleCuda.h"
#include "gpu/BatchedSopCuda.h"
#endif

namespace landscape {
namespace {

// The CPU potentials a PerStructureBatchedPotential borrows, owned alongside it (constructed
// first: a base listed before the batched potential).
struct OwnedPotentials {
  std::vector<std::unique_ptr<Potential>> owned;
  std::vector<Potential*> pointers() const {
    std::vector<Potential*> p;
    for (const auto& potential : owned) p.push_back(potential.get());
    return p;
  }
};

class OwningPerStructureBatchedPotential : private OwnedPotentials,
                                           public PerStructureBatchedPotential {
 public:
  explicit OwningPerStructureBatchedPotential(std::vector<std::unique_ptr<Potential>> potentials)
      : OwnedPotentials{std::move(potentials)}, PerStructureBatchedPotential(pointers()) {}
};

// The atomistic batch a rigid one borrows, owned alongside it (constructed first).
struct OwnedBatch {
  std::unique_ptr<BatchedPotential> atomistic;
};

class OwningBatchedRigidBodyPotential : private OwnedBatch, public BatchedRigidBodyPotential {
 public:
  OwningBatchedRigidBodyPotential(std::unique_ptr<BatchedPotential> atomistic,
                                  const RigidBodySystem& system, int threads)
      : OwnedBatch{std::move(atomistic)},
        BatchedRigidBodyPotential(*OwnedBatch::atomistic, system, threads) {}
};

#ifdef LANDSCAPE_HAVE_CUDA
class OwningBatchedRigidBodyCuda : private OwnedBatch, public BatchedRigidBodyCuda {
 public:
  OwningBatchedRigidBodyCuda(std::unique_ptr<BatchedPotential> atomistic,
                             const RigidBodySystem& system, std::size_t reserveBatch)
      : OwnedBatch{std::move(atomistic)},
        BatchedRigidBodyCuda(*OwnedBatch::atomistic, system, reserveBatch) {}
};
#endif

void requireCuda(const char* what) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable())
    throw std::runtime_error(std::string("batched ") + what + " on cuda: no CUDA device found (" +
                             gpuDescription() + ")");
#else
  throw std::runtime_error(std::string("batched ") + what +
                           " on cuda: this build has no CUDA support");
#endif
}

std::unique_ptr<BatchedPotential> perStructureOnCpu(const PotentialSpec& spec, int threads) {
  std::vector<std::unique_ptr<Potential>> copies;
  for (int t = 0; t < threads; ++t) copies.push_back(makePotential(spec, Backend::Cpu));
  return std::make_unique<OwningPerStructureBatchedPotential>(std::move(copies));
}

}  // namespace

std::unique_ptr<BatchedPotential> makeBatchedPotentialForSpec(
    const PotentialSpec& spec, Backend backend, const BatchedPotentialOptions& options) {
  if (options.threads < 1)
    throw std::invalid_argument("makeBatchedPotentialForSpec: threads must be >= 1, got " +
                                std::to_string(options.threads));
  switch (spec.kind) {
    case PotentialSpec::Kind::LennardJones:
      if (spec.atoms < 2)
        throw std::invalid_argument(
            "makeBatchedPotentialForSpec: PotentialSpec.atoms must be >= 2 for Lennard-Jones, "
            "got " +
            std::to_string(spec.atoms));
      if (backend == Backend::Cpu)
        return std::make_unique<BatchedLennardJones>(spec.atoms, options.threads);
      requireCuda("Lennard-Jones");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedLennardJonesCuda>(spec.atoms, options.shape);
#endif
      break;
    case PotentialSpec::Kind::AmberGb:
      if (!spec.amberTopology)
        throw std::invalid_argument(
            "makeBatchedPotentialForSpec: PotentialSpec.amberTopology must hold the molecule for "
            "AMBER-GB");
      requirePrecision(spec.precision, amberGbPrecisions(), "AMBER-GB");
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("AMBER-GB");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedAmberGbCuda>(*spec.amberTopology, spec.amber, spec.precision,
                                                  options.reserveBatch, options.gbLayout);
#endif
      break;
    case PotentialSpec::Kind::Sop:
      if (!spec.sopTopology)
        throw std::invalid_argument(
            "makeBatchedPotentialForSpec: PotentialSpec.sopTopology must hold the beads for SOP");
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("SOP");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedSopCuda>(*spec.sopTopology, options.reserveBatch);
#endif
      break;
    case PotentialSpec::Kind::Pair:
      if (!spec.pairModel)
        throw std::invalid_argument(
            "makeBatchedPotentialForSpec: PotentialSpec.pairModel must hold the pair model");
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("pair potential");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedPairPotentialCuda>(*spec.pairModel);
#endif
      break;
    case PotentialSpec::Kind::Gupta:
      if (spec.atoms < 2)
        throw std::invalid_argument(
            "makeBatchedPotentialForSpec: PotentialSpec.atoms must be >= 2 for a Gupta cluster, "
            "got " +
            std::to_string(spec.atoms));
      spec.gupta.check();
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("Gupta potential");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedGuptaCuda>(spec.atoms, spec.gupta);
#endif
      break;
    case PotentialSpec::Kind::Sites:
      if (!spec.siteModel)
        throw std::invalid_argument(
            "makeBatchedPotentialForSpec: PotentialSpec.siteModel must hold the sites of the "
            "rigid molecules");
      spec.siteModel->check();
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("site potential");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedSitePotentialCuda>(*spec.siteModel);
#endif
      break;
    case PotentialSpec::Kind::GayBerne: {
      const std::size_t ellipsoids = gayBerneEllipsoidsOf(spec);
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("Gay-Berne potential");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedGayBerneCuda>(spec.gayBerne, ellipsoids);
#endif
      (void)ellipsoids;
      break;
    }
    case PotentialSpec::Kind::SoftStickyDipole: {
      const std::size_t molecules = softStickyDipoleMoleculesOf(spec);
      if (backend == Backend::Cpu) return perStructureOnCpu(spec, options.threads);
      requireCuda("SSD water potential");
#ifdef LANDSCAPE_HAVE_CUDA
      return std::make_unique<BatchedSoftStickyDipoleCuda>(spec.softStickyDipole, molecules);
#endif
      (void)molecules;
      break;
    }
  }
  throw std::invalid_argument(
      "makeBatchedPotentialForSpec: PotentialSpec.kind holds an unknown value");
}

std::unique_ptr<BatchedPotential> makeSharedBatchedBase(const PotentialSpec& spec, Backend backend,
                                                        int threads, const RigidBodySystem* rigid) {
  BatchedPotentialOptions options;
  options.threads = threads;
  options.reserveBatch = backend == Backend::Cuda ? 256 : 1;
  options.gbLayout = AmberGbCudaLayout::Throughput;
  std::unique_ptr<BatchedPotential> base =
      rigid ? makeBatchedRigidPotential(spec, *rigid, backend, options)
            : makeBatchedPotentialForSpec(spec, backend, options);
  base->preferOnDevice();  // every search waits on its calls: ahead of other work on the device
  return base;
}

std::unique_ptr<BatchedPotential> makeBatchedRigidPotential(const PotentialSpec& spec,
                                                            const RigidBodySystem& system,
                                                            Backend backend,
                                                            const BatchedPotentialOptions& options) {
  std::unique_ptr<BatchedPotential> atomistic =
      makeBatchedPotentialForSpec(spec, backend, options);
  if (atomistic->dimension() != 3 * system.atomCount())
    throw std::invalid_argument("makeBatchedRigidPotential: the rigid-body system has " +
                                std::to_string(system.atomCount()) + " atoms, the potential " +
                                std::to_string(atomistic->dimension() / 3));
  if (backend == Backend::Cpu)
    return std::make_unique<OwningBatchedRigidBodyPotential>(std::move(atomistic), system,
                                                             options.threads);
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<OwningBatchedRigidBodyCuda>(std::move(atomistic), system,
                                                      std::max<std::size_t>(1, options.reserveBatch));
#else
  throw std::runtime_error("batched rigid bodies on cuda: this build has no CUDA support");
#endif
}

bool batchedPotentialIsDeviceResident(PotentialSpec::Kind kind, Backend backend) {
  if (backend != Backend::Cuda) return false;
  switch (kind) {  // the kinds makeBatchedPotentialForSpec builds on cuda, as it builds them
    case PotentialSpec::Kind::LennardJones:  // BatchedLennardJonesCuda
    case PotentialSpec::Kind::AmberGb:       // BatchedAmberGbCuda
    case PotentialSpec::Kind::Sop:           // BatchedSopCuda
    case PotentialSpec::Kind::Pair:          // BatchedPairPotentialCuda
    case PotentialSpec::Kind::Gupta:         // BatchedGuptaCuda
    case PotentialSpec::Kind::Sites:         // BatchedSitePotentialCuda
    case PotentialSpec::Kind::GayBerne:      // BatchedGayBerneCuda
    case PotentialSpec::Kind::SoftStickyDipole:  // BatchedSoftStickyDipoleCuda
      return true;
  }
  return false;
}

}  // namespace landscape
