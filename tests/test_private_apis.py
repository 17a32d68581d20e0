"""Private APIs of dependencies are fenced: each is imported by one module only, named in
:data:`FENCES`, where pyproject.toml bounds that dependency's version. A private API is a
module or a name with a leading underscore, imported from a package other than this one."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OWN = ("milab_widgets", "tests", "benchmarks", "__future__")
#: The one module allowed to import each dependency's private names, and why.
FENCES = {
    "sklearn": "milab_widgets/_sklearn_private.py",  # parameter validation, _fit_context
    "ipywidgets": "milab_widgets/widgets/snapshot.py",  # the kernel's widgets by model id
    "altair": "milab_widgets/charts/theme.py",  # the Vega-Lite version vl-convert draws
}


def private_imports(path: Path) -> list[tuple[str, str]]:
    """``(top-level package, what)`` for each private import of another package in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top in OWN:
                continue
            private_module = any(part.startswith("_") for part in node.module.split("."))
            names = [alias.name for alias in node.names if alias.name.startswith("_")]
            if private_module or names:
                found.append((top, f"{node.module}: {names or '*'}"))
        elif isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], alias.name) for alias in node.names
                      if alias.name.split(".")[0] not in OWN
                      and any(part.startswith("_") for part in alias.name.split(".")[1:])]
    return found


def test_private_apis_are_imported_only_in_their_fences():
    stray = []
    for folder in ("milab_widgets", "tests", "benchmarks", "docs/_ext"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            stray += [f"{where}: {what}" for top, what in private_imports(path)
                      if FENCES.get(top) != where]
    assert not stray, "private APIs imported outside their fences:\n" + "\n".join(stray)


def test_every_fence_imports_what_it_fences():
    for package, where in FENCES.items():
        assert any(top == package for top, _ in private_imports(ROOT / where)), where


def test_the_scan_finds_a_private_import(tmp_path):
    source = tmp_path / "module.py"
    source.write_text("from sklearn.utils._param_validation import Interval\n"
                      "from pandas import _libs\nimport numpy.core._multiarray_umath\n"
                      "from milab_widgets._sklearn_private import fit_context\n")
    assert [top for top, _ in private_imports(source)] == ["sklearn", "pandas", "numpy"]
