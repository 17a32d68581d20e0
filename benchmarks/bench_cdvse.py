"""Speed of the CDVSE building blocks against peers, measured in one run (ratios, not seconds).

1. SVDD fit (our numba SMO solver) against scikit-learn's OneClassSVM (LIBSVM) on the same
   data, same tolerance (tol = 1e-3, both in LIBSVM's units) and the equivalent parameters
   (nu = 1 / (C n), gamma = zeta), n = 500 ... 5000 samples of a seeded 10-D Gaussian
   mixture, nu = 0.1. Also the largest difference of the duals (alpha vs dual_coef_ / (nu n)).
   Goal (issue 3): at most 1.0x OneClassSVM's time at n = 2000.
2. CDVSE end to end on each UCI training set of the seed's protocol (70 % of the normal
   samples and 0.5 % of the outliers, scaled to [0, 1]): fitting M = 50 bootstrap SVDDs, the
   half-quadratic weighting (T = 20) and predicting the test set, against Bagging with the
   same base SVDDs (the weighting's extra cost).

Timing: benchmarks/timing.py: the candidates interleaved, medians with their quartiles and
minima, under the "cpu" clock (one thread's CPU seconds: numba and BLAS held to one thread
on both sides, LIBSVM being single-threaded) and the "wall" clock (default threads), and
with ``--loaded`` also on the wall clock beside one busy process.

Run: MILAB_DATA_HOME=<data> python benchmarks/bench_cdvse.py [--repeats N] [--loaded]
     [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import numpy as np
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import OneClassSVM
from timing import clocks, measured, spread_text  # this script's folder is on sys.path as a script

from milab_widgets.data import load_dataset
from milab_widgets.data.uci_sources import ONECLASS_DATASETS
from milab_widgets.experiments.cdvse import split_train_test
from milab_widgets.oneclass import CDVSESVDD, SVDD, BaggingSVDD

SIZES = (500, 1000, 2000, 5000)
NU = 0.1


def mixture(n: int, d: int = 10, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 2, (3, d))
    return centres[rng.integers(0, 3, n)] + rng.normal(size=(n, d))


def svdd_against_libsvm(repeats: int, clock: str) -> list[dict]:
    rows = []
    for n in SIZES:
        X = mixture(n)
        C, gamma = 1.0 / (NU * n), 1.0 / X.shape[1]
        ours = SVDD(C=C, gamma=gamma, tol=1e-3)
        peer = OneClassSVM(nu=NU, gamma=gamma, tol=1e-3)
        timed = measured({"svdd": partial(ours.fit, X), "oneclass_svm": partial(peer.fit, X)},
                         repeats, clock)
        duals = np.zeros(n)
        duals[peer.support_] = peer.dual_coef_.ravel() * C
        rows.append({"n": n, **timed,
                     "ratio": timed["seconds"]["svdd"] / timed["seconds"]["oneclass_svm"],
                     "max_dual_difference": float(abs(ours.alpha_ - duals).max())})
    return rows


def _fit_predict(model, X_train: np.ndarray, X_test: np.ndarray) -> None:
    model.fit(X_train).predict(X_test)


def cdvse_per_dataset(repeats: int, clock: str) -> list[dict]:
    rows = []
    for spec in ONECLASS_DATASETS:
        data = load_dataset(spec.name)
        train, test = split_train_test(data.y, np.random.default_rng(0))
        scaler = MinMaxScaler().fit(data.X[train])
        X_train, X_test = scaler.transform(data.X[train]), scaler.transform(data.X[test])
        setting = {"n_estimators": 50, "C": 0.1, "gamma": 1.0, "random_state": 0}
        cdvse = CDVSESVDD(sigma=0.3, **setting)
        bagging = BaggingSVDD(**setting)
        timed = measured({"cdvse": partial(_fit_predict, cdvse, X_train, X_test),
                          "bagging": partial(_fit_predict, bagging, X_train, X_test)},
                         repeats, clock)
        rows.append({"dataset": spec.name, "train": len(train), "test": len(test), **timed,
                     "cdvse_over_bagging": timed["seconds"]["cdvse"]
                     / timed["seconds"]["bagging"]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--loaded", action="store_true",
                        help="also time everything beside one busy process (wall clock)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    SVDD(C=0.1, gamma=1.0).fit(mixture(50))  # compile (or load the numba cache) first
    results = {clock: {"svdd": svdd_against_libsvm(args.repeats, clock),
                       "cdvse": cdvse_per_dataset(args.repeats, clock)}
               for clock in clocks(args.loaded)}
    for clock, result in results.items():
        print(f"[{clock}] SVDD fit vs OneClassSVM (tol 1e-3, nu = {NU}, 10-D mixture), "
              f"medians [quartiles] of {args.repeats} interleaved rounds:")
        for row in result["svdd"]:
            print(f"  n = {row['n']:5d} (load {row['load'][0]}): ours "
                  f"{spread_text(row['spread']['svdd'])}, OneClassSVM "
                  f"{spread_text(row['spread']['oneclass_svm'])} -> ratio "
                  f"{row['ratio']:.2f} (max |dual difference| {row['max_dual_difference']:.1e})")
        print(f"[{clock}] CDVSE end to end (M = 50 bootstrap SVDDs + weighting + test "
              "predictions):")
        for row in result["cdvse"]:
            print(f"  {row['dataset']:16s} train {row['train']:4d}: CDVSE "
                  f"{spread_text(row['spread']['cdvse'])}, Bagging "
                  f"{spread_text(row['spread']['bagging'])} -> "
                  f"{row['cdvse_over_bagging']:.2f}x")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
