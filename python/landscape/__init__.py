"""landscape: energy landscapes of clusters and biomolecules from Python (docs/python.md).

Units are the library's: Lennard-Jones and pair potentials in reduced units (energy epsilon,
length sigma, or r0 for Morse); AMBER-GB and SOP in kcal/mol and Angstrom. Coordinates are float64 arrays shaped (atoms, 3) or flat
(3 x atoms,), their shape kept; gradients are d(energy)/d(coordinate), never forces. CUDA potentials (backend='cuda') also take device arrays through DLPack without copies.

    import landscape
    lj = landscape.lennard_jones(38)
    result = landscape.basin_hopping(lj, landscape.BasinHoppingParams(steps=1000, seed=3))
    print(result.lowest[0].energy)

Pair systems (species, cutoffs, periodic boxes, tables): landscape.PairModel and
landscape.pair_potential(model), or landscape.kob_andersen, binary_lennard_jones, morse.
Gupta metal clusters (eV, lengths in r0): landscape.gupta(atoms, p, q, a, xi, r0),
landscape.gupta_metal(atoms, 'Pt'), landscape.batched_gupta.
Rigid molecules in rigid coordinates (centres, then angle-axis vectors): TIP4P water clusters
(kJ/mol, Angstrom) landscape.tip4p_cluster(N) with tip4p_from_gmin, tip4p_sites, tip4p_symbols;
Gay-Berne ellipsoids (reduced units) landscape.gay_berne_cluster(n, kappa=3, ...) with
gay_berne_coordinates, gay_berne_markers, gay_berne_centres_axes; SSD water (kcal/mol,
Angstrom) landscape.ssd_water_cluster(N) with ssd_water_atoms.

Submodules: landscape.network (network.h5 as numpy arrays and a networkx graph), landscape.plots
(matplotlib figures; also `python3 -m landscape.plots`), landscape.ase (an ASE calculator),
landscape.cuda (device arrays without CuPy or PyTorch).

Energy functions of your own: subclass landscape.Potential (define energy_gradient), wrap a
function with landscape.FunctionPotential, or an ASE calculator with
landscape.ase.CalculatorPotential; every algorithm takes them.
"""
from . import _landscape
from ._landscape import (  # noqa: F401
    BasinHoppingParams,
    BasinHoppingResult,
    BatchedMinimiser,
    BatchedPotential,
    ConnectParams,
    CoreSymmetryParams,
    DnebParams,
    LbfgsParams,
    LbfgsResult,
    Minimum,
    PairModel,
    PairParameters,
    PairTable,
    Potential,
    SopParams,
    SymmetrisationParams,
    SymmetrisationScheme,
    TransitionStateParams,
    amber_elements,
    amber_gb,
    basin_hopping,
    batched_lennard_jones,
    batched_minimiser,
    batched_minimiser_over,
    batched_pair_potential,
    batched_gupta,
    binary_lennard_jones,
    gupta,
    gupta_metal,
    gupta_metal_parameters,
    gay_berne_centres_axes,
    gay_berne_cluster,
    gay_berne_coordinates,
    gay_berne_markers,
    kob_andersen,
    morse,
    pair_potential,
    pair_table,
    ssd_water_atoms,
    ssd_water_cluster,
    walkers,
    characterise,
    descend,
    dneb,
    find_transition_state,
    cuda,
    lennard_jones,
    read_inpcrd,
    rigid_bodies,
    sop,
    sop_native_coordinates,
    tip4p_cluster,
    tip4p_from_gmin,
    tip4p_from_sites,
    tip4p_sites,
    tip4p_sites_from_gmin,
    tip4p_symbols,
    tip4p_to_gmin,
)

__version__ = getattr(_landscape, "__version__", "unknown")


class FunctionPotential(Potential):
    """A Python function as a Potential: f(x) -> (energy, gradient), x a float64 array shaped
    (atoms, 3), the gradient a float64 array of that shape (or flat), in units of your choosing
    (the algorithms' energies and lengths are then in them). Accepted wherever a potential is:
    minimise, basin_hopping, connect, characterise.

        def morse(x, rho=6.0):
            ...
            return energy, gradient
        potential = landscape.FunctionPotential(morse, atoms=13)
    """

    def __init__(self, function, atoms=None, dimension=None, name=None):
        if (atoms is None) == (dimension is None):
            raise ValueError("FunctionPotential: give atoms or dimension (3 x atoms), not both")
        if atoms is not None:
            dimension = 3 * _positive_int("FunctionPotential", "atoms", atoms)
        _check_function("FunctionPotential", function)
        super().__init__(_positive_int("FunctionPotential", "dimension", dimension),
                         name or getattr(function, "__name__", "Python function"))
        self.function = function

    def energy_gradient(self, x):
        return self.function(x)


