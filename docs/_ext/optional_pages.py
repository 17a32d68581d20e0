"""Sphinx extension: pages written by other parts of the project appear once they exist.

* ``OPTIONAL_PAGES`` are pages of the site that other work owns (installation, the lab,
  library use, performance, verdicts). A toctree line naming one whose file is missing is
  dropped from ``index.md`` before it is parsed.
* A Markdown link to a missing optional page keeps its text (or the page's title) without
  the link.
* A MyST ``{include}`` of a missing file (each paper's ``papers/<paper>_verdicts.md``) is
  replaced by a sentence saying that section has not been written yet; an included file's
  headings are shifted so that its top level nests under the page's ``##`` sections.

So the build passes with -W whichever of those files exist. The pages that name an optional
page or include a file are re-read on every build, so one that appears is picked up by an
incremental build too.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

OPTIONAL_PAGES = {"installation": "installation", "lab": "the lab", "library": "library use",
                  "performance": "performance", "verdicts": "verdicts"}
LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\.md\)")
INCLUDE = re.compile(r"^```\{include\} (?P<target>\S+)\n```\n", re.MULTILINE)
MISSING = ("*(Not written yet: `{target}` does not exist; the verdict counts are in "
           "[the papers' summary](index.md).)*\n")


def drop_missing_pages(text: str, srcdir: Path) -> str:
    """``text`` without the toctree lines naming a missing optional page."""
    kept = [line for line in text.splitlines(keepends=True)
            if not (line.strip() in OPTIONAL_PAGES
                    and not (srcdir / f"{line.strip()}.md").is_file())]
    return "".join(kept)


def unlink_missing_pages(text: str, srcdir: Path, folder: PurePosixPath) -> str:
    """``text`` with links to missing optional pages replaced by their words."""

    def replace(match: re.Match) -> str:
        page = (folder / match["target"]).as_posix()
        page = str(PurePosixPath(*_normalised(page)))
        if page not in OPTIONAL_PAGES or (srcdir / f"{page}.md").is_file():
            return match[0]
        return match["text"] or OPTIONAL_PAGES[page]

    return LINK.sub(replace, text)


def _normalised(path: str) -> list[str]:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part not in ("", "."):
            parts.append(part)
    return parts or ["."]


HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)
INCLUDED_TOP_LEVEL = 3  # the included text sits in a "## ..." section of the page


def heading_offset(text: str) -> int:
    """How far to shift ``text``'s headings so its top level is ``INCLUDED_TOP_LEVEL``."""
    outside_code = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    levels = [len(hashes) for hashes in HEADING.findall(outside_code)]
    return max(0, INCLUDED_TOP_LEVEL - min(levels)) if levels else 0


def drop_missing_includes(text: str, folder: Path) -> str:
    """``text`` with every include of a file missing from ``folder`` replaced by a note, and
    the others given the heading offset that nests them in the page."""

    def replace(match: re.Match) -> str:
        target = match["target"]
        if not (folder / target).is_file():
            return MISSING.format(target=target)
        offset = heading_offset((folder / target).read_text(encoding="utf-8"))
        option = f":heading-offset: {offset}\n" if offset else ""
        return f"```{{include}} {target}\n{option}```\n"

    return INCLUDE.sub(replace, text)


def _on_source_read(app, docname: str, source: list[str]) -> None:
    srcdir = Path(app.srcdir)
    if docname == "index":
        source[0] = drop_missing_pages(source[0], srcdir)
    folder = PurePosixPath(docname).parent
    source[0] = unlink_missing_pages(source[0], srcdir, folder)
    source[0] = drop_missing_includes(source[0], srcdir / folder)


def _pages_to_reread(app, env, added, changed, removed) -> list[str]:
    """The index, and every Markdown page that links to an optional page or includes a file."""
    names = tuple(f"{page}.md" for page in OPTIONAL_PAGES) + ("{include}",)
    pages = []
    for docname in env.found_docs:
        path = Path(env.doc2path(docname))
        if path.suffix == ".md" and (docname == "index" or any(
                name in path.read_text(encoding="utf-8") for name in names)):
            pages.append(docname)
    return pages


def setup(app):
    app.connect("source-read", _on_source_read)
    app.connect("env-get-outdated", _pages_to_reread)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
