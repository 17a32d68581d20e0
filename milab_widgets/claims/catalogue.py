"""A paper's claims catalogue: every claim the paper makes, where it makes it, at which
scope, and what our runs say of it.

A :class:`Claim` is one statement of a paper (abstract, experiments or conclusions) or one
check the project added (``origin="project"``), with its ``source`` (section, table or
figure), its ``scope`` (:data:`SCOPES`: what the wording asserts) and the ``cases`` it
covers. :func:`claim_row` turns the claim and the result of the scope's test
(:mod:`milab_widgets.claims.scopes`, or an exact check, or :func:`untested`) into one row of
``claims.csv``, with two answers that differ:

* ``reproduced``: do our point estimates say what the paper says, at the claim's scope?
  ``yes``, ``no`` or ``partly`` (an every-case claim that holds on some cases), with
  ``reproduced_cases`` = "k of n" (cases, rivals or data sets on the claim's side);
  ``not tested`` when the data it needs is missing.
* ``verdict``: ``supported``, ``contradicted`` or ``inconclusive``, from the interval (or
  the scope's rule), confirmed by Holm's correction within the claim's family
  (:func:`claims_table`): a verdict whose family-adjusted p-value ``p_adjusted`` is not
  below 5 % becomes ``inconclusive`` (``verdict_unadjusted`` keeps the uncorrected one).

``basis`` says what the row rests on (:data:`BASES`): the paper's own data, method and
comparator (``"paper"``), or a stand-in data set, our reading (a measure or comparator the
paper does not name), or methods that coincide by construction (``"not discriminable"``),
each with its ``basis_reason``. A verdict is only as strong as what it measured, so only a
paper's claim on the paper's basis is the paper's evidence (:func:`standing`): it alone
enters the paper's tallies and its Holm family; the paper's claims on another basis form a
family of their own, reported beside the evidence, and so do the project's checks.

``noise`` says what the interval covers (outer folds, random re-splits, test instances,
initialisations, partitions, timing repeats). Exact checks (a deterministic measurement
against a threshold, :data:`~milab_widgets.evaluation.claim_summary.EXACT_TEST`) keep their
margin, no interval, no p-value, and are not adjusted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from milab_widgets.claims.scopes import ALPHA, holm
from milab_widgets.evaluation.claim_summary import (
    CLAIM_TABLE_COLUMNS,
    exact_result,
    is_exact,
    verdict_counts,
)
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, VERDICTS
from milab_widgets.exceptions import InputError

__all__ = ["BASES", "CATALOGUE_COLUMNS", "Claim", "NOT_TESTED", "ORIGINS", "SCOPES",
           "STANDINGS", "claim_counts", "claim_row", "claims_table", "exact_claim_row",
           "is_catalogue", "standing", "untested"]

#: What a claim's wording asserts, and so which test answers it (see claims.scopes).
SCOPES = {
    "every case": "holds on each case (intersection-union; Holm within the claim)",
    "on average": "holds on average over the data sets (Wilcoxon signed-rank)",
    "best rank": "ranks best among the methods (Friedman + Nemenyi)",
    "equivalent": "equal within a stated margin (two one-sided tests)",
    "above threshold": "exceeds a stated value on each case (intersection-union)",
    "faster": "takes less time (one geometric-mean ratio per data set)",
    "grows more slowly": "its cost grows with a smaller exponent (gap of fitted exponents)",
    "exact": "a deterministic measurement against a threshold (no sampling)",
}
#: Who makes the claim: the paper, or the project (a check the paper does not state).
ORIGINS = ("paper", "project")
#: What a row's measurement rests on; only "paper" makes it the paper's evidence.
BASES = {
    "paper": "the paper's data, method and comparator",
    "stand-in data": "a data set standing in for the paper's, which is not available",
    "our reading": "a measure or comparator the paper does not name",
    "not discriminable": "the compared methods coincide by construction",
}
#: Where a row stands, with its heading, in the order tables and reports show them: the
#: paper's evidence, the paper's claims on another basis, the project's own checks.
STANDINGS = {
    "paper": "The paper's claims, on the paper's basis (its evidence)",
    "beside": "The paper's claims on another basis (reported beside, not the paper's evidence)",
    "project": "The project's own checks",
}
#: ``reproduced`` of a claim whose data is missing.
NOT_TESTED = "not tested"
#: The columns of ``claims.csv``: today's claim columns, then the catalogue's.
CATALOGUE_COLUMNS = [*CLAIM_TABLE_COLUMNS, "id", "origin", "source", "scope", "reproduced",
                     "reproduced_cases", "null", "margin", "p_adjusted", "verdict_unadjusted",
                     "noise", "basis", "basis_reason"]


@dataclass(frozen=True)
class Claim:
    """One claim of a paper's catalogue.

    ``id`` is short and unique within the paper; ``statement`` the claim in English as the
    paper makes it; ``source`` where (e.g. "§4.2, Table 3"); ``scope`` a key of
    :data:`SCOPES`; ``cases`` what it covers, in words (e.g. "6 data sets x 2 classifiers");
    ``origin`` ``"paper"`` or ``"project"``; ``margin`` the equivalence margin or the
    threshold, in the effect's units, where the scope needs one; ``basis`` a key of
    :data:`BASES` and ``basis_reason`` why, when it is not ``"paper"``; ``timing`` marks a
    claim about time whose scope does not say so (:attr:`measures_time`). Holm's correction
    runs within the claim's :attr:`holm_family`, its :func:`standing`."""

    id: str
    statement: str
    source: str
    scope: str
    cases: str
    origin: str = "paper"
    margin: float | None = None
    basis: str = "paper"
    basis_reason: str = ""
    timing: bool = False

    def __post_init__(self):
        if self.scope not in SCOPES:
            raise InputError(f"claim {self.id!r}: scope {self.scope!r} is not one of "
                             f"{list(SCOPES)}.")
        if self.origin not in ORIGINS:
            raise InputError(f"claim {self.id!r}: origin must be one of {ORIGINS}.")
        if self.scope in ("equivalent", "above threshold") and self.margin is None:
            raise InputError(f"claim {self.id!r}: a {self.scope!r} claim needs its margin.")
        if self.basis not in BASES:
            raise InputError(f"claim {self.id!r}: basis {self.basis!r} is not one of "
                             f"{list(BASES)}.")
        if (self.basis == "paper") == bool(self.basis_reason):
            raise InputError(f"claim {self.id!r}: give basis_reason exactly when the basis "
                             "is not 'paper' (say why the row is not the paper's evidence).")

    @property
    def measures_time(self) -> bool:
        """Whether the claim is about time (its verdict then needs the full protocol's
        timings: see :func:`milab_widgets.claims.rejudge.timings_in_full_mode_only`)."""
        return self.timing or self.scope in ("faster", "grows more slowly")

    @property
    def holm_family(self) -> str:
        """The claim's :data:`STANDINGS` key: the family of its Holm correction."""
        if self.origin == "project":
            return "project"
        return "paper" if self.basis == "paper" else "beside"


