"""Choosing one-class parameters by cross-validation on a training set of normal samples.

The seed picks (C, zeta) of the SVDD, then sigma of CDVSE, by 5-fold cross-validation on
the training set, which holds 70 % of the normal samples and only 0.5 % of the outliers
(one or two samples). A validation fold therefore has almost no outliers to reject, and
plain accuracy would favour the loosest description. The criterion here is the g-mean on
each validation fold against *artificial outliers* (the idea of Tax & Duin 2001, "Uniform
object generation for optimizing one-class classifiers", JMLR 2):

    a+ = fraction of the fold's normal samples accepted,
    a- = fraction rejected of the fold's real outliers plus ``n_artificial`` points drawn
         from the product of the training part's marginal distributions (each feature
         resampled independently from its observed values),

averaged over the folds; ties go to the first setting in grid order. The product of the
marginals is the reference density of Hastie, Tibshirani & Friedman (The Elements of
Statistical Learning, 2nd ed., §14.2.4): it has the data's range and spread in every
feature but none of its dependence, so it stays close to the data in high dimension, where
Tax & Duin's uniform box is rejected by any description (with the box, 3 repetitions of
German, Sonar and Liver chose looser SVDDs and lost 9-15 test g-mean points; Heart was
even). The artificial points of a fold are drawn once and shared by every setting.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold

from milab_widgets.evaluation.oneclass_scores import g_mean
from milab_widgets.oneclass import SVDD, CDVSESVDD
from milab_widgets.oneclass.ensembles import fit_bootstrap_spheres

__all__ = ["ValidationFold", "artificial_outliers", "make_folds", "select_sigma",
           "select_svdd"]


def artificial_outliers(X: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points from the product of X's marginals: column j drawn from X[:, j]."""
    return np.column_stack([rng.choice(column, n) for column in X.T])


@dataclass(frozen=True)
class ValidationFold:
    """One fold: the rows to fit on, and the validation rows with their +1/-1 labels."""

    train: np.ndarray
    X_val: np.ndarray
    y_val: np.ndarray

    def score(self, model) -> float:
        """g-mean of a fitted model on the validation rows."""
        return g_mean(self.y_val, model.predict(self.X_val))


def make_folds(X, y, n_folds: int, n_artificial: int, seed: int) -> list[ValidationFold]:
    """Shuffled k-fold splits of (X, y); each validation part gains artificial outliers."""
    rng = np.random.default_rng(seed)
    folds = []
    for train, held_out in KFold(n_folds, shuffle=True, random_state=seed).split(X):
        extra = artificial_outliers(X[train], n_artificial, rng)
        folds.append(ValidationFold(train, np.vstack([X[held_out], extra]),
                                    np.r_[y[held_out], -np.ones(n_artificial, dtype=np.int64)]))
    return folds


def select_svdd(X, folds, C_grid, zeta_grid,
                tol: float = 1e-3) -> tuple[float, float, pd.DataFrame]:
    """(C, zeta) with the best mean validation g-mean of a single SVDD, and every score.

    C values below 1/n of a fold's training part are skipped (no SVDD exists there).
    """
    rows = []
    smallest = min(len(fold.train) for fold in folds)
    for C in (c for c in C_grid if c * smallest >= 1.0):
        for zeta in zeta_grid:
            scores = [fold.score(SVDD(C=C, gamma=zeta, tol=tol).fit(X[fold.train]))
                      for fold in folds]
            rows.append({"C": C, "zeta": zeta, "score": float(np.mean(scores))})
    table = pd.DataFrame(rows)
    best = table.loc[table["score"].idxmax()]
    return float(best["C"]), float(best["zeta"]), table


def select_sigma(X, folds, C, zeta, sigma_grid, n_estimators: int, seed: int,
                 lam: float = 1.0, gamma_l1: float = 1.0, max_iter: int = 20,
                 tol: float = 1e-3) -> tuple[float, pd.DataFrame]:
    """sigma with the best mean validation g-mean of CDVSE (base SVDDs at C, zeta).

    Each fold's M bootstrap SVDDs are fitted once and reused for every sigma.
    """
    scores = np.zeros(len(sigma_grid))
    for number, fold in enumerate(folds):
        X_fit = X[fold.train]
        spheres = fit_bootstrap_spheres(X_fit, C, zeta, tol, n_estimators, seed + number)
        for k, sigma in enumerate(sigma_grid):
            model = CDVSESVDD(n_estimators, C, zeta, sigma, lam, gamma_l1, max_iter, tol)
            scores[k] += fold.score(model.fit(X_fit, spheres=spheres)) / len(folds)
    table = pd.DataFrame({"sigma": list(sigma_grid), "score": scores})
    return float(table.loc[table["score"].idxmax(), "sigma"]), table
