"""The ``milab`` command.

Subcommands are functions registered with :func:`subcommand`; adding one is one decorated
function::

    @subcommand("greet", "Greet someone.",
                argument("name", help="who to greet"),
                argument("--loud", action="store_true"))
    def _greet(args: argparse.Namespace) -> int:
        ...
        return 0

The function receives the parsed arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from milab_widgets.app import DEFAULT_PORT
from milab_widgets.data import list_datasets
from milab_widgets.data.fetch import fetch
from milab_widgets.data.home import describe_data_home
from milab_widgets.data.registry import dataset_names, get_spec
from milab_widgets.exceptions import InputError, MilabError
from milab_widgets.papers import KERNEL_LOG, PAPERS

__all__ = [
    "Subcommand", "argument", "subcommand", "build_parser", "main", "how_to_get_missing",
]


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
    print(GENERATED_DATASETS)
    missing = table.loc[~table["available"], "name"].tolist()
    if missing:
        print(how_to_get_missing(missing))
    return 0


#: The data a fresh install always has beyond the registry's shipped sets (built, not read).
GENERATED_DATASETS = """
[generated] always available, built from data a fresh install has
  digits-a, digits-b  scikit-learn's handwritten digits (1,797 8 x 8 images) as two-view
                      bags: milab_widgets.data.image_bags.digits_two_view(subset)
  synthetic sets      sine_noise, square_noise (one-class), synthetic_two_view_bags (MIL)"""


def how_to_get_missing(names: Sequence[str]) -> str:
    """One paragraph for every missing dataset: the ``milab fetch`` command for the ones that
    download, and the names whose files must be placed by hand (their error says how)."""
    by_hand = [name for name in names
               if any(data_file.url is None for data_file in get_spec(name).files)]
    downloadable = [name for name in names if name not in by_hand]
    lines = [f"\nMissing: {len(names)} of {len(dataset_names())} registered datasets."]
    if downloadable:
        lines.append("  Download them (sha256 checked):  milab fetch " + " ".join(downloadable))
    if by_hand:
        lines.append(f"  Placed by hand (not downloadable as such): {', '.join(by_hand)};\n"
                     "  `milab fetch NAME` prints where each file comes from and where it goes.")
    lines.append("  Or set MILAB_DATA_HOME to a folder that holds them.")
    return "\n".join(lines)


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


# -- reproduce -------------------------------------------------------------------------------
def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(text)


def _positive_minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        minutes = float("nan")
    if not minutes > 0 or minutes == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of minutes > 0, got {text!r}")
    return minutes


def _scheduler(text: str) -> str:
    from milab_widgets.evaluation.cluster import local_workers

    try:
        local_workers(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


@subcommand(
    "reproduce",
    "Regenerate the papers' experiments (tables, charts, executed notebooks) and write one "
    "report, DIR/REPORT.md and DIR/REPORT.html.",
    argument("papers", nargs="*", metavar="PAPER",
             help=f"papers to run: {', '.join(PAPERS)} (any case)"),
    argument("--all", action="store_true", help="run every paper"),
    argument("--full", action="store_true",
             help="the paper's protocol (default: the quick protocol, minutes per paper)"),
    argument("--jobs", type=_positive_int, metavar="N",
             help="papers run at once (default: the cores available, at most one per paper)"),
    argument("--seed", type=int, default=0, help="seed of the random splits (default 0)"),
    argument("--output", default="milab-output", metavar="DIR",
             help="folder for tables, charts, notebooks and the report (default milab-output)"),
    argument("--scheduler", type=_scheduler, metavar="ADDRESS",
             help="run every paper's grid tasks on this Dask scheduler (tcp://host:8786), or "
                  "on local:N, a cluster of N worker processes started here; the notebooks "
                  "and the report stay here (needs dask[distributed])"),
    argument("--timeout", type=_positive_minutes, metavar="MINUTES",
             help="stop a paper still running after this long (default 30 for the quick "
                  "protocol, 1440 for --full); the other papers go on"),
)
def _reproduce(args: argparse.Namespace) -> int:
    from milab_widgets.papers import paper_names
    from milab_widgets.reproduce import RunInterrupted, check_writable, default_jobs, reproduce

    if bool(args.papers) == args.all:
        print("milab reproduce: give PAPER names or --all (not both).", file=sys.stderr)
        return 2
    try:
        papers = paper_names(PAPERS if args.all else args.papers)
        jobs = args.jobs or default_jobs(len(papers))
        check_writable(Path(args.output).resolve())  # refused before anything is said to run
        on_dask = f", grids on the Dask scheduler {args.scheduler}" if args.scheduler else ""
        print(f"Running {', '.join(papers)} ({'full' if args.full else 'quick'} protocol, "
              f"{jobs} at a time{on_dask}) into {args.output}/", flush=True)
        runs = reproduce(papers, quick=not args.full, seed=args.seed, output=args.output,
                         jobs=jobs, on_start=_print_start, on_done=_print_run,
                         timeout=None if args.timeout is None else args.timeout * 60,
                         scheduler=args.scheduler)
    except RunInterrupted as stopped:
        print(f"milab reproduce: stopped by {stopped.signal_name}; every kernel was shut "
              "down. Unfinished papers are marked as partial in the report.", file=sys.stderr)
        _print_report(args.output, {run.paper: run.error for run in stopped.runs if not run.ok})
        return 128 + getattr(signal, stopped.signal_name)
    except MilabError as error:
        print(f"milab reproduce: {error}", file=sys.stderr)
        return 2
    failed = [run for run in runs if not run.ok]
    _print_report(args.output, {run.paper: run.error for run in failed})
    _print_skipped(args.output, papers)
    if failed:
        print(f"Failed: {', '.join(run.paper for run in failed)}", file=sys.stderr)
    return 1 if failed else 0


def _print_start(paper: str) -> None:
    print(f"{paper}: running...", flush=True)


def _print_run(run) -> None:
    for stall in run.stalls:
        print(f"{run.paper}: the watchdog recovered cell {stall.get('cell')}: "
              f"{stall.get('event')} (details in {run.notebook.parent / 'run.json'})",
              file=sys.stderr, flush=True)
    if run.ok:
        print(f"{run.paper}: done in {run.seconds:.0f} s -> {run.notebook.parent}", flush=True)
    elif run.interrupted:
        print(f"{run.paper}: interrupted (partial) after {run.seconds:.0f} s: {run.error}; "
              f"what it wrote is in {run.notebook.parent}", file=sys.stderr, flush=True)
    else:
        print(f"{run.paper}: FAILED after {run.seconds:.0f} s: {run.error}\n"
              f"  the executed notebook with the traceback: {run.notebook}\n"
              f"  the kernel's log: {run.notebook.parent / KERNEL_LOG}",
              file=sys.stderr, flush=True)


def _print_skipped(output: str, papers) -> None:
    """One line per paper that skipped datasets (their names), then one line with the
    `milab fetch` command for those that download; each dataset's own instructions are in
    the report's "Skipped datasets" section."""
    from milab_widgets.reproduce import skipped_datasets

    skipped = skipped_datasets(output, papers)
    if not any(skipped.values()):
        print("Skipped datasets: none.")
        return
    print(f"Skipped datasets (their tables and claims are missing; how to get each: "
          f"{Path(output) / 'REPORT.md'}, Skipped datasets):")
    for paper, datasets in skipped.items():
        if datasets:
            print(f"  {paper}: {len(datasets)} skipped: {', '.join(datasets)}")
    fetchable = sorted({name for datasets in skipped.values() for name, how in datasets.items()
                        if how.startswith("run `milab fetch")})
    if fetchable:
        print(f"  Download these (sha256 checked): milab fetch {' '.join(fetchable)}")


