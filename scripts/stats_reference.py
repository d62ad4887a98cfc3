#!/usr/bin/env python3
"""Reference values for the A/B statistics of `bench-report ab`, from SciPy.

The Rust implementations in src/report/inference.rs are checked against the output of this
script, which is committed as scripts/stats_reference.json and read by the unit tests there.
Regenerate (only when a case is added, or to check against a newer SciPy) with

    pip install scipy
    python3 scripts/stats_reference.py > scripts/stats_reference.json

Every statistic comes from SciPy with its defaults, never from a formula written here:
  - wilcoxon:  scipy.stats.wilcoxon(a, b).pvalue (zero_method="wilcox", correction=False,
               method="auto": exact when n <= 50 with no ties and no zeros, an exact
               permutation test when n <= 13 with ties or zeros, else the normal approximation)
  - a12:       scipy.stats.mannwhitneyu(a, b).statistic / (len(a) * len(b))
  - mcnemar:   scipy.stats.binomtest(k, n, 0.5).pvalue (two-sided) on the discordant pairs
  - wilson:    scipy.stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
  - ndtr:      scipy.special.ndtr(x) (the normal CDF behind the approximations)
Inputs are written out in full, so the Rust side needs no generator of its own.
"""
import json
import sys

import numpy as np
import scipy
from scipy import special, stats


def ints(rng, n, lo, hi):
    return [float(v) for v in rng.integers(lo, hi, size=n)]


def dyadic(xs):
    """Round to multiples of 1/1024: exact in binary and in short decimal, so the JSON reads
    back bit for bit and ties among differences are the same on both sides."""
    return [float(v) for v in np.round(np.asarray(xs) * 1024.0) / 1024.0]


def wilcoxon_cases():
    rng = np.random.default_rng(20261201)
    cases = []

    def add(name, a, b):
        p = stats.wilcoxon(a, b).pvalue
        cases.append({"name": name, "a": a, "b": b,
                      "pvalue": None if np.isnan(p) else float(p)})

    def signs(n, every):
        return [-1.0 if i % every == 0 else 1.0 for i in range(n)]

    # Exact distribution: no ties, no zeros, n <= 50.
    add("exact n=5", [1.0, 2.0, 3.0, 4.0, 5.0], [1.5, 3.5, 2.0, 8.0, 11.0])
    add("exact n=1", [2.0], [1.0])
    a = [float(v) for v in rng.permutation(30) + 1]
    add("exact n=30", a, [x + s * (2 * i + 1) / 8 for i, (x, s) in enumerate(zip(a, signs(30, 3)))])
    a = ints(rng, 50, 0, 100)
    add("exact n=50", a, [x + s * (2 * i + 1) / 16 for i, (x, s) in enumerate(zip(a, signs(50, 4)))])
    # Ties or zeros with n <= 13: SciPy's exact permutation test over all 2^n sign flips.
    add("permutation ties n=6", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2.0, 3.0, 4.0, 5.0, 4.0, 9.0])
    add("permutation zeros n=8", [1.0, 2, 3, 4, 5, 6, 7, 8], [1.0, 2, 5, 5, 9, 6, 3, 12])
    add("permutation ties n=13", ints(rng, 13, 0, 6), ints(rng, 13, 0, 6))
    # Ties or zeros with 13 < n <= 50, and every n > 50: normal approximation, tie-corrected.
    add("approx ties n=14", ints(rng, 14, 0, 5), ints(rng, 14, 1, 6))
    add("approx zeros n=50", ints(rng, 50, 0, 20), ints(rng, 50, 0, 20))
    a = dyadic(rng.normal(0, 1, 51))
    add("approx no ties n=51", a,
        [x + s * (205 + 10 * i) / 1024 for i, (x, s) in enumerate(zip(a, signs(51, 4)))])
    add("approx ties and zeros n=400", ints(rng, 400, 1, 30), ints(rng, 400, 1, 34))
    a = dyadic(rng.lognormal(3, 1, 1000))
    add("approx small p n=1000", a, dyadic([x * np.exp(rng.normal(0.06, 0.3)) for x in a]))
    return cases


def a12_cases():
    rng = np.random.default_rng(7)
    cases = []

    def add(name, a, b):
        u = stats.mannwhitneyu(a, b).statistic
        cases.append({"name": name, "a": a, "b": b, "a12": float(u) / (len(a) * len(b))})

    add("disjoint", [5.0, 6.0, 7.0], [1.0, 2.0])
    add("all equal", [3.0, 3.0], [3.0, 3.0, 3.0])
    add("ties", [1.0, 2.0, 2.0, 3.0, 5.0], [2.0, 2.0, 4.0, 1.0])
    add("integers n=300", ints(rng, 300, 0, 40), ints(rng, 300, 3, 45))
    return cases


def mcnemar_cases():
    cases = []
    for a_only, b_only in [(0, 1), (1, 0), (3, 10), (7, 7), (0, 5), (12, 30), (100, 130),
                           (1000, 1100), (0, 1000), (3, 900), (5000, 5000), (49999, 50001)]:
        n = a_only + b_only
        p = stats.binomtest(min(a_only, b_only), n, 0.5).pvalue
        cases.append({"a_only": a_only, "b_only": b_only, "pvalue": float(p)})
    return cases


def wilson_cases():
    cases = []
    for k, n in [(0, 10), (10, 10), (5, 10), (1, 3), (398, 400), (3150, 3150),
                 (1, 1000000), (123456, 1000000)]:
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        cases.append({"k": k, "n": n, "lo": float(ci.low), "hi": float(ci.high)})
    return cases


def ndtr_cases():
    xs = [-37.0, -20.0, -8.5, -5.0, -3.0, -2.5, -1.959963984540054, -1.0, -0.3, 0.0, 0.2,
          0.7, 1.5, 2.9, 4.0, 7.0]
    return [{"x": x, "p": float(special.ndtr(x))} for x in xs]


def main():
    out = {
        "generated_by": "scripts/stats_reference.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "wilcoxon": wilcoxon_cases(),
        "a12": a12_cases(),
        "mcnemar": mcnemar_cases(),
        "wilson": wilson_cases(),
        "ndtr": ndtr_cases(),
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
