"""A paper's claims tables: per-case rows combined into one row per claim, their counts and
their sentences. The tests themselves are in :mod:`milab_widgets.evaluation.claim_tests`.

**Cases.** An experiment writes one row per case (one claim on one dataset, generator,
solver...) with :data:`~milab_widgets.evaluation.claim_tests.CLAIM_COLUMNS`, its case keys,
and, in a ``sample`` column, how the case was tested, which says how its claim combines:

* :func:`paired_row`, ``("paired", d)``: a paired t on per-repetition differences d, the
  repetitions shared by the claim's cases (e.g. runs paired by seed);
* :func:`ratio_row`, ``("ratio", times_a, times_b)``: repeated paired timings, "A is faster
  than B" (``ratio_case``);
* :func:`effect_row`, ``("effect", None)``: a case the caller tested (a bootstrap over test
  instances, a corrected t over folds...); only its effect combines. A case table without
  a ``sample`` column (e.g. read back from ``claim_cases.csv``) is all of this kind;
* :func:`exact_row`, ``("exact", None)``: an **exact check** (see below).

**Claims** (:func:`summarise_claims`, in order of first appearance), by the kind of their
cases:

* one case: that case's own test;
* exact checks: the worst case (the smallest margin);
* timings: ``ratio_case`` on every (case, repetition) pair pooled;
* 2 to 5 paired cases with the same number of repetitions: the paired t on the
  per-repetition differences averaged over the cases (with fewer than
  :data:`MIN_SIGNED_RANK_CASES` effects the signed-rank interval at 95 % is unbounded);
* otherwise, over datasets: Wilcoxon's signed-rank test and the Hodges-Lehmann interval
  (``across_datasets``; Demšar, JMLR 7:1-30, 2006) on the cases' effects, or, with
  ``over="dataset"``, on each dataset's mean effect over its cases (so that the cases of
  one dataset count once).

Every claim row also carries ``cases`` and the per-case verdict counts
:data:`CASE_COUNT_COLUMNS` (``cases_supported``, ``cases_contradicted``,
``cases_inconclusive``).

**Exact checks are not statistical verdicts.** A deterministic measurement (a principal
angle, the largest rise of an objective) has no sampling noise, so it has no interval and
no p-value: its row carries the ``margin`` by which the measurement clears its threshold as
``effect``, NaN bounds and p-value, a ``test`` that starts with :data:`EXACT_TEST`, and the
verdict ``supported`` when the margin is >= 0 (the check holds) or ``contradicted`` when it
is < 0 (it fails). Every count and summary (:func:`verdict_counts`, :func:`counts_text`,
:func:`verdict_lines`, the report's totals) keeps them apart from the statistical claims:
"5 supported, 6 contradicted, 4 inconclusive; exact checks: 2 hold, 1 fails".
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from milab_widgets.evaluation.claim_tests import (
    CLAIM_COLUMNS,
    VERDICTS,
    across_datasets,
    paired_case,
    ratio_case,
)
from milab_widgets.exceptions import InputError

__all__ = ["CASE_COUNT_COLUMNS", "EXACT_TEST", "FEW_DATASETS_NOTE", "MIN_SIGNED_RANK_CASES",
           "CLAIM_TABLE_COLUMNS", "cases_frame", "counts_text", "describe", "effect_row",
           "exact_row", "is_exact", "paired_row", "public_cases", "ratio_row",
           "summarise_claims", "verdict_counts", "verdict_lines"]

#: Fewest cases whose signed-rank interval at 95 % is bounded (N = 6: P(T+ = 0) = 1/64).
MIN_SIGNED_RANK_CASES = 6
#: How the ``test`` of every exact check starts.
EXACT_TEST = "exact check (no sampling)"
#: An exact check's verdict -> what it says of the check.
EXACT_OUTCOMES = {"supported": "hold", "contradicted": "fail"}
#: Per-claim counts of its cases' verdicts.
CASE_COUNT_COLUMNS = [f"cases_{word}" for word in VERDICTS]
#: The columns of a claims table from :func:`summarise_claims`.
CLAIM_TABLE_COLUMNS = [*CLAIM_COLUMNS, "cases", *CASE_COUNT_COLUMNS]
#: Why an interval over N <= 5 datasets is unbounded (for verdict texts).
FEW_DATASETS_NOTE = ("With N <= 5 datasets the signed-rank test cannot reach the 5 % level "
                     "(its smallest two-sided p is 2 / 2^N >= 1/16), so the interval is "
                     "unbounded.")


# -- case rows -------------------------------------------------------------------------------
def paired_row(claim: str, keys: dict, differences, detail: str = "") -> dict:
    """A case tested by the paired t on per-repetition ``differences`` (oriented)."""
    differences = np.asarray(differences, dtype=float)
    return _row(claim, keys, paired_case(differences, method="t"), detail,
                ("paired", differences))


def ratio_row(claim: str, keys: dict, times_a, times_b, detail: str = "") -> dict:
    """A timing case "A faster than B" from repeated, paired timings."""
    times_a, times_b = np.asarray(times_a, float), np.asarray(times_b, float)
    return _row(claim, keys, ratio_case(times_a, times_b), detail, ("ratio", times_a, times_b))


def effect_row(claim: str, keys: dict, result: dict, detail: str = "") -> dict:
    """A case tested by the caller (``result``: effect, ci_low, ci_high, p_value, verdict,
    test, n); only its effect combines over cases."""
    return _row(claim, keys, result, detail, ("effect", None))


def exact_row(claim: str, keys: dict, margin: float, checked: str, n: int = 1,
              detail: str = "") -> dict:
    """An exact check measured once: ``margin`` is how far the measurement lies on the
    claim's side of its threshold (``checked`` says what it is, e.g. "0.05 rad minus the
    largest principal angle"); it holds (supported) when margin >= 0, fails (contradicted)
    when < 0. No interval and no p-value: there is no sampling."""
    margin = float(margin)
    if not np.isfinite(margin):
        raise InputError(f"the margin of the exact check {claim!r} is {margin}; an exact "
                         "check needs a finite measurement.")
    return _row(claim, keys, _exact_result(margin, f"{EXACT_TEST}: {checked}", n), detail,
                ("exact", None))


def cases_frame(rows: list[dict], keys) -> pd.DataFrame:
    """The case rows as a table: CLAIM_COLUMNS, then ``keys``, ``detail`` and ``sample``."""
    return pd.DataFrame(rows, columns=[*CLAIM_COLUMNS, *keys, "detail", "sample"])


def public_cases(cases: pd.DataFrame) -> pd.DataFrame:
    """The case table as written to ``claim_cases.csv`` (without the ``sample`` cells)."""
    return cases.drop(columns="sample", errors="ignore")


def is_exact(table: pd.DataFrame) -> pd.Series:
    """Which rows of a claims or cases table are exact checks (by their ``test``)."""
    if "test" not in table.columns:
        return pd.Series(False, index=table.index)
    return table["test"].astype(str).str.startswith(EXACT_TEST)


# -- claims ----------------------------------------------------------------------------------
def summarise_claims(cases: pd.DataFrame, *, over: str | None = None,
                     overrides: dict | None = None) -> pd.DataFrame:
    """One row per claim (in order of first appearance): :data:`CLAIM_TABLE_COLUMNS`, the
    claim's test combining its cases as the module notes say. ``over`` (a case column, e.g.
    ``"dataset"``) makes the signed-rank test run over that column's values, each the mean
    effect of its cases. ``overrides`` (claim -> a claim test's result) replaces the
    combination of a claim's cases by a test the caller ran on all of them at once."""
    overrides = overrides or {}
    rows = []
    for claim, group in cases.groupby("claim", sort=False):
        counts = group.verdict.value_counts()
        result = overrides[claim] if claim in overrides else _combine(group, over)
        rows.append({"claim": claim, **{key: result[key] for key in CLAIM_COLUMNS[1:]},
                     "cases": len(group),
                     **{f"cases_{word}": int(counts.get(word, 0)) for word in VERDICTS}})
    return pd.DataFrame(rows, columns=CLAIM_TABLE_COLUMNS)


def _combine(group: pd.DataFrame, over: str | None) -> dict:
    """The claim test over one claim's cases (see the module notes)."""
    samples = group["sample"] if "sample" in group else [("effect", None)] * len(group)
    kinds = {sample[0] for sample in samples}
    exact = is_exact(group)
    if exact.any() and not exact.all():
        raise InputError(f"the claim {group.claim.iloc[0]!r} mixes exact checks with "
                         "statistical cases; give them separate claims.")
    if len(group) == 1:
        return group.iloc[0][CLAIM_COLUMNS[1:]].to_dict()
    if exact.all():
        return _exact_result(group.effect.min(), f"{EXACT_TEST}: worst of {len(group)} cases",
                             len(group))
    if kinds == {"ratio"}:
        result = ratio_case(np.concatenate([sample[1] for sample in samples]),
                            np.concatenate([sample[2] for sample in samples]))
        return {**result, "test": f"{result['test']}, pooled over {len(group)} cases"}
    if (kinds == {"paired"} and len(group) < MIN_SIGNED_RANK_CASES
            and len({len(sample[1]) for sample in samples}) == 1):
        result = paired_case(np.mean([sample[1] for sample in samples], axis=0), method="t")
        return {**result, "test": f"paired t on the per-repetition differences averaged "
                                  f"over {len(group)} cases"}
    effects = group.groupby(over, sort=False).effect.mean() if over else group.effect
    return across_datasets(effects.to_numpy(dtype=float))


# -- counts and sentences --------------------------------------------------------------------
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


def verdict_lines(claims: pd.DataFrame, *, scale: float = 1.0, unit: str = "",
                  cases: str = "cases") -> list[str]:
    """A Markdown bullet per row of :func:`summarise_claims`: its sentence
    (:func:`describe`) and, when the table has them, its per-case counts (``cases`` names
    them, e.g. "per dataset"); the note on unbounded intervals last, when one occurs."""
    lines = []
    for row, exact in zip(claims.to_dict("records"), is_exact(claims)):
        line = f"- {describe(row, scale=scale, unit=unit)}"
        if set(CASE_COUNT_COLUMNS) <= set(row):
            counted = [(row[f"cases_{word}"], EXACT_OUTCOMES.get(word) if exact else word)
                       for word in VERDICTS if not (exact and word == "inconclusive")]
            line += f"; {cases}: " + ", ".join(f"{count} {word}" for count, word in counted)
        lines.append(line)
    return lines + (["", FEW_DATASETS_NOTE] if np.isinf(claims.ci_low).any() else [])


def describe(row, *, scale: float = 1.0, unit: str = "") -> str:
    """One claim row as a sentence: "claim: verdict (effect +1.2 points, 95 % interval
    [-0.5, 2.9], p = 0.17; wilcoxon, n = 6)", effect and bounds multiplied by ``scale``
    (e.g. 100 for accuracy in points); an exact check as "claim: **supported**, the exact
    check holds (margin +0.05; exact check (no sampling): ..., n = 4)", in its own units."""
    def number(value, factor=scale):
        if np.isinf(value):
            return "-∞" if value < 0 else "+∞"
        return "n/a" if np.isnan(value) else f"{factor * value:+.3g}"

    how = f"{row['test']}, n = {int(row['n'])}"
    if str(row["test"]).startswith(EXACT_TEST):
        return (f"{row['claim']}: **{row['verdict']}**, the exact check "
                f"{EXACT_OUTCOMES[row['verdict']]}s (margin {number(row['effect'], 1.0)}; "
                f"{how})")
    p = "n/a" if np.isnan(row["p_value"]) else f"{row['p_value']:.2g}"
    return (f"{row['claim']}: **{row['verdict']}** (effect {number(row['effect'])}{unit}, "
            f"95 % interval [{number(row['ci_low'])}, {number(row['ci_high'])}], p = {p}; "
            f"{how})")


# -- pieces ----------------------------------------------------------------------------------
def _row(claim, keys, result, detail, sample) -> dict:
    return {"claim": claim, **{key: result[key] for key in CLAIM_COLUMNS[1:]}, **keys,
            "detail": detail, "sample": sample}


def _exact_result(margin: float, test: str, n: int) -> dict:
    return {"effect": float(margin), "ci_low": np.nan, "ci_high": np.nan, "p_value": np.nan,
            "verdict": "supported" if margin >= 0 else "contradicted", "test": test,
            "n": int(n)}
