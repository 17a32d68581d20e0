"""The ``milab`` command.

Subcommands are functions registered with :func:`subcommand`; adding one (e.g.
``reproduce``) is one decorated function::

    @subcommand("reproduce", "Re-run a paper's experiments.",
                argument("paper", help="paper name"),
                argument("--quick", action="store_true"))
    def _reproduce(args: argparse.Namespace) -> int:
        ...
        return 0

The function receives the parsed arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from milab_widgets.data import list_datasets
from milab_widgets.data.fetch import fetch
from milab_widgets.data.home import describe_data_home, locate
from milab_widgets.data.registry import dataset_names, get_spec
from milab_widgets.exceptions import DatasetUnavailableError, MilabError


@dataclass(frozen=True)
class Subcommand:
    """A registered subcommand: its help text, argparse arguments and handler."""

    name: str
    help: str
    arguments: tuple[tuple[tuple[str, ...], dict[str, Any]], ...]
    run: Callable[[argparse.Namespace], int]


SUBCOMMANDS: dict[str, Subcommand] = {}


def argument(*flags: str, **options: Any) -> tuple[tuple[str, ...], dict[str, Any]]:
    """Arguments of ``ArgumentParser.add_argument``, for :func:`subcommand`."""
    return flags, options


def subcommand(name: str, help: str, *arguments: tuple[tuple[str, ...], dict[str, Any]]):
    """Register the decorated ``function(args) -> exit code`` as ``milab NAME``."""

    def register(function: Callable[[argparse.Namespace], int]):
        SUBCOMMANDS[name] = Subcommand(name, help, arguments, function)
        return function

    return register


def build_parser() -> argparse.ArgumentParser:
    """The ``milab`` parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="milab", description="Multi-instance, multi-label and one-class learning lab."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in SUBCOMMANDS.values():
        sub = commands.add_parser(command.name, help=command.help, description=command.help)
        for flags, options in command.arguments:
            sub.add_argument(*flags, **options)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``milab`` with ``argv`` (default: the process arguments); return the exit code
    (2 for a usage error, as argparse reports it)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_request:  # --help, or a usage error already printed
        return int(exit_request.code or 0)
    return args.run(args)


# -- datasets --------------------------------------------------------------------------------
@subcommand("datasets", "List the registered datasets and where each is read from.")
def _datasets(args: argparse.Namespace) -> int:
    table = list_datasets()
    print(f"Data home: {describe_data_home()}")
    for kind, rows in table.drop(columns="source").groupby("kind", sort=False):
        print(f"\n[{kind}]")
        print(rows.drop(columns="kind").dropna(axis=1, how="all").to_string(index=False))
    for name in table.loc[~table["available"], "name"]:
        try:
            locate(get_spec(name))
        except DatasetUnavailableError as missing:
            print(f"\n{name}: {missing}")
    return 0


# -- fetch -----------------------------------------------------------------------------------
@subcommand(
    "fetch",
    "Download datasets into the data home, checking their sha256.",
    argument("names", nargs="*", metavar="NAME", help="dataset names (see `milab datasets`)"),
    argument("--all", action="store_true", help="fetch every registered dataset"),
    argument("--force", action="store_true", help="download again even if present and valid"),
    argument("--url", help="base URL of a mirror (default: $MILAB_DATA_URL, else each "
                           "dataset's source)"),
)
def _fetch(args: argparse.Namespace) -> int:
    if bool(args.names) == args.all:
        print("milab fetch: give dataset NAMEs or --all (not both).", file=sys.stderr)
        return 2
    print(f"Data home: {describe_data_home()}")
    names = dataset_names() if args.all else args.names
    failures = [name for name in names if not _fetch_one(name, args.force, args.url)]
    if failures:
        print(f"Failed: {', '.join(failures)}", file=sys.stderr)
    return 1 if failures else 0


def _fetch_one(name: str, force: bool, url: str | None) -> bool:
    """Fetch one dataset, printing what happened; False when it failed."""
    try:
        results = fetch(name, force=force, url=url)
    except (MilabError, OSError) as error:
        print(f"{name}: FAILED: {error}", file=sys.stderr)
        return False
    for result in results:
        origin = f" from {result.url}" if result.url else ""
        print(f"{name}: {result.relpath} {result.action}{origin} -> {result.path}")
    return True


if __name__ == "__main__":
    sys.exit(main())


# -- reproduce -------------------------------------------------------------------------------
@subcommand(
    "reproduce",
    "Regenerate the papers' experiments (tables + charts) by running their notebooks.",
    argument("papers", nargs="*", metavar="PAPER", help="papers to run (default: all)"),
    argument("--quick", action="store_true", help="the quick protocol (minutes, for a first look)"),
    argument("--seed", type=int, default=0, help="seed of the cross-validation folds"),
    argument("--output", default="milab-output", help="folder for tables, charts, notebooks"),
)
def _reproduce(args: argparse.Namespace) -> int:
    from milab_widgets.reproduce import reproduce, summary_text

    try:
        runs = reproduce(args.papers, quick=args.quick, seed=args.seed, output=args.output)
    except MilabError as error:
        print(f"milab reproduce: {error}", file=sys.stderr)
        return 1
    for run in runs:
        print(summary_text(run))
    return 0
