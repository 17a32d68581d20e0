"""Diversity of an ensemble's members, measured on their decisions.

The *disagreement* of two classifiers i and j on N samples is the fraction of the samples on
which exactly one of them says "yes" (Skalak 1996; Kuncheva & Whitaker 2003, "Measures of
diversity in classifier ensembles and their relationship with the ensemble accuracy",
Machine Learning 51:181-207, their Dis_{i,j}). The ensemble's diversity is its average over
the K (K - 1) / 2 pairs of members,

    Dis = 2 / (K (K - 1)) sum_{i<j} (1/N) sum_n [o_i(x_n) != o_j(x_n)].

At sample n with a_n of the K members saying "yes", a_n (K - a_n) pairs disagree, so

    Dis = sum_n a_n (K - a_n) / (N K (K - 1) / 2),

one pass over the decisions instead of one per pair. It lies in [0, 1/2 * K / (K - 1)]
(at most half the pairs can split at one sample, K even). An ensemble of fewer than two
members has no pair, and no diversity: 0.
"""

from __future__ import annotations

import numpy as np

from milab_widgets.exceptions import InputError

__all__ = ["pairwise_disagreement"]


def pairwise_disagreement(decisions) -> float:
    """Kuncheva & Whitaker's disagreement averaged over the pairs of members.

    Parameters
    ----------
    decisions : array-like of bool, shape (n_samples, n_members)
        Column k holds member k's yes/no decision on each sample (e.g. a one-class
        ensemble's ``Spheres.inside(X)``: the sample lies in sphere k).

    Returns
    -------
    float
        The fraction of samples on which two members disagree, averaged over the pairs;
        0 for fewer than two members.

    Examples
    --------
    >>> pairwise_disagreement([[True, False], [True, True]])  # they split on sample 0
    0.5
    >>> round(pairwise_disagreement([[True, True, False], [True, False, False]]), 4)
    0.6667
    """
    votes = np.asarray(decisions)
    if votes.ndim != 2 or votes.dtype != bool:
        raise InputError(f"decisions must be a 2-D boolean array (samples x members), got "
                         f"shape {votes.shape} of {votes.dtype}.")
    n_samples, members = votes.shape
    if members < 2:
        return 0.0
    if n_samples == 0:
        raise InputError("decisions has no samples: the disagreement needs at least one.")
    yes = votes.sum(axis=1)
    pairs = members * (members - 1) / 2
    return float(np.sum(yes * (members - yes)) / (n_samples * pairs))
