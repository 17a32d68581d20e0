"""Speed of seed 001's building blocks against peers, measured in one run (ratios).

1. ML-kNN fit + predict (k = 10, s = 1) on yeast's MULAN split (1500 / 917, 103 features,
   14 labels) against scikit-multilearn-ng's ``MLkNN`` (``pip install -e '.[bench]'``).
   Zhang & Zhou never count a training point as its own neighbour. The peer's default
   (``ignore_first_neighbours=0``) does, so it is fitted with ``ignore_first_neighbours=1``;
   that setting also drops the nearest neighbour at prediction time, so it is set back to 0
   before ``predict``. Configured so, the peer computes the same model: the script checks
   equal 0/1 predictions and equal posteriors. Goal (issue 4): at least 5x faster.
   The limit (issue 16): ML-kNN's floor is its two neighbour searches, so fit + predict is
   also timed against scikit-learn's brute-force ``NearestNeighbors.kneighbors`` doing the
   same searches (train x train without self, test x train), interleaved, under a CPU and
   a wall clock (benchmarks/timing.py). Goal: at most 1.2x.
2. PMU selecting 10 features on Arts (2000 x 462, 26 labels, 2 bins) against a
   straightforward implementation built on scikit-learn's ``mutual_info_score``: every
   mutual information is one call, the three-way terms by the chain rule
   V(f; a; b) = I(f; a) + I(f; b) - I(f; (a, b)). Both start from the same codes and must
   select the same features in the same order. Goal: at least 20x faster. ``--quick`` runs
   both on Arts' first 12 features, selecting 2.

Run: MILAB_DATA_HOME=<data> python benchmarks/bench_mfsef.py [--repeats N] [--quick] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import mutual_info_score
from sklearn.neighbors import NearestNeighbors
from timing import best_time, clocks, measured  # this folder is on sys.path

from milab_widgets.data import load_dataset
from milab_widgets.multilabel import PMU, Discretizer, MLkNN


# -- 1. ML-kNN -------------------------------------------------------------------------------
def ours_mlknn(train, test):
    model = MLkNN(k=10, s=1.0).fit(train.X, train.Y)
    return model.predict(test.X), model.predict_proba(test.X)


def fit_predict(train, test):
    return MLkNN(k=10, s=1.0).fit(train.X, train.Y).predict(test.X)


def sklearn_searches(train, test):
    """ML-kNN's two searches by scikit-learn's brute force: the floor of fit + predict."""
    searcher = NearestNeighbors(n_neighbors=10, algorithm="brute").fit(train.X)
    return searcher.kneighbors(), searcher.kneighbors(test.X)


def search_limit(train, test, repeats: int, loaded: bool) -> dict:
    """fit + predict against the two scikit-learn searches: medians (with their spread)
    under both clocks, and on the wall clock beside one busy process when ``loaded``."""
    result = {}
    for clock in clocks(loaded):
        timed = measured({"mlknn": lambda: fit_predict(train, test),
                          "kneighbors": lambda: sklearn_searches(train, test)}, repeats, clock)
        result[clock] = {**timed,
                         "ratio": timed["seconds"]["mlknn"] / timed["seconds"]["kneighbors"]}
    return result


def peer_mlknn(train, test):
    from skmultilearn.adapt import MLkNN as PeerMLkNN

    model = PeerMLkNN(k=10, s=1.0, ignore_first_neighbours=1).fit(train.X, train.Y)
    model.ignore_first_neighbours = 0  # test queries are not training points
    return model.predict(test.X).toarray(), model.predict_proba(test.X).toarray()


def peer_default_predictions(train, test) -> np.ndarray:
    """The peer as shipped: each training point counts itself among its neighbours."""
    from skmultilearn.adapt import MLkNN as PeerMLkNN

    return PeerMLkNN(k=10, s=1.0).fit(train.X, train.Y).predict(test.X).toarray()


# -- 2. PMU ----------------------------------------------------------------------------------
def straightforward_pmu(codes: np.ndarray, Y: np.ndarray, n_features: int) -> list[int]:
    """Lee & Kim's PMU with one sklearn mutual_info_score call per mutual information."""
    d, n_labels = codes.shape[1], Y.shape[1]
    relevance = np.array([[mutual_info_score(codes[:, f], Y[:, label]) for label in range(n_labels)]
                          for f in range(d)])
    label_term = np.zeros(d)
    for a in range(n_labels):
        for b in range(a + 1, n_labels):
            pair = 2 * Y[:, a] + Y[:, b]
            for f in range(d):
                label_term[f] += (relevance[f, a] + relevance[f, b]
                                  - mutual_info_score(codes[:, f], pair))
    base = relevance.sum(axis=1) - label_term
    redundancy, selected = np.zeros(d), []
    for _ in range(n_features):
        score = np.where(np.isin(np.arange(d), selected), -np.inf, base - redundancy)
        chosen = int(np.argmax(score))
        selected.append(chosen)
        states = codes[:, chosen].max() + 1
        for f in range(d):
            with_chosen = mutual_info_score(codes[:, f], codes[:, chosen])
            for label in range(n_labels):
                joint = mutual_info_score(codes[:, f], states * Y[:, label] + codes[:, chosen])
                redundancy[f] += with_chosen + relevance[f, label] - joint
    return selected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="PMU on 12 features, 2 selected")
    parser.add_argument("--loaded", action="store_true",
                        help="also time ML-kNN's search limit beside one busy process")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    n_pmu = 2 if args.quick else 10

    train, test = load_dataset("yeast").train_test()
    ours_pred, ours_proba = ours_mlknn(train, test)  # compile / load the numba cache
    peer_pred, peer_proba = peer_mlknn(train, test)
    mlknn_ours = best_time(lambda: ours_mlknn(train, test), args.repeats)
    mlknn_peer = best_time(lambda: peer_mlknn(train, test), max(1, args.repeats // 2))
    default_diff = int((peer_default_predictions(train, test) != ours_pred).sum())
    limit = search_limit(train, test, max(args.repeats, 9), args.loaded)

    arts, _ = load_dataset("arts").train_test()
    arts_X = arts.X[:, :12] if args.quick else arts.X
    codes = Discretizer(2).fit_transform(arts_X)
    PMU(2).fit(arts_X[:200], arts.Y[:200])  # compile outside the timing
    pmu_ours = best_time(lambda: PMU(n_pmu).fit(arts_X, arts.Y), args.repeats)
    started = time.perf_counter()
    peer_order = straightforward_pmu(codes, arts.Y, n_pmu)
    pmu_peer = time.perf_counter() - started
    our_order = PMU(n_pmu).fit(arts_X, arts.Y).selected_.tolist()

    results = {
        "mlknn_ours_seconds": mlknn_ours, "mlknn_peer_seconds": mlknn_peer,
        "mlknn_speedup": mlknn_peer / mlknn_ours,
        "mlknn_equal_predictions": bool(np.array_equal(ours_pred, peer_pred)),
        "mlknn_max_posterior_difference": float(np.abs(ours_proba - peer_proba).max()),
        "mlknn_peer_default_differing_cells": default_diff,
        "mlknn_over_sklearn_searches": limit,
        "pmu_features": int(arts_X.shape[1]), "pmu_selected": n_pmu,
        "pmu_ours_seconds": pmu_ours, "pmu_peer_seconds": pmu_peer,
        "pmu_speedup": pmu_peer / pmu_ours, "pmu_same_selection": our_order == peer_order,
    }
    print(f"ML-kNN fit+predict, yeast {train.n_samples}/{test.n_samples}, best of {args.repeats}:")
    print(f"  ours {mlknn_ours * 1e3:.1f} ms, scikit-multilearn-ng {mlknn_peer * 1e3:.1f} ms "
          f"-> {mlknn_peer / mlknn_ours:.1f}x (goal >= 5); equal predictions: "
          f"{results['mlknn_equal_predictions']}, max posterior difference "
          f"{results['mlknn_max_posterior_difference']:.1e}")
    print(f"  (the peer's default, a training point its own neighbour, differs in "
          f"{default_diff} of {ours_pred.size} test cells)")
    for clock, r in limit.items():
        print(f"  [{clock}, load {r['load']}] fit + predict / sklearn brute kneighbors for the "
              f"same two searches: {r['ratio']:.2f} (goal <= 1.2)")
    print(f"PMU, {n_pmu} features on Arts ({arts.n_samples} x {arts_X.shape[1]}, {arts.n_labels} labels):")
    print(f"  ours {pmu_ours:.2f} s, sklearn mutual_info_score version {pmu_peer:.1f} s "
          f"-> {pmu_peer / pmu_ours:.0f}x (goal >= 20); same selection: {our_order == peer_order}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
