"""Alternating k-medoids over a precomputed distance matrix (BAMIC's clustering step).

From the initial medoids, repeat until no medoid changes (or ``max_iter`` rounds):

1. assign every object to its nearest medoid (ties: the lowest cluster number); a medoid
   always stays in its own cluster;
2. replace each cluster's medoid by the member with the least total distance to the
   cluster's members; the current medoid is kept when it is among the best, otherwise the
   lowest-numbered best member wins.

Members are visited in increasing index order (stable sort of the labels), so a strict
``<`` against the running best implements both tie rules. No submatrix is copied: each
round costs sum_c |C|^2 reads of the distance matrix.
"""

import numpy as np
from numba import njit

__all__ = ["assign_to_medoids", "alternate_medoids"]


@njit(cache=True)
def assign_to_medoids(distances, medoids, labels):
    """labels[i] = the cluster of the nearest medoid (lowest cluster on ties)."""
    n, k = distances.shape[0], len(medoids)
    for i in range(n):
        best, best_cluster = np.inf, 0
        for c in range(k):
            d = distances[i, medoids[c]]
            if d < best:
                best, best_cluster = d, c
        labels[i] = best_cluster
    for c in range(k):
        labels[medoids[c]] = c


@njit(cache=True)
def alternate_medoids(distances, medoids, max_iter):
    """Run the alternating rule; returns (medoids, labels, rounds)."""
    n, k = distances.shape[0], len(medoids)
    medoids = medoids.copy()
    labels = np.empty(n, dtype=np.int64)
    rounds = 0
    for rounds in range(1, max_iter + 1):  # noqa: B007 -- returned: the rounds run
        assign_to_medoids(distances, medoids, labels)
        order = np.argsort(labels, kind="mergesort")
        starts = np.searchsorted(labels[order], np.arange(k + 1))
        changed = False
        for c in range(k):
            members = order[starts[c]:starts[c + 1]]
            best, best_total = medoids[c], 0.0
            for j in members:
                best_total += distances[best, j]
            for i in members:
                total = 0.0
                for j in members:
                    total += distances[i, j]
                if total < best_total:
                    best, best_total = i, total
            if best != medoids[c]:
                medoids[c] = best
                changed = True
        if not changed:
            break
    assign_to_medoids(distances, medoids, labels)
    return medoids, labels, rounds
