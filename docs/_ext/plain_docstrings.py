"""Sphinx extension: read the package's plain-text docstring conventions as plain text.

The docstrings write fitted attributes the scikit-learn way (``labels_``, ``n_iter_``) and
norms and set sizes with bars (``||x - a||^2``, ``|A|``), outside code markup. In
reStructuredText ``name_`` is a link to a target and ``|A|`` a substitution (a line starting
with ``|`` a line block), so docutils reports them as errors. Before numpydoc parses a
docstring, this hook escapes both outside inline code and doctest lines, so the page shows
them as written.

Members that the estimators inherit from scikit-learn (``get_params``, ``set_fit_request``,
``score``...) are documented by scikit-learn, not here: they are skipped, as their docstrings
point into scikit-learn's own site.
"""

from __future__ import annotations

import re

CODE = re.compile(r"(``.+?``|`[^`]+`)")
TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s,.;:)\]}]|$)")


def escape_text(text: str) -> str:
    """``text`` with trailing underscores and bars escaped outside inline code."""
    parts = CODE.split(text)
    for i in range(0, len(parts), 2):  # even parts lie outside code spans
        parts[i] = TRAILING_UNDERSCORE.sub(r"\\_", parts[i]).replace("|", r"\|")
    return "".join(parts)


def escape_docstring(lines: list[str]) -> None:
    """Escape ``lines`` in place; doctest lines and their outputs, and ``.. math::`` blocks
    (LaTeX, where ``\\|`` would be a double bar), are left alone."""
    in_doctest, math_indent = False, None
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if math_indent is not None and stripped and indent <= math_indent:
            math_indent = None  # the first line back at the directive's level ends it
        if stripped.startswith(".. math::"):
            math_indent = indent
        if stripped.startswith(">>>"):
            in_doctest = True
        elif not stripped:
            in_doctest = False
        if not in_doctest and math_indent is None:
            lines[i] = escape_text(line)


def _on_process_docstring(app, what, name, obj, options, lines) -> None:
    escape_docstring(lines)


def _skip_foreign_member(app, what, name, obj, skip, options):
    """Skip class members defined outside this package (inherited from scikit-learn)."""
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and callable(obj) and not module.startswith("milab_widgets"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_member)
    # numpydoc rewrites docstrings at the default priority (500); run before it.
    app.connect("autodoc-process-docstring", _on_process_docstring, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
