"""The combined reproduction report: ``<output>/REPORT.md`` and ``<output>/REPORT.html``.

For every paper run into an output folder (``<output>/<paper>/``, as ``milab reproduce``
writes it) the report gives the run (mode, seed, time, the command that reproduces it), the
verdict, a per-claim table, the headline tables beside the paper's numbers, the main chart
and the skipped datasets with how to get them; a summary table comes first.

Everything is read from what the notebooks wrote, nothing is recomputed, so
``milab report DIR`` rebuilds the report of past runs:

* the executed notebook's papermill metadata: time, and whether (and where) it failed;
* ``settings.json`` (mode, seed and the skipped datasets), ``verdict.md``;
* ``claims.csv``: one row per claim with the columns of
  :data:`~milab_widgets.evaluation.claim_tests.CLAIM_COLUMNS` (effect, 95 % interval,
  p-value, verdict, test, n), and ``claim_cases.csv`` beside it, the same per case; a paper
  whose ``claims.csv`` lacks those columns is reported as not yet tested statistically;
* the tables and chart each paper declares in :data:`HEADLINES`.

The one thing the report draws itself is each paper's forest plot of its claims
(``<output>/verdicts/<paper>.png``, from ``claims.csv``), so every paper has one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from milab_widgets.atomic import write_text_atomically
from milab_widgets.evaluation.claim_summary import exact_text, verdict_counts
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, VERDICTS
from milab_widgets.exceptions import InputError
from milab_widgets.markup import (
    Details,
    Heading,
    Image,
    Table,
    Text,
    to_html,
    to_markdown,
)
from milab_widgets.papers import PAPERS, read_json, read_run_record, read_settings

TITLE = "milab-widgets: reproduction report"


@dataclass(frozen=True)
class Headline:
    """A table a paper's notebook writes as ``<stem>.csv``, and what it shows."""

    stem: str
    caption: str
    collapsed: bool = False


@dataclass(frozen=True)
class PaperSpec:
    """What the report shows of one paper: its headline tables, its main chart (the first
    of ``charts`` written, as ``<stem>.png``) and what a reader must know to compare."""

    tables: tuple[Headline, ...]
    charts: tuple[str, ...]
    note: str = ""


HEADLINES: dict[str, PaperSpec] = {
    "intH": PaperSpec(
        (Headline("paper_comparison", "Citation-KNN + minH beside the published accuracy "
                  "(Wang & Zucker 2000), under three protocols"),
         Headline("table3", "Table 3: accuracy (%, mean ± std over the outer folds)"),
         Headline("table4_milweb", "Table 4 (deviation): MILWEB user 1, cross-validated")),
        ("table3", "claims"),
        "The paper's Tables 3-4 values are not in its extracted text: the published "
        "Citation-KNN + minH accuracy is the number set beside ours, and the paper's claims "
        "(rankings between the distances) are tested above."),
    "CDVSE": PaperSpec(
        (Headline("table4_test", "Table 4: test g-mean (%), ours beside the paper's"),
         Headline("synthetic", "Figs. 2-3: the artificial sets (g-mean), ours and the paper's"),
         Headline("table3_train", "Table 3: training g-mean (%), ours beside the paper's",
                  collapsed=True),
         Headline("table2_parameters", "Table 2: selected parameters and ensemble size, ours "
                  "and the paper's", collapsed=True)),
        ("table4_test", "fig2_sine_noise")),
    "MFSEF": PaperSpec(
        (Headline("paper_comparison", "Rank of MFSEF per dataset and metric: the paper's and "
                  "ours (Tables 2-5, 10 % of the features)"),
         Headline("summary", "Average ranks over the datasets, Friedman test and Nemenyi CD",
                  collapsed=True),
         Headline("table2_AP", "Table 2: average precision (rank)", collapsed=True),
         Headline("table3_HL", "Table 3: Hamming loss (rank)", collapsed=True),
         Headline("table4_RL", "Table 4: ranking loss (rank)", collapsed=True),
         Headline("table5_OE", "Table 5: one-error (rank)", collapsed=True)),
        ("fig5_cd_diagrams", "ranks_by_size")),
    "LSkMDDM": PaperSpec(
        (Headline("fig4_speed", "Fig. 4: time and speed-up over kMDDM (eig) at the largest "
                  "training size, and the angle to the exact solution"),
         Headline("table7_rcv1", "Table 7: RCV1"),
         Headline("table3_4_auc_f1", "Tables 3-4: AUC, macro-F1, micro-F1 on the Yahoo sets",
                  collapsed=True),
         Headline("table5_6_ranking", "Tables 5-6: ranking metrics on the Yahoo sets",
                  collapsed=True)),
        ("fig4_time", "tables3_4", "table2"),
        "The paper's tables were lost in extraction: there are no published numbers to set "
        "ours beside, only the claims its text makes."),
    "TwoViewMIC": PaperSpec(
        (Headline("paper_comparison", "Best method and its margin (points): the paper's quoted "
                  "ones beside ours (digits-a)"),
         Headline("table1_digits-a", "Table 1: ACC (%) on digits-a"),
         Headline("table2_digits-b", "Table 2: ACC (%) on digits-b")),
        ("table1_digits-a", "fig1_ker1_grid")),
}