def claim_row(claim: Claim, result: dict, *, noise: str, cases: pd.DataFrame | None = None
              ) -> dict:
    """One row of ``claims.csv`` from ``result`` (a scope test's dict: effect, ci_low,
    ci_high, p_value, verdict, test, n and optionally null) and the claim's ``cases`` (one
    row per case with its ``effect`` and ``verdict``; for a rank claim, one per rival with
    the rank gap), whose counts and point estimates give ``reproduced``."""
    null = float(result.get("null", 1.0 if claim.scope == "faster" else 0.0))
    cases = cases if cases is not None else pd.DataFrame({"effect": [result["effect"]],
                                                          "verdict": [result["verdict"]]})
    counts = cases.verdict.value_counts()
    on_side = _on_claims_side(claim, cases.effect.to_numpy(dtype=float), null)
    return {"claim": claim.statement, **{key: result[key] for key in CLAIM_COLUMNS[1:]},
            "cases": len(cases),
            **{f"cases_{word}": int(counts.get(word, 0)) for word in VERDICTS},
            "id": claim.id, "origin": claim.origin, "source": claim.source,
            "scope": claim.scope, "reproduced": _reproduced(claim, result, on_side, null),
            "reproduced_cases": f"{int(on_side.sum())} of {len(on_side)}", "null": null,
            "margin": np.nan if claim.margin is None else float(claim.margin),
            "p_adjusted": np.nan, "verdict_unadjusted": result["verdict"], "noise": noise,
            "basis": claim.basis, "basis_reason": claim.basis_reason}


def exact_claim_row(claim: Claim, margin: float, checked: str, n: int = 1, *, noise: str,
                    cases: pd.DataFrame | None = None) -> dict:
    """The row of an exact check: ``margin`` >= 0 holds, no interval; ``checked`` says what
    was measured (:func:`~milab_widgets.evaluation.claim_summary.exact_result`)."""
    return claim_row(claim, exact_result(margin, checked, n), noise=noise, cases=cases)