def _positive_int(owner, what, value):
    """value, when it is a positive int (not a bool); ValueError naming owner and what otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{owner}: {what} must be a positive int, not {value!r}")
    return value


def _check_function(owner, function):
    if not callable(function):
        raise TypeError(f"{owner}: {function!r} is not callable")


class FunctionBatchedPotential(BatchedPotential):
    """A Python function on a batch as a BatchedPotential: f(X) -> (energies, gradients), X a
    float64 array (B, atoms, 3) of the structures the engine asks for, energies (B,) and
    gradients shaped like X, float64 numpy arrays, in units of your choosing. Drive it with
    landscape.batched_minimiser_over(potential, params).minimise(X), or landscape.walkers.
    device=True: f takes and returns CUDA arrays (DLPack: torch.from_dlpack(X), cupy.from_dlpack);
    engine='rounds' keeps the L-BFGS on the device.
    A function f(X, out) that takes `out` writes into the engine's arrays instead of returning
    new ones: out = (energies, gradients), e.g. torch.from_dlpack(out[1]).copy_(g), with no
    allocation or copy of the engine's per call (the fast path for device models).
    """

    def __init__(self, function, atoms, name=None, device=False):
        _check_function("FunctionBatchedPotential", function)
        super().__init__(3 * _positive_int("FunctionBatchedPotential", "atoms", atoms),
                         name or getattr(function, "__name__", "Python function"), device)
        self.function = function
        self.fills_out = _takes_out(function)

    def energy_gradient(self, x, out=None):
        return self.function(x) if out is None else self.function(x, out=out)


def _takes_out(function):
    """True when function has a parameter named out (it writes into the engine's arrays)."""
    import inspect

    try:
        return "out" in inspect.signature(function).parameters
    except (TypeError, ValueError):  # a callable without a signature to read
        return False


def _is_cuda_array(x):
    """True for objects that say (DLPack) that their data live on a CUDA device."""
    device = getattr(x, "__dlpack_device__", None)
    return device is not None and not hasattr(x, "__array_interface__") and device()[0] == 2


def minimise(potential, x, params=None, lbfgs_backend="cpu", callback=None):
    """GMIN's L-BFGS from x; returns (x_min shaped like x, LbfgsResult).

    x is a host array, or a CUDA device array (DLPack: CuPy, PyTorch, landscape.cuda). A device
    array is minimised in place with the whole L-BFGS on the GPU (lbfgs_backend is then 'gpu'):
    its 3N coordinates enter and leave the L-BFGS workspace through one host copy each way, and
    every energy and gradient of the minimisation stays on the device. See
    landscape._landscape.minimise for the parameters.
    """
    params = LbfgsParams() if params is None else params
    if _is_cuda_array(x):
        host = cuda.to_host(x)
        x_min, result = _landscape.minimise(potential, host, params, "gpu", callback)
        cuda.copy_from_host(x, x_min)
        return x, result
    return _landscape.minimise(potential, x, params, lbfgs_backend, callback)


def connect(potential, start, finish, params=None, **options):
    """optim's connect between two minima; returns a landscape.network.Network with the result
    fields (status, connected, path, ...) in its `run` dict. With characterise=True every
    minimum and transition state gets optim's log product, point-group order, moments and
    spectrum, so that Network.rates and `pathsample rates` accept the network (prmtop= for a
    molecule's masses). See landscape._landscape.connect."""
    from .network import Network

    data = _landscape.connect(potential, start, finish,
                              ConnectParams() if params is None else params, **options)
    run = {key: data.pop(key) for key in
           ("status", "connected", "cycles", "dneb_runs", "gradient_calls", "path")}
    network = Network(data)
    network.run = run
    return network


def grow(potential, network, cycles=1, **options):
    """PATHSAMPLE's network growth (`pathsample grow`) for any potential, Python ones included:
    `cycles` cycles of connect runs between pairs chosen by selection='untrap', 'shortcut' or
    'dijkstra', merged into the network. `network` is a landscape.network.Network (as connect
    returns it) or its dict, with set_a and set_b; returns the grown Network, its `growth` field
    the growth record and its `run` dict what this call did (cycles, pairs, connected,
    new_minima, new_transition_states, known_transition_states, repeated_transition_states,
    gradient_calls, status). See landscape._landscape.grow."""
    from .network import Network

    data = network._arrays() if isinstance(network, Network) else dict(network)
    grown = _landscape.grow(potential, data, cycles, **options)
    run = {key: grown.pop(key) for key in ("cycles", "pairs", "connected", "new_minima",
                                           "new_transition_states", "known_transition_states",
                                           "repeated_transition_states", "gradient_calls",
                                           "status")}
    result = Network(grown)
    result.run = run
    return result
