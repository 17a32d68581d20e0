"""The combined reproduction report: ``<output>/REPORT.md`` and ``<output>/REPORT.html``.

For every paper run into an output folder (``<output>/<paper>/``, as ``milab reproduce``
writes it) the report gives the run (mode, seed, time, the command that reproduces it), the
verdict, a per-claim table, the headline tables beside the paper's numbers, the main chart
and the skipped datasets with how to get them; a summary table comes first.

Everything is read from what the notebooks wrote, nothing is recomputed, so
``milab report DIR`` rebuilds the report of past runs:

* the executed notebook's papermill metadata: time, and whether (and where) it failed;
* ``settings.json`` (mode, seed and the skipped datasets); ``verdict.md``, whose presence
  says the notebook finished (its text is not repeated: the claims below say the same in
  one unit per quantity, where a notebook's verdict may give accuracy in points);
* ``claims.csv`` in the catalogue's format (:data:`~milab_widgets.claims.CATALOGUE_COLUMNS`:
  one row per claim of the paper's catalogue with its source, scope, origin, ``reproduced``
  ("k of n"), verdict, effect, 95 % interval, Holm-adjusted p-value and ``noise``, what the
  interval covers), and ``claim_cases.csv`` beside it, the tests per case. The paper's own
  claims lead, the project's own checks follow under their own heading; claims the data
  could not test are counted apart, as are exact checks. A ``claims.csv`` of the older
  format (without those columns) is refused, with the command that regenerates it;
* the tables and chart each paper's record declares (``Paper.headlines``).

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
from milab_widgets.charts.verdicts import effect_text, interval_text, is_ratio
from milab_widgets.claims.catalogue import (
    CATALOGUE_COLUMNS,
    STANDINGS,
    claim_counts,
    is_catalogue,
    standing,
)
from milab_widgets.claims.catalogue import NOT_TESTED as UNTESTED
from milab_widgets.claims.rejudge import read_rejudged
from milab_widgets.evaluation.claim_summary import (
    CLAIM_TABLE_COLUMNS,
    exact_text,
    is_exact,
    verdict_counts,
)
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
from milab_widgets.papers import PAPERS, read_json, read_run_record, read_settings, registered
from milab_widgets.papers.spec import Headlines

__all__ = [
    "PaperResult", "read_result", "read_notebook", "read_table",
    "not_run_reason", "old_format_message", "plural", "reproduced_text", "verdicts_text",
    "counts_sentence", "overview_counts", "claim_rows", "p_text", "forest_figure",
    "forest_plot", "readable", "duration", "mode", "reproduce_commands", "report_blocks",
    "summary_table", "status_text", "paper_blocks", "notebook_link", "run_line",
    "claim_blocks", "case_rows", "headline_blocks", "chart_blocks", "skipped_blocks",
    "sentence", "settings_blocks", "build_report",
]

TITLE = "milab-widgets: reproduction report"


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
    def interrupted(self) -> bool:
        """Stopped by Ctrl-C / SIGTERM (its output is partial), not failed of its own."""
        return bool(self.error) and self.error.startswith("interrupted")

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
    """``<folder>/<stem>.csv``, or an empty table when there is none (or it has no
    columns: a table written with no rows)."""
    path = folder / f"{stem}.csv"
    try:
        return pd.read_csv(path) if path.is_file() else pd.DataFrame()
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def not_run_reason(result: PaperResult) -> str:
    """Why one of a paper's tables has no rows, as a sentence."""
    if result.skipped:
        return (f"the datasets it needs were skipped ({', '.join(result.skipped)}; see "
                "Skipped datasets below).")
    if result.quick:
        return (f"the quick protocol does not run it; `milab reproduce {result.paper} --full` "
                "does.")
    return "the run wrote no rows for it."


# -- claims ----------------------------------------------------------------------------------
#: The catalogue's own columns, whose absence marks a claims.csv of the older format.
CATALOGUE_ONLY = [c for c in CATALOGUE_COLUMNS if c not in CLAIM_TABLE_COLUMNS]


def old_format_message(paper: str, claims: pd.DataFrame) -> str:
    """Why a paper's claims are not shown: its claims.csv predates the catalogue."""
    missing = [c for c in CATALOGUE_ONLY if c not in claims.columns]
    return (f"{paper}'s claims.csv is in the old format (it lacks the catalogue's columns "
            f"{', '.join(missing)}), so the report does not read it. Regenerate it with "
            f"`milab reproduce {paper}` (add `--full` for the paper's protocol).")