def untested(claim: Claim, reason: str) -> dict:
    """The row of a claim our data cannot test (``reason``: which data is missing and how to
    get it); it counts apart from the verdicts."""
    nothing = {"effect": np.nan, "ci_low": np.nan, "ci_high": np.nan, "p_value": np.nan,
               "verdict": "inconclusive", "test": f"{NOT_TESTED}: {reason}", "n": 0}
    row = claim_row(claim, nothing, noise=reason,
                    cases=pd.DataFrame({"effect": [], "verdict": []}))
    return {**row, "reproduced": NOT_TESTED}


def claims_table(rows: list[dict], catalogue: tuple[Claim, ...]) -> pd.DataFrame:
    """``claims.csv`` of one paper: one row per claim of ``catalogue`` (in its order; a
    claim missing from ``rows`` or given twice is an error), Holm's correction within each
    family of statistical rows, and the verdicts it leaves standing."""
    by_id = {}
    for row in rows:
        if row["id"] in by_id:
            raise InputError(f"claim {row['id']!r} has two rows; one row per claim.")
        by_id[row["id"]] = row
    missing = [claim.id for claim in catalogue if claim.id not in by_id]
    extra = sorted(set(by_id) - {claim.id for claim in catalogue})
    if missing or extra:
        raise InputError(f"the rows do not match the catalogue: missing {missing}, not in "
                         f"the catalogue {extra}.")
    table = pd.DataFrame([by_id[claim.id] for claim in catalogue], columns=CATALOGUE_COLUMNS)
    family = pd.Series([claim.holm_family for claim in catalogue], index=table.index)
    statistical = ~is_exact(table) & (table.reproduced != NOT_TESTED)
    for _, members in table[statistical].groupby(family[statistical]):
        table.loc[members.index, "p_adjusted"] = holm(members.p_value.to_numpy())
    weakened = statistical & (table.verdict != "inconclusive") & \
        ~(table.p_adjusted < ALPHA)
    table.loc[weakened, "verdict"] = "inconclusive"
    return table


def standing(claims: pd.DataFrame) -> pd.Series:
    """Each row's :data:`STANDINGS` key: ``"paper"`` for the paper's claims on the paper's
    basis (the paper's evidence), ``"beside"`` for its claims on another basis,
    ``"project"`` for the project's checks."""
    paper = claims.origin == "paper"
    on_basis = claims.basis == "paper"
    return pd.Series(np.where(paper & on_basis, "paper", np.where(paper, "beside", "project")),
                     index=claims.index)


def is_catalogue(claims: pd.DataFrame) -> bool:
    """Whether a claims table is in the catalogue's format (every catalogue column); an
    older claims.csv has one row per comparison, not per claim."""
    return set(CATALOGUE_COLUMNS) <= set(claims.columns)


def claim_counts(claims: pd.DataFrame) -> dict[str, int]:
    """A catalogue table's counts: ``claims``; ``not tested``; among the tested claims
    ``tested``, ``yes``, ``partly``, ``no`` (reproduced); the statistical verdicts; exact
    checks that ``hold`` and ``fail``."""
    tested_rows = claims[claims.reproduced != NOT_TESTED]
    reproduced = tested_rows.reproduced.value_counts()
    return {"claims": len(claims), "not tested": len(claims) - len(tested_rows),
            "tested": len(tested_rows),
            **{word: int(reproduced.get(word, 0)) for word in ("yes", "partly", "no")},
            **verdict_counts(tested_rows)}


def _on_claims_side(claim: Claim, effects: np.ndarray, null: float) -> np.ndarray:
    if claim.scope == "equivalent":
        return np.abs(effects) < claim.margin
    if claim.scope == "exact":
        return effects >= 0
    return effects > null


def _reproduced(claim: Claim, result: dict, on_side: np.ndarray, null: float) -> str:
    """yes / no / partly from the point estimates at the claim's scope."""
    if claim.scope in ("every case", "above threshold", "best rank"):
        if on_side.all():
            return "yes"
        return "partly" if on_side.any() and claim.scope != "best rank" else "no"
    effect = float(result["effect"])
    if claim.scope == "equivalent":
        return "yes" if abs(effect) < claim.margin else "no"
    if claim.scope == "exact":
        return "yes" if effect >= 0 else "no"
    return "yes" if effect > null else "no"
