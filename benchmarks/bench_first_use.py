"""First use: how long until ``lab()`` shows the lab in a fresh Jupyter kernel, against the
bare import of the stack it is built on, measured in the same run.

Each measurement starts a new ipykernel (jupyter_client, as JupyterLab does), waits until it
answers, then times one cell from its execute request to its reply:

* ``lab``: ``from milab_widgets import lab; lab()`` -- the cell that puts the lab on screen
  (the first panel then fills in, once the front end reports the lab drawn; not timed);
* ``stack``: ``import ipywidgets, altair, pandas, sklearn`` -- the bare import of the stack
  the lab uses, the floor any Altair/ipywidgets/scikit-learn lab pays;
* and, for information, ``first panel``: in the lab's kernel, the cell that does what
  JupyterLab does once it has drawn the lab (``tabs._view_count = 1``), which builds the
  intH panel (imports, dataset, default run, live charts).

After the ``lab`` cell the kernel is asked whether numba (or Altair) was imported: the
lab must not compile or even load numba before it is on screen. Runs alternate the two
cells so both see the same machine load; the table gives medians of wall-clock seconds.
Issue 14's goal: lab / stack <= 1.

Run: MILAB_DATA_HOME=../shared/data python benchmarks/bench_first_use.py [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

from jupyter_client.manager import start_new_kernel

CELLS = {
    "lab": "from milab_widgets import lab\ntabs = lab()\ntabs",
    "stack": "import ipywidgets, altair, pandas, sklearn",
}
PROBE = "import sys; print(sorted(m for m in ('numba', 'altair') if m in sys.modules))"
FILL_IN = "tabs._view_count = 1\nassert tabs.panels['intH'].last_error is None"


def run(client, code: str) -> float:
    """Seconds from sending ``code`` to its reply (an error is raised)."""
    started = time.perf_counter()
    reply = client.execute_interactive(code, timeout=600, output_hook=lambda msg: None)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"{code!r} failed: {reply['content'].get('evalue')}")
    return time.perf_counter() - started


def timed_cell(code: str, lab: bool = False) -> tuple[float, str, float | None]:
    """Seconds of ``code`` in a fresh kernel; with ``lab``, also what :data:`PROBE` printed
    afterwards and the seconds of :data:`FILL_IN`."""
    manager, client = start_new_kernel(kernel_name="python3", stderr=subprocess.DEVNULL)
    try:
        seconds = run(client, code)
        if not lab:
            return seconds, "", None
        printed = []
        client.execute_interactive(PROBE, timeout=60, output_hook=lambda msg: printed.append(
            msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None)
        return seconds, "".join(printed).strip(), run(client, FILL_IN)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh kernels per cell")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    timed_cell(CELLS["lab"], lab=True)  # warms the file cache and numba's; not reported
    seconds = {name: [] for name in (*CELLS, "first panel")}
    loaded = set()
    for _ in range(args.runs):
        for name, code in CELLS.items():
            value, printed, fill_in = timed_cell(code, lab=name == "lab")
            seconds[name].append(value)
            if fill_in is not None:
                seconds["first panel"].append(fill_in)
                loaded.update(json.loads(printed.replace("'", '"')))
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    ratio = medians["lab"] / medians["stack"]
    print(f"First use in a fresh ipykernel, median of {args.runs} kernels each (wall s):")
    print(f"  lab(): cell returns with the lab on screen   {medians['lab']:6.2f}")
    print(f"  import ipywidgets, altair, pandas, sklearn   {medians['stack']:6.2f}")
    print(f"  then the first panel fills in (intH, built)  {medians['first panel']:6.2f}")
    print(f"  lab / stack: {ratio:.2f} (goal <= 1: {'met' if ratio <= 1 else 'not met'})")
    print(f"  modules loaded by the lab cell among numba, altair: {sorted(loaded) or 'none'}")
    if args.json:
        args.json.write_text(json.dumps({"runs": args.runs, "seconds": seconds,
                                         "median": medians, "ratio": ratio,
                                         "loaded": sorted(loaded)}, indent=2))


if __name__ == "__main__":
    main()