def plural(count: int, word: str) -> str:
    """"1 claim", "2 claims"."""
    return f"{count} {word if count == 1 else word + 's'}"


def reproduced_text(counts: dict[str, int]) -> str:
    """"4 of 11 (2 more partly)" or "—" when none was tested."""
    if not counts["tested"]:
        return "—"
    partly = f" (+{counts['partly']} partly)" if counts["partly"] else ""
    return f"{counts['yes']} of {counts['tested']}{partly}"


def verdicts_text(counts: dict[str, int]) -> str:
    """"2 · 3 · 4" (supported · contradicted · inconclusive), then the exact checks apart."""
    text = " · ".join(str(counts[word]) for word in VERDICTS)
    return text + _exact_part(counts)


def counts_sentence(counts: dict[str, int], noun: str = "claim") -> str:
    """The counts of one origin's claims as a sentence."""
    if not counts["claims"]:
        return f"No {noun}s."
    statistical = sum(counts[word] for word in VERDICTS)
    parts = [f"Our data reproduce **{counts['yes']} of {plural(counts['tested'], noun)}** "
             f"tested" + (f" ({counts['partly']} more partly, on some of their cases)"
                          if counts["partly"] else "")] if counts["tested"] else []
    if statistical:
        parts.append(", ".join(f"**{counts[word]} {word}**" for word in VERDICTS)
                     + f" of {plural(statistical, noun)} tested statistically")
    if counts["hold"] + counts["fail"]:
        parts.append(exact_text(counts))
    if counts["not tested"]:
        parts.append(f"{counts['not tested']} not tested (the data it needs is missing: "
                     "see each row)")
    return "; ".join(parts) + "."


def _exact_part(counts: dict[str, int]) -> str:
    return f"; {exact_text(counts)}" if counts["hold"] + counts["fail"] else ""


#: One paper's counts as the README's table and the paper pages show them.
OVERVIEW_COLUMNS = ["paper's claims", "reproduced", *VERDICTS, "exact checks hold",
                    "exact checks fail", "not tested",
                    "beside: the paper's claims on another basis (supported · contradicted · "
                    "inconclusive)",
                    "project's checks (supported · contradicted · inconclusive)"]


def overview_counts(claims: pd.DataFrame) -> dict | None:
    """One paper's counts for an overview table (:data:`OVERVIEW_COLUMNS`): its claims on
    the paper's basis first (how many, reproduced k of n, the verdicts, exact checks and
    not-tested claims apart), then in one cell each its claims on another basis (stand-in
    data, our reading, not discriminable) and the project's checks; None for an
    old-format claims.csv."""
    if not is_catalogue(claims):
        return None
    paper, beside, project = _standing_counts(claims)
    return dict(zip(OVERVIEW_COLUMNS, [
        paper["claims"], reproduced_text(paper), *(paper[word] for word in VERDICTS),
        paper["hold"], paper["fail"], paper["not tested"],
        _apart_text(beside), _apart_text(project)], strict=True))


def _standing_counts(claims: pd.DataFrame) -> list[dict[str, int]]:
    """:func:`claim_counts` of the paper's evidence, its claims on another basis and the
    project's checks (:data:`STANDINGS`), in that order."""
    stands = standing(claims)
    return [claim_counts(claims[stands == key]) for key in STANDINGS]


def _apart_text(counts: dict[str, int]) -> str:
    """The verdicts of rows counted apart, "none" when there are none, with their untested
    rows named."""
    if not counts["claims"]:
        return "none"
    untested = f"; {counts['not tested']} not tested" if counts["not tested"] else ""
    return verdicts_text(counts) + untested


