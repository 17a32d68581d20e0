"""A paper's claims tables: per-case claim tests -> one row per claim, and the verdict text.

An experiment builds one row per case (one claim on one dataset, generator, solver...) with
:data:`~milab_widgets.evaluation.claim_tests.CLAIM_COLUMNS`, its case keys and a ``sample``
cell that says how the case was tested, so that the cases of a claim can be combined:

* ``("paired", differences)``: per-repetition paired differences (paired t per case);
* ``("ratio", times_a, times_b)``: repeated timings, "A faster than B" (``ratio_case``);
* ``("effect", None)``: only the case's effect combines (e.g. a bootstrap over test
  instances);
* ``("property", None)``: a deterministic measurement (no sampling noise): the case's
  effect is a margin, its interval the point itself, supported when the margin is above 0.

Per claim (:func:`summarise_claims`), by kind:

* effects over at least :data:`MIN_SIGNED_RANK_CASES` cases: Wilcoxon's signed-rank test
  and the Hodges-Lehmann interval (``across_datasets``; Demšar 2006);
* paired cases over fewer cases, all with the same repetitions (e.g. runs paired by
  seed): the paired t on the per-repetition differences averaged over the cases (with
  fewer than 6 effects the signed-rank interval at 95 % is unbounded);
* timing cases: ``ratio_case`` on every (case, repetition) pair pooled;
* properties: the worst case (smallest margin), supported when every case is;
* a claim with one case: that case's test.
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
    verdict,
)

#: Fewest cases whose signed-rank interval at 95 % is bounded (N = 6: P(T+ = 0) = 1/64).
MIN_SIGNED_RANK_CASES = 6


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


def property_row(claim: str, keys: dict, margin: float, test: str, n: int = 1,
                 detail: str = "") -> dict:
    """A deterministic property measured once, as a ``margin`` (how far the measurement
    lies on the claim's side of its threshold): supported when > 0, contradicted when < 0,
    inconclusive at exactly 0; there is no sampling noise, so the interval is the point."""
    margin = float(margin)
    result = {"effect": margin, "ci_low": margin, "ci_high": margin, "p_value": np.nan,
              "verdict": verdict(margin, margin), "test": test, "n": int(n)}
    return _row(claim, keys, result, detail, ("property", None))


def cases_frame(rows: list[dict], keys) -> pd.DataFrame:
    """The case rows as a table: CLAIM_COLUMNS, then ``keys``, ``detail`` and ``sample``."""
    return pd.DataFrame(rows, columns=[*CLAIM_COLUMNS, *keys, "detail", "sample"])


def summarise_claims(cases: pd.DataFrame, overrides: dict | None = None) -> pd.DataFrame:
    """One row per claim (in order of first appearance): CLAIM_COLUMNS, then the number of
    cases and of cases per verdict. ``overrides`` (claim -> a claim test's result) replaces
    the combination of a claim's cases by a test the caller ran on all of them at once."""
    overrides = overrides or {}
    rows = []
    for claim, group in cases.groupby("claim", sort=False):
        counts = group.verdict.value_counts()
        result = overrides[claim] if claim in overrides else _across(group)
        rows.append({"claim": claim, **{key: result[key] for key in CLAIM_COLUMNS[1:]},
                     "cases": len(group),
                     **{verdict_name: int(counts.get(verdict_name, 0))
                        for verdict_name in VERDICTS}})
    return pd.DataFrame(rows, columns=[*CLAIM_COLUMNS, "cases", *VERDICTS])


def public_cases(cases: pd.DataFrame) -> pd.DataFrame:
    """The case table as written to ``claim_cases.csv`` (without the ``sample`` cells)."""
    return cases.drop(columns="sample")


def verdict_lines(claims: pd.DataFrame) -> list[str]:
    """One Markdown line per claim: its verdict, effect, interval, p-value and test, and
    how its cases came out."""
    return [f"- **{row.claim}**: {row.verdict} (effect {_number(row.effect)}, 95 % interval "
            f"[{_number(row.ci_low)}, {_number(row.ci_high)}], p = {_number(row.p_value)}; "
            f"{row.test}, n = {row.n}; cases: {row.supported} supported, "
            f"{row.contradicted} contradicted, {row.inconclusive} inconclusive)"
            for row in claims.itertuples()]


def verdict_counts(claims: pd.DataFrame) -> str:
    """"a supported, b contradicted, c inconclusive" over the claims."""
    counts = claims.verdict.value_counts()
    return ", ".join(f"{int(counts.get(name, 0))} {name}" for name in VERDICTS)


# -- pieces ----------------------------------------------------------------------------------
def _row(claim, keys, result, detail, sample) -> dict:
    return {"claim": claim, **{key: result[key] for key in CLAIM_COLUMNS[1:]}, **keys,
            "detail": detail, "sample": sample}


def _across(group: pd.DataFrame) -> dict:
    """The claim test over one claim's cases (see the module notes)."""
    kinds = {sample[0] for sample in group["sample"]}
    if len(group) == 1:
        return group.iloc[0][CLAIM_COLUMNS[1:]].to_dict()
    if kinds == {"property"}:
        worst = group.loc[group.effect.idxmin()]
        return {"effect": worst.effect, "ci_low": worst.effect, "ci_high": worst.effect,
                "p_value": np.nan, "verdict": verdict(worst.effect, worst.effect),
                "test": f"deterministic: worst of {len(group)} cases",
                "n": len(group)}
    if kinds == {"ratio"}:
        result = ratio_case(np.concatenate([sample[1] for sample in group["sample"]]),
                            np.concatenate([sample[2] for sample in group["sample"]]))
        return {**result, "test": f"{result['test']}, pooled over {len(group)} cases"}
    lengths = {len(sample[1]) for sample in group["sample"] if sample[0] == "paired"}
    if (len(group) < MIN_SIGNED_RANK_CASES and kinds == {"paired"} and len(lengths) == 1
            and len(group) > 1):
        mean = np.mean([sample[1] for sample in group["sample"]], axis=0)
        result = paired_case(mean, method="t")
        return {**result, "test": f"paired t on the per-repetition differences averaged "
                                  f"over {len(group)} cases"}
    return across_datasets(group.effect.to_numpy(dtype=float))


def _number(value) -> str:
    value = float(value)
    return "n/a" if np.isnan(value) else f"{value:.4g}"
