"""Sphinx extension: tables read from the committed full run (``reports/<paper>/*.csv``) at
build time, so a page always shows the numbers the last run wrote.

* ``report-table``: one CSV as a table; numbers are shown with ``:digits:`` significant
  digits (default 4), ``:columns:`` picks and orders columns (``name as heading`` also
  renames one), ``:where: column = value`` keeps the rows with that value and ``:pivot:
  index, columns, values`` spreads a long table into one row per ``index``
  (:func:`select_rows`, :func:`pivot_wide`, :func:`pick_columns`). A JSON file (the
  benchmarks' ``benchmarks/results/*.json``) is read the same way from the list of records
  that ``:records:`` names by its dotted path, nested fields flattened to dotted column
  names (:func:`json_records`).
* ``claims-summary``: one row per paper with its claims' verdict counts, from
  ``reports/<paper>/claims.csv``: the paper's own claims first (reproduced k of n, the
  verdicts, exact checks and untested claims apart), then the project's checks
  (``milab_widgets.report.overview_counts``).
* ``paper-claims <paper>``: one paper's ``claims.csv`` in words (:func:`paper_claims_markdown`):
  the paper's claims first, how many our data reproduce and how many are supported,
  contradicted or inconclusive, one line per claim with what its interval covers, then the
  project's checks under their own heading.

:func:`claims_summary_markdown` is the same table as Markdown, and
``python docs/_ext/report_tables.py`` writes it into the README between its
``claims-table`` markers.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pandas as pd
from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList

from milab_widgets.papers import registered

#: The papers in the order of the site, each with its short reference (authors, title,
#: venue, year), from the papers' records (milab_widgets.papers).
PAPERS = {short: paper.reference() for short, paper in registered().items()}


#: "mean ± spread" with a spread that is zero to every printed digit.
NO_SPREAD = re.compile(r"(?<=±) 0(?:\.0+)?$")


def format_cell(value, digits: int = 4) -> str:
    """A table cell: floats to ``digits`` significant digits (whole numbers once they have
    more digits than that: 1172, not 1.17e+03), blanks for missing values, a list (an
    interval) as "[a, b]" with each entry so formatted, and "± —" for a "mean ± spread"
    cell whose spread is zero (one partition: no spread exists)."""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        shown = f"{value:.{digits}g}"
        return f"{value:.0f}" if "e+" in shown else shown
    if isinstance(value, list):
        return "[" + ", ".join(format_cell(entry, digits) for entry in value) + "]"
    return NO_SPREAD.sub(" —", str(value)).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame, digits: int = 4) -> list[str]:
    """``frame`` as the lines of a Markdown pipe table."""
    lines = ["| " + " | ".join(str(c) for c in frame.columns) + " |",
             "|" + "---|" * len(frame.columns)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(format_cell(v, digits) for v in row) + " |")
    return lines


def claims_summary(reports: Path, cite: bool = True) -> pd.DataFrame:
    """One row per paper with a ``claims.csv`` under ``reports``: paper (its citation and
    short name, or the short name alone), then the paper's own claims (how many, reproduced
    k of n, the verdicts, exact checks and untested claims apart) and the project's checks
    in one cell (``milab_widgets.report.overview_counts``). A claims.csv of the format
    before the catalogue gets no counts (None)."""
    from milab_widgets.report import OVERVIEW_COLUMNS, overview_counts

    rows = []
    for paper, citation in PAPERS.items():
        path = reports / paper / "claims.csv"
        if not path.is_file():
            continue
        counts = overview_counts(pd.read_csv(path)) or {}
        label = f"{citation} ({paper})" if cite else paper
        rows.append({"paper": label, **counts})
    return pd.DataFrame(rows, columns=["paper", *OVERVIEW_COLUMNS])


def claims_summary_markdown(reports: Path, cite: bool = True) -> str:
    """:func:`claims_summary` as a Markdown table (counts not yet available shown as "-")."""
    summary = claims_summary(reports, cite).astype(object).where(lambda f: f.notna(), "-")
    return "\n".join(markdown_table(summary)) + "\n"


def paper_claims_markdown(claims_csv: Path) -> str:
    """``claims_csv`` as Markdown through :func:`milab_widgets.claims.text.claims_markdown`;
    a note instead when the file is missing or predates the claims catalogue (no ``origin``
    column: its rows are not one per claim of the paper)."""
    from milab_widgets.claims.catalogue import is_catalogue
    from milab_widgets.claims.text import claims_markdown

    if not claims_csv.exists():
        return (f"*No `{claims_csv.parent.name}/claims.csv` yet: the paper's full run has not "
                "been committed.*")
    claims = pd.read_csv(claims_csv)
    if not is_catalogue(claims):
        return (f"*The committed `{claims_csv.parent.name}/claims.csv` predates the claims "
                "catalogue: its counts and one line per claim appear here once the full "
                "run at the paper's protocol is committed.*")
    return claims_markdown(claims)


def json_records(path: Path, records: str) -> pd.DataFrame:
    """The list of records at the dotted path ``records`` of the JSON file ``path`` (e.g.
    "rows", or "wall.fit" for ``{"wall": {"fit": [...]}}``), one row per record, nested
    fields flattened to dotted names ("timings.default.median_ms")."""
    found = json.loads(Path(path).read_text(encoding="utf-8"))
    for key in records.split("."):
        if not isinstance(found, dict) or key not in found:
            raise ValueError(f"report-table :records: {records!r} names no field of the file")
        found = found[key]
    if not isinstance(found, list) or not all(isinstance(entry, dict) for entry in found):
        raise ValueError(f"report-table :records: {records!r} is not a list of records")
    return pd.json_normalize(found)


def pick_columns(frame: pd.DataFrame, spec: str) -> pd.DataFrame:
    """The columns that ``spec`` names, comma-separated and in its order, each either a
    column of ``frame`` or "column as heading" (the column shown under that heading)."""
    headings = {}
    for item in spec.split(","):
        column, _, heading = (part.strip() for part in item.partition(" as "))
        if column not in frame.columns:
            raise ValueError(f"report-table :columns: {column!r} is not a column of the table")
        headings[column] = heading or column
    return frame[list(headings)].rename(columns=headings)


def select_rows(frame: pd.DataFrame, condition: str) -> pd.DataFrame:
    """The rows of ``frame`` where ``condition`` ("column = value") holds, each cell compared
    as pandas writes it as text (in a float column, 7 is "7.0")."""
    column, separator, value = (part.strip() for part in condition.partition("="))
    if not separator or column not in frame.columns:
        raise ValueError(f"report-table :where: needs 'column = value' with a column of the "
                         f"table, not {condition!r}")
    return frame[frame[column].astype(str) == value]


def pivot_wide(frame: pd.DataFrame, spec: str) -> pd.DataFrame:
    """``frame`` spread by ``spec`` ("index, columns, values"): one row per ``index`` value
    and one column per ``columns`` value, both in the order they first appear (not sorted),
    each cell the ``values`` entry of that pair (blank where the pair is missing)."""
    names = [part.strip() for part in spec.split(",")]
    if len(names) != 3 or not set(names) <= set(frame.columns):
        raise ValueError(f"report-table :pivot: needs 'index, columns, values' naming three "
                         f"columns of the table, not {spec!r}")
    index, columns, values = names
    wide = frame.pivot(index=index, columns=columns, values=values)
    wide = wide.reindex(index=frame[index].unique(), columns=frame[columns].unique())
    wide.columns = [format_cell(c) for c in wide.columns]
    return wide.rename_axis(None, axis=1).reset_index()


class _TableDirective(Directive):
    def render(self, frame: pd.DataFrame, digits: int = 4) -> list:
        """``frame`` parsed as a Markdown table in the page's own parser."""
        holder = nodes.Element()
        self.state.nested_parse(StringList(markdown_table(frame, digits)), self.content_offset,
                                holder)
        return holder.children


