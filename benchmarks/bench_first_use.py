"""First use: import time and first panel render of the lab, against a peer, in one run.

Each measurement runs in a fresh interpreter (``python -c``), as a user's new kernel would:

* ours: ``import milab_widgets`` plus the modules the lab needs to build its first tab
  ("import"), then ``milab_widgets.lab()``, which builds the first tab's panel -- loading
  its dataset, running its default setting and drawing its charts ("first panel").
* peer: the same third-party stack used the plainest way -- ``import ipywidgets, altair,
  sklearn.neighbors, vl_convert`` ("import"), then a two-control panel that fits
  scikit-learn's KNeighborsClassifier on 200 random points and shows one Altair chart
  rendered to PNG by vl-convert, as our panels do ("first panel").

The first run of ours loads or fills the numba cache and is not reported: the table gives
the median of the warm runs, as wall-clock seconds (what a user waits) and as the process's
CPU seconds (all threads; the work done, much less disturbed by other jobs on a shared
machine). Goal (issue 6): import + first panel under 3 s on the reference machine. The peer
is the floor any Altair/ipywidgets/scikit-learn lab pays on the same machine, so
``ours / peer`` is the number to compare between machines.

Run: MILAB_DATA_HOME=../shared/data python benchmarks/bench_first_use.py [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

#: Child programs: each prints {"import": [wall, cpu], "first_panel": [wall, cpu], "error": str}.
CLOCKS = """
import json, time
def clocks():
    return time.perf_counter(), time.process_time()
def since(start, end):
    return [end[0] - start[0], end[1] - start[1]]
"""

OURS = CLOCKS + """
started = clocks()
import milab_widgets
from milab_widgets.widgets import lab as lab_module
from importlib import import_module
title = next(iter(lab_module.LAB_PANELS))
import_module(lab_module.LAB_PANELS[title][0])
imported = clocks()
lab = milab_widgets.lab()
built = clocks()
print(json.dumps({"import": since(started, imported), "first_panel": since(imported, built),
                  "error": lab.panels[title].error.value}))
"""

PEER = CLOCKS + """
started = clocks()
import altair as alt, ipywidgets as widgets, numpy as np, pandas as pd, sklearn.neighbors
import vl_convert
imported = clocks()
rng = np.random.default_rng(0)
X, y = rng.normal(size=(200, 2)), rng.integers(0, 2, 200)
k = widgets.IntSlider(value=5, min=1, max=15, description="K")
model = sklearn.neighbors.KNeighborsClassifier(k.value).fit(X, y)
frame = pd.DataFrame({"x": X[:, 0], "y": X[:, 1], "predicted": model.predict(X)})
chart = alt.Chart(frame).mark_circle().encode(x="x:Q", y="y:Q", color="predicted:N")
image = widgets.Image(value=vl_convert.vegalite_to_png(chart.to_dict(), scale=1.5), format="png")
panel = widgets.VBox([k, image])
built = clocks()
print(json.dumps({"import": since(started, imported), "first_panel": since(imported, built),
                  "error": ""}))
"""


def run_child(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; its last output line is the JSON timing."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=600)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result["error"]:
        raise RuntimeError(f"the first panel failed to build: {result['error'][:500]}")
    return result


def medians(results: list[dict], clock: int) -> dict:
    """Median import, first-panel and total seconds on ``clock`` (0: wall, 1: CPU)."""
    table = {key: statistics.median(r[key][clock] for r in results)
             for key in ("import", "first_panel")}
    table["total"] = statistics.median(r["import"][clock] + r["first_panel"][clock]
                                       for r in results)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="warm runs per program")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    run_child(OURS)  # loads (or fills) the numba cache; not reported
    runs = {"ours": [], "peer": []}
    for _ in range(args.runs):  # alternated, so both see the same machine load
        runs["ours"].append(run_child(OURS))
        runs["peer"].append(run_child(PEER))
    results = {clock: {name: medians(rows, index) for name, rows in runs.items()}
               for index, clock in enumerate(("wall", "cpu"))}
    print(f"First use, fresh interpreter, warm numba cache, median of {args.runs} runs (s):")
    print(f"  {'':<46}{'import':>8}{'first panel':>13}{'total':>8}")
    for clock, table in results.items():
        for name, label in (("ours", "milab_widgets + lab()"),
                            ("peer", "ipywidgets+altair+sklearn KNN panel")):
            row = table[name]
            print(f"  {f'{clock:<4} {name}: {label}':<46}{row['import']:>8.2f}"
                  f"{row['first_panel']:>13.2f}{row['total']:>8.2f}")
        ratio = table["ours"]["total"] / table["peer"]["total"]
        print(f"  {clock} ours / peer (total): {ratio:.2f}")
    wall = results["wall"]["ours"]["total"]
    print(f"Goal: ours wall total < 3 s -> {'met' if wall < 3 else 'not met'} ({wall:.2f} s)")
    if args.json:
        args.json.write_text(json.dumps({"runs": args.runs, **results}, indent=2))


if __name__ == "__main__":
    main()
