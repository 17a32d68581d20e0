"""Speed benchmarks: ratios against peers and limits (run: python -m benchmarks)."""