@dataclass(frozen=True, eq=False)
class PaperResult:
    """One paper's run as its output folder records it: ``settings`` is its
    ``settings.json`` (with ``skipped``: name -> how to get it), ``claims`` and ``cases``
    its ``claims.csv`` and ``claim_cases.csv``, each read once."""

    paper: str
    folder: Path
    title: str
    seconds: float | None
    notebook: Path | None
    error: str | None
    settings: dict
    claims: pd.DataFrame
    cases: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def quick(self) -> bool | None:
        return self.settings.get("quick")

    @property
    def seed(self) -> int | None:
        return self.settings.get("seed")

    @property
    def skipped(self) -> dict[str, str]:
        return self.settings.get("skipped", {})


# -- reading an output folder ----------------------------------------------------------------
def read_result(output: Path, paper: str, error: str | None = None) -> PaperResult:
    """What ``<output>/<paper>/`` holds; ``error`` is the runner's when the run failed."""
    folder = output / paper
    notebook = folder / PAPERS[paper]
    run = read_notebook(notebook) if notebook.is_file() else {}
    settings = read_settings(folder)
    record = read_run_record(folder)
    error = error or (record.get("error") if record.get("status") != "ok" else None) \
        or run.get("error")
    if error is None and not (folder / "verdict.md").is_file():
        error = "no verdict.md: the notebook did not finish"
    return PaperResult(paper, folder, run.get("title", paper), run.get("seconds"),
                       notebook if notebook.is_file() else None, error, settings,
                       read_table(folder, "claims"), read_table(folder, "claim_cases"))


def read_notebook(path: Path) -> dict:
    """From an executed notebook: its title (first heading), the papermill duration and the
    first error output as ``"ename: evalue (In [n])"``."""
    notebook = read_json(path)  # {} for a notebook left half written (a full disk)
    found = {"seconds": notebook.get("metadata", {}).get("papermill", {}).get("duration")}
    for cell in notebook.get("cells", []):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and source.startswith("# ") and "title" not in found:
            found["title"] = source.splitlines()[0][2:].strip()
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and "error" not in found:
                found["error"] = (f"{output['ename']}: {output['evalue']} "
                                  f"(In [{cell.get('execution_count')}])")
    return found


def read_table(folder: Path, stem: str) -> pd.DataFrame:
    """``<folder>/<stem>.csv``, or an empty table when there is none."""
    path = folder / f"{stem}.csv"
    return pd.read_csv(path) if path.is_file() else pd.DataFrame()


# -- claims ----------------------------------------------------------------------------------
NOT_TESTED = "not yet tested statistically"


def tested(claims: pd.DataFrame) -> bool:
    """Whether a claims table carries the statistical columns (effect, interval, verdict)."""
    return set(CLAIM_COLUMNS) <= set(claims.columns)