def claim_rows(claims: pd.DataFrame) -> pd.DataFrame:
    """A catalogue table for reading, one row per claim: the claim, where the paper makes
    it, its scope, reproduced (k of n), verdict, its basis (with the reason when it is not
    the paper's), effect and 95 % interval (ratios as "x",
    a threshold or margin beside the effect, "—" for none), p and Holm's p, what the
    interval covers, and the test."""
    ratio, exact = is_ratio(claims), is_exact(claims)
    untested = claims.reproduced == UNTESTED
    return pd.DataFrame({
        "claim": claims.claim, "source": claims.source, "scope": claims.scope,
        "reproduced": [UNTESTED if missing else f"{word} ({cases})" for word, cases, missing
                       in zip(claims.reproduced, claims.reproduced_cases, untested, strict=True)],
        "verdict": claims.verdict.where(~untested, "—"),
        "basis": claims.basis.where(claims.basis == "paper",
                                    claims.basis + ": " + claims.basis_reason.astype(str)),
        "effect": [_effect_cell(row, r, e) for row, r, e
                   in zip(claims.to_dict("records"), ratio, exact, strict=True)],
        "95 % interval": [interval_text(low, high, r, e) for low, high, r, e
                          in zip(claims.ci_low, claims.ci_high, ratio, exact, strict=True)],
        "p": claims.p_value.map(p_text), "p (Holm)": claims.p_adjusted.map(p_text),
        "interval covers": claims.noise.fillna("—"),
        "test": claims.test,
    }, index=claims.index)


def _effect_cell(row: dict, ratio: bool, exact: bool) -> str:
    """The effect, with the value it is read against when that is neither 0 nor 1."""
    if row["reproduced"] == UNTESTED:
        return "—"
    text = effect_text(row["effect"], ratio)
    if exact:
        return f"margin {text}"
    if row["scope"] == "equivalent" and pd.notna(row["margin"]):
        return f"{text} (within ±{row['margin']:g})"
    if pd.notna(row["null"]) and row["null"] not in (0.0, 1.0):
        return f"{text} (against {row['null']:g})"
    return text


def p_text(p) -> str:
    return "—" if pd.isna(p) else f"{p:.2g}"


#: Forest-plot panels by scope: claims of one panel share a unit.
PANELS = {"faster": "speed-up (x; 1 = as fast)", "exact": "exact checks: margin (>= 0 holds)",
          "equivalent": "spread or difference (grey tick: the margin; below it favours the "
                        "claim)",
          "above threshold": "level or gain (grey tick: the threshold)",
          "best rank": "average-rank gap (ranks)"}


def _label_suffix(claims: pd.DataFrame) -> pd.Series:
    """"" for the paper's evidence, " (stand-in data)" etc. for its claims on another
    basis, " (project)" for the project's checks."""
    stands = standing(claims)
    return pd.Series([f" ({basis})" if stand == "beside" else
                      " (project)" if stand == "project" else ""
                      for stand, basis in zip(stands, claims.basis, strict=True)],
                     index=claims.index)


def forest_figure(claims: pd.DataFrame, paper: str):
    """The tested claims of a catalogue table as a forest plot (an Altair chart): a panel
    per kind of quantity (:data:`PANELS`; differences per metric when the claims name one),
    each row against its own null (an equivalence claim against its margin); the project's
    checks are marked "(project)"."""
    from milab_widgets.charts.verdicts import forest_chart

    claims = claims[claims.reproduced != UNTESTED]
    metric = (" · " + claims.metric.astype(str)) if "metric" in claims else ""
    equivalence = claims.scope == "equivalent"
    claims = claims.assign(
        label=claims.id + _label_suffix(claims),
        panel=claims.scope.map(PANELS).fillna("difference (0 = no effect)" + metric),
        null=claims["null"].where(~equivalence, claims["margin"]))
    facet = "panel" if claims.panel.nunique() > 1 else None
    return forest_chart(claims, label="label", facet=facet,
                        title=f"{paper}: the paper's claims and the project's checks",
                        effect_title="effect, 95 % interval (favours the claim →)")


def forest_plot(result: PaperResult, output: Path) -> Path:
    """Draw the tested claims (:func:`forest_figure`) into
    ``<output>/verdicts/<paper>.png``."""
    import altair as alt

    from milab_widgets.charts.theme import THEME_NAME, save_chart

    chart = forest_figure(result.claims, result.paper)
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
        Table(summary_table(results), "Reproduced: of the paper's claims our data could "
              "test, how many our point estimates repeat at the claim's own scope (on every "
              "case, on average, above a threshold...), with those that hold on only some "
              "of their cases as partly. Verdicts (supported · contradicted · inconclusive) "
              "read each claim's 95 % interval at that scope, confirmed by Holm's correction "
              "within the paper's claims: supported when it lies on the claim's side of the "
              "null, contradicted when on the other, inconclusive when it covers it. Exact "
              "checks (no sampling) hold or fail and are counted apart, as are claims the "
              "data could not test. The project's own checks are not the paper's claims "
              "and are counted in their own column."),
    ]
    if absent:
        blocks.append(Text(f"Not in this folder: {', '.join(absent)} (run "
                           f"`milab reproduce {' '.join(absent)} --output {output_label}`)."))
    for result in results:
        blocks += paper_blocks(result, output_label)
    return blocks


