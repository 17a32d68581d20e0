"""The Examples sections of the package's docstrings run as doctests.

Every module whose source holds a doctest prompt is imported and its examples are run, one
test per module, so a broken example names its module. Examples that need a display or a
long run are marked ``# doctest: +SKIP`` in the docstring itself.
"""

import doctest
import importlib
from pathlib import Path

import pytest

import milab_widgets

PACKAGE = Path(milab_widgets.__file__).parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES_WITH_EXAMPLES = sorted(
    module_name(path) for path in PACKAGE.rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_the_main_estimators_have_examples():
    # The docs' API pages show these examples; losing them all would go unnoticed.
    for module in ("milab_widgets.mil.neighbors", "milab_widgets.oneclass.svdd",
                   "milab_widgets.multilabel.mlknn", "milab_widgets.data.registry"):
        assert module in MODULES_WITH_EXAMPLES


@pytest.mark.parametrize("name", MODULES_WITH_EXAMPLES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tests = finder.find(module, name)
    assert sum(len(test.examples) for test in tests) > 0, f"{name} has no runnable example"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
