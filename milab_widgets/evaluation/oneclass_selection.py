"""Choosing one-class parameters by cross-validation on a training set of normal samples.

The paper picks (C, zeta) of the SVDD, then sigma, lambda and gamma of CDVSE (seed 002
L279), by 5-fold cross-validation on the training set, which holds 70 % of the normal
samples and only 0.5 % of the outliers (one or two samples). A validation fold therefore has almost no outliers to reject, and
plain accuracy would favour the loosest description. The criterion here is the g-mean on
each validation fold against *artificial outliers* (the idea of Tax & Duin 2001, "Uniform
object generation for optimizing one-class classifiers", JMLR 2):

    a+ = fraction of the fold's normal samples accepted,
    a- = fraction rejected of the fold's real outliers plus ``n_artificial`` points drawn
         from a *reference* density built from the fold's training part,

averaged over the folds; ties go to the first setting in grid order. The artificial points
of a fold are drawn once and shared by every setting. The reference is a choice
(:data:`REFERENCES`), and no training-only choice is best everywhere:

* ``"marginals"`` (the default): the product of the training part's marginal
  distributions, each feature resampled independently from its observed values; the
  reference density of Hastie, Tibshirani & Friedman (The Elements of Statistical
  Learning, 2nd ed., §14.2.4). It has the data's range and spread in every feature but
  none of its dependence, so it overlaps the data: a description must follow the data's
  shape, not merely its range, to reject it, which favours tight descriptions.
* ``"box"``: uniform in the training part's bounding box (per feature, its minimum to its
  maximum), Tax & Duin's proposal. Its mass lies mostly far from the data, so it is easily
  rejected and favours looser descriptions; in d dimensions the data fill a vanishing
  share of the box, so every description rejects nearly all of it and the criterion
  reduces to the fraction of normal samples accepted.

The default was fixed before any test score was looked at, for that last reason: the
UCI sets here have up to 60 features (Sonar), where the box stops telling descriptions
apart while the product of the marginals still does. Which sets each reference loses, and
why, is measured in the CDVSE notebook and docs/papers/CDVSE_verdicts.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold

from milab_widgets.evaluation.oneclass_scores import g_mean
from milab_widgets.exceptions import InputError
from milab_widgets.oneclass import CDVSESVDD, SVDD
from milab_widgets.oneclass.ensembles import fit_bootstrap_spheres

__all__ = ["DEFAULT_REFERENCE", "REFERENCES", "ValidationFold", "artificial_outliers",
           "make_folds", "select_cdvse", "select_cdvse_by", "select_svdd", "select_svdd_by"]


def product_of_marginals(X: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points from the product of X's marginals: column j drawn from X[:, j]."""
    return np.column_stack([rng.choice(column, n) for column in X.T])