SUMMARY_COLUMNS = ["paper", "status", "mode", "seed", "paper's claims reproduced",
                   "paper's claims: supported · contradicted · inconclusive",
                   "paper's claims not tested",
                   "beside, on another basis: supported · contradicted · inconclusive",
                   "project's checks: supported · contradicted · inconclusive", "time",
                   "skipped"]


def summary_table(results: list[PaperResult]) -> pd.DataFrame:
    rows = []
    for result in results:
        rows.append({"paper": f"[{result.paper}](#{result.paper})",
                     "status": status_text(result), "mode": mode(result.quick),
                     "seed": "" if result.seed is None else result.seed,
                     **_summary_counts(result), "time": duration(result.seconds),
                     "skipped": ", ".join(result.skipped) or "none"})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def status_text(result: PaperResult) -> str:
    """"ok", "interrupted (partial)" for a run stopped by Ctrl-C / SIGTERM, or "failed"."""
    if result.ok:
        return "ok"
    return "interrupted (partial)" if result.interrupted else "failed"


def _summary_counts(result: PaperResult) -> dict[str, str]:
    """The summary's claim cells of one paper: blank when it failed or wrote no claims,
    a pointer to its section when its claims.csv is of the old format."""
    columns = SUMMARY_COLUMNS[4:9]
    claims = result.claims
    if not result.ok or claims.empty:
        return dict.fromkeys(columns, "")
    if not is_catalogue(claims):
        return {columns[0]: "old claims.csv: rerun `milab reproduce " + result.paper + "`",
                **dict.fromkeys(columns[1:], "")}
    paper, beside, project = _standing_counts(claims)
    return {columns[0]: reproduced_text(paper), columns[1]: verdicts_text(paper),
            columns[2]: str(paper["not tested"]), columns[3]: _apart_text(beside),
            columns[4]: _apart_text(project)}


def paper_blocks(result: PaperResult, output_label: str) -> list:
    """One paper's section (only the failure and where to read it when the run failed)."""
    title = result.title if result.title.startswith(result.paper) else \
        f"{result.paper}: {result.title}"
    blocks = [Heading(2, title, anchor=result.paper)]
    if not result.ok:
        where = (f"the executed notebook with the traceback: {notebook_link(result.paper)}"
                 if result.notebook else "no executed notebook was written")
        label = "Interrupted (partial)" if result.interrupted else "Failed"
        return blocks + [Text(f"**{label}**: `{result.error}`; {where}.")]
    spec = registered()[result.paper].headlines
    blocks += [Text(run_line(result, output_label))]
    if spec.note:
        blocks.append(Text(f"*{spec.note}*"))
    blocks += claim_blocks(result)
    blocks += [Heading(3, "Regenerated tables")] + headline_blocks(result, spec)
    blocks += chart_blocks(result, spec) + skipped_blocks(result.skipped)
    return blocks + settings_blocks(result.settings)


def notebook_link(paper: str) -> str:
    return f"[{paper}/{PAPERS[paper]}]({paper}/{PAPERS[paper]})"


def run_line(result: PaperResult, output_label: str) -> str:
    """Protocol, seed, time, the command that reruns it and the executed notebook."""
    command = reproduce_commands([result], output_label)[0].replace(" --all", f" {result.paper}")
    protocol = ("**quick** protocol (a first look, not the paper's: `--full` runs that)"
                if result.quick else f"**{mode(result.quick)}** protocol")
    rejudged = read_rejudged(result.folder)
    again = (f" Its claims were judged again on {rejudged['date']} from the run's tables under "
             "today's catalogue (`milab rejudge`); the experiments and the executed notebook "
             "are the run's own." if rejudged else "")
    if rejudged.get("rerun"):
        again = (f" On {rejudged['date']}: {rejudged['rerun']}; every claim was then judged "
                 "again under today's catalogue (`milab rejudge --rerun`).")
    return (f"{protocol}, seed {result.seed}, {duration(result.seconds)}; `{command}`; "
            f"executed notebook: {notebook_link(result.paper)}.{again}")