def counts_text(claims: pd.DataFrame, legend: bool = False) -> str:
    """``"supported · contradicted · inconclusive"`` counts of a claims table's statistical
    tests (followed by those words when ``legend``), then its exact checks apart
    (``"; exact checks: 2 hold, 1 fails"``, see
    :mod:`milab_widgets.evaluation.claim_summary`), or why not."""
    if not tested(claims):
        return NOT_TESTED if len(claims) else ""
    counts = verdict_counts(claims)
    words = f" ({' · '.join(VERDICTS)})" if legend else ""
    return " · ".join(str(counts[word]) for word in VERDICTS) + words + _exact_part(counts)


def _exact_part(counts: dict[str, int]) -> str:
    return f"; {exact_text(counts)}" if counts["hold"] + counts["fail"] else ""


def claim_rows(claims: pd.DataFrame) -> pd.DataFrame:
    """A claims table for reading: claim, effect, 95 % interval, p-value, verdict, test, n,
    and what else the paper records (case names, per-case counts) after."""
    extra = [c for c in claims.columns if c not in CLAIM_COLUMNS]
    return pd.DataFrame({
        "claim": claims.claim, "effect": claims.effect.map(number),
        "95 % interval": [f"[{number(low)}, {number(high)}]"
                          for low, high in zip(claims.ci_low, claims.ci_high)],
        "p": claims.p_value.map(lambda p: "" if pd.isna(p) else f"{p:.2g}"),
        "verdict": claims.verdict, "test": claims.test, "n": claims.n,
    }).join(readable(claims[extra]))


def number(value) -> str:
    """4 significant digits; infinite bounds as ±∞, missing ones blank."""
    if pd.isna(value):
        return ""
    if value in (float("inf"), float("-inf")):
        return "+∞" if value > 0 else "−∞"
    return f"{value:.4g}"


def forest_plot(result: PaperResult, output: Path) -> Path:
    """Draw the paper's claims as a forest plot into ``<output>/verdicts/<paper>.png``
    (a panel per test, and per metric when the claims name one, when they mix several:
    their effects have different units)."""
    import altair as alt

    from milab_widgets.charts.theme import THEME_NAME, save_chart
    from milab_widgets.charts.verdicts import forest_chart

    claims = result.claims.assign(panel=lambda t: t.test + (" · " + t.metric.astype(str)
                                                             if "metric" in t else ""))
    facet = "panel" if claims.panel.nunique() > 1 else None
    chart = forest_chart(claims, facet=facet, title=f"{result.paper}: the paper's claims",
                         effect_title="effect, 95 % interval (favours the claim →)")
    with alt.theme.enable(THEME_NAME):
        path, = save_chart(chart, output / "verdicts" / result.paper, formats=("png",))
    return path


