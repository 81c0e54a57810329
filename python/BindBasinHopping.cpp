// GMIN basin-hopping (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 2.1) with a
// Python callback per quench. Energies and kT in the potential's energy unit, lengths in its length
// unit (GMIN's convention).
#include <Python.h>
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>

#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/PairModelHooks.h"
#include "landscape/search/ProteinMoves.h"
#include "potentials/AmberTopology.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/PairModels.h"
#include "python/Params.h"
#include "landscape/search/RigidBodySearch.h"
#include "python/RigidMolecules.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

constexpr double kPi = 3.14159265358979323846;

/// Calls on_quench(report) after every quench; a callback that returns True stops the run (the
/// saved minima are still re-quenched and returned), and so does Ctrl-C (KeyboardInterrupt is
/// raised once the run has returned).
class CallbackObserver : public BasinHoppingObserver {
 public:
  explicit CallbackObserver(nb::object onQuench) : m_onQuench(std::move(onQuench)) {}

  void onQuench(const QuenchReport& q) override {
    if (m_onQuench.is_none()) return;
    nb::dict r;
    r["quench"] = q.quench;
    r["energy"] = q.energy;
    r["markov_energy"] = q.markovEnergy;
    r["accepted"] = q.accepted;
    r["iterations"] = q.lbfgsIterations;
    r["rms_gradient"] = q.rmsGradient;
    r["status"] = lbfgsStatusName(q.status);
    r["rejected"] = q.evaporated || q.failed;
    r["reject_reason"] = q.rejectReason;
    r["function_calls"] = q.functionCalls;
    m_stop = m_stop || nb::cast<bool>(nb::bool_(m_onQuench(r)));
  }
  bool stopRequested() override {
    if (PyErr_CheckSignals() != 0) throw nb::python_error();
    return m_stop;
  }

 private:
  nb::object m_onQuench;
  bool m_stop = false;
};

// GMIN's symmetry-adapted moves (landscape/search/SymmetrisationParams.h).
void bindSymmetrisationParams(nb::module_& m) {
  nb::enum_<SymmetrisationParams::Scheme>(m, "SymmetrisationScheme",
                                          "off; core: GMIN's SYMMETRISE; csm: SYMMETRISECSM")
      .value("off", SymmetrisationParams::Scheme::Off)
      .value("core", SymmetrisationParams::Scheme::CoreCompletion)
      .value("csm", SymmetrisationParams::Scheme::Csm);
  using C = CoreSymmetryParams;
  ParamsClass<C>(m, "CoreSymmetryParams",
                 "SYMMETRISE's tolerances (lengths) and limits "
                 "(landscape/geometry/CoreSymmetryCompletion.h)")
      .field("orbit_tolerance", &C::orbitTolerance, "SYMTOL1: one shell within this (length)")
      .field("symmetry_tolerance", &C::symmetryTolerance, "SYMTOL2: point-group tolerance")
      .field("occupied_tolerance", &C::occupiedTolerance, "SYMTOL3: an image this near is an atom")
      .field("hole_merge_tolerance", &C::holeMergeTolerance, "SYMTOL4: holes this near are one")
      .field("overlap_distance", &C::overlapDistance, "SYMTOL5: a hole is this far from atoms")
      .field("max_candidates", &C::maxCandidates, "NSYMQMAX: candidate quenches per attempt")
      .field("centre_decay", &C::centreDecay, "DISTFAC: core-weighted centre (1/length)")
      .done();
  using S = SymmetrisationParams;
  ParamsClass<S>(m, "SymmetrisationParams",
                 "GMIN's SYMMETRISE / SYMMETRISECSM (Oakley, Johnston and Wales 2013) for clusters "
                 "of identical atoms")
      .field("scheme", &S::scheme, "SymmetrisationScheme.off, .core or .csm")
      .field("interval", &S::interval, "quenches between attempts (NSYMINTERVAL)")
      .field("core", &S::core, "CoreSymmetryParams of SYMMETRISE")
      .field("csm_group", &S::csmGroup, "CSM point group: 'CI' only")
      .field("csm_quenches", &S::csmQuenches, "CSMQUENCHES: quenches per attempt")
      .done();
}

