"""Votes of k-NN and Citation-KNN for several K at once, over rankings computed once.

Bags live in one index space: the columns of the distance matrices and the rows of the
training-bag matrix. A split names its training bags (``candidates``, ascending); every
other bag is invisible to the vote. Each row of a distance matrix is ranked once over all
bags (a stable argsort, ties by lower index); a split walks that ranking and keeps its
candidates, which is the stable ranking of the row restricted to them. So a
cross-validation sorts each matrix once, not once per split.

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


def rank_rows(distances) -> np.ndarray:
    """Each row's column indices from nearest to farthest; ties by lower index (stable)."""
    return np.argsort(distances, axis=1, kind="stable")


@njit(cache=True)
def citation_radii(distances, order, candidates, is_candidate, citers):
    """radius_C(t) for every C of ``citers`` and every candidate t: (len(citers), len(candidates)).

    ``distances[t]`` holds t's distances to every bag and ``order[t]`` their stable ranking;
    ``is_candidate`` is the boolean mask of ``candidates`` over the bag space.
    """
    radii = np.full((len(citers), len(candidates)), np.inf)
    most = citers.max()
    nearest = np.empty(most)
    for column in range(len(candidates)):
        bag = candidates[column]
        found = 0
        for other in order[bag]:
            if found == most:
                break
            if other != bag and is_candidate[other]:
                nearest[found] = distances[bag, other]
                found += 1
        for i in range(len(citers)):
            if citers[i] <= found:
                radii[i, column] = nearest[citers[i] - 1]
    return radii


@njit(cache=True)
def neighbor_votes(distances, order, rows, candidates, is_candidate, labels, ks, radii):
    """vote(q) for each query row q of ``rows`` and each K of ``ks``: (len(ks), len(rows)).

    ``distances[q]`` holds q's distances to every bag, ``order[q]`` their stable ranking.
    ``labels`` are 0/1 over the bag space. ``radii`` is :func:`citation_radii` for the C of
    each K (Citation-KNN), or has no rows (k-NN: references only). Every K must be at most
    the number of candidates.
    """
    most = ks.max()
    positives_before = np.zeros(most + 1, np.int64)  # positives among the first j references
    with_citers = radii.shape[0] > 0
    votes = np.empty((len(ks), len(rows)), np.int64)
    for r in range(len(rows)):
        query = rows[r]
        found = 0
        for bag in order[query]:
            if found == most:
                break
            if is_candidate[bag]:
                positives_before[found + 1] = positives_before[found] + labels[bag]
                found += 1
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
def fold_accuracies(query_distances, query_order, train_distances, train_order, labels, fold_of,
                    folds, ks, citers):
    """Accuracy of every K on each fold of ``folds``: (len(folds), len(ks)).

    ``fold_of[b]`` is bag b's fold (-1: outside this cross-validation). Fold f's test bags
    are those with fold_of == f, its candidates every other bag with fold_of >= 0. With
    ``citers`` (C per K, same length as ks) the vote is Citation-KNN's, with an empty
    ``citers`` k-NN's. A K above the number of candidates gets NaN.
    """
    accuracies = np.full((len(folds), len(ks)), np.nan)
    is_candidate = np.empty(len(fold_of), np.bool_)
    for at in range(len(folds)):
        fold = folds[at]
        for bag in range(len(fold_of)):
            is_candidate[bag] = fold_of[bag] >= 0 and fold_of[bag] != fold
        candidates = np.flatnonzero(is_candidate)
        tests = np.flatnonzero(fold_of == fold)
        usable = np.flatnonzero(ks <= len(candidates))
        if len(usable) == 0 or len(tests) == 0:
            continue
        radii = np.empty((0, len(candidates)))
        if len(citers) > 0:
            radii = citation_radii(train_distances, train_order, candidates, is_candidate,
                                   citers[usable])
        votes = neighbor_votes(query_distances, query_order, tests, candidates, is_candidate,
                               labels, ks[usable], radii)
        for i in range(len(usable)):
            correct = 0
            for r in range(len(tests)):
                correct += (votes[i, r] > 0) == (labels[tests[r]] == 1)
            accuracies[at, usable[i]] = correct / len(tests)
    return accuracies