class ReportTable(_TableDirective):
    required_arguments = 1
    option_spec = {"columns": directives.unchanged, "digits": directives.nonnegative_int,
                   "where": directives.unchanged, "pivot": directives.unchanged,
                   "records": directives.unchanged}

    def run(self):
        env = self.state.document.settings.env
        relative, path = env.relfn2path(self.arguments[0], env.docname)
        env.note_dependency(relative)
        try:
            if path.endswith(".json"):
                if "records" not in self.options:
                    raise ValueError("a JSON file needs :records: (the dotted path of its "
                                     "list of records)")
                frame = json_records(path, self.options["records"])
            else:
                frame = pd.read_csv(path)
            if "where" in self.options:
                frame = select_rows(frame, self.options["where"])
            if "pivot" in self.options:
                frame = pivot_wide(frame, self.options["pivot"])
            if "columns" in self.options:
                frame = pick_columns(frame, self.options["columns"])
        except ValueError as error:
            raise self.error(f"{relative}: {error}") from error
        return self.render(frame, self.options.get("digits", 4))


class ClaimsSummary(_TableDirective):
    def run(self):
        env = self.state.document.settings.env
        reports = Path(env.srcdir).parent / "reports"
        for paper in PAPERS:
            env.note_dependency(str(reports / paper / "claims.csv"))
        summary = claims_summary(reports).astype(object).where(lambda f: f.notna(), "-")
        return self.render(summary)


class PaperClaims(Directive):
    required_arguments = 1

    def run(self):
        env = self.state.document.settings.env
        path = Path(env.srcdir).parent / "reports" / self.arguments[0] / "claims.csv"
        env.note_dependency(str(path))
        holder = nodes.Element()
        self.state.nested_parse(StringList(paper_claims_markdown(path).splitlines()),
                                self.content_offset, holder)
        return holder.children


def setup(app):
    app.add_directive("report-table", ReportTable)
    app.add_directive("paper-claims", PaperClaims)
    app.add_directive("claims-summary", ClaimsSummary)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


README_TABLE = re.compile(r"(<!-- claims-table -->\n).*?(<!-- /claims-table -->)", re.DOTALL)


def update_readme(readme: Path, reports: Path) -> None:
    """Rewrite the verdict table between the README's ``claims-table`` markers."""
    table = claims_summary_markdown(reports, cite=False)
    if "| - |" in table:
        table += ("\nA dash: that paper's `claims.csv` predates the claims catalogue; "
                  "`milab reproduce <paper> --full --output reports` regenerates it.\n")
    text = readme.read_text(encoding="utf-8")
    if not README_TABLE.search(text):
        raise SystemExit(f"{readme} has no <!-- claims-table --> markers")
    readme.write_text(README_TABLE.sub(lambda m: m[1] + table + m[2], text), encoding="utf-8")


if __name__ == "__main__":  # python docs/_ext/report_tables.py: refresh the README's table
    root = Path(__file__).resolve().parents[2]
    update_readme(root / "README.md", root / "reports")