void bindParams(nb::module_& m) {
  bindSymmetrisationParams(m);
  using P = BasinHoppingParams;
  ParamsClass<P>(m, "BasinHoppingParams",
                 "GMIN basin-hopping settings (docs/gmin-keywords.md names the keyword of each). "
                 "Energies and kT in the potential's energy unit, lengths in its length unit.")
      .field("steps", &P::steps, "basin-hopping steps (STEPS)")
      .field("temperature", &P::temperature, "Metropolis kT (energy; TEMPERATURE)")
      .field("step_size", &P::stepSize, "max displacement per coordinate (length; STEP)")
      .field("angular_threshold", &P::angularThreshold, "ASTEP angular move threshold; 0 = off")
      .field("step_adjust_interval", &P::stepAdjustInterval, "quenches per step adjustment")
      .field("target_acceptance", &P::targetAcceptance, "acceptance ratio aimed at (ACCRAT)")
      .field("step_adjust_factor", &P::stepAdjustFactor, "step size multiplied/divided by this")
      .field("fixed_step", &P::fixedStep,
             "keep step_size fixed: no adjustment toward target_acceptance (GMIN's FIXBOTH)")
      .field("save_count", &P::saveCount, "lowest distinct minima kept (SAVE)")
      .field("energy_difference", &P::energyDifference, "minima closer are the same (EDIFF)")
      .field("sloppy_rms", &P::sloppyRms, "RMS gradient of quenches during the run (energy/length)")
      .field("sloppy_max_iterations", &P::sloppyMaxIterations, "L-BFGS cap during the run")
      .field("tight_rms", &P::tightRms, "RMS gradient of the final re-quench (energy/length)")
      .field("tight_max_iterations", &P::tightMaxIterations, "L-BFGS cap of the re-quench")
      .field("centre", &P::centre, "remove the centre of mass after every step (CENTRE)")
      .field("container_radius", &P::containerRadius, "container radius (length); 0 = GMIN's")
      .field("container", &P::container, "False for molecules: no container")
      .field("new_restart_steps", &P::newRestartSteps, "NEWRESTART; 0 = off")
      .field("avoid_distance", &P::avoidDistance, "AVOID taboo distance (length); 0 = off")
      .field("avoid_max_saved", &P::avoidMaxSaved, "AVOID taboo list length")
      .field("avoid_reseeds", &P::avoidReseeds, "AVOID: restarts reseed (True) or reject")
      .field("crowd_limit", &P::crowdLimit,
             "walkers: at most this many on one minimum (Markov energies within EDIFF) after a "
             "round, the others reseeded; 0 = no limit")
      .field("target_energy", &P::targetEnergy, "stop at the first minimum at or below this")
      .field("seed", &P::seed, "random seed; the same seed gives the same run")
      .field("cold_fusion_drop", &P::coldFusionDrop, "failed quench below lowest - this (energy)")
      .field("lbfgs", &P::lbfgs, "LbfgsParams of every quench")
      .field("symmetrisation", &P::symmetrisation,
             "SymmetrisationParams: SYMMETRISE / SYMMETRISECSM moves (off by default)")
      .done()
      .def_static("gmin_lj38_example", &gminLj38ExampleParams,
                  "gmin's defaults for clusters (GMIN's LJ38 example: SAVE 2, EDIFF 0.003, "
                  "SLOPPYCONV 5e-3, TIGHTCONV 1e-3, NEWRESTART 40, AVOID 4.0 20 F, ASTEP 0.51, "
                  "...); basin_hopping's params when none are given for a cluster")
      .def_static("gmin_molecule", &gminAmberDefaultParams,
                  "gmin's defaults for a molecule (--prmtop or --sop-pdb without a data file; "
                  "kcal/mol and Angstrom: kT 0.6, steps up to 0.3 A, no container, SAVE 10, EDIFF "
                  "0.01, SLOPPYCONV 1e-2 within 20000 iterations, TIGHTCONV 1e-4, 100 steps); "
                  "basin_hopping's params when none are given for AMBER-GB or SOP")
      .def_static("gmin_water", &gminWaterDefaultParams,
                  "gmin --water's defaults (after GMIN's TIP4P example; kJ/mol and Angstrom: kT "
                  "4, no Cartesian step (the rigid-body moves do the moving), no container, SAVE 10, "
                  "EDIFF 0.01, SLOPPYCONV 0.1 within 10000 iterations, TIGHTCONV 1e-4, MAXBFGS "
                  "0.5, 10000 steps); basin_hopping's params when none are given for "
                  "tip4p_cluster");
}

void bindResult(nb::module_& m) {
  nb::class_<StoredMinimum>(m, "Minimum", "A minimum found by basin-hopping.")
      .def_ro("energy", &StoredMinimum::energy, "energy unit of the potential")
      .def_prop_ro(
          "coordinates", [](const StoredMinimum& s) { return numpyCoordinates(s.coordinates); },
          nb::rv_policy::automatic, "(atoms, 3) in the length unit")
      .def_ro("first_found_step", &StoredMinimum::firstFoundStep, "quench that found it")
      .def_ro("function_calls", &StoredMinimum::functionCalls, "energy+gradient calls by then");
  using R = BasinHoppingResult;
  nb::class_<R>(m, "BasinHoppingResult", "What a basin-hopping run found.")
      .def_ro("lowest", &R::lowest, "saved minima, re-quenched tightly, lowest first")
      .def_ro("quenches", &R::quenches)
      .def_ro("stopped_early", &R::stoppedEarly)
      .def_ro("function_calls", &R::functionCalls)
      .def_ro("restarts", &R::restarts)
      .def_ro("failed_quenches", &R::failedQuenches)
      .def_ro("target_reached", &R::targetReached)
      .def_ro("target_quench", &R::targetQuench)
      .def_ro("final_step_size", &R::finalStepSize);
}

