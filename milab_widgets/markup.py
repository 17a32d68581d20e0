"""A document as a list of blocks, rendered to Markdown and to self-contained HTML.

The reproduction report (:mod:`milab_widgets.report`) is composed once as blocks and written
in both formats, so the two never drift apart. Text blocks take a small Markdown subset:
paragraphs separated by blank lines, ``- `` list items, ```code```, ``**bold**``,
``*italic*`` and ``[text](url)``; table cells take the inline part of it. Images are linked by relative path,
so a report works from inside its output folder.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd


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
STATUS_WORDS = ("yes", "partly", "no", "ok", "failed")

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
p.caption { font-style: italic; margin-bottom: .2em; }
td.yes, td.ok { background: #d9f2e3 !important; }
td.partly { background: #fff3cd !important; }
td.no, td.failed { background: #f8d7da !important; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: 13px; color: #555; }
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
    """The blocks as one HTML page with its style sheet inline."""
    body = "\n".join(_html(block) for block in blocks)
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
            f"<body><main>\n{body}\n</main></body>\n</html>\n")


def _html(block) -> str:
    if isinstance(block, Heading):
        anchor = f' id="{block.anchor}"' if block.anchor else ""
        return f"<h{block.level}{anchor}>{inline_html(block.text)}</h{block.level}>"
    if isinstance(block, Text):
        return text_html(block.text)
    if isinstance(block, Table):
        caption = f'<p class="caption">{inline_html(block.caption)}</p>\n' if block.caption else ""
        return caption + html_table(block.frame)
    if isinstance(block, Image):
        path, alt = html.escape(block.path), html.escape(block.alt)
        return (f'<figure><a href="{path}"><img src="{path}" alt="{alt}"></a>'
                f"<figcaption>{alt}</figcaption></figure>")
    inner = "\n".join(_html(child) for child in block.blocks)
    return f"<details><summary>{inline_html(block.summary)}</summary>\n{inner}\n</details>"


def html_table(frame: pd.DataFrame) -> str:
    """``frame`` as an HTML table; cells rendered with :func:`inline_html`, and cells that
    are exactly one of STATUS_WORDS get that word as their class."""
    cells = frame.astype(str).apply(lambda column: column.map(inline_html))
    table = cells.to_html(index=False, escape=False, border=0)
    for word in STATUS_WORDS:
        table = table.replace(f"<td>{word}</td>", f'<td class="{word}">{word}</td>')
    return table


def text_html(text: str) -> str:
    """Paragraphs (split at blank lines) and ``- `` bullet lists as HTML."""
    parts = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines = paragraph.splitlines()
        if all(line.startswith("- ") for line in lines):
            items = "".join(f"<li>{inline_html(line[2:])}</li>" for line in lines)
            parts.append(f"<ul>{items}</ul>")
        else:
            parts.append(f"<p>{inline_html(' '.join(lines))}</p>")
    return "\n".join(parts)


_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"\*([^*\s][^*]*)\*"), r"<em>\1</em>"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>'),
)


def inline_html(text: str) -> str:
    """Escape ``text`` for HTML, then render its ```code```, ``**bold**``, ``*italic*`` and
    links."""
    text = html.escape(str(text), quote=False)
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return text
