"""``milab rejudge DIR``: each paper's committed run judged again under today's claims
catalogue, from the run's own tables, without re-running its experiments.

For each paper it calls the paper's ``claims.<paper>.rejudge(folder)``
(:func:`milab_widgets.claims.rejudge.rejudged`: measurements kept, wording and basis from
the catalogue, recomputed rows put in, Holm again), writes ``claims.csv`` and the paper's
``verdict.md`` with the same text builder its notebook uses, and records that it did so
(``claims_rejudged.json``, which the report's run line states). The executed notebook, the
charts and every other table stay the run's own.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from milab_widgets.claims import cdvse, inth, lskmddm, mfsef, twoview
from milab_widgets.claims.catalogue import CATALOGUE_COLUMNS
from milab_widgets.claims.rejudge import record_rejudged
from milab_widgets.claims.text import claims_markdown
from milab_widgets.exceptions import InputError

__all__ = ["REJUDGERS", "RERUNNERS", "rejudge_folder"]


def _inth(folder: Path) -> tuple[pd.DataFrame, str]:
    from milab_widgets.experiments.inth import verdict_text

    table = inth.rejudge(folder)
    return table, verdict_text(table)


def _cdvse(folder: Path) -> tuple[pd.DataFrame, str]:
    from milab_widgets.experiments import cdvse as experiment

    ratios = experiment.committed_member_ratios(folder)
    table = cdvse.rejudge(folder, member_ratios=ratios)
    cdvse.rejudged_cases(folder, member_ratios=ratios).to_csv(folder / "claim_cases.csv",
                                                               index=False)
    by_parameters = pd.read_csv(folder / "summary_by_parameters.csv")
    return table, experiment.verdict(table, None, cdvse.stored_criterion(folder),
                                     by_parameters=by_parameters)


def _mfsef(folder: Path) -> tuple[pd.DataFrame, str]:
    from milab_widgets.experiments import mfsef as experiment

    table = mfsef.rejudge(folder)
    text = claims_markdown(table)
    by_size = pd.read_csv(folder / "ranks_by_size.csv")
    if not by_size.empty:
        leaders = experiment.best_by_size(by_size)
        text += (f"\n\nOver the {leaders.fraction.nunique()} sizes 2 %-30 % of d, MFSEF has "
                 f"the (tied) best average rank at {int(leaders.MFSEF_best.sum())} of "
                 f"{len(leaders)} size × metric points.")
    return table, text


def _twoview(folder: Path) -> tuple[pd.DataFrame, str]:
    from milab_widgets.experiments.twoview import STAND_IN_NOTE
    from milab_widgets.papers import read_settings

    table = twoview.rejudge(folder)
    mode = "quick" if read_settings(folder).get("quick") else "full"
    return table, f"{claims_markdown(table)}\n\n({mode} run) {STAND_IN_NOTE}"


def _lskmddm(folder: Path) -> tuple[pd.DataFrame, str]:
    table = lskmddm.rejudge(folder)
    return table, claims_markdown(table)


#: Paper -> ``judge(folder) -> (claims table, verdict.md text)``.
REJUDGERS = {"intH": _inth, "CDVSE": _cdvse, "MFSEF": _mfsef, "TwoViewMIC": _twoview,
             "LSkMDDM": _lskmddm}


def _rerun_lskmddm(folder: Path) -> str:
    """Table 2 and Fig. 4 re-run, and their charts drawn as the notebook draws them."""
    from milab_widgets.charts import lskmddm as charts
    from milab_widgets.charts import save_chart
    from milab_widgets.experiments.lskmddm import (
        cpu_timing,
        median_timing,
        rerun_table2_and_fig4,
    )

    table2, timing, note = rerun_table2_and_fig4(folder, cache_dir=folder / "cache",
                                                 progress=True)
    cpu = median_timing(cpu_timing(timing))
    save_chart(charts.table2_chart(table2), folder / "table2")
    save_chart(charts.timing_chart(cpu), folder / "fig4_time")
    save_chart(charts.accuracy_chart(cpu), folder / "fig4_accuracy")
    return note


#: Paper -> ``rerun(folder) -> note``: the parts of a full run that can be redone alone.
RERUNNERS = {"LSkMDDM": _rerun_lskmddm}


def rejudge_folder(folder: Path, paper: str, rerun: bool = False) -> pd.DataFrame:
    """Judge the committed run of ``paper`` in ``folder`` again; write its ``claims.csv``
    (columns :data:`~milab_widgets.claims.catalogue.CATALOGUE_COLUMNS`), its
    ``verdict.md`` and the record that it was judged again; return the claims table.
    With ``rerun``, the paper's :data:`RERUNNERS` entry first re-runs what it can alone
    (a paper without one is judged as it is), and the record says what it re-ran."""
    if paper not in REJUDGERS:
        raise InputError(f"no paper {paper!r}; choose one of {list(REJUDGERS)}.")
    folder = Path(folder)
    note = RERUNNERS[paper](folder) if rerun and paper in RERUNNERS else None
    table, verdict = REJUDGERS[paper](folder)
    table[CATALOGUE_COLUMNS].to_csv(folder / "claims.csv", index=False)
    (folder / "verdict.md").write_text(verdict + "\n")
    record_rejudged(folder, rerun=note)
    return table[CATALOGUE_COLUMNS]