// gmin's choice of defaults: the molecule's for AMBER-GB and SOP (named so by the library's
// potentials), the LJ38 example's for everything else.
BasinHoppingParams gminDefaultsFor(const Potential& potential) {
  const std::string name = potential.name();
  const bool molecule = name.rfind("AMBER GB", 0) == 0 || name.rfind("SOP ", 0) == 0;
  return molecule ? gminAmberDefaultParams() : gminLj38ExampleParams();
}

BasinHoppingResult basinHopping(
    Potential& potential, const std::optional<BasinHoppingParams>& given,
    std::optional<HostIn> start, nb::object onQuench, const std::string& lbfgsBackend,
    const std::optional<std::filesystem::path>& prmtop, double groupRotation,
    double groupRotationAngle, bool stereoChecks, std::optional<double> rigidTranslation,
    std::optional<double> rigidRotation, std::optional<double> rigidProbability) {
  // A periodic pair system: gmin's cluster defaults without what assumes a cluster, and given
  // settings that cannot work in a box refused (python/PairModels.h). Rigid water and
  // ellipsoids: the settings their constructors recorded (python/RigidMolecules.h).
  const PairModel* model = pairModelOf(potential);
  const bool box = model && model->box.periodic();
  const std::optional<RigidSearchDefaults> rigidDefaults = rigidSearchDefaultsOf(potential);
  const BasinHoppingParams params = given           ? *given
                                    : rigidDefaults ? rigidDefaults->params
                                    : box ? boxBasinHoppingParams(gminDefaultsFor(potential))
                                          : gminDefaultsFor(potential);
  if (model) requireBoxBasinHopping(*model, params, "basin_hopping");
  std::vector<double> x;
  if (start) {
    requireCoordinates(start->size(), potential.dimension(), shapeOf(*start), "basin_hopping",
                       "start");
    requireFinite(start->data(), start->size(), "basin_hopping", "start");
    x.assign(start->data(), start->data() + start->size());
  } else if (rigidDefaults) {
    x = rigidDefaults->start;  // gay_berne_cluster: the lattice; tip4p_cluster: none (random)
  }
  // gmin --prmtop's moves and checks (GMIN's GROUPROTATION and its AMBER stereochemistry
  // checks): side-chain groups rotated after the Cartesian step, and minima whose chirality or
  // peptide cis/trans states differ from the start's rejected.
  // A pair model's species and box (landscape/search/PairModelHooks.h), as gmin's.
  BasinHoppingHooks hooks = model ? pairModelHooks(*model) : BasinHoppingHooks{};
  std::optional<AmberTopology> topology;
  std::unique_ptr<StereoChecks> stereo;
  if (prmtop) {
    topology = readAmberTopology(prmtop->string());
    if (3 * static_cast<std::size_t>(topology->atomCount) != potential.dimension())
      throw std::invalid_argument("basin_hopping: " + prmtop->string() + " has " +
                                  std::to_string(topology->atomCount) +
                                  " atoms but the potential " + potential.name() + " has " +
                                  std::to_string(potential.dimension() / 3));
    if (!start)
      throw std::invalid_argument(
          "basin_hopping: with prmtop, give the molecule's start "
          "(read_inpcrd): a random cluster is no molecule");
    if (!(groupRotation >= 0.0 && groupRotation <= 1.0))
      throw std::invalid_argument("basin_hopping: group_rotation must be in [0, 1], not " +
                                  numberText(groupRotation));
    const std::vector<RotatableGroup> groups = findSideChainGroups(*topology);
    if (groupRotation > 0.0 && !groups.empty())
      hooks.extraMove = [groups, groupRotation, groupRotationAngle](std::vector<double>& y,
                                                                    Random& random) {
        rotateGroups(groups, y, groupRotation, groupRotationAngle, random);
      };
    if (stereoChecks) {
      stereo = std::make_unique<StereoChecks>(*topology, x);
      hooks.rejectReason = [&stereo](const std::vector<double>& y) { return stereo->violation(y); };
    }
  }
  // Rigid-body coordinates (tip4p_cluster, gay_berne_cluster, rigid_bodies): gmin's rigid-body
  // moves, CENTRE and the container on the atoms, and random rigid starts.
  if (const RigidBodySystem* rigid = rigidBodySystemOf(potential)) {
    RigidBodyMoveParams moves = rigidDefaults ? rigidDefaults->moves : RigidBodyMoveParams{};
    if (rigidTranslation) moves.translation = *rigidTranslation;
    if (rigidRotation) moves.rotation = *rigidRotation;
    if (rigidProbability) moves.probability = *rigidProbability;
    moves.check();
    const double startRadius = params.container && params.containerRadius > 0.0
                                   ? params.containerRadius
                               : rigidDefaults ? rigidDefaults->startRadius
                                               : 0.0;
    installRigidBodyHooks(*rigid, moves, startRadius, hooks);
  } else if (rigidTranslation || rigidRotation || rigidProbability) {
    throw std::invalid_argument(
        "basin_hopping: rigid_translation, rigid_rotation and "
        "rigid_probability move rigid bodies, and " +
        potential.name() + " has none (tip4p_cluster, gay_berne_cluster, rigid_bodies)");
  }
  BasinHopping search(potential, params, lbfgsWorkspaceFactory(parseLbfgsBackend(lbfgsBackend)),
                      std::move(hooks));
  CallbackObserver observer(std::move(onQuench));
  BasinHoppingResult result = search.run(std::move(x), &observer);
  // A run whose every quench failed saved nothing: say so instead of returning an empty list.
  if (result.lowest.empty() && result.failedQuenches > 0) {
    const std::string message =
        "basin_hopping: every one of the " + std::to_string(result.failedQuenches) +
        " quenches failed (none converged to sloppy_rms " + numberText(params.sloppyRms) +
        " within sloppy_max_iterations " + std::to_string(params.sloppyMaxIterations) +
        "), so no minimum was saved. BasinHoppingParams() holds generic defaults; "
        "BasinHoppingParams.gmin_molecule() and gmin_lj38_example() are gmin's (for a molecule: "
        "more iterations, no container, steps in Angstrom); see on_quench's 'status' and "
        "'reject_reason'";
    if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) != 0) throw nb::python_error();
  }
  return result;
}

}  // namespace

