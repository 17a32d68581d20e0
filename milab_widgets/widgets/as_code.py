"""A panel's state as code, and its charts and tables as files.

A finding in the lab should become a script: ``panel.code()`` returns the Python source that
reproduces what the panel shows -- data loading through the project's loaders, the
estimator with the panel's current parameters, the fit, the score -- and prints the
panel's headline numbers in the panel's own format. ``panel.save(folder)`` writes the charts
shown (PNG and SVG, rendered by vl-convert with no browser) and the tables shown (CSV), and
returns the paths written. Each panel has a "copy as code" button (the code to the clipboard,
:mod:`.clipboard`) and a "save" button.

How: each panel class names a :class:`Recipe` (its own in :mod:`.recipes`): the sections of
its script as :class:`string.Template` text with ``$name`` fields (so the Python braces of
the script need no escaping), a function giving the fields' values from the panel's
controls, and functions naming the charts and tables on screen. :func:`panel_code` fills
the fields with Python literals (``repr``, checked to read back equal, so a float reaches
the script bit for bit) under a header naming the panel, the package version and the data
home. A panel whose settings cannot be written, or whose last action failed (a missing
dataset), still gets a script with a note saying so at its top -- never a traceback.

>>> from milab_widgets.widgets import CDVSEPanel
>>> panel = CDVSEPanel()                 # doctest: +SKIP
>>> print(panel.code())                  # doctest: +SKIP
>>> panel.save("findings")               # doctest: +SKIP
"""

from __future__ import annotations

import ast
import base64
import html
import re
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from string import Template

import ipywidgets as widgets
import numpy as np

from milab_widgets.exceptions import InputError
from milab_widgets.widgets.base import on_press
from milab_widgets.widgets.clipboard import SCOPE_CLASS, ClipboardButton

__all__ = ["AsCode", "CodeBar", "Recipe", "download_link", "panel_code", "panel_files",
           "python_literal", "save_panel"]

#: Chart formats :func:`save_panel` writes (vl-convert renders both).
CHART_FORMATS = ("png", "svg")
DOWNLOAD_CLASS = "milab-download"
DOWNLOAD_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".csv": "text/csv"}
#: DOM class of the text area showing a panel's code.
CODE_CLASS = "milab-code"


@dataclass(frozen=True)
class Recipe:
    """How one panel class becomes a script and files.

    Attributes
    ----------
    sections : callable
        ``sections(panel) -> list[str]``: the script's parts for the panel's state, as
        :class:`string.Template` text (imports first; a part per view shown, e.g. a clicked
        bag's classification only when one is shown).
    values : callable
        ``values(panel) -> dict``: the template fields, as Python values (literals).
        May raise :class:`~milab_widgets.exceptions.InputError` for settings the panel
        itself refuses.
    charts, tables : callable
        ``charts(panel) -> {name: Altair chart}``, ``tables(panel) -> {name: DataFrame}``:
        what the panel shows now (absent entries are left out).
    """

    sections: Callable
    values: Callable
    charts: Callable
    tables: Callable


class AsCode:
    """Mixin for a :class:`~milab_widgets.widgets.base.Panel`: ``code()``, ``save()`` and a
    :class:`CodeBar` under the panel's controls. The panel class sets ``recipe``."""

    recipe: Recipe

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.code_bar = CodeBar(self)
        self.controls.children = (*self.controls.children, self.code_bar)

    def code(self) -> str:
        """The Python source reproducing what this panel shows (see :func:`panel_code`).

        Returns
        -------
        str
            Source code that runs outside the panel.
        """
        return panel_code(self)

    def save(self, folder: str | Path) -> list[Path]:
        """Write the charts shown (PNG, SVG) and tables shown (CSV) to ``folder``.

        Parameters
        ----------
        folder : str or Path
            Where to write (created if needed).

        Returns
        -------
        list of Path
            The paths written (see :func:`save_panel`).
        """
        return save_panel(self, folder)


