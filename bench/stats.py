#!/usr/bin/env python3
"""Paired rounds of two variants, A and B: medians, spreads, the ratio B/A and whether it is separated from 1.

    python3 bench/stats.py A_FILE B_FILE [--lower-is-better | --higher-is-better]
                           [--name NAME] [--labels A_LABEL,B_LABEL]
    python3 bench/stats.py --selftest

A_FILE and B_FILE hold one value per line (blank lines and lines from '#' on are skipped), in
round order: line i of each is round i, the two runs of a round made one after the other (a
benchmark that alternates the order of the variants round by round).  Rounds are paired by line;
with unequal counts the longer list is cut to the shorter one's length.

What is printed: each variant's median and min-max; the median of the per-round ratios B/A, with
a 95% confidence interval; the ratio of the two medians (for reference); a verdict.

The interval: distribution-free, for the median of the per-round ratios, from order statistics.
With the n ratios sorted, r(1) <= ... <= r(n), the interval [r(k), r(n+1-k)] holds the median of
the ratios' distribution with probability 1 - 2 P(Binomial(n, 1/2) <= k - 1); k is the largest
index that keeps this at 95% or more.  It assumes only that rounds are independent and alike (not
normal, not of equal spread); pairing takes out what drifts on a shared machine from one round
to the next, since both runs of a round see the same state.  Below 6 rounds no k reaches 95%: the
interval is then min-max, its lower coverage is printed, and the verdict is "not separated".

The verdict, with lower values better (times; the default): "B faster" when the whole interval
lies below 1.0, "B slower" when it lies above, otherwise "not separated".  With
--higher-is-better (rates) the sides swap: an interval above 1.0 is "B faster".  The printed
verdict names B by its label.

Exit status: 0 (whatever the verdict), 1 on unreadable input or fewer than 2 paired rounds.
"""

import math
import random
import sys

LEVEL = 0.95


def median(values):
    v = sorted(values)
    n = len(v)
    if n == 0:
        raise ValueError("median of nothing")
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def binom_cdf_half(n, k):
    """P(Binomial(n, 1/2) <= k)."""
    if k < 0:
        return 0.0
    return sum(math.comb(n, i) for i in range(min(k, n) + 1)) / 2.0**n


def median_ci(values, level=LEVEL):
    """Distribution-free interval for the median: (lo, hi, coverage, k).

    [v(k), v(n+1-k)] (1-based order statistics) with the largest k whose coverage
    1 - 2 P(Bin(n, 1/2) <= k-1) is at least `level`; k = 1 (min-max) when none is.
    """
    v = sorted(values)
    n = len(v)
    if n == 0:
        raise ValueError("interval of nothing")
    k = 1
    while k + 1 <= (n + 1) // 2 and 1 - 2 * binom_cdf_half(n, k) >= level:
        k += 1
    coverage = 1 - 2 * binom_cdf_half(n, k - 1)
    return v[k - 1], v[n - k], coverage, k


def verdict(lo, hi, coverage, lower_is_better=True, level=LEVEL):
    """'B faster', 'B slower' or 'not separated', from an interval of the ratio B/A."""
    if coverage < level or lo <= 1.0 <= hi:
        return "not separated"
    below = hi < 1.0
    return "B faster" if below == lower_is_better else "B slower"


def compare(a, b, lower_is_better=True, level=LEVEL):
    """The statistics of paired rounds a[i], b[i] (both lists cut to the shorter length)."""
    n = min(len(a), len(b))
    a, b = list(a[:n]), list(b[:n])
    if n < 2:
        raise ValueError("need at least 2 paired rounds, have %d" % n)
    if any(x <= 0 for x in a + b):
        raise ValueError("values must be positive for ratios")
    ratios = [y / x for x, y in zip(a, b)]
    lo, hi, coverage, k = median_ci(ratios, level)
    return {
        "n": n,
        "a_median": median(a), "a_min": min(a), "a_max": max(a),
        "b_median": median(b), "b_min": min(b), "b_max": max(b),
        "ratio_median": median(ratios),
        "ratio_of_medians": median(b) / median(a),
        "ci_lo": lo, "ci_hi": hi, "coverage": coverage, "k": k,
        "verdict": verdict(lo, hi, coverage, lower_is_better, level),
    }


