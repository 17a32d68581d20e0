"""What a paper is to the lab: one frozen :class:`Paper` record per paper, at the bottom of
the stack (it imports nothing of the package).

Every layer reads a paper's facts from its record and holds no list of its own: the citation
(panel headers, the site), the notebook ``milab reproduce`` runs, the panel the lab shows, the
tables and charts the report quotes (:class:`Headlines`), the gallery's thumbnail and the API
names on the paper's page. The records are registered through the ``milab_widgets.papers``
entry-point group (:mod:`milab_widgets.papers.registry`); the project's five papers register
themselves there like any plugin.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Headline", "Headlines", "Paper"]


@dataclass(frozen=True)
class Headline:
    """One table of a paper's output folder (``<stem>.csv``) that the report shows, with its
    caption; ``collapsed`` tables are folded away in the HTML report."""

    stem: str
    caption: str
    collapsed: bool = False


@dataclass(frozen=True)
class Headlines:
    """What the report shows of one paper: its headline tables, its main chart (the first
    of ``charts`` written, as ``<stem>.png``) and what a reader must know to compare."""

    tables: tuple[Headline, ...]
    charts: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class Paper:
    """One paper: its citation, its notebook, its panel and what the report and the site show.

    Parameters
    ----------
    short : str
        The short name used everywhere (tab title, output folder, ``milab reproduce`` argument).
    setting : str
        The learning setting, in words ("multi-instance", "one-class", "multi-label").
    authors : str
        The full author line, or "" where the source text lost it.
    cited_as : str
        The authors as a citation names them ("Xing & Wei"), or "".
    title : str
        The English title (or, where the text gives none, what the paper is about).
    venue : str
        Journal, volume, pages and year as far as known, or what is not known.
    notebook : str
        The paper's papermill notebook, a file name.
    panel : str
        The lab's panel, ``"module:Class"`` (imported only when its tab is opened).
    order : int
        Position among the papers (tabs, runs, report, site); ties go by short name.
    notebook_package : str or None
        The package whose folder holds ``notebook`` (a plugin's own); None: the project's
        notebooks folder (:func:`milab_widgets.papers.notebooks_dir`).
    headlines : Headlines
        The tables and charts the reproduction report shows.
    gallery_chart : tuple of (str, str)
        The site gallery's thumbnail: the chart's stem in the paper's output folder, caption.
    api : tuple of str
        The objects the paper's site page lists (names as in docs/api/index.md).
    doi : str
        The paper's DOI, or "".
    datasets : dict of str to tuple of str
        The paper's data sets by the table or experiment that uses them, in its order.
    vocabulary : dict of str to dict of str to str
        Per kind of thing the paper compares (its methods, distances, metrics...): code ->
        display name, in the paper's display order. The experiment, claims, charts and panel
        of the paper read them here.

    Attributes
    ----------
    short, setting, authors, cited_as, title, venue, notebook, panel, order
        As given (the record is frozen).
    notebook_package, headlines, gallery_chart, api, doi, datasets, vocabulary
        As given.

    See Also
    --------
    milab_widgets.papers.registry.registered : every registered paper's record.

    Examples
    --------
    >>> from milab_widgets.papers import registered
    >>> paper = registered()["CDVSE"]
    >>> paper.cited_as, paper.notebook
    ('Xing & Wei', 'CDVSE.ipynb')
    >>> paper.panel_class()
    ('milab_widgets.widgets.cdvse', 'CDVSEPanel')
    """

    short: str
    setting: str
    authors: str
    cited_as: str
    title: str
    venue: str
    notebook: str
    panel: str
    order: int = 100
    notebook_package: str | None = None
    headlines: Headlines = field(default_factory=lambda: Headlines((), ()))
    gallery_chart: tuple[str, str] = ("", "")
    api: tuple[str, ...] = ()
    doi: str = ""
    datasets: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    vocabulary: dict[str, dict[str, str]] = field(default_factory=dict, hash=False)

    def citation(self) -> str:
        """The full reference, as a panel's header shows it.

        Returns
        -------
        str
            Authors, title, venue and DOI, each where known.
        """
        authors = f"{self.authors}. " if self.authors else ""
        doi = f", DOI {self.doi}" if self.doi else ""
        return f"{authors}{self.title}. {self.venue}{doi}."

    def reference(self) -> str:
        """The short reference the site's tables use.

        Returns
        -------
        str
            ``Cited as, "Title", venue`` (the parts that are known).
        """
        title = f'"{self.title}"' if self.cited_as else self.title
        return ", ".join(part for part in (self.cited_as, title, self.venue) if part)

    def panel_class(self) -> tuple[str, str]:
        """Where the panel is.

        Returns
        -------
        tuple of (str, str)
            The panel's module and class name (imported when its tab is first opened).
        """
        module, _, name = self.panel.partition(":")
        return module, name
