"""What a saved notebook's lab cell says when the lab is not live: how to bring it back.

JupyterLab shows one representation of an output -- for a widget, always the widget's --
so a fallback inside the widget's own display bundle is never seen where it is needed:
opened with a new kernel and no saved widget state, @jupyter-widgets/jupyterlab-manager 5.0
renders "Error displaying widget: model not found"; with no kernel at all, "Loading
widget..." for good; with saved state and a new kernel, the panels as they were, marked
disconnected (a red broken-link icon on each control) and no longer answering.

:func:`display_with_note` therefore displays two outputs: first a note saying how to bring
the lab back, then the widget. The note carries a style rule that hides it while the output
after it holds a live widget of class :data:`LIVE_CLASS` (ipywidgets marks a widget whose
kernel is gone with ``jupyter-widgets-disconnected``); in every other case -- model not
found, still loading, restored but disconnected, an untrusted notebook (whose HTML is
sanitised, style rule included), GitHub -- the note shows. The note may carry more HTML
after it, hidden and shown with it: the lab puts a snapshot of its shown tab there
(:mod:`milab_widgets.widgets.snapshot`).
Browser-tested in tests/browser/test_saved_state.py.
"""

from __future__ import annotations

import html

from IPython.display import display

__all__ = ["LIVE_CLASS", "display_with_note", "note_bundle", "revive_note"]

#: DOM class of a widget whose note hides while it is live.
LIVE_CLASS = "milab-live"
NOTE_CLASS = "milab-revive"
#: DOM class of the note's own text (the note may carry a snapshot after it).
NOTE_TEXT_CLASS = "milab-revive-text"
_HIDE_WHILE_LIVE = (
    f".jp-OutputArea-child:has(+ .jp-OutputArea-child .{LIVE_CLASS}"
    f":not(.jupyter-widgets-disconnected)) .{NOTE_CLASS} {{ display: none; }}")


def revive_note(what: str) -> str:
    """The note's text for ``what`` (e.g. "the lab")."""
    return (f"{what[:1].upper()}{what[1:]} is not live here: the kernel that drew it is gone "
            "(the notebook was reopened, or its kernel restarted). Run this cell (Shift+Enter) "
            "with a kernel to bring it back; its controls start from their defaults.")


def note_bundle(what: str, body: str = "") -> dict:
    """The note's display bundle: the style rule, and the note on bringing ``what`` back
    followed by ``body`` (HTML, e.g. a snapshot of the panel), both hidden while the
    widget displayed next is live."""
    text = revive_note(what)
    return {"text/html": f'<style>{_HIDE_WHILE_LIVE}</style><div class="{NOTE_CLASS}">'
                         f'<div class="{NOTE_TEXT_CLASS}" style="color:#8a5a00;'
                         f'background:#fff4d6;padding:4px 8px">{html.escape(text)}</div>'
                         f"{body}</div>",
            "text/plain": text}


def display_with_note(widget, what: str, body: str = "", display_id: str | None = None) -> None:
    """Display :func:`note_bundle` (hidden while ``widget`` is live; under ``display_id``
    when given, for ``update_display``), then ``widget``'s own display bundle (for a widget
    defining ``_ipython_display_`` with this function, ``display(widget)`` would call it
    again)."""
    widget.add_class(LIVE_CLASS)
    display(note_bundle(what, body), raw=True, display_id=display_id)
    display(widget._repr_mimebundle_(), raw=True)
