#!/usr/bin/env python3
"""Reference rate constants and committors of a PATHSAMPLE network at low temperature, by dense
linear algebra in arbitrary precision (mpmath), for tests/GraphTransformationTest.cpp.

The graph transformation (landscape/network/GraphTransformation.cpp) is checked against an
independent method: the committor and first-passage equations of the continuous-time Markov chain
solved by LU decomposition with mpmath at a precision large enough that the cancellations of
ordinary elimination (rates that span hundreds of orders of magnitude at low temperature) do not
matter. Each case is solved at two precisions and the script stops when they differ.

Rates are PATHSAMPLE's harmonic rates (docs/pathsample.md, landscape/network/HarmonicRates.h):
  k(m -> n over ts) = o_m / (2 pi o_ts) exp((F_m - F_ts) / 2) exp(-(E_ts - E_m) / kT)
  p_m proportional to exp(-E_m / kT - F_m / 2) / o_m
with the inputs read as IEEE doubles (as the C++ reader does) and then held exactly.
Definitions (Wales, J. Chem. Phys. 130, 204111 (2009)), for the direction A <- B:
  k     = sum_b (p_b / p_B) / T_A(b)             T_A(b): mean first-passage time b -> A
  kSS   = sum_b (p_b / p_B) sum_j k_bj q_j       q: committor (reach A before B)
  kNSS  = sum_b (p_b / p_B) P_A(b) / tau'_b      P_A(b) = sum_j k_bj q_j / sum_j k_bj,
                                                 tau'_b = (1 + sum_j k_bj E_j) / sum_j k_bj,
                                                 E_j: mean time from j to reach A or B
  MFPT  = sum_b p_b T_A(b) / sum_b p_b
Minima not connected to both sets are left out (their weights still count in p_B).

Usage: tools/checks/ngt_reference.py DIR KT [KT ...] > table.tsv
DIR holds min.data, ts.data, min.A, min.B (PATHSAMPLE formats). Output: one line per quantity,
tab-separated: kT, quantity, natural logarithm of the value (rates in the network's inverse time
unit, times in its time unit). Quantities: lnk_AB, lnkSS_AB, lnkNSS_AB, lnMFPT_AB (A <- B) and the
same for BA (B <- A); lnqA_<m> and lnqB_<m> for every connected minimum m (1-based), the
committors to A and to B (-inf on the other set).
"""
import sys

import mpmath as mp


def read_network(directory):
    minima = []
    with open(directory + "/min.data") as f:
        for line in f:
            w = line.split()
            if w:
                minima.append((float(w[0]), float(w[1]), int(w[2])))
    states = []
    with open(directory + "/ts.data") as f:
        for line in f:
            w = line.split()
            if w:
                states.append((float(w[0]), float(w[1]), int(w[2]), int(w[3]) - 1, int(w[4]) - 1))

    def endpoints(name):
        with open(directory + "/" + name) as f:
            words = f.read().split()
        count = int(words[0])
        return [int(x) - 1 for x in words[1:1 + count]]

    return minima, states, endpoints("min.A"), endpoints("min.B")


def log_rates(minima, states, kT):
    """ln k(from -> to) summed over parallel transition states; ln p per minimum."""
    kT = mp.mpf(kT)
    logp = [-mp.mpf(e) / kT - mp.mpf(f) / 2 - mp.log(o) for e, f, o in minima]
    rates = {}
    for e, f, o, plus, minus in states:
        if plus == minus:
            continue  # degenerate rearrangement: no effect on the kinetics between minima
        for a, b in ((plus, minus), (minus, plus)):
            ea, fa, oa = minima[a]
            lk = (mp.log(mp.mpf(oa) / (2 * mp.pi * o)) + (mp.mpf(fa) - mp.mpf(f)) / 2 -
                  (mp.mpf(e) - mp.mpf(ea)) / kT)
            rates[(a, b)] = rates.get((a, b), mp.mpf(0)) + mp.exp(lk)
    return logp, rates


def connected(n, rates, a, b):
    neighbours = [[] for _ in range(n)]
    for (i, j) in rates:
        neighbours[i].append(j)
        neighbours[j].append(i)

    def reach(start):
        seen = set(start)
        stack = list(start)
        while stack:
            x = stack.pop()
            for y in neighbours[x]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        return seen

    return sorted(reach(a) & reach(b))


