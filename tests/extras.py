"""Tests that need an optional extra of pyproject.toml (``docs``, ``bench``).

The README's test command installs the ``test`` extra only, so a test that needs another
extra skips, naming the extra and the command that installs it. Where an extra is meant to
be there (CI installs ``docs`` and sets ``MILAB_REQUIRE_EXTRAS=docs``), its absence fails
the test instead: the skip is impossible there, as a missing dataset is under
``MILAB_REQUIRE_DATA=1``.
"""

import importlib
import importlib.util
import os

import pytest

#: The modules each optional extra provides that the tests import.
EXTRA_MODULES = {"docs": ("sphinx", "myst_nb", "numpydoc", "pydata_sphinx_theme")}


def required_extras() -> set[str]:
    """The extras named in ``MILAB_REQUIRE_EXTRAS`` (comma-separated)."""
    named = os.environ.get("MILAB_REQUIRE_EXTRAS", "")
    return {name.strip() for name in named.split(",") if name.strip()}


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [name for name in EXTRA_MODULES[extra] if importlib.util.find_spec(name) is None]


def require_extra(extra: str) -> None:
    """Skip the calling test (or test module, at import) when ``extra`` is not installed;
    fail instead when ``MILAB_REQUIRE_EXTRAS`` names it."""
    missing = missing_modules(extra)
    if not missing:
        return
    why = (f"the {extra} extra is not installed ({', '.join(missing)} missing): "
           f"pip install -e '.[{extra}]'")
    if extra in required_extras():
        pytest.fail(f"MILAB_REQUIRE_EXTRAS names {extra} but {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)
