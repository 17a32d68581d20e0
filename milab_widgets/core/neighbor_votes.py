"""Votes of k-NN and Citation-KNN for several K at once, straight from distance matrices.

Bags live in one index space: the columns of the distance matrices (and the rows of the
training-bag matrix). A split names its training bags (``candidates``, ascending); every
other bag is invisible to the vote. Each needed row is scanned once per split, keeping its
few nearest candidates in a small sorted buffer (ties: the lower index first, as a stable
sort would), so no matrix is ever sorted and a cross-validation never copies a block.

For a query bag q and K references with C citers (Wang & Zucker, "Solving the
multiple-instance problem: a lazy learning approach", ICML 2000):

    references(q) = the K candidates nearest q (ties: lower index first)
    radius_C(t)   = distance from candidate t to its C-th nearest other candidate (inf if it
                    has fewer than C others)
    citers(q)     = {candidate t : d(q, t) <= radius_C(t)}
    vote(q)       = 2 * (positive references + positive citers) - (K + |citers(q)|)

q is positive iff vote(q) > 0 (a tie is negative). k-NN is the same without citers.
"""

import numpy as np
from numba import njit

__all__ = ["nearest_candidates", "citation_radii", "neighbor_votes", "fold_accuracies"]


@njit(cache=True)
def nearest_candidates(distances, row, candidates, skip, nearest, at):
    """The ``len(nearest)`` smallest ``distances[row, c]`` over ``candidates`` other than
    ``skip`` (-1: none), ascending, written to ``nearest`` (distances) and ``at`` (bags).
    Among equal distances the bag met first, i.e. the lower index, comes first. Returns how
    many were found (fewer when there are fewer candidates)."""
    size = len(nearest)
    found = 0
    for bag in candidates:
        if bag == skip:
            continue
        d = distances[row, bag]
        if found == size and d >= nearest[size - 1]:
            continue
        position = min(found, size - 1)
        while position > 0 and nearest[position - 1] > d:
            nearest[position], at[position] = nearest[position - 1], at[position - 1]
            position -= 1
        nearest[position], at[position] = d, bag
        found = min(found + 1, size)
    return found


@njit(cache=True)
def citation_radii(distances, candidates, citers):
    """radius_C(t) for every C of ``citers`` and every candidate t: (len(citers),
    len(candidates)); ``distances[t]`` holds t's distances to every bag."""
    radii = np.full((len(citers), len(candidates)), np.inf)
    nearest = np.empty(citers.max())
    at = np.empty(citers.max(), np.int64)
    for column in range(len(candidates)):
        found = nearest_candidates(distances, candidates[column], candidates, candidates[column],
                                   nearest, at)
        for i in range(len(citers)):
            if citers[i] <= found:
                radii[i, column] = nearest[citers[i] - 1]
    return radii


@njit(cache=True)
def neighbor_votes(distances, rows, candidates, labels, ks, radii):
    """vote(q) for each query row q of ``rows`` and each K of ``ks``: (len(ks), len(rows)).

    ``distances[q]`` holds q's distances to every bag; ``labels`` are 0/1 over the bag
    space. ``radii`` is :func:`citation_radii` for the C of each K (Citation-KNN), or has no
    rows (k-NN: references only). Every K must be at most the number of candidates.
    """
    nearest = np.empty(ks.max())
    at = np.empty(ks.max(), np.int64)
    positives_before = np.zeros(ks.max() + 1, np.int64)  # positives among the first j
    with_citers = radii.shape[0] > 0
    votes = np.empty((len(ks), len(rows)), np.int64)
    for r in range(len(rows)):
        query = rows[r]
        found = nearest_candidates(distances, query, candidates, -1, nearest, at)
        for j in range(found):
            positives_before[j + 1] = positives_before[j] + labels[at[j]]
        for i in range(len(ks)):
            positives, n_votes = positives_before[ks[i]], ks[i]
            if with_citers:
                for column in range(len(candidates)):
                    bag = candidates[column]
                    if distances[query, bag] <= radii[i, column]:
                        positives += labels[bag]
                        n_votes += 1
            votes[i, r] = 2 * positives - n_votes
    return votes


@njit(cache=True)
def fold_accuracies(query_distances, train_distances, labels, fold_of, folds, ks, citers):
    """Accuracy of every K on each fold of ``folds``: (len(folds), len(ks)).

    ``fold_of[b]`` is bag b's fold (-1: outside this cross-validation). Fold f's test bags
    are those with fold_of == f, its candidates every other bag with fold_of >= 0.
    ``query_distances[q]`` ranks candidates for a test bag q, ``train_distances[t]`` for a
    candidate t (the same matrix unless a bag's own label sets its distances). With
    ``citers`` (C per K) the vote is Citation-KNN's, with an empty ``citers`` k-NN's. A K
    above the number of candidates gets NaN.
    """
    accuracies = np.full((len(folds), len(ks)), np.nan)
    for at in range(len(folds)):
        fold = folds[at]
        candidates = np.flatnonzero((fold_of >= 0) & (fold_of != fold))
        tests = np.flatnonzero(fold_of == fold)
        usable = np.flatnonzero(ks <= len(candidates))
        if len(usable) == 0 or len(tests) == 0:
            continue
        radii = np.empty((0, len(candidates)))
        if len(citers) > 0:
            radii = citation_radii(train_distances, candidates, citers[usable])
        votes = neighbor_votes(query_distances, tests, candidates, labels, ks[usable], radii)
        for i in range(len(usable)):
            correct = 0
            for r in range(len(tests)):
                correct += (votes[i, r] > 0) == (labels[tests[r]] == 1)
            accuracies[at, usable[i]] = correct / len(tests)
    return accuracies
