"""Transition networks as numpy arrays and networkx graphs.

A Network holds the fields of optim's network.h5 (docs/database.md) and of PATHSAMPLE's
min.data/ts.data, as arrays:
  minima_energy (n), minima_coordinates (n, atoms, 3), minima_log_product (n),
  minima_point_group_order (n), minima_principal_moments (n, 3),
  ts_energy (m), ts_coordinates (m, atoms, 3), ts_minima (m, 2) (0-based minima),
  ts_eigenvalue (m), ts_log_product, ts_point_group_order, ts_principal_moments;
  minima_hessian_eigenvalues (n, 3 atoms) and ts_hessian_eigenvalues when computed (NaN rows: not);
  set_a, set_b: PATHSAMPLE's endpoint sets min.A and min.B (0-based; empty when not set);
  growth: the state of a `pathsample grow` run (cycles, settings, tried_pairs, pending_pairs);
plus `metadata` (energy_unit, length_unit, atoms, potential, program, created_by,
hessian_masses). Unknown values are NaN (point-group order 0). Energies are in
metadata['energy_unit'] (reduced epsilon for Lennard-Jones, kcal/mol for AMBER-GB and SOP).

Minima are numbered as numpy numbers rows, from 0: minimum i is line i + 1 of PATHSAMPLE's
min.data. Every index a method takes or returns (sets a and b, ts_minima, groups, committors'
positions) is 0-based.

Kinetics (as `pathsample rates`, `committors` and `regroup`; docs/pathsample.md): rates(),
committors(), regroup(); the disconnectivity graph: disconnectivity_graph() and
plot_disconnectivity().
"""
import os

import numpy as np

from . import _landscape


