"""A paper's claims table (:func:`~milab_widgets.claims.catalogue.claims_table`) in words,
for notebooks and docs: how many of the paper's claims our data reproduce, how many are
supported, contradicted or inconclusive, then one line per claim with what its interval
covers; the paper's evidence first, then its claims on another basis (stand-in data,
our reading, not discriminable) and the project's checks, each under its own heading."""

from __future__ import annotations

import numpy as np
import pandas as pd

from milab_widgets.claims.catalogue import NOT_TESTED, STANDINGS, claim_counts, standing
from milab_widgets.evaluation.claim_summary import counts_text, is_exact

__all__ = ["claims_markdown", "counts_line"]


def counts_line(table: pd.DataFrame) -> str:
    """"reproduced: 3 yes, 2 partly, 4 no, 1 not tested (of 10); verdicts: 1 supported, 2
    contradicted, 6 inconclusive; exact checks: 1 holds, 0 fail" (untested claims are left
    out of the verdicts)."""
    counts = claim_counts(table)
    words = [f"{counts[word]} {word}" for word in ("yes", "partly", "no", NOT_TESTED)
             if word != NOT_TESTED or counts[word]]
    tested = table[table.reproduced != NOT_TESTED]
    return (f"reproduced: {', '.join(words)} (of {len(table)}); verdicts: "
            f"{counts_text(tested)}")


def claims_markdown(table: pd.DataFrame, *, scale: float = 1.0, unit: str = "") -> str:
    """The table as Markdown: per standing (the paper's evidence, its claims on another
    basis, the project's checks) a heading, :func:`counts_line` and one bullet per claim. Differences are multiplied by ``scale`` and followed by ``unit`` (e.g. 100 and
    " points"); time ratios (null 1) print as "1.52x"."""
    parts = []
    stands = standing(table)
    for key, heading in STANDINGS.items():
        rows = table[stands == key]
        if rows.empty:
            continue
        bullets = [_bullet(row, exact, scale, unit)
                   for row, exact in zip(rows.to_dict("records"), is_exact(rows), strict=True)]
        parts.append(f"**{heading}** — {counts_line(rows)}\n\n" + "\n".join(bullets))
    return "\n\n".join(parts)


def _bullet(row: dict, exact: bool, scale: float, unit: str) -> str:
    head = (f"- `{row['id']}` ({row['source']}; {row['scope']}): {row['claim']} — "
            f"reproduced **{row['reproduced']}**")
    if row["basis"] != "paper":
        head += f" [basis: {row['basis']}: {row['basis_reason']}]"
    if row["reproduced"] == NOT_TESTED:
        return f"{head}: {row['noise']}"
    if row["scope"] in ("every case", "above threshold"):
        head += f" ({row['reproduced_cases']} cases)"
    if exact:
        return (f"{head}; the exact check {'holds' if row['verdict'] == 'supported' else 'fails'}"
                f" (margin {row['effect']:+.3g}; {row['test']})")
    ratio = row["null"] == 1.0
    number = (lambda v: _number(v, 1.0, "x", ratio=True)) if ratio else \
        (lambda v: _number(v, scale, unit))
    p_adjusted = "" if np.isnan(row["p_adjusted"]) else f", Holm {row['p_adjusted']:.2g}"
    verdict = row["verdict"] + ("" if row["verdict"] == row["verdict_unadjusted"] else
                                f" (unadjusted: {row['verdict_unadjusted']})")
    return (f"{head}; verdict **{verdict}**: effect {number(row['effect'])}, 95 % interval "
            f"[{number(row['ci_low'])}, {number(row['ci_high'])}], p = "
            f"{_p(row['p_value'])}{p_adjusted} ({row['test']}, n = {int(row['n'])}). "
            f"Interval covers: {row['noise']}.")


def _number(value: float, scale: float, unit: str, ratio: bool = False) -> str:
    if np.isnan(value):
        return "n/a"
    if np.isinf(value):
        return "-∞" if value < 0 else "+∞"
    return f"{value:.3g}{unit}" if ratio else f"{scale * value:+.3g}{unit}"


def _p(value: float) -> str:
    return "n/a" if np.isnan(value) else f"{value:.2g}"
