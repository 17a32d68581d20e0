"""A panel's header: what the panel does, then its paper's citation, read from the paper's
record (:mod:`milab_widgets.papers`; the citation is written there once)."""

from __future__ import annotations

import html

from milab_widgets.papers import registered

__all__ = ["paper_header"]


def paper_header(short: str, what: str) -> str:
    """HTML header of a panel: what it does (with the short name), then the citation."""
    paper = registered()[short]
    return (f"<h3 style='margin:4px 0'>{html.escape(short)}: {html.escape(what)}</h3>"
            f"<div style='font-size:90%;color:#444'>{html.escape(paper.citation())}</div>")
