"""The papers' registry: every :class:`~milab_widgets.papers.spec.Paper` registered in the
``milab_widgets.papers`` entry-point group, the project's five and any plugin's.

A plugin package declares, in its own ``pyproject.toml``::

    [project.entry-points."milab_widgets.papers"]
    Sixth = "sixth_paper.spec:SPEC"

and, once installed, its paper appears in ``lab()``, ``milab reproduce``, the report and the
site. The entry point's name must be the paper's short name.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from milab_widgets.exceptions import MilabError
from milab_widgets.papers.spec import Paper

__all__ = ["ENTRY_POINT_GROUP", "registered"]

#: The entry-point group papers register in.
ENTRY_POINT_GROUP = "milab_widgets.papers"
#: The package's own module prefix: its papers must be among those registered.
OWN = "milab_widgets.papers."


@cache
def registered() -> dict[str, Paper]:
    """Every registered paper by short name, in their ``order`` (then by name).

    Read once per process from the installed packages' entry points.

    Returns
    -------
    dict of str to Paper
        Short name -> record, the project's five papers and every plugin's.

    Raises
    ------
    MilabError
        An entry point that is not a :class:`Paper` or whose name is not its short name, two
        papers with one short name, or none of the package's own papers (the installed
        metadata predates the entry points: reinstall).

    See Also
    --------
    milab_widgets.papers.spec.Paper : a paper's record.

    Examples
    --------
    >>> from milab_widgets.papers import registered
    >>> list(registered())[:5]
    ['intH', 'CDVSE', 'MFSEF', 'TwoViewMIC', 'LSkMDDM']
    """
    points = {(point.name, point.value): point for point in entry_points(group=ENTRY_POINT_GROUP)}
    if not any(value.startswith(OWN) for _, value in points):
        raise MilabError(
            f"milab-widgets' own papers are not registered in the entry-point group "
            f"{ENTRY_POINT_GROUP!r}: the installed metadata predates them. Reinstall the "
            "package (pip install -e . in a checkout, or pip install milab-widgets).")
    papers: dict[str, Paper] = {}
    sources: dict[str, str] = {}
    for (name, value), point in sorted(points.items()):
        spec = point.load()
        if not isinstance(spec, Paper):
            raise MilabError(f"entry point {name} = {value} (group {ENTRY_POINT_GROUP}) is a "
                             f"{type(spec).__name__}, not a milab_widgets.papers.spec.Paper")
        if spec.short != name:
            raise MilabError(f"entry point {name} = {value} registers the paper {spec.short!r}: "
                             "name the entry point after the paper's short name")
        if name in papers:
            raise MilabError(f"two papers are registered as {name!r}: {sources[name]} and "
                             f"{value}; short names must be unique (uninstall one)")
        papers[name], sources[name] = spec, value
    return dict(sorted(papers.items(), key=lambda item: (item[1].order, item[0])))
