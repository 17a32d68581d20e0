"""CDVSE's three mechanism claims, measured: a more compact boundary (advantage (1)), more
diverse members (advantage (2)) and parameters that affect the ensemble strongly (the
conclusions). One repetition's measurements from its split and its selected parameters;
:mod:`milab_widgets.experiments.cdvse` runs them as cached records beside the repetitions'
own, and :mod:`milab_widgets.claims.cdvse` tests them.

**Compactness: the share of a fixed reference sample each ensemble accepts.** The paper
sets its boundary against "traditional one-class ensembles, whose boundaries are not
compact enough" (§1), and CDVSE selects and weights Bagging's own members, so the
comparison point is Bagging with the same M bootstrap SVDDs (all kept, majority vote). A
smaller accepted share of a reference sample is a smaller accepted region:

* UCI sets: :data:`REFERENCE_SIZE` points from the product of the training set's marginals
  (:func:`~milab_widgets.evaluation.oneclass_selection.artificial_outliers`, the selection
  criterion's default reference), drawn once per repetition and shared by both ensembles.
  Uniform points in the [0, 1]^d box the features are scaled to do not work: both
  ensembles accept none of them on Cancer, Housing and Sonar (measured on repetitions 0
  and 1 at the selected parameters; 0-25 % elsewhere), while the marginals' sample is 11-61
  % accepted on every set. A ratio of two zeros tells nothing.
* Artificial sets (§4.1, Figs. 2-3): the figure's grid over the [0, 3]^2 box, i.e. the
  accepted share of the box's area.

Beside it, the share of the test normals each accepts (a compact boundary that also
rejects more normals is not free).

**Diversity: the distance-variance term switched off.** The term is weighted by lambda, so
"the distance variance raises the diversity" is read as an ablation: the same M members,
sigma and gamma, weights with the selected lambda against lambda = 0, and the diversity of the
ensemble each keeps (w_k >= 1/M), measured on the test set as the pairwise disagreement of
the kept members' accept/reject decisions
(:func:`~milab_widgets.evaluation.ensemble_diversity.pairwise_disagreement`). That
standard measure is used for the verdict because the paper's own, eq. 14,
sum_i sum_n (d_i(x_n) - w.d_n)^2, is the very quantity eq. 17 optimises: maximising
J(w) = correntropy - lambda * (eq. 14) - gamma ||w||_1 *lowers* it, although the paper says
the term is there "to increase the diversity" (the sign of Yin et al.'s diversity term,
which its eq. 11 cites, is lost). Eq. 14 on the test set (per sample and member) is
recorded too, so the sign is measured rather than assumed. With lambda = 0 the l1 term
usually leaves one member (or none: every weight 0, an ensemble of nothing; both count as
diversity 0).

**Sensitivity: the test g-mean along each parameter's axis.** sigma, zeta and C are moved
one at a time over the run's grids (``Settings.sigma_grid``, ``zeta_grid``, ``C_grid``;
C values with C n < 1, where no SVDD exists, are skipped) with the other two at the
repetition's selected values; the bootstrap samples stay those of the repetition's seed,
so the curves differ only by the parameter. sigma changes only CDVSE's weighting, so its
axis reuses one set of fitted members. The test g-mean is measured (what "performance"
means in the paper), not the cross-validation criterion: it costs a fit of the M members
per zeta and C value, so only the first :data:`SENSITIVITY_REPETITIONS` repetitions run it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from milab_widgets.evaluation.ensemble_diversity import pairwise_disagreement
from milab_widgets.evaluation.oneclass_scores import g_mean
from milab_widgets.evaluation.oneclass_selection import artificial_outliers
from milab_widgets.exceptions import InputError
from milab_widgets.oneclass import CDVSESVDD, BaggingSVDD
from milab_widgets.oneclass.cdvse import distance_variance, half_quadratic_weights, selected_spheres

__all__ = ["CDVSEParameters", "COMPACTNESS_COLUMNS", "DIVERSITY_COLUMNS", "REFERENCE", "REFERENCE_SIZE",
           "SENSITIVITY_COLUMNS", "SENSITIVITY_REPETITIONS", "ablated_members",
           "accepted_fraction", "bagging_and_cdvse", "cdvse_at", "compactness_rows", "compactness_summary",
           "diversity_row", "diversity_summary", "members_record", "sensitivity_record",
           "sensitivity_summary"]

class CDVSEParameters(NamedTuple):
    """One repetition's selected parameters: the base SVDDs' (C, zeta) and CDVSE's
    (sigma, lambda, gamma), in the order the cached records pass them."""

    C: float
    zeta: float
    sigma: float
    lam: float
    gamma_l1: float


#: The UCI sets' reference sample: its density (oneclass_selection.REFERENCES) and size.
REFERENCE = "marginals"
REFERENCE_SIZE = 2000
#: The lambda of the ablation (the distance-variance term off); the paper's is 1.
ABLATED_LAMBDA = 0.0
#: Repetitions of each data set whose parameter axes are measured (quick mode: 1).
SENSITIVITY_REPETITIONS = 5

COMPACTNESS_COLUMNS = ("dataset", "repetition", "method", "reference", "points", "accepted",
                       "normals_accepted")
DIVERSITY_COLUMNS = ("dataset", "repetition", "ensemble", "lam", "kept", "disagreement",
                     "distance_variance")
SENSITIVITY_COLUMNS = ("dataset", "repetition", "parameter", "value", "selected", "test",
                       "kept")


def accepted_fraction(model, points) -> float:
    """The share of ``points`` that a fitted one-class ``model`` predicts normal (+1)."""
    return float(np.mean(model.predict(points) == 1))


def compactness_rows(models: dict, reference, normals, reference_name: str) -> list[dict]:
    """Per model (name -> fitted model): the share of the ``reference`` points it accepts
    and the share of ``normals`` (the test set's normal samples)."""
    return [{"method": name, "reference": reference_name, "points": len(reference),
             "accepted": accepted_fraction(model, reference),
             "normals_accepted": accepted_fraction(model, normals)}
            for name, model in models.items()]


def ablated_members(spheres, X_train, sigma: float, max_iter: int,
                    gamma_l1: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(weights, kept indices) of CDVSE on ``spheres`` with the distance-variance term off
    (lambda = 0), sigma and ``gamma_l1`` as given; no member is kept when every weight is 0."""
    weights, _ = half_quadratic_weights(spheres.radii, spheres.distances(X_train), sigma,
                                        ABLATED_LAMBDA, gamma_l1, max_iter)
    if not (weights > 0).any():
        return weights, np.array([], dtype=np.int64)
    return weights, selected_spheres(weights, gamma_l1, ABLATED_LAMBDA)


def diversity_row(spheres, weights, kept, X_test) -> dict:
    """The kept members' pairwise disagreement on ``X_test`` and eq. 14 there with all M
    members and ``weights``, per sample and member (the paper's distance variance)."""
    distances = spheres.distances(X_test)
    return {"kept": len(kept),
            "disagreement": pairwise_disagreement(spheres.inside(X_test)[:, kept]),
            "distance_variance": distance_variance(weights, distances) / distances.size}


def bagging_and_cdvse(X_train, parameters: CDVSEParameters, seed: int, settings):
    """Bagging and CDVSE on the same M bootstrap SVDDs (``random_state=seed``) at
    ``parameters``; ``settings``: n_estimators and max_iter."""
    bagging = BaggingSVDD(settings.n_estimators, C=parameters.C, gamma=parameters.zeta,
                          random_state=seed).fit(X_train)
    return bagging, cdvse_at(parameters, settings, seed).fit(X_train, spheres=bagging.spheres_)


def cdvse_at(parameters: CDVSEParameters, settings, seed: int) -> CDVSESVDD:
    """An unfitted CDVSE at ``parameters`` with the run's M and T (``settings``)."""
    return CDVSESVDD(settings.n_estimators, C=parameters.C, gamma=parameters.zeta,
                     sigma=parameters.sigma, lam=parameters.lam, gamma_l1=parameters.gamma_l1,
                     max_iter=settings.max_iter, random_state=seed)


def members_record(split, parameters, seed: int, settings) -> dict:
    """One repetition's compactness and diversity (a cache record): Bagging and CDVSE at
    the selected ``parameters`` (:class:`CDVSEParameters`) on ``split`` (X_train, y_train, X_test,
    y_test), both with the repetition's ``seed``; ``settings``: n_estimators, max_iter."""
    X_train, _, X_test, y_test = split
    bagging, cdvse = bagging_and_cdvse(X_train, parameters, seed, settings)
    reference = artificial_outliers(X_train, REFERENCE_SIZE, np.random.default_rng(seed),
                                    REFERENCE)
    compactness = compactness_rows({"bagging": bagging, "cdvse": cdvse}, reference,
                                   X_test[y_test == 1], REFERENCE)
    spheres = bagging.spheres_
    ablated, ablated_kept = ablated_members(spheres, X_train, parameters.sigma,
                                            settings.max_iter, parameters.gamma_l1)
    diversity = [{"ensemble": "cdvse", "lam": cdvse.lam,
                  **diversity_row(spheres, cdvse.weights_, cdvse.selected_, X_test)},
                 {"ensemble": "ablated", "lam": ABLATED_LAMBDA,
                  **diversity_row(spheres, ablated, ablated_kept, X_test)}]
    return {"compactness": compactness, "diversity": diversity}


def sensitivity_record(split, parameters: CDVSEParameters, seed: int, settings) -> dict:
    """CDVSE's test g-mean along sigma, zeta and C over ``settings``' grids, one at a time,
    the others (and lambda, gamma) at the selected ``parameters`` (a cache record): ``rows``,
    one per parameter and value. A point where the l1 term zeroes every weight (no member:
    CDVSE refuses to fit) is recorded with test NaN and 0 kept, and left out of the range."""
    X_train, _, X_test, y_test = split

    def scored(axis, value, members=None):
        model = cdvse_at(parameters._replace(**{axis: value}), settings, seed)
        row = {"parameter": axis, "value": float(value),
               "selected": bool(value == getattr(parameters, axis))}
        try:
            model.fit(X_train, spheres=members)
        except InputError:
            return None, {**row, "test": float("nan"), "kept": 0}
        return model, {**row, "test": g_mean(y_test, model.predict(X_test)),
                       "kept": len(model.selected_)}

    rows, members = [], None
    for value in settings.sigma_grid:  # sigma moves the weights only: one set of members
        model, row = scored("sigma", value, members)
        members = model.spheres_ if model is not None else members
        rows.append(row)
    grids = {"zeta": settings.zeta_grid,
             "C": [C for C in settings.C_grid if C * len(X_train) >= 1.0]}
    for axis, grid in grids.items():
        rows += [scored(axis, value)[1] for value in grid]
    return {"rows": rows}


# -- tables ----------------------------------------------------------------------------------
COMPACTNESS_SUMMARY_COLUMNS = ("dataset", "reference", "bagging_accepted", "cdvse_accepted",
                               "bagging_normals_accepted", "cdvse_normals_accepted")


def compactness_summary(compactness: pd.DataFrame) -> pd.DataFrame:
    """Per data set: the mean share of the reference Bagging and CDVSE accept, and of the
    test normals (the tested effect, a mean log ratio per set, is in ``claim_cases``)."""
    if compactness.empty:
        return pd.DataFrame(columns=COMPACTNESS_SUMMARY_COLUMNS)
    wide = compactness.pivot_table(index=["dataset", "reference"], columns="method",
                                   values=["accepted", "normals_accepted"], sort=False)
    wide.columns = [f"{method}_{value}" for value, method in wide.columns]
    return wide.reset_index()[list(COMPACTNESS_SUMMARY_COLUMNS)]


def diversity_summary(diversity: pd.DataFrame) -> pd.DataFrame:
    """Per data set and ensemble (CDVSE with its selected lambda, the ablation with 0): the
    median lambda, the mean members kept, their pairwise disagreement and eq. 14 on the test
    set."""
    return (diversity.groupby(["dataset", "ensemble"], sort=False)
            .agg(lam=("lam", "median"), kept=("kept", "mean"),
                 disagreement=("disagreement", "mean"),
                 distance_variance=("distance_variance", "mean")).reset_index())


def sensitivity_summary(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per data set, parameter and value: CDVSE's mean test g-mean and members kept over
    the measured repetitions, and the share of them in which the value was the selected
    one."""
    return (sensitivity.groupby(["dataset", "parameter", "value"], sort=False)
            .agg(test=("test", "mean"), kept=("kept", "mean"),
                 selected=("selected", "mean")).reset_index())
