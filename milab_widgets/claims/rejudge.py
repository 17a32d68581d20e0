"""Judge a committed run again under today's catalogue, without re-running its experiments.

Experiments produce data; claims judge it. A committed run (``reports/<paper>/``) keeps
every table a paper's claims are computed from, so when the *judging* changes -- a claim's
basis (:data:`~milab_widgets.claims.catalogue.BASES`), and with it the Holm family, a claim
added to the catalogue, a scope read anew -- the claims can be judged again from those
tables, and the measurements stay those of the run.

:func:`rejudged` keeps each committed row's measured statistics (effect, interval, p-value,
the unadjusted verdict, cases, what the interval covers), takes the statement, source,
scope and basis from today's catalogue, puts in the rows a paper recomputes from its tables
(``recomputed``: new claims, and claims whose test changed), and runs Holm again within the
new families (:func:`~milab_widgets.claims.catalogue.claims_table`). Each paper's claims
module has a ``rejudge(folder)`` that says which rows it recomputes;
:mod:`milab_widgets.rejudging` (``milab rejudge reports``) writes each paper's new
``claims.csv`` and ``verdict.md``, then the report.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from milab_widgets.claims.catalogue import Claim, claims_table, untested
from milab_widgets.exceptions import InputError

__all__ = ["QUICK_TIMING", "REJUDGED_RECORD", "quick_run_claims", "read_rejudged", "record_rejudged", "rejudged",
           "timings_in_full_mode_only"]

#: Why a quick run decides no claim about time.
QUICK_TIMING = ("timing, full mode only: a quick run times too few fits for a stable verdict "
                "(the same seed gave different verdicts as the machine's load changed); "
                "`milab reproduce PAPER --full` decides it")

#: The record a judged-again folder keeps: when, and that its experiments were not re-run.
REJUDGED_RECORD = "claims_rejudged.json"

#: The columns of a committed row that are measurements, kept as they are.
MEASURED = ["effect", "ci_low", "ci_high", "p_value", "test", "n", "cases", "cases_supported",
            "cases_contradicted", "cases_inconclusive", "reproduced", "reproduced_cases",
            "null", "noise"]


def rejudged(committed: pd.DataFrame, catalogue: tuple[Claim, ...],
             recomputed: list[dict] = (), retired: Mapping[str, str] | None = None
             ) -> pd.DataFrame:
    """The claims table of ``committed`` (a run's ``claims.csv``) under ``catalogue``:
    rows of ``recomputed`` (full rows, :func:`~milab_widgets.claims.catalogue.claim_row`)
    replace or add to the committed ones; every other catalogue claim must have a
    committed row, whose measurements are kept and whose wording and basis are the
    catalogue's; Holm runs again. A committed claim that the catalogue no longer holds is
    an error unless ``retired`` (id -> what became of it, the paper's claims module says)
    names it."""
    fresh = {row["id"]: row for row in recomputed}
    kept = committed.set_index("id")
    rows = []
    for claim in catalogue:
        if claim.id in fresh:
            rows.append(fresh[claim.id])
        elif claim.id in kept.index:
            rows.append(_kept_row(claim, kept.loc[claim.id]))
        else:
            raise InputError(f"claim {claim.id!r} has no committed row and was not "
                             "recomputed: rerun the experiment or recompute it.")
    dropped = sorted(set(kept.index) - {claim.id for claim in catalogue} - set(retired or {}))
    if dropped:
        raise InputError(f"the committed run has claims the catalogue no longer holds: "
                         f"{dropped}.")
    return claims_table(rows, catalogue)


def timings_in_full_mode_only(table: pd.DataFrame, catalogue: tuple[Claim, ...]
                              ) -> pd.DataFrame:
    """A quick run's claims table with every claim about time
    (:attr:`~milab_widgets.claims.catalogue.Claim.measures_time`) not tested
    (:data:`QUICK_TIMING`), and Holm run again without them, so two identical quick runs give
    identical tallies whatever the machine's load."""
    untimed = [untested(claim, QUICK_TIMING) for claim in catalogue if claim.measures_time]
    return rejudged(table, catalogue, untimed)


def quick_run_claims(table: pd.DataFrame, catalogue: tuple[Claim, ...], quick: bool
                     ) -> pd.DataFrame:
    """``table`` as a run of that mode reports it: a quick run's claims about time in full
    mode only (:func:`timings_in_full_mode_only`), a full run's as they are."""
    return timings_in_full_mode_only(table, catalogue) if quick else table


def _kept_row(claim: Claim, committed: pd.Series) -> dict:
    row = {column: committed.get(column, np.nan) for column in MEASURED}
    return {**row, "claim": claim.statement, "verdict": committed["verdict_unadjusted"],
            "id": claim.id, "origin": claim.origin, "source": claim.source,
            "scope": claim.scope,
            "margin": np.nan if claim.margin is None else float(claim.margin),
            "p_adjusted": np.nan, "verdict_unadjusted": committed["verdict_unadjusted"],
            "basis": claim.basis, "basis_reason": claim.basis_reason}


def record_rejudged(folder: Path, rerun: str | None = None) -> None:
    """Write :data:`REJUDGED_RECORD` into ``folder``: today's date, and that its claims were
    judged again from its tables without re-running its experiments, or, with ``rerun``,
    which parts were re-run first."""
    record = {"date": datetime.now(UTC).strftime("%Y-%m-%d"),
              "how": "milab rejudge: claims judged again from the run's committed tables; "
                     + (rerun if rerun else "the experiments were not re-run")}
    if rerun:
        record["rerun"] = rerun
    (Path(folder) / REJUDGED_RECORD).write_text(json.dumps(record, indent=1) + "\n")


def read_rejudged(folder: Path) -> dict:
    """The :data:`REJUDGED_RECORD` of ``folder``, or {} when its claims are the run's own."""
    path = Path(folder) / REJUDGED_RECORD
    return json.loads(path.read_text()) if path.is_file() else {}