def uniform_box(X: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points uniform in X's bounding box [min_j, max_j] per feature j."""
    return rng.uniform(X.min(axis=0), X.max(axis=0), (n, X.shape[1]))


#: The reference densities of the artificial outliers, by name (see the module notes).
REFERENCES = {"marginals": product_of_marginals, "box": uniform_box}
#: The default reference, fixed before looking at test results (module notes).
DEFAULT_REFERENCE = "marginals"


def artificial_outliers(X: np.ndarray, n: int, rng: np.random.Generator,
                        reference: str = DEFAULT_REFERENCE) -> np.ndarray:
    """``n`` points from the ``reference`` density built from X (:data:`REFERENCES`)."""
    if reference not in REFERENCES:
        raise InputError(f"reference={reference!r} is not a known reference density; "
                         f"use one of {sorted(REFERENCES)}.")
    return REFERENCES[reference](X, n, rng)


@dataclass(frozen=True)
class ValidationFold:
    """One fold: the rows to fit on, and the validation rows with their +1/-1 labels."""

    train: np.ndarray
    X_val: np.ndarray
    y_val: np.ndarray

    def score(self, model) -> float:
        """g-mean of a fitted model on the validation rows."""
        return g_mean(self.y_val, model.predict(self.X_val))


def make_folds(X, y, n_folds: int, n_artificial: int, seed: int,
               reference: str = DEFAULT_REFERENCE) -> list[ValidationFold]:
    """Shuffled k-fold splits of (X, y); each validation part gains artificial outliers
    from ``reference``. Equal seeds give the same splits whatever the reference."""
    rng = np.random.default_rng(seed)
    folds = []
    for train, held_out in KFold(n_folds, shuffle=True, random_state=seed).split(X):
        extra = artificial_outliers(X[train], n_artificial, rng, reference)
        folds.append(ValidationFold(train, np.vstack([X[held_out], extra]),
                                    np.r_[y[held_out], -np.ones(n_artificial, dtype=np.int64)]))
    return folds


def select_svdd(X, folds, C_grid, zeta_grid,
                tol: float = 1e-3) -> tuple[float, float, pd.DataFrame]:
    """(C, zeta) with the best mean validation g-mean of a single SVDD, and every score.

    C values below 1/n of a fold's training part are skipped (no SVDD exists there).
    """
    choices, table = select_svdd_by(X, {"score": folds}, C_grid, zeta_grid, tol)
    return (*choices["score"], table)


def select_svdd_by(X, fold_sets, C_grid, zeta_grid,
                   tol: float = 1e-3) -> tuple[dict, pd.DataFrame]:
    """:func:`select_svdd` under several criteria at once: ``fold_sets`` maps a name to
    folds with the same training rows (:func:`make_folds` with one seed, different
    references), so each SVDD is fitted once and scored on every set.

    Returns ({name: (C, zeta)}, table with C, zeta and one score column per name).
    """
    names = list(fold_sets)
    splits = list(zip(*fold_sets.values(), strict=True))
    _check_same_training_rows(splits)
    rows = []
    smallest = min(len(fold.train) for fold in splits[0])
    for C in (c for c in C_grid if c * smallest >= 1.0):
        for zeta in zeta_grid:
            scores = np.zeros(len(names))
            for split in splits:
                model = SVDD(C=C, gamma=zeta, tol=tol).fit(X[split[0].train])
                scores += [fold.score(model) / len(splits) for fold in split]
            rows.append({"C": C, "zeta": zeta, **dict(zip(names, scores, strict=True))})
    table = pd.DataFrame(rows)
    choices = {name: (float(table.loc[table[name].idxmax(), "C"]),
                      float(table.loc[table[name].idxmax(), "zeta"])) for name in names}
    return choices, table


def select_cdvse(X, folds, C, zeta, sigma_grid, n_estimators: int, seed: int,
                 lam_grid=(1.0,), gamma_l1_grid=(1.0,), max_iter: int = 20,
                 tol: float = 1e-3) -> tuple[tuple[float, float, float], pd.DataFrame]:
    """(sigma, lambda, gamma) with the best mean validation g-mean of CDVSE (base SVDDs at
    C, zeta), over the product of the three grids in grid order, and every score.

    Each fold's M bootstrap SVDDs are fitted once and reused for every setting.
    """
    choices, table = select_cdvse_by(X, {"score": folds}, C, zeta, sigma_grid, n_estimators,
                                     seed, lam_grid, gamma_l1_grid, max_iter, tol)
    return choices["score"], table


def select_cdvse_by(X, fold_sets, C, zeta, sigma_grid, n_estimators: int, seed: int,
                    lam_grid=(1.0,), gamma_l1_grid=(1.0,), max_iter: int = 20,
                    tol: float = 1e-3) -> tuple[dict, pd.DataFrame]:
    """:func:`select_cdvse` under several criteria (``fold_sets`` as for
    :func:`select_svdd_by`): ({name: (sigma, lam, gamma_l1)}, table with sigma, lam,
    gamma_l1 and a score column per name).

    Fold k's bootstrap SVDDs (seed + k) and each setting's CDVSE are fitted once and scored
    on every set. A setting whose l1 penalty zeroes every weight on some fold (CDVSE then
    has no member, an :class:`~milab_widgets.exceptions.InputError`) scores NaN and is
    never chosen.
    """
    names = list(fold_sets)
    splits = list(zip(*fold_sets.values(), strict=True))
    _check_same_training_rows(splits)
    settings = list(product(sigma_grid, lam_grid, gamma_l1_grid))
    scores = np.zeros((len(settings), len(names)))
    for number, split in enumerate(splits):
        X_fit = X[split[0].train]
        spheres = fit_bootstrap_spheres(X_fit, C, zeta, tol, n_estimators, seed + number)
        for k, (sigma, lam, gamma_l1) in enumerate(settings):
            model = CDVSESVDD(n_estimators, C, zeta, sigma, lam, gamma_l1, max_iter, tol)
            try:
                model.fit(X_fit, spheres=spheres)
            except InputError:
                scores[k] = np.nan
                continue
            scores[k] += [fold.score(model) / len(splits) for fold in split]
    table = pd.DataFrame(settings, columns=["sigma", "lam", "gamma_l1"])
    table[names] = scores
    if table[names].isna().all().any():
        raise InputError(f"every CDVSE setting of the grids (lam {list(lam_grid)}, gamma_l1 "
                         f"{list(gamma_l1_grid)}) zeroes all weights on some fold; add "
                         "smaller gamma_l1 (or larger lam) values.")
    return {name: tuple(float(value) for value in table.loc[table[name].idxmax(),
                                                            ["sigma", "lam", "gamma_l1"]])
            for name in names}, table


def _check_same_training_rows(splits) -> None:
    for split in splits:
        if any(not np.array_equal(fold.train, split[0].train) for fold in split):
            raise InputError("the fold sets do not share their training rows; build them with "
                             "make_folds and one seed for every reference.")
