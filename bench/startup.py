"""Time from process start to the main window's first paint, and to 'ready' (torch loaded),
against the anchor: a bare `python -c "import torch, PySide6.QtWidgets, pyqtgraph, networkx"`.

Runs are interleaved (ours, anchor, ours, ...) so machine load affects both alike; medians.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 7
GOAL = 1.3
ANCHOR = "import torch, PySide6.QtWidgets, pyqtgraph, networkx"


def time_ours(home: str) -> tuple[float, float]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=home, XDG_CONFIG_HOME=home)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "tensorviz", "--quit-after-ready", "--report-startup"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    seen = {}
    for line in process.stdout:
        seen[line.split()[0]] = time.perf_counter() - start
    if process.wait() != 0 or set(seen) != {"first-paint", "ready"}:
        raise SystemExit(f"tensorviz did not start cleanly: {seen}")
    return seen["first-paint"], seen["ready"]


def time_anchor() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", ANCHOR], check=True)
    return time.perf_counter() - start


def bench_line(name: str, ours: float, anchor: float, goal: float) -> str:
    ratio = ours / anchor
    verdict = "PASS" if ratio <= goal else "MISS"
    return (
        f"BENCH {name} ours={ours:.3f} anchor={anchor:.3f} ratio={ratio:.2f} goal=<={goal} "
        f"{verdict}"
    )


def main() -> int:
    paints, readies, anchors = [], [], []
    with tempfile.TemporaryDirectory() as home:
        time_ours(home)  # warm the file cache once for both sides
        time_anchor()
        for _ in range(RUNS):
            paint, ready = time_ours(home)
            paints.append(paint)
            readies.append(ready)
            anchors.append(time_anchor())
    anchor = statistics.median(anchors)
    print(bench_line("startup_first_paint", statistics.median(paints), anchor, GOAL))
    print(bench_line("startup_ready", statistics.median(readies), anchor, GOAL))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