def claim_blocks(result: PaperResult) -> list:
    """The paper's evidence, its claims on another basis, then the project's checks, each
    with its counts and a row per claim; the forest plot; the per-case tests. An old-format claims.csv is refused with
    the command that regenerates it."""
    claims, cases = result.claims, result.cases
    if claims.empty:
        return [Heading(3, STANDINGS["paper"]),
                Text("No claim could be checked: the datasets it needs were skipped.")]
    if not is_catalogue(claims):
        return [Heading(3, STANDINGS["paper"]),
                Text(f"**Not shown**: {old_format_message(result.paper, claims)}")]
    blocks, stands = [], standing(claims)
    for key, heading in STANDINGS.items():
        chosen = claims[stands == key]
        if chosen.empty:
            continue
        noun = "check" if key == "project" else "claim"
        blocks += [Heading(3, heading), Text(counts_sentence(claim_counts(chosen), noun)),
                   Table(claim_rows(chosen))]
    if (claims.reproduced != UNTESTED).any():
        blocks.append(Image(f"verdicts/{result.paper}.png",
                            f"{result.paper}: forest plot of the claims"))
    if len(cases) and {"verdict", "test"} <= set(cases.columns):
        blocks.append(Details(f"Every case ({len(cases)}): {' · '.join(VERDICTS)} = "
                              f"{verdicts_text(verdict_counts(cases))}",
                              (Table(case_rows(cases)),)))
    return blocks


def case_rows(cases: pd.DataFrame) -> pd.DataFrame:
    """The per-case tests for reading: the claim (by id when the table has one), the case's
    keys, effect, interval, p, verdict, test and n, and what else it records."""
    ratio, exact = is_ratio(cases), is_exact(cases)
    extra = [c for c in cases.columns if c not in (*CLAIM_COLUMNS, "id")]
    return pd.DataFrame({
        "claim": cases.get("id", cases.claim),
        "effect": [effect_text(v, r) for v, r in zip(cases.effect, ratio, strict=True)],
        "95 % interval": [interval_text(low, high, r, e) for low, high, r, e
                          in zip(cases.ci_low, cases.ci_high, ratio, exact, strict=True)],
        "p": cases.p_value.map(p_text), "verdict": cases.verdict, "test": cases.test,
        "n": cases.n,
    }, index=cases.index).join(readable(cases[extra]))


def headline_blocks(result: PaperResult, spec: Headlines) -> list:
    """The paper's headline tables; one that was not written, or has no rows, is named
    with why it was not run instead of being shown as a result."""
    blocks = []
    for headline in spec.tables:
        table = readable(read_table(result.folder, headline.stem))
        if table.empty:
            blocks.append(Text(f"*{headline.caption}*: not run: {not_run_reason(result)}"))
        elif headline.collapsed:
            blocks.append(Details(headline.caption, (Table(table),)))
        else:
            blocks.append(Table(table, headline.caption))
    return blocks


def chart_blocks(result: PaperResult, spec: Headlines) -> list:
    written = [stem for stem in spec.charts if (result.folder / f"{stem}.png").is_file()]
    if not written:
        return []
    return [Heading(3, "Main chart"), Image(f"{result.paper}/{written[0]}.png",
                                            f"{result.paper}: {written[0]}")]


def skipped_blocks(skipped: dict[str, str]) -> list:
    """Every skipped dataset with why, and how to get it where the reason does not say."""
    from milab_widgets.reproduce import how_to_get

    def line(name: str, reason: str) -> str:
        fix = "" if "Fix:" in reason else f" How to get it: {sentence(how_to_get(name, reason))}"
        return f"- **{name}**: {sentence(reason)}{fix}"

    lines = "\n".join(line(name, reason) for name, reason in skipped.items())
    return [Heading(3, "Skipped datasets"), Text(lines or "None: every dataset was available.")]


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a closing full stop."""
    text = " ".join(str(text).split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


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
        claims = result.claims
        if result.ok and is_catalogue(claims) and (claims.reproduced != UNTESTED).any():
            forest_plot(result, folder)
    blocks = report_blocks(results, str(output))
    markdown, page = folder / "REPORT.md", folder / "REPORT.html"
    write_text_atomically(markdown, to_markdown(blocks))
    write_text_atomically(page, to_html(blocks, TITLE))
    return markdown, page