def solve(nodes, rates, free, fixed, source):
    """sum_j k_ij (x_j - x_i) = -source on the free nodes; x = fixed elsewhere."""
    index = {x: i for i, x in enumerate(free)}
    m = len(free)
    if m == 0:
        return dict(fixed)
    a = mp.zeros(m, m)
    rhs = mp.matrix([-source] * m)
    for (i, j), k in rates.items():
        if i not in index or j not in nodes:
            continue
        a[index[i], index[i]] -= k
        if j in index:
            a[index[i], index[j]] += k
        else:
            rhs[index[i]] -= k * fixed[j]
    x = mp.lu_solve(a, rhs)
    out = dict(fixed)
    for node, i in index.items():
        out[node] = x[i]
    return out


def direction(nodes, rates, logp, target, source):
    """Rates into `target` from `source` (both lists of connected nodes) and the committor."""
    inT, inS = set(target), set(source)
    intermediate = [x for x in nodes if x not in inT and x not in inS]
    q = solve(nodes, rates, intermediate, {x: mp.mpf(1 if x in inT else 0) for x in nodes}, 0)
    passage = solve(nodes, rates, [x for x in nodes if x not in inT],
                    {x: mp.mpf(0) for x in nodes}, 1)
    exit_time = solve(nodes, rates, intermediate, {x: mp.mpf(0) for x in nodes}, 1)
    out = {}
    for s in source:
        k_out = [(j, k) for (i, j), k in rates.items() if i == s and j in nodes]
        escape = mp.fsum(k for _, k in k_out)
        to_target = mp.fsum(k * (0 if j in inS else q[j]) for j, k in k_out)
        after = mp.fsum(k * exit_time[j] for j, k in k_out)
        out[s] = (to_target, to_target / escape / ((1 + after) / escape), passage[s])
    return q, out


def weighted(values, logp, sources, all_sources):
    """sum over sources of (p_s / p_S) values[s], p_S over every minimum of the set."""
    total = mp.fsum(mp.exp(logp[s]) for s in all_sources)
    return mp.fsum(mp.exp(logp[s]) / total * values[s] for s in sources)


def case(minima, states, a, b, kT, digits):
    mp.mp.dps = digits
    logp, rates = log_rates(minima, states, kT)
    nodes = connected(len(minima), rates, a, b)
    keep = set(nodes)
    rates = {key: k for key, k in rates.items() if key[0] in keep and key[1] in keep}
    result = {}
    qA = qB = None
    for name, target, source in (("AB", a, b), ("BA", b, a)):
        src = [s for s in source if s in keep]
        q, per = direction(keep, rates, logp, [t for t in target if t in keep], src)
        if name == "AB":
            qA = q
        else:
            qB = q
        result["lnk_" + name] = mp.log(weighted({s: 1 / per[s][2] for s in src}, logp, src, source))
        result["lnkSS_" + name] = mp.log(weighted({s: per[s][0] for s in src}, logp, src, source))
        result["lnkNSS_" + name] = mp.log(weighted({s: per[s][1] for s in src}, logp, src, source))
        mfpt = (mp.fsum(mp.exp(logp[s]) * per[s][2] for s in src) /
                mp.fsum(mp.exp(logp[s]) for s in src))
        result["lnMFPT_" + name] = mp.log(mfpt)
    for x in nodes:
        result["lnqA_%d" % (x + 1)] = mp.log(qA[x]) if qA[x] > 0 else mp.ninf
        result["lnqB_%d" % (x + 1)] = mp.log(qB[x]) if qB[x] > 0 else mp.ninf
    return result


def main():
    sys.set_int_max_str_digits(0)  # ln q within 1e-6000 of 0 prints with a huge exponent
    directory = sys.argv[1]
    minima, states, a, b = read_network(directory)
    for text in sys.argv[2:]:
        kT = float(text)
        # Digits: the span of the log rates (decimal) three times over, plus a margin; checked
        # against twice as many.
        mp.mp.dps = 30
        logp, rates = log_rates(minima, states, kT)
        logs = [mp.log(k) for k in rates.values()]
        span = int((max(logs) - min(logs)) / mp.log(10)) + 1
        digits = 3 * span + 60
        low = case(minima, states, a, b, kT, digits)
        high = case(minima, states, a, b, kT, 2 * digits)
        mp.mp.dps = 30
        for key in low:
            l, h = low[key], high[key]
            if mp.isinf(l) or mp.isinf(h):
                if l != h:
                    sys.exit("%s at kT=%s: %s with %d digits, %s with %d" %
                             (key, text, l, digits, h, 2 * digits))
                continue
            if abs(l - h) > mp.mpf(10) ** -20 * max(1, abs(h)):
                sys.exit("%s at kT=%s: %s with %d digits, %s with %d" % (key, text, l, digits, h,
                                                                          2 * digits))
        for key, value in high.items():
            print("%s\t%s\t%s" % (text, key, mp.nstr(value, 20) if not mp.isinf(value) else
                                  ("-inf" if value < 0 else "inf")))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