# -- formatting ------------------------------------------------------------------------------
def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` for reading: numbers to 4 significant digits, booleans as yes/no, missing
    values blank."""
    def cell(value):
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return "" if pd.isna(value) else f"{value:.4g}"
        return "" if value is None else value

    return frame.astype(object).map(cell)


def duration(seconds: float | None) -> str:
    """``"1 h 02 min"``, ``"3 min 05 s"`` or ``"42 s"``; ``"?"`` when unknown."""
    if seconds is None:
        return "?"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def mode(quick: bool | None) -> str:
    return {True: "quick", False: "full"}.get(quick, "?")


def reproduce_commands(results: list[PaperResult], output_label: str) -> list[str]:
    """The ``milab reproduce`` commands that rerun ``results`` into ``output_label``: one
    per (mode, seed) that occurs, ``--all`` when it covers every paper."""
    groups: dict[tuple, list[str]] = {}
    for result in results:
        groups.setdefault((result.quick, result.seed), []).append(result.paper)
    commands = []
    for (quick, seed), papers in groups.items():
        names = "--all" if set(papers) == set(PAPERS) else " ".join(papers)
        full = " --full" if quick is False else ""
        seed_flag = f" --seed {seed}" if seed not in (0, None) else ""
        commands.append(f"milab reproduce {names}{full}{seed_flag} --output {output_label}")
    return commands


# -- composing -------------------------------------------------------------------------------
def report_blocks(results: list[PaperResult], output_label: str) -> list:
    """The whole report: header, summary table, then one section per paper."""
    absent = [paper for paper in PAPERS if paper not in {r.paper for r in results}]
    commands = "\n".join(f"- `{command}`" for command in reproduce_commands(results, output_label))
    blocks = [
        Heading(1, TITLE),
        Text(f"Produced by:\n\n{commands}\n\nReport built "
             f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC from `{output_label}/` "
             f"(rebuild it with `milab report {output_label}`). Each paper's section gives "
             "the paper's claims as our runs test them, its regenerated tables beside the "
             "paper's numbers, its main chart and the datasets it had to skip. Times are "
             "the notebooks' last executions, which reuse the results cached in "
             "`<paper>/cache/` by earlier runs."),
        Table(summary_table(results), "Claims: the paper's claims tested over the datasets; "
              "cases: the same claims per dataset (and classifier or rival). A verdict reads "
              "the 95 % interval of the effect only: supported (it excludes no effect in the "
              "claimed direction), contradicted (it excludes it the other way), inconclusive "
              "(it covers no effect)."),
    ]
    if absent:
        blocks.append(Text(f"Not in this folder: {', '.join(absent)} (run "
                           f"`milab reproduce {' '.join(absent)} --output {output_label}`)."))
    for result in results:
        blocks += paper_blocks(result, output_label)
    return blocks


def summary_table(results: list[PaperResult]) -> pd.DataFrame:
    rows = []
    for result in results:
        claims = result.claims if result.ok else None
        rows.append({
            "paper": f"[{result.paper}](#{result.paper})",
            "status": "ok" if result.ok else "failed",
            "mode": mode(result.quick), "seed": "" if result.seed is None else result.seed,
            "claims (supported · contradicted · inconclusive)":
                "" if claims is None else counts_text(claims),
            "cases (supported · contradicted · inconclusive)":
                "" if claims is None or not tested(result.cases) else counts_text(result.cases),
            "time": duration(result.seconds),
            "skipped": ", ".join(result.skipped) or "none",
        })
    return pd.DataFrame(rows)


def paper_blocks(result: PaperResult, output_label: str) -> list:
    """One paper's section (only the failure and where to read it when the run failed)."""
    title = result.title if result.title.startswith(result.paper) else \
        f"{result.paper}: {result.title}"
    blocks = [Heading(2, title, anchor=result.paper)]
    if not result.ok:
        where = (f"the executed notebook with the traceback: {notebook_link(result.paper)}"
                 if result.notebook else "no executed notebook was written")
        return blocks + [Text(f"**Failed**: `{result.error}`; {where}.")]
    spec = HEADLINES[result.paper]
    blocks += [Text(run_line(result, output_label)), Heading(3, "Verdict"),
               Text((result.folder / "verdict.md").read_text().strip())]
    if spec.note:
        blocks.append(Text(f"*{spec.note}*"))
    blocks += claim_blocks(result)
    blocks += [Heading(3, "Regenerated tables")] + headline_blocks(result.folder, spec)
    blocks += chart_blocks(result, spec) + skipped_blocks(result.skipped)
    return blocks + settings_blocks(result.settings)


def notebook_link(paper: str) -> str:
    return f"[{paper}/{PAPERS[paper]}]({paper}/{PAPERS[paper]})"


def run_line(result: PaperResult, output_label: str) -> str:
    """Protocol, seed, time, the command that reruns it and the executed notebook."""
    command = reproduce_commands([result], output_label)[0].replace(" --all", f" {result.paper}")
    protocol = ("**quick** protocol (a first look, not the paper's: `--full` runs that)"
                if result.quick else f"**{mode(result.quick)}** protocol")
    return (f"{protocol}, seed {result.seed}, {duration(result.seconds)}; `{command}`; "
            f"executed notebook: {notebook_link(result.paper)}.")


def claim_blocks(result: PaperResult) -> list:
    """The claims with effect, interval, p-value and verdict, their counts, the forest plot
    and the per-case table (or the old table, flagged, when it is not yet statistical)."""
    claims, cases = result.claims, result.cases
    blocks = [Heading(3, "The paper's claims on our runs")]
    if claims.empty:
        return blocks + [Text("No claim could be checked: the datasets it needs were skipped.")]
    if not tested(claims):
        return blocks + [Text(f"*This paper's claims are {NOT_TESTED}* (its `claims.csv` has "
                              f"no {', '.join(CLAIM_COLUMNS[1:6])} columns): the checks "
                              "below are point comparisons."),
                         Details(f"Every check ({len(claims)})", (Table(readable(claims)),))]
    counts = verdict_counts(claims)
    statistical = sum(counts[word] for word in VERDICTS)
    blocks += [Text(", ".join(f"**{counts[word]} {word}**" for word in VERDICTS)
                    + (f" of {statistical} claims tested statistically{_exact_part(counts)}."
                       if statistical < len(claims) else f" of {len(claims)} claims.")),
               Table(claim_rows(claims)),
               Image(f"verdicts/{result.paper}.png", f"{result.paper}: forest plot of the "
                     "claims")]
    if tested(cases) and len(cases):
        blocks.append(Details(f"Every case ({len(cases)}): {counts_text(cases, legend=True)}",
                              (Table(claim_rows(cases)),)))
    return blocks


def headline_blocks(folder: Path, spec: PaperSpec) -> list:
    blocks = []
    for headline in spec.tables:
        path = folder / f"{headline.stem}.csv"
        table = readable(pd.read_csv(path)) if path.is_file() else None
        if table is None or table.empty:
            blocks.append(Text(f"*{headline.caption}*: not regenerated (its datasets were "
                               "skipped)."))
        elif headline.collapsed:
            blocks.append(Details(headline.caption, (Table(table),)))
        else:
            blocks.append(Table(table, headline.caption))
    return blocks


def chart_blocks(result: PaperResult, spec: PaperSpec) -> list:
    written = [stem for stem in spec.charts if (result.folder / f"{stem}.png").is_file()]
    if not written:
        return []
    return [Heading(3, "Main chart"), Image(f"{result.paper}/{written[0]}.png",
                                            f"{result.paper}: {written[0]}")]


def skipped_blocks(skipped: dict[str, str]) -> list:
    lines = "\n".join(f"- **{name}**: {reason}" for name, reason in skipped.items())
    return [Heading(3, "Skipped datasets"), Text(lines or "None: every dataset was available.")]


def settings_blocks(settings: dict) -> list:
    settings = {k: v for k, v in settings.items() if k != "skipped"}
    frame = pd.DataFrame({"setting": list(settings),
                          "value": [json.dumps(value) for value in settings.values()]})
    return [Details("Settings of this run", (Table(frame),))]


# -- writing ---------------------------------------------------------------------------------
def build_report(output, errors: Mapping[str, str] | None = None) -> tuple[Path, Path]:
    """Write ``REPORT.md`` and ``REPORT.html`` into ``output`` for every paper folder there
    (and every paper in ``errors``: paper -> why its run failed); returns both paths."""
    errors = dict(errors or {})
    folder = Path(output)
    papers = [p for p in PAPERS if (folder / p).is_dir() or p in errors]
    if not papers:
        raise InputError(f"no paper output folder ({', '.join(PAPERS)}) in {folder}; "
                         f"run `milab reproduce --all --output {output}` first.")
    results = [read_result(folder, paper, errors.get(paper)) for paper in papers]
    for result in results:
        if result.ok and tested(result.claims) and len(result.claims):
            forest_plot(result, folder)
    blocks = report_blocks(results, str(output))
    markdown, page = folder / "REPORT.md", folder / "REPORT.html"
    write_text_atomically(markdown, to_markdown(blocks))
    write_text_atomically(page, to_html(blocks, TITLE))
    return markdown, page