def report(s, name="value", labels=("A", "B"), lower_is_better=True):
    """The lines the command prints."""
    la, lb = labels
    w = max(len(la), len(lb))
    v = s["verdict"].replace("B ", lb + " ", 1)
    if s["coverage"] < LEVEL:
        v += " (too few rounds for a %d%% interval)" % round(100 * LEVEL)
    ci = "%d%% CI" % round(100 * LEVEL) if s["coverage"] >= LEVEL else "interval"
    return "\n".join([
        "%s (%s is better), %d paired rounds" % (name, "lower" if lower_is_better else "higher", s["n"]),
        "  %-*s  median %.6g  min-max %.6g-%.6g" % (w, la, s["a_median"], s["a_min"], s["a_max"]),
        "  %-*s  median %.6g  min-max %.6g-%.6g" % (w, lb, s["b_median"], s["b_min"], s["b_max"]),
        "  %s/%s: median of per-round ratios %.4f, %s [%.4f, %.4f] (order statistics %d and %d"
        " of %d, coverage %.1f%%); ratio of medians %.4f" % (
            lb, la, s["ratio_median"], ci, s["ci_lo"], s["ci_hi"], s["k"],
            s["n"] + 1 - s["k"], s["n"], 100 * s["coverage"], s["ratio_of_medians"]),
        "  verdict: %s" % v,
    ])


def read_values(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                out.append(float(line))
    return out


def selftest():
    rng = random.Random(12345)
    # median and the order-statistic interval
    assert median([3, 1, 2]) == 2 and median([4, 1, 2, 3]) == 2.5
    assert abs(binom_cdf_half(6, 0) - 1 / 64) < 1e-15
    lo, hi, cov, k = median_ci([5, 1, 4, 2, 3, 6])
    assert (lo, hi, k) == (1, 6, 1) and abs(cov - (1 - 2 / 64)) < 1e-12
    lo, hi, cov, k = median_ci(list(range(1, 17)))
    assert k == 4 and (lo, hi) == (4, 13) and cov >= LEVEL
    assert median_ci([1, 2, 3])[2] < LEVEL
    # identical distributions: not separated (in most seeds; this one is fixed)
    a = [1000 * rng.lognormvariate(0, 0.03) for _ in range(16)]
    b = [1000 * rng.lognormvariate(0, 0.03) for _ in range(16)]
    s = compare(a, b)
    assert s["verdict"] == "not separated", s
    # B 20% faster, with noise and a drift shared by both runs of a round
    drift = [1 + 0.2 * math.sin(i) for i in range(16)]
    a = [1000 * d * rng.lognormvariate(0, 0.02) for d in drift]
    b = [800 * d * rng.lognormvariate(0, 0.02) for d in drift]
    s = compare(a, b)
    assert s["verdict"] == "B faster" and s["ci_lo"] <= 0.8 <= s["ci_hi"] < 0.85, s
    assert compare(a, b, lower_is_better=False)["verdict"] == "B slower"
    assert compare(b, a)["verdict"] == "B slower"
    # too few rounds: never separated
    assert compare([1, 1, 1], [2, 2, 2])["verdict"] == "not separated"
    print("stats.py selftest ok")


def main(argv):
    if argv[1:] == ["--selftest"]:
        selftest()
        return 0
    files, name, labels, lower = [], "value", ("A", "B"), True
    it = iter(argv[1:])
    for arg in it:
        if arg == "--lower-is-better":
            lower = True
        elif arg == "--higher-is-better":
            lower = False
        elif arg == "--name":
            name = next(it, name)
        elif arg == "--labels":
            parts = next(it, "A,B").split(",")
            if len(parts) != 2:
                print("stats.py: --labels wants A_LABEL,B_LABEL", file=sys.stderr)
                return 1
            labels = tuple(parts)
        elif arg.startswith("-"):
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 1
        else:
            files.append(arg)
    if len(files) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 1
    try:
        a, b = read_values(files[0]), read_values(files[1])
        s = compare(a, b, lower)
    except (OSError, ValueError) as e:
        print("stats.py: %s: %s" % (name, e), file=sys.stderr)
        return 1
    if len(a) != len(b):
        print("stats.py: %s: %d and %d values, paired the first %d" % (name, len(a), len(b), s["n"]),
              file=sys.stderr)
    print(report(s, name, labels, lower))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