class Network:
    def __init__(self, data):
        self.data = dict(data)
        self.run = {}
        for group in ("minima", "ts"):  # optional fields: unknown when absent
            count = len(self.data[f"{group}_energy"])
            self.data.setdefault(f"{group}_log_product", np.full(count, np.nan))
            self.data.setdefault(f"{group}_point_group_order", np.zeros(count, dtype=np.int64))
            self.data.setdefault(f"{group}_principal_moments", np.full((count, 3), np.nan))
        self.data.setdefault("ts_eigenvalue", np.full(len(self.data["ts_energy"]), np.nan))
        for key in ("set_a", "set_b"):
            self.data.setdefault(key, np.zeros(0, dtype=np.int64))

    # ---- the arrays ----
    def __getattr__(self, name):
        data = self.__dict__.get("data", {})
        if name in data:
            return data[name]
        raise AttributeError(name)

    @property
    def metadata(self):
        return self.data["metadata"]

    @property
    def energy_unit(self):
        return self.metadata["energy_unit"]

    @property
    def minima_count(self):
        return len(self.data["minima_energy"])

    @property
    def ts_count(self):
        return len(self.data["ts_energy"])

    def __repr__(self):
        return (f"Network({self.minima_count} minima, {self.ts_count} transition states, "
                f"energies in {self.energy_unit})")

    def _arrays(self):
        """self.data with lists and tuples as numpy arrays, as the bindings take them."""
        out = {}
        for key, value in self.data.items():
            if key == "growth" and isinstance(value, dict):
                value = {k: (np.asarray(v, dtype=np.int64).reshape(-1, 2) if k.endswith("_pairs")
                             else v) for k, v in value.items()}
            elif key != "metadata" and isinstance(value, (list, tuple)):
                value = np.asarray(value)
            out[key] = value
        return out

    # ---- files ----
    @classmethod
    def read(cls, path):
        """A network or minima database (HDF5) written by optim, gmin or write()."""
        return cls(_landscape.read_network(os.fspath(path)))

    def write(self, path):
        """Writes the HDF5 network (docs/database.md), atomically."""
        _landscape.write_network(os.fspath(path), self._arrays())

    @classmethod
    def from_pathsample(cls, directory, energy_unit="reduced (epsilon)",
                        length_unit="reduced (sigma)", atoms=None):
        """Reads PATHSAMPLE's min.data and ts.data (and points.min/points.ts when present: raw
        little-endian float64 records of 3 x atoms coordinates) from `directory`.

        min.data lines: energy, ln product of positive Hessian eigenvalues, point-group order,
        three principal moments of inertia. ts.data lines: energy, ln product, order, the two
        minima (1-based lines of min.data), moments. Coordinates are NaN when points files are
        absent. min.A and min.B, when present, become set_a and set_b (0-based). Raises
        ValueError naming the file and line for malformed lines.
        """
        minima = _read_table(os.path.join(directory, "min.data"), 6)
        states = _read_table(os.path.join(directory, "ts.data"), 8)
        n, m = len(minima), len(states)
        ends = states[:, 3:5].astype(np.int64) - 1
        bad = np.argwhere((ends < 0) | (ends >= n))
        if len(bad):
            raise ValueError(f"{directory}/ts.data:{bad[0][0] + 1}: minimum "
                             f"{ends[tuple(bad[0])] + 1} is not a line of min.data ({n} minima)")
        if atoms is None:
            atoms = _atoms_from_points(os.path.join(directory, "points.min"), n)
        data = {
            "metadata": {"potential": "pathsample", "energy_unit": energy_unit,
                         "length_unit": length_unit, "atoms": atoms or 1,
                         "program": "PATHSAMPLE"},
            "minima_energy": minima[:, 0], "minima_log_product": minima[:, 1],
            "minima_point_group_order": minima[:, 2].astype(np.int64),
            "minima_principal_moments": minima[:, 3:6],
            "ts_energy": states[:, 0], "ts_log_product": states[:, 1],
            "ts_point_group_order": states[:, 2].astype(np.int64), "ts_minima": ends,
            "ts_principal_moments": states[:, 5:8], "ts_eigenvalue": np.full(m, np.nan),
        }
        for key, name in (("set_a", "min.A"), ("set_b", "min.B")):
            path = os.path.join(directory, name)
            if os.path.exists(path):
                values = read_minima_list(path)
                bad = [v + 1 for v in values if not 0 <= v < n]
                if bad:
                    raise ValueError(f"{path}: minimum {bad[0]} is not a line of min.data "
                                     f"({n} minima)")
                data[key] = np.array(values, dtype=np.int64)
        for group, count in (("minima", n), ("ts", m)):
            points = os.path.join(directory, "points.min" if group == "minima" else "points.ts")
            data[f"{group}_coordinates"] = (_read_points(points, count, atoms) if atoms
                                            else np.full((count, 1, 3), np.nan))
        return cls(data)

    # ---- kinetics ----
    def rates(self, temperature, a=None, b=None, units="auto", regroup_threshold=None,
              planck=None):
        """Rate constants between minima sets a and b by the graph transformation, as
        `pathsample rates` (NGT) computes them, from harmonic transition-state rates.

        temperature: kT in the energy unit with units='reduced' (Lennard-Jones), Kelvin with
        units='molecular' (kcal/mol networks with mass-weighted Hessians; rates in s^-1);
        'auto' (default) is molecular when metadata['hessian_masses'] is 'amu'. a, b: 0-based
        minima (default set_a and set_b, the network's min.A and min.B). regroup_threshold: rates
        between the free-energy groups at that barrier (PATHSAMPLE's REGROUPFREE, energy unit);
        planck: Planck's constant for regrouping (kcal/mol s with molecular units; default
        CODATA's for molecular, none for reduced).

        Returns a dict: k_ab, kss_ab, knss_ab are PATHSAMPLE's k(A<-B), kSS(A<-B), kNSS(A<-B)
        (from b to a; NGT.rates.new's second column), k_ba, kss_ba, knss_ba the other way,
        mfpt_ab and mfpt_ba the mean first-passage times (time unit), log_k_ab, ..., log_mfpt_ba
        their natural logarithms (always finite: the graph transformation works in logarithms),
        representable (False where a value lies beyond double precision, e.g. LJ38 at kT = 0.002,
        k ~ exp(-2235): the linear fields are then None), detailed_balance (ratios that should
        be 1), connected_minima, rate_unit, time_unit, kT, a, b (and groups when regrouped).
        Raises ValueError for bad sets, temperatures or uncharacterised points.
        """
        return _landscape.network_rates(
            self._arrays(), float(temperature), _minima_list(a), _minima_list(b), units,
            np.nan if regroup_threshold is None else float(regroup_threshold),
            np.nan if planck is None else float(planck))

    def committors(self, temperature, a=None, b=None, units="auto"):
        """Committor probabilities: for each minimum, the probability of reaching a before b
        (1 on a, 0 on b, NaN for minima not connected to both), as PATHSAMPLE's commit.data with
        DIRECTION AB. Arguments as rates()."""
        return _landscape.network_committors(self._arrays(), float(temperature), _minima_list(a),
                                             _minima_list(b), units)

    def regroup(self, threshold, temperature, planck=None, units="auto"):
        """Free-energy groups of minima at a barrier threshold (energy unit), as PATHSAMPLE's
        REGROUPFREE: returns {'group_of_minimum': 0-based group of each minimum (groups ordered
        by free energy), 'free_energy': F of each group (energy unit), 'members': arrays of
        0-based minima}. temperature, units and planck as rates()."""
        return _landscape.network_regroup(self._arrays(), float(threshold), float(temperature),
                                          units, np.nan if planck is None else float(planck))

    # ---- graphs ----
    def to_networkx(self):
        """A networkx.MultiGraph: one node per minimum (attributes energy, log_product,
        point_group_order), one edge per transition state (attributes ts (index), energy,
        barrier_forward/backward = E_ts - E of each end). Parallel edges are distinct
        transition states between the same minima."""
        import networkx as nx

        g = nx.MultiGraph()
        e = self.data["minima_energy"]
        for i in range(self.minima_count):
            g.add_node(i, energy=float(e[i]),
                       log_product=float(self.data["minima_log_product"][i]),
                       point_group_order=int(self.data["minima_point_group_order"][i]))
        for t, (a, b) in enumerate(self.data["ts_minima"]):
            ets = float(self.data["ts_energy"][t])
            g.add_edge(int(a), int(b), key=t, ts=t, energy=ets,
                       barrier_forward=ets - float(e[a]), barrier_backward=ets - float(e[b]))
        return g

    def disconnectivity_graph(self, levels=20, top=None, spacing=None, all_minima=False):
        """The disconnectivity-graph layout (Becker and Karplus 1997; Wales, Miller and Walsh
        1998): a dict with 'segments' (k, 4: x0, E0, x1, E1), 'segment_minima', 'levels' (top
        first), 'minima' drawn (0-based), their 'minimum_x' and 'lowest_energy'
        (landscape._landscape.disconnectivity_layout). levels: levels below the top one; top:
        energy of the top level (default just above the highest transition state); spacing:
        energy between levels; all_minima: also minima not connected to the global minimum."""
        if int(levels) != levels or levels < 1:
            raise ValueError(f"disconnectivity_graph: levels must be an integer >= 1, got {levels}")
        return _landscape.disconnectivity_layout(
            np.asarray(self.data["minima_energy"], dtype=float),
            np.asarray(self.data["ts_energy"], dtype=float),
            np.asarray(self.data["ts_minima"], dtype=float).reshape(-1, 2),
            int(levels), np.nan if top is None else float(top),
            np.nan if spacing is None else float(spacing), bool(all_minima))

    disconnectivity = disconnectivity_graph  # the earlier name

    def plot_disconnectivity(self, levels=20, colour_sets=None, **options):
        """The disconnectivity graph as a matplotlib Figure (landscape.plots.disconnectivity:
        levels counts the top one; first, delta, all_minima, label_minima, identify, ax, title).
        colour_sets defaults to {'A': set_a, 'B': set_b} when the network has endpoint sets."""
        from . import plots

        if colour_sets is None and len(self.data["set_a"]) and len(self.data["set_b"]):
            colour_sets = {"A": [int(m) for m in self.data["set_a"]],
                           "B": [int(m) for m in self.data["set_b"]]}
        return plots.disconnectivity(self, levels=levels, colour_sets=colour_sets, **options)


