"""What the claims tables of every paper share: exact checks, and the verdict counts.

**Exact checks are not statistical verdicts.** A deterministic measurement (a principal
angle, the largest rise of an objective) has no sampling noise, so it has no interval and
no p-value: :func:`exact_result` gives it the ``margin`` by which the measurement clears its
threshold as ``effect``, NaN bounds and p-value, a ``test`` that starts with
:data:`EXACT_TEST`, and the verdict ``supported`` when the margin is >= 0 (the check holds)
or ``contradicted`` when it is < 0 (it fails). Every count (:func:`verdict_counts`,
:func:`counts_text`, the report's totals) keeps them apart from the statistical claims:
"5 supported, 6 contradicted, 4 inconclusive; exact checks: 2 hold, 1 fails".

The statistical tests are in :mod:`milab_widgets.evaluation.claim_tests`; the claims
catalogue that builds each paper's rows is :mod:`milab_widgets.claims`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, VERDICTS
from milab_widgets.exceptions import InputError

__all__ = ["CLAIM_TABLE_COLUMNS", "EXACT_TEST", "counts_text", "exact_result", "exact_text",
           "is_exact", "verdict_counts"]

#: How the ``test`` of every exact check starts.
EXACT_TEST = "exact check (no sampling)"
#: An exact check's verdict -> what it says of the check.
EXACT_OUTCOMES = {"supported": "hold", "contradicted": "fail"}
#: The claim columns of a claims table: the test's result, then the number of cases and
#: how many of them are supported, contradicted and inconclusive.
CLAIM_TABLE_COLUMNS = [*CLAIM_COLUMNS, "cases", *(f"cases_{word}" for word in VERDICTS)]


# -- exact checks ----------------------------------------------------------------------------
def exact_result(margin: float, checked: str, n: int = 1) -> dict:
    """The result of an exact check: ``margin`` is how far the measurement lies on the
    claim's side of its threshold (``checked`` says what it is, e.g. "0.05 rad minus the
    largest principal angle"), over ``n`` measurements; it holds (supported) when
    margin >= 0, fails (contradicted) when < 0. No interval and no p-value: there is no
    sampling."""
    margin = float(margin)
    if not np.isfinite(margin):
        raise InputError(f"the margin of the exact check ({checked}) is {margin}; an exact "
                         "check needs a finite measurement.")
    return {"effect": margin, "ci_low": np.nan, "ci_high": np.nan, "p_value": np.nan,
            "verdict": "supported" if margin >= 0 else "contradicted",
            "test": f"{EXACT_TEST}: {checked}", "n": int(n)}


def is_exact(table: pd.DataFrame) -> pd.Series:
    """Which rows of a claims or cases table are exact checks (by their ``test``)."""
    if "test" not in table.columns:
        return pd.Series(False, index=table.index)
    return table["test"].astype(str).str.startswith(EXACT_TEST)


# -- counts ---------------------------------------------------------------------------------
def verdict_counts(table: pd.DataFrame) -> dict[str, int]:
    """How many rows of a claims (or cases) table are supported, contradicted and
    inconclusive among the statistical tests, and how many exact checks ``hold`` and
    ``fail``: the keys ``VERDICTS`` then ``"hold"``, ``"fail"``."""
    exact = is_exact(table)
    statistical = table.verdict[~exact].value_counts() if len(table) else {}
    checks = table.verdict[exact].value_counts() if len(table) else {}
    return {**{word: int(statistical.get(word, 0)) for word in VERDICTS},
            **{outcome: int(checks.get(word, 0)) for word, outcome in EXACT_OUTCOMES.items()}}


def counts_text(table: pd.DataFrame) -> str:
    """"5 supported, 6 contradicted, 4 inconclusive; exact checks: 2 hold, 1 fails" (the
    exact checks' part only when there are some)."""
    counts = verdict_counts(table)
    text = ", ".join(f"{counts[word]} {word}" for word in VERDICTS)
    return text + (f"; {exact_text(counts)}" if counts["hold"] + counts["fail"] else "")


def exact_text(counts: dict[str, int]) -> str:
    """"exact checks: 2 hold, 1 fails" from :func:`verdict_counts`."""
    return "exact checks: " + ", ".join(
        f"{counts[outcome]} {outcome if counts[outcome] != 1 else outcome + 's'}"
        for outcome in EXACT_OUTCOMES.values())
