"""Stands in for the worker (`python -m milab_widgets.notebook_run`) in the runner's fast
tests: takes the worker's arguments, waits, writes a finished paper folder and run record,
or fails like a notebook whose cell raised. Configured by $FAKE_WORKER (JSON: ``failing``,
``seconds``, ``calls``: a file that receives one JSON line per call)."""

import argparse
import json
import os
import time
from pathlib import Path

from milab_widgets.papers import RUN_RECORD


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--paper")
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    config = json.loads(os.environ["FAKE_WORKER"])
    started = time.time()
    time.sleep(config.get("seconds", 0.0))
    call = {"paper": args.paper, "folder": str(args.folder), "quick": not args.full,
            "seed": args.seed, "threads": os.environ.get("NUMBA_NUM_THREADS"),
            "scheduler": os.environ.get("MILAB_SCHEDULER"),
            "grid_log": os.environ.get("MILAB_GRID_LOG"),
            "started": started, "ended": time.time()}
    with open(config["calls"], "a") as calls:
        calls.write(json.dumps(call) + "\n")
    from tests.test_reproduce import INTH_CLAIMS, write_notebook, write_paper

    failing = args.paper in config.get("failing", [])
    if failing:
        write_notebook(args.folder / f"{args.paper}.ipynb", error=("ValueError", f"{args.paper} broke", 3))
    else:
        write_paper(args.folder.parent, args.paper, INTH_CLAIMS, quick=not args.full, seed=args.seed)
    error = f"ValueError: {args.paper} broke (In [3])" if failing else None
    (args.folder / RUN_RECORD).write_text(json.dumps(
        {"paper": args.paper, "status": "failed" if failing else "ok", "error": error,
         "watchdog": []}))
    raise SystemExit(1 if failing else 0)


if __name__ == "__main__":
    main()