def graph_rates(nodes, edges, rates, a, b, log_equilibrium=None):
    """The graph transformation on a bare continuous-time Markov chain (pele's rate maps):
    `edges` (k, 2) of 0-based nodes, `rates` (k) of k(from -> to) > 0, optional ln equilibrium
    weights of the nodes (default all equal). Returns the dict of Network.rates (in the rates'
    unit) plus committor_a."""
    return _landscape.graph_rates(int(nodes), np.asarray(edges, dtype=float).reshape(-1, 2),
                                  np.asarray(rates, dtype=float).reshape(-1), _minima_list(a),
                                  _minima_list(b),
                                  None if log_equilibrium is None
                                  else np.asarray(log_equilibrium, dtype=float))


def _minima_list(values):
    """A set of minima as a list of Python ints (None stays None; one integer is a set of one);
    fractions and non-numbers are refused with ValueError."""
    if values is None:
        return None
    array = np.atleast_1d(np.asarray(values))
    if array.ndim != 1:
        raise ValueError(f"a set of minima must be one-dimensional, got shape {array.shape}")
    if array.size and array.dtype.kind not in "iu":
        if array.dtype.kind == "f" and np.all(np.isfinite(array)) and \
                np.all(array == np.round(array)):
            array = array.astype(np.int64)
        else:
            raise ValueError(f"a set of minima must hold integers (0-based), got {values!r}")
    return [int(v) for v in array]


def read_minima_list(path):
    """PATHSAMPLE's min.A / min.B: a count, then that many 1-based minima; returns 0-based."""
    with open(path) as f:
        words = f.read().split()
    try:
        count = int(words[0])
        values = [int(w) - 1 for w in words[1:1 + count]]
    except (IndexError, ValueError):
        raise ValueError(f"{path}: expected a count and then that many minimum numbers") from None
    if len(values) != count:
        raise ValueError(f"{path}: the count says {count} minima but {len(values)} follow")
    return values


def _read_table(path, columns):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) < columns:
                raise ValueError(f"{path}:{number}: expected {columns} columns, "
                                 f"found {len(fields)}")
            try:
                rows.append([float(v.replace("D", "E")) for v in fields[:columns]])
            except ValueError:
                raise ValueError(f"{path}:{number}: a field is not a number: {line.strip()}") \
                    from None
    return np.array(rows, dtype=float).reshape(-1, columns)


def _atoms_from_points(path, count):
    if not os.path.exists(path) or count == 0:
        return None
    size = os.path.getsize(path)
    if size % (24 * count):
        raise ValueError(f"{path}: {size} bytes is not {count} records of 3N float64")
    return size // (24 * count)


def _read_points(path, count, atoms):
    if not os.path.exists(path):
        return np.full((count, atoms, 3), np.nan)
    values = np.fromfile(path, dtype="<f8")
    if values.size != count * atoms * 3:
        raise ValueError(f"{path}: {values.size} values, expected {count} x {atoms} x 3")
    return values.reshape(count, atoms, 3)
