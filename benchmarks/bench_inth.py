"""Speed of the intH building blocks against peers, measured in one run (ratios, not seconds).

1. All three Hausdorff matrices (min, max, average) of Musk2's 102 bags / 6598 instances
   against (a) one BLAS product of all instances, X @ X.T — the floor any Gram-based method
   pays — and (b) the straightforward approach: scipy's cdist per bag pair, then the
   reductions (upper triangle only, as a fair peer would).
   Goals (issue 2): at most 2x (a), at least 5x faster than (b).
2. The NCA objective f(alpha) on Elephant-sized problems (200 bags): our numba kernel
   against a vectorised numpy/scipy version (logsumexp).

Run: python benchmarks/bench_inth.py [--repeats N]   (needs only a fresh install: Musk2
ships with the `mil` package; Elephant too)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import logsumexp

from milab_widgets.data import load_dataset
from milab_widgets.mil import bag_distances, nca_alpha_curve


def best_time(function, repeats: int) -> float:
    """The fastest of ``repeats`` runs (the least disturbed by the rest of the machine)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def cdist_per_pair(bags) -> None:
    n = len(bags)
    blocks = [bags.bag(i) for i in range(n)]
    for i in range(n):
        for j in range(i, n):
            block = cdist(blocks[i], blocks[j])
            rows, cols = block.min(axis=1), block.min(axis=0)
            _ = block.min(), max(rows.max(), cols.max()), rows.sum() + cols.sum()


def numpy_nca(d_min, d_max, y, sigma, alphas) -> list[float]:
    values = []
    same = (y[:, None] == y[None, :]) & ~np.eye(len(y), dtype=bool)
    for alpha in alphas:
        logits = -(alpha * d_min + (1 - alpha) * d_max) / sigma
        np.fill_diagonal(logits, -np.inf)
        log_p = logits - logsumexp(logits, axis=1, keepdims=True)
        values.append(float(np.exp(log_p[same]).sum()))
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    musk2 = load_dataset("musk2")
    X = musk2.instances
    bag_distances(musk2[np.arange(3)])  # compile (or load the numba cache) outside the timing
    ours = best_time(lambda: bag_distances(musk2), args.repeats)
    gemm = best_time(lambda: X @ X.T, args.repeats)
    per_pair = best_time(lambda: cdist_per_pair(musk2), max(1, args.repeats // 2))

    elephant = load_dataset("elephant")
    d = bag_distances(elephant)
    alphas = np.linspace(0, 1, 50)
    nca_alpha_curve(d["min"], d["max"], elephant.labels, 1.0, alphas[:2])
    nca_ours = best_time(lambda: nca_alpha_curve(d["min"], d["max"], elephant.labels, 1.0, alphas), args.repeats)
    nca_numpy = best_time(lambda: numpy_nca(d["min"], d["max"], elephant.labels, 1.0, alphas), args.repeats)

    results = {
        "musk2_bags": len(musk2), "musk2_instances": musk2.n_instances,
        "hausdorff_seconds": ours, "gemm_seconds": gemm, "cdist_per_pair_seconds": per_pair,
        "hausdorff_over_gemm": ours / gemm, "cdist_over_hausdorff": per_pair / ours,
        "nca_numba_seconds_per_50_alphas": nca_ours, "nca_numpy_seconds_per_50_alphas": nca_numpy,
        "nca_numpy_over_numba": nca_numpy / nca_ours,
    }
    print(f"Musk2 ({len(musk2)} bags, {musk2.n_instances} instances, {musk2.n_features} features), best of {args.repeats}:")
    print(f"  min+max+average Hausdorff matrices: {ours:.3f} s")
    print(f"  (a) X @ X.T:                         {gemm:.3f} s  -> ours / GEMM = {ours / gemm:.2f} (goal <= 2)")
    print(f"  (b) cdist per bag pair:              {per_pair:.3f} s  -> cdist / ours = {per_pair / ours:.1f}x (goal >= 5)")
    print(f"NCA objective, Elephant ({len(elephant)} bags), 50 alphas:")
    print(f"  numba kernel {nca_ours * 1e3:.1f} ms, numpy/scipy logsumexp {nca_numpy * 1e3:.1f} ms "
          f"-> {nca_numpy / nca_ours:.1f}x")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