def _print_report(output: str, errors) -> None:
    from milab_widgets.report import build_report

    markdown, page = build_report(output, errors)
    print(f"Report: {markdown} and {page}")


# -- report ----------------------------------------------------------------------------------
@subcommand(
    "report",
    "(Re)build DIR/REPORT.md and DIR/REPORT.html from the paper folders in DIR, without "
    "running anything.",
    argument("output", metavar="DIR", help="an output folder of `milab reproduce`"),
)
def _report(args: argparse.Namespace) -> int:
    try:
        _print_report(args.output, {})
    except MilabError as error:
        print(f"milab report: {error}", file=sys.stderr)
        return 1
    return 0


@subcommand(
    "rejudge",
    "Judge the committed runs in DIR again under today's claims catalogue (bases, Holm "
    "families, recomputed claims) from their tables, without re-running any experiment; "
    "then rebuild DIR/REPORT.md and DIR/REPORT.html.",
    argument("output", metavar="DIR", help="an output folder of `milab reproduce`"),
    argument("papers", nargs="*", metavar="PAPER",
             help="papers to judge again (default: every paper folder in DIR)"),
    argument("--rerun", action="store_true",
             help="first re-run, at today's protocol, the parts of a full run that can be "
                  "redone alone (LSkMDDM: Table 2 and Fig. 4); the report says which"),
)
def _rejudge(args: argparse.Namespace) -> int:
    from milab_widgets.rejudging import rejudge_folder

    folder = Path(args.output)
    papers = args.papers or [paper for paper in PAPERS if (folder / paper / "claims.csv").is_file()]
    try:
        for paper in papers:
            rejudge_folder(folder / paper, paper, rerun=args.rerun)
            print(f"{paper}: claims.csv judged again from {folder / paper}")
        _print_report(args.output, {})
    except MilabError as error:
        print(f"milab rejudge: {error}", file=sys.stderr)
        return 1
    return 0


# -- app -------------------------------------------------------------------------------------
@subcommand(
    "app",
    "Serve the lab as a web page (Voilà: the panels, no code) at http://127.0.0.1:PORT/ "
    "until Ctrl+C.",
    argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
             help=f"TCP port on 127.0.0.1 (default {DEFAULT_PORT}); never another one"),
)
def _app(args: argparse.Namespace) -> int:
    from milab_widgets.app import AppError, serve

    try:
        serve(args.port)
    except AppError as error:
        print(f"milab app: {error}", file=sys.stderr)
        return 2
    return 0


# -- JupyterLab --------------------------------------------------------------------------------
@subcommand(
    "jupyterlab",
    "Open JupyterLab with the milab launcher tiles, commands and reproduction panel (also "
    "from an editable install, where a plain `jupyter lab` lacks them); other arguments go "
    "to JupyterLab.",
    argument("jupyter_arguments", nargs=argparse.REMAINDER, metavar="...",
             help="JupyterLab's own options, e.g. --port 8889 --no-browser"),
)
def _jupyterlab(args: argparse.Namespace) -> int:
    import subprocess

    from milab_widgets.server.launch import jupyterlab_arguments

    try:
        return subprocess.call(jupyterlab_arguments(args.jupyter_arguments))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