def python_literal(value) -> str:
    """``value`` as Python source that reads back equal (numpy scalars and arrays become
    plain numbers and lists; NaN and infinities ``float("nan")``, ``float("inf")``).
    TypeError for a value with no literal form."""
    plain = _plain(value)
    if isinstance(plain, float) and not np.isfinite(plain):
        return f'float("{plain}")'
    text = repr(plain)
    try:
        same = ast.literal_eval(text) == plain
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise TypeError(f"{value!r} ({type(value).__name__}) has no Python literal form; "
                        "a recipe's values must be numbers, strings, None, or lists, tuples "
                        "and dicts of them.")
    return text


def _plain(value):
    if isinstance(value, np.ndarray):
        return [_plain(item) for item in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    return value


def panel_code(panel) -> str:
    """The script for ``panel``'s current state: a header (panel, version, data home, and
    any note: a failed last action, results stale, settings that cannot be written), then
    the recipe's sections with their fields filled in."""
    notes = _state_notes(panel)
    try:
        fields = {name: python_literal(value)
                  for name, value in panel.recipe.values(panel).items()}
        body = "\n\n".join(Template(section).substitute(fields)
                           for section in panel.recipe.sections(panel))
    except (InputError, TypeError) as error:
        notes.append(f"The panel's current settings cannot be written as code: {error}")
        body = "# Fix the setting named above in the panel, then copy the code again."
    return _header(panel, notes) + "\n\n" + body + "\n"


def _header(panel, notes: list[str]) -> str:
    from milab_widgets.data import data_home

    lines = [f"# The milab-widgets panel \"{panel.title}\" as a script "
             f"(milab-widgets {_package_version()}).",
             "# Run it with the data home the panel used to get the numbers it showed:",
             f"#   MILAB_DATA_HOME={data_home()}"]
    for note in notes:
        lines.append("#")
        wrapped = textwrap.wrap(note, 80, break_long_words=False, break_on_hyphens=False)
        lines.extend(("# NOTE: " if i == 0 else "#       ") + line
                     for i, line in enumerate(wrapped))
    return "\n".join(lines)


def _state_notes(panel) -> list[str]:
    """What the script's reader must know about the panel's state: each view's failed last
    action and stale results (a panel with sub-views keeps one status area per view)."""
    notes = []
    for area in panel.status_areas.values():
        if area.last_error is not None:
            error = area.last_error
            notes.append(f"the panel's last action failed ({type(error).__name__}: {error}); "
                         "this script fails the same way until that is fixed.")
        stale = _text(area.stale.value)
        if stale:
            notes.append(f"{stale} This script uses the current settings.")
    return notes


def _text(markup: str) -> str:
    """Plain text of a status or note's HTML."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _package_version() -> str:
    try:
        return version("milab-widgets")
    except PackageNotFoundError:  # a source tree that is not installed
        return "(not installed)"


def save_panel(panel, folder: str | Path) -> list[Path]:
    """Write what ``panel`` shows to ``folder`` (created if needed): each chart as
    ``<panel>-<chart>.png`` and ``.svg`` (vl-convert), each table as ``<panel>-<table>.csv``
    (its index as the first column). Returns the paths written; InputError when the panel
    shows no chart and no table yet."""
    from milab_widgets.charts import save_chart

    charts, tables = panel.recipe.charts(panel), panel.recipe.tables(panel)
    charts = {name: chart for name, chart in charts.items() if chart is not None}
    tables = {name: table for name, table in tables.items() if table is not None}
    if not charts and not tables:
        raise InputError(f"the {panel.title} panel shows no chart or table to save yet: run "
                         "it first (press Run, or change a control).")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = _slug(type(panel).__name__.removesuffix("Panel"))
    paths = []
    for name, chart in charts.items():
        paths.extend(save_chart(chart, folder / f"{stem}-{name}", CHART_FORMATS))
    for name, table in tables.items():
        path = folder / f"{stem}-{name}.csv"
        table.to_csv(path)
        paths.append(path)
    return paths


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class CodeBar(widgets.VBox):
    """A panel's "copy as code" and "save" controls.

    "copy as code" (a :class:`~milab_widgets.widgets.clipboard.ClipboardButton`) puts
    ``panel.code()`` on the user's clipboard in one click, says beside it whether the
    browser let it, and shows the code in ``code_area`` -- selected there, for Ctrl+C, when
    the browser refuses the clipboard. "save" writes the panel's charts and tables to the
    folder typed in ``folder`` and lists the files in ``message``, or says why nothing was
    written. Neither touches the panel's own status line or error.

    With :meth:`use_downloads` (the lab of ``milab app``) the files are the browser's, not
    the server's: "download chart and table" renders them in a temporary folder and lists
    them in ``message`` as links that download them, and nothing is written anywhere else --
    Voilà's kernel runs in the installed package's own folder, where "save" wrote (issue 33)."""

    def __init__(self, panel, folder: str = "milab-saved"):
        self._panel = panel
        self.downloads = False
        self.copy_button = ClipboardButton(self.show_code, description="copy as code",
                                           tooltip="copy the Python that reproduces this "
                                                   "panel to the clipboard",
                                           select=f".{CODE_CLASS} textarea")
        self.save_button = widgets.Button(description="save chart and table", icon="download",
                                          layout={"width": "auto", "flex": "none"})
        self.folder = widgets.Text(value=folder, description="to folder",
                                   layout={"width": "260px"})
        self.message = widgets.HTML("")
        self.code_area = widgets.Textarea(value="", rows=18,
                                          layout={"width": "100%", "display": "none"})
        self.code_area.add_class(CODE_CLASS)
        on_press(self.save_button, lambda: self.offer_downloads() if self.downloads
                 else self.save())
        super().__init__([widgets.HBox([self.copy_button, self.save_button, self.folder]),
                          self.message, self.code_area])
        self.add_class(SCOPE_CLASS)
        self.use_downloads(False)

    def use_downloads(self, downloads: bool = True) -> None:
        """Offer the files as browser downloads (``downloads``) or write them to the folder
        typed (the default)."""
        self.downloads = downloads
        self.save_button.description = f"{'download' if downloads else 'save'} chart and table"
        self.save_button.tooltip = ("the charts (PNG, SVG) and tables (CSV) shown, " +
                                    ("as downloads" if downloads else "written to the folder"))
        self.folder.layout.display = "none" if downloads else None

    def show_code(self) -> str:
        """Show the panel's code in the text area (what "copy as code" copies); return it."""
        code = self._panel.code()
        self.code_area.value = code
        self.code_area.layout.display = None
        self.message.value = ("<small>The panel's state as a Python script (below; "
                              "Ctrl+A, Ctrl+C in the box copies it too).</small>")
        return code

    def save(self) -> list[Path]:
        """Save the panel's charts and tables; say what was written (or why not)."""
        try:
            paths = self._panel.save(self.folder.value.strip() or ".")
        except (InputError, OSError) as error:
            self._refuse(error)
            return []
        names = ", ".join(html.escape(path.name) for path in paths)
        self.message.value = (f"<small>saved {len(paths)} files to "
                              f"{html.escape(str(paths[0].parent))}: {names}</small>")
        return paths

    def offer_downloads(self) -> list[str]:
        """Render the panel's charts and tables and list them as download links; return
        the file names."""
        try:
            files = panel_files(self._panel)
        except (InputError, OSError) as error:
            self._refuse(error)
            return []
        links = " · ".join(download_link(name, content) for name, content in files.items())
        self.message.value = f"<small>{len(files)} files, click to download: {links}</small>"
        return list(files)

    def _refuse(self, error: Exception) -> None:
        self.message.value = (f'<span style="color:#b00020">nothing saved: '
                              f"{html.escape(str(error))}</span>")


def panel_files(panel) -> dict[str, bytes]:
    """What :func:`save_panel` writes, as {file name: content}, written nowhere that stays
    (a temporary folder, removed)."""
    with tempfile.TemporaryDirectory(prefix="milab-download-") as folder:
        return {path.name: path.read_bytes() for path in save_panel(panel, folder)}


def download_link(name: str, content: bytes) -> str:
    """An HTML link that makes the browser download ``content`` as ``name`` (a data URI: the
    file travels in the page, with nothing served)."""
    kind = DOWNLOAD_TYPES[Path(name).suffix]
    encoded = base64.b64encode(content).decode("ascii")
    return (f'<a download="{html.escape(name)}" href="data:{kind};base64,{encoded}" '
            f'class="{DOWNLOAD_CLASS}">{html.escape(name)}</a>')
