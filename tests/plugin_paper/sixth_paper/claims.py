"""The fixture paper's two claims, judged with milab-widgets' claim tests."""

import numpy as np
import pandas as pd

from milab_widgets.claims import Claim, claim_row, claims_table, every_case
from milab_widgets.claims.catalogue import exact_claim_row
from milab_widgets.evaluation.claim_tests import paired_case

__all__ = ["CATALOGUE", "judge"]

CATALOGUE = (
    Claim("beats-majority", "Nearest centroids are more accurate than the majority class",
          "§1", "every case", "iris (paired over the k folds)"),
    Claim("above-80", "Nearest centroids reach 80 % accuracy on every fold", "§2", "exact",
          "iris, every fold"),
)


def judge(scores: pd.DataFrame) -> pd.DataFrame:
    """``claims.csv`` of the fixture paper from the experiment's per-fold accuracies."""
    wide = scores.pivot(index="fold", columns="method", values="accuracy")
    differences = wide["nearest centroid"] - wide["majority"]
    # k-fold CV re-splits one pool: the corrected resampled t, n_test / n_train = 1 / (k - 1)
    case = pd.DataFrame([paired_case(differences.to_numpy(), method="corrected_t",
                                     test_train_ratio=1 / (len(wide) - 1))])
    rows = [claim_row(CATALOGUE[0], every_case(case), noise="corrected resampled t, k folds",
                      cases=case),
            exact_claim_row(CATALOGUE[1], float(np.min(wide["nearest centroid"]) - 0.8),
                            "the lowest fold accuracy minus 0.8", n=len(wide),
                            noise="none: every fold is measured")]
    return claims_table(rows, CATALOGUE)
