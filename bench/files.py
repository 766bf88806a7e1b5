"""Opening a big checkpoint: time until our tree is ready and the process's peak RSS, beside
`torch.load(path, mmap=True, weights_only=True)` alone; and statistics of every tensor beside the
same reductions in plain torch. Each side runs in a fresh process, interleaved; medians.

The state dict (100 tensors of 2.6M float32 = 1 GB; BENCH_FILES_MB to change) is written here.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
TENSORS = 100
GOAL_TIME, GOAL_RSS, GOAL_STATS = 2.0, 1.2, 2.0


def child(kind: str, path: str) -> None:
    import torch

    from tensorviz.core.files.inspection import inspect_file
    from tensorviz.core.tensors.summary import summarize

    start = time.perf_counter()
    if kind == "ours":
        result = inspect_file(path)
        assert result.error is None and len(result.entries) == TENSORS
    elif kind == "anchor":
        loaded = torch.load(path, mmap=True, weights_only=True)
        assert len(loaded) == TENSORS
    elif kind == "ours_stats":
        result = inspect_file(path)
        start = time.perf_counter()
        for node in result.entries:
            summarize(result.tensor_at(node.access))
    else:  # anchor_stats: what a person would type
        loaded = torch.load(path, mmap=True, weights_only=True)
        start = time.perf_counter()
        for t in loaded.values():
            t.min(), t.max(), t.mean(), t.std(), t.isnan().sum(), t.isinf().sum()
    elapsed = time.perf_counter() - start
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{elapsed:.6f} {rss_mb:.1f}")


def run_child(kind: str, path: str) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, path], check=True, capture_output=True,
        text=True,
    ).stdout  # fmt: skip
    elapsed, rss = out.split()
    return float(elapsed), float(rss)


def bench_line(name: str, ours: float, anchor: float, goal: float, unit: str = "") -> str:
    ratio = ours / anchor
    verdict = "PASS" if ratio <= goal else "MISS"
    return (
        f"BENCH {name} ours={ours:.3f}{unit} anchor={anchor:.3f}{unit} ratio={ratio:.2f} "
        f"goal=<={goal} {verdict}"
    )


def main() -> int:
    import torch

    megabytes = int(os.environ.get("BENCH_FILES_MB", "1000"))
    per_tensor = megabytes * (1 << 20) // 4 // TENSORS
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "big_state_dict.pt")
        torch.save({f"layers.{i}.weight": torch.randn(per_tensor) for i in range(TENSORS)}, path)
        results: dict[str, list[tuple[float, float]]] = {}
        for _ in range(RUNS):
            for kind in ("ours", "anchor", "ours_stats", "anchor_stats"):
                results.setdefault(kind, []).append(run_child(kind, path))
    median = {k: (statistics.median(t for t, _ in v), statistics.median(r for _, r in v))
              for k, v in results.items()}  # fmt: skip
    print(f"# {megabytes} MB state dict, {TENSORS} tensors")
    print(bench_line("files_tree_ready", median["ours"][0], median["anchor"][0], GOAL_TIME))
    print(bench_line("files_tree_rss_mb", median["ours"][1], median["anchor"][1], GOAL_RSS))
    print(bench_line("files_statistics", median["ours_stats"][0], median["anchor_stats"][0],
                     GOAL_STATS))  # fmt: skip
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        raise SystemExit(0)
    raise SystemExit(main())