void bindBasinHopping(nb::module_& m) {
  bindParams(m);
  bindResult(m);
  m.def(
      "basin_hopping", &basinHopping, "potential"_a, "params"_a = nb::none(),
      "start"_a = nb::none(), "on_quench"_a = nb::none(), "lbfgs_backend"_a = "cpu",
      "prmtop"_a = nb::none(), "group_rotation"_a = 0.1, "group_rotation_angle"_a = kPi,
      "stereo_checks"_a = true, "rigid_translation"_a = nb::none(), "rigid_rotation"_a = nb::none(),
      "rigid_probability"_a = nb::none(),
      "GMIN basin-hopping on the potential from `start` (atoms x 3), or from a random cluster "
      "drawn from params.seed. params: gmin's own defaults when not given "
      "(BasinHoppingParams.gmin_molecule() for AMBER-GB and SOP, gmin_lj38_example() "
      "otherwise; for a periodic pair potential without the container and angular moves, as "
      "gmin --box; for tip4p_cluster and gay_berne_cluster the settings their docstrings "
      "give). A rigid-body potential (tip4p_cluster, gay_berne_cluster, rigid_bodies) is "
      "searched in its rigid coordinates as gmin --water and --rigid do: after the Cartesian "
      "step each body is moved with probability rigid_probability by up to rigid_translation "
      "(length) and rotated by up to rigid_rotation (radians, <= pi) about its centre "
      "(defaults: the constructor's, else no rigid move and probability 1), CENTRE and the "
      "container act on the atoms, tip4p_cluster starts from a random rigid cluster (centres in a "
      "ball, uniform orientations) and gay_berne_cluster from a lattice of parallel ellipsoids "
      "at the wells' distances, as gmin --ellipsoids. A pair potential's minima are "
      "compared with its species' permutations and "
      "box, and in a box random starts and reseeds are uniform in it and every trial is "
      "wrapped back into it, as gmin's. on_quench(report) is "
      "called after every quench with a dict "
      "(quench, energy, markov_energy, accepted, iterations, rms_gradient, status, rejected, "
      "reject_reason, function_calls); returning True stops the run. Failed quenches are "
      "rejected, never saved. prmtop (an AMBER molecule; start required): gmin --prmtop's "
      "moves and checks, each side-chain group rotated with probability group_rotation by up "
      "to group_rotation_angle radians after the Cartesian step, and with stereo_checks "
      "minima whose chirality or peptide cis/trans states differ from the start's rejected "
      "(reject_reason names the change).");
}

}  // namespace landscape::python
