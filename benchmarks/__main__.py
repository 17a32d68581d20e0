"""``python -m benchmarks``: run every benchmark (see benchmarks/run_all.py)."""

from benchmarks.run_all import main

main()
