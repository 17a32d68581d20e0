"""Write the intersphinx inventories of docs/_intersphinx/ from the installed packages.

The documentation links names such as ``sklearn.svm.OneClassSVM`` or ``pandas.DataFrame`` to
their projects' sites through intersphinx, which reads each site's ``objects.inv``. The build
has no internet and none of these packages ships its ``objects.inv``, so this script writes
one per project from the installed modules: every public class and function of the modules
listed in ``PROJECTS``, at the address where that project's Sphinx site documents it
(``reference/generated/numpy.mean.html`` on numpy.org, ``modules/generated/...`` on
scikit-learn.org...). The files are small (a few kB, zlib) and committed; rerun after a
major upgrade of one of the projects::

    python docs/_intersphinx/make_inventories.py

The format is Sphinx's inventory version 2: four header lines, then zlib-compressed lines
``name domain:role priority uri display-name`` (``$`` in the uri stands for the name, ``-``
for a display name equal to the name).

ipywidgets' site has no page per class (its reference is a gallery of example notebooks),
so its names point to the widget list; Altair's top-level chart classes and functions point
to its generated API pages.
"""

from __future__ import annotations

import importlib
import inspect
import platform
import zlib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Project:
    """One project's inventory: its site's page for a name and the modules to list."""

    name: str           # the intersphinx key (docs/conf.py)
    package: str        # the installed distribution's import name (for the version)
    modules: tuple[str, ...]
    page: str           # the page of one object, "{name}" replaced by its full name
    class_page: str = ""  # classes' page when it differs from ``page``
    extra: tuple[str, ...] = ()  # entries written as they are (glossary terms, labels)


#: The Python names numpydoc links in "Parameters" types (its default aliases: bool, int,
#: sequence, callable...), all on docs.python.org.
PYTHON_ENTRIES = (
    "None py:data 1 library/constants.html#None -",
    "True py:data 1 library/constants.html#True -",
    "False py:data 1 library/constants.html#False -",
    *(f"{name} py:class 1 library/stdtypes.html#{name} -"
      for name in ("list", "tuple", "str", "dict", "float", "int", "set", "frozenset")),
    "callable py:function 1 library/functions.html#callable -",
    "contextlib.contextmanager py:function 1 library/contextlib.html#$ -",
    "collections.namedtuple py:function 1 library/collections.html#$ -",
    "bltin-boolean-values std:label -1 library/stdtypes.html#$ Boolean Type - bool",
    *(f"{term} std:term -1 glossary.html#term-{term} -"
      for term in ("iterable", "sequence", "generator", "mapping", "path-like object")),
)

PROJECTS = (
    Project("python", "platform", (), "", extra=PYTHON_ENTRIES),
    Project("numpy", "numpy", ("numpy", "numpy.linalg", "numpy.random"),
            "reference/generated/{name}.html#{name}",
            extra=("array_like std:term -1 glossary.html#term-array_like -",
                   "arrays.scalars std:label -1 reference/arrays.scalars.html Scalars",
                   "numpy.inf py:data 1 reference/constants.html#$ -",
                   "numpy.nan py:data 1 reference/constants.html#$ -")),
    Project("scipy", "scipy",
            ("scipy.linalg", "scipy.sparse", "scipy.sparse.linalg", "scipy.optimize",
             "scipy.stats", "scipy.io", "scipy.spatial.distance", "scipy.special"),
            "reference/generated/{name}.html#{name}"),
    Project("sklearn", "sklearn",
            ("sklearn.base", "sklearn.cluster", "sklearn.datasets", "sklearn.decomposition",
             "sklearn.metrics", "sklearn.mixture", "sklearn.model_selection",
             "sklearn.neighbors", "sklearn.preprocessing", "sklearn.svm", "sklearn.utils",
             "sklearn.utils.validation", "sklearn.exceptions"),
            "modules/generated/{name}.html#{name}"),
    Project("pandas", "pandas", ("pandas",), "reference/api/{name}.html#{name}"),
    Project("altair", "altair", ("altair",), "user_guide/generated/api/{name}.html#{name}",
            class_page="user_guide/generated/toplevel/{name}.html#{name}"),
    Project("ipywidgets", "ipywidgets", ("ipywidgets",), "examples/Widget%20List.html"),
)

#: Altair's chart classes are its documented top-level classes (the thousands of schema
#: wrappers it also exports are documented on other pages).
ALTAIR_CLASSES = {"Chart", "LayerChart", "HConcatChart", "VConcatChart", "ConcatChart",
                  "FacetChart", "RepeatChart", "TopLevelMixin", "JupyterChart"}


def public_objects(module_name: str):
    """``(full name, object)`` of the public classes and functions ``module_name`` exports."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for name in sorted(set(names)):
        try:
            obj = getattr(module, name, None)
        except ImportError:  # an experimental name that needs an explicit opt-in import
            continue
        if inspect.isclass(obj) or callable(obj) and not inspect.ismodule(obj):
            yield f"{module_name}.{name}", obj


def inventory_lines(project: Project) -> list[str]:
    """The inventory's entry lines (``name domain:role priority uri -``), sorted and unique."""
    lines = set(project.extra)
    for module_name in project.modules:
        for full_name, obj in public_objects(module_name):
            is_class = inspect.isclass(obj)
            if project.name == "altair" and is_class and full_name.split(".")[-1] not in ALTAIR_CLASSES:
                continue
            page = project.class_page if is_class and project.class_page else project.page
            role = "py:class" if is_class else "py:function"
            lines.add(f"{full_name} {role} 1 {page.format(name=full_name)} -")
        lines.add(f"{module_name} py:module 0 {project.page.format(name=module_name)} -")
    return sorted(lines)


def write_inventory(project: Project, folder: Path = HERE) -> Path:
    """Write ``<folder>/<project.name>.inv`` and return its path."""
    version = (platform.python_version() if project.name == "python"
               else importlib.import_module(project.package).__version__)
    header = (f"# Sphinx inventory version 2\n# Project: {project.name}\n# Version: {version}\n"
              "# The remainder of this file is compressed using zlib.\n")
    body = "\n".join(inventory_lines(project)) + "\n"
    path = folder / f"{project.name}.inv"
    path.write_bytes(header.encode() + zlib.compress(body.encode(), 9))
    return path


if __name__ == "__main__":
    for each in PROJECTS:
        written = write_inventory(each)
        print(f"{written.name}: {len(inventory_lines(each))} names, {written.stat().st_size} bytes")
