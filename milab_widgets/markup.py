"""A document as a list of blocks, rendered to Markdown and to self-contained HTML.

The reproduction report (:mod:`milab_widgets.report`) is composed once as blocks and written
as Markdown; the HTML page is that Markdown rendered by mistune (with its table plugin), so
the two never drift apart. Images are linked by relative path, so a report works from inside
its output folder.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

__all__ = [
    "Heading", "Text", "Table", "Image", "Details", "to_markdown", "markdown_table", "to_html",
]


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str | None = None


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True, eq=False)
class Table:
    frame: pd.DataFrame
    caption: str = ""


@dataclass(frozen=True)
class Image:
    path: str
    alt: str


@dataclass(frozen=True)
class Details:
    """A collapsed section: ``summary`` shows, ``blocks`` open on a click."""

    summary: str
    blocks: tuple


#: Table cells with these exact words get a coloured HTML class (a verdict at a glance).
STATUS_WORDS = ("supported", "contradicted", "inconclusive", "ok", "failed")

_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 0; background: #fafafa; }
main { max-width: 1150px; margin: 0 auto; padding: 1.5em 2em 4em; background: #fff; }
h1 { border-bottom: 3px solid #0072B2; padding-bottom: .3em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2.2em; padding-bottom: .2em; }
h3 { margin-top: 1.6em; color: #0072B2; }
code { background: #f0f0f0; padding: .1em .3em; border-radius: 3px; font-size: 90%; }
table { border-collapse: collapse; margin: .4em 0 1.2em; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef3f8; }
tr:nth-child(even) td { background: #f8f8f8; }
td.supported, td.ok { background: #d9f2e3 !important; }
td.inconclusive { background: #eeeeee !important; }
td.contradicted, td.failed { background: #f8d7da !important; }
img { max-width: 100%; border: 1px solid #eee; }
details { margin: .6em 0 1em; } summary { cursor: pointer; color: #0072B2; }
"""


# -- Markdown ---------------------------------------------------------------------------------
def to_markdown(blocks: Sequence) -> str:
    """The blocks as GitHub-flavoured Markdown."""
    return "\n\n".join(_markdown(block) for block in blocks) + "\n"


def _markdown(block) -> str:
    if isinstance(block, Heading):
        anchor = f'<a id="{block.anchor}"></a>\n\n' if block.anchor else ""
        return f"{anchor}{'#' * block.level} {block.text}"
    if isinstance(block, Text):
        return block.text
    if isinstance(block, Table):
        caption = f"*{block.caption}*\n\n" if block.caption else ""
        return caption + markdown_table(block.frame)
    if isinstance(block, Image):
        return f"[![{block.alt}]({block.path})]({block.path})"
    return (f"<details><summary>{block.summary}</summary>\n\n{to_markdown(block.blocks)}\n"
            "</details>")


def markdown_table(frame: pd.DataFrame) -> str:
    """A pipe table of ``frame`` (cells as text; ``|`` escaped, line breaks flattened)."""
    def row(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    lines = [row(frame.columns), row(["---"] * frame.shape[1])]
    return "\n".join(lines + [row(values) for values in frame.itertuples(index=False)])


# -- HTML -------------------------------------------------------------------------------------
def to_html(blocks: Sequence, title: str) -> str:
    """The blocks as one HTML page (their Markdown rendered by mistune) with its style sheet
    inline; table cells that are exactly one of STATUS_WORDS get that word as their class."""
    import mistune

    body = mistune.create_markdown(escape=False, plugins=["table"])(to_markdown(blocks))
    for word in STATUS_WORDS:
        body = body.replace(f"<td>{word}</td>", f'<td class="{word}">{word}</td>')
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
            f"<body><main>\n{body}\n</main></body>\n</html>\n")
