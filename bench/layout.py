"""The Memory layout area on a 1,000,000-element tensor and its transpose, against torch alone.

Draw: add a 1000 x 1000 float32 tensor and its transpose to the workspace of a fresh
LayoutPanel, show the transpose (sharing groups, read counts, the slice's storage indices,
nothing cached from earlier runs) and render the whole panel offscreen (grab()).
Anchor: torch creating that tensor and its transpose (torch.randn(1000, 1000).t()).
Hover: one hover over a grid element (formula, lit storage cell) plus the synchronous repaint of
the grid and the strips; goal 16 ms, one frame at 60 Hz. Interleaved runs, medians.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import torch  # noqa: E402
from PySide6.QtCore import qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.memory.strides import forget_read_counts  # noqa: E402
from tensorviz.core.tensors.workspace import Provenance, Workspace  # noqa: E402
from tensorviz.ui.memory.layout_panel import LayoutPanel  # noqa: E402

RUNS = 7
HOVERS = 60
SIDE = 1000
DRAW_GOAL = 25  # ratio to torch creating the tensor
HOVER_GOAL = 0.016  # seconds


def quiet_offscreen_notes(_mode, _context, message: str) -> None:
    if "This plugin does not support" not in message:
        print(message, file=sys.stderr)


def fresh_panel(app: QApplication) -> tuple[LayoutPanel, Workspace]:
    """A new, empty panel each run, so no cached read counts from an earlier run help it."""
    workspace = Workspace()
    panel = LayoutPanel(workspace)
    panel.resize(1280, 800)
    panel.show()
    app.processEvents()
    return panel, workspace


def time_draw(app: QApplication, panel: LayoutPanel, workspace: Workspace) -> float:
    forget_read_counts()  # a first draw: nothing remembered from an earlier run
    start = time.perf_counter()
    tensor = torch.randn(SIDE, SIDE)
    workspace.add_tensor("big", tensor, Provenance("randn", "torch.randn(1000, 1000)"))
    workspace.add_tensor("big_t", tensor.t(), Provenance("t", "big.t()", ("big",)))
    panel.show_tensor("big_t")
    image = panel.grab()
    elapsed = time.perf_counter() - start
    if image.isNull() or panel.grid.indices.shape != (SIDE, SIDE):
        raise SystemExit("the panel did not draw the tensor")
    return elapsed


def time_anchor() -> float:
    start = time.perf_counter()
    tensor = torch.randn(SIDE, SIDE)
    tensor.t()
    return time.perf_counter() - start


def time_hovers(panel: LayoutPanel) -> list[float]:
    rng = random.Random(0)
    times = []
    for _ in range(HOVERS):
        row, col = rng.randrange(SIDE), rng.randrange(SIDE)
        start = time.perf_counter()
        panel.grid.element_hovered.emit(row, col)
        panel.grid.repaint()
        panel.strips.repaint()
        times.append(time.perf_counter() - start)
        if panel.strips.lit != [col * SIDE + row]:
            raise SystemExit("hover lit the wrong storage cell")
    return times


def main() -> int:
    qInstallMessageHandler(quiet_offscreen_notes)
    app = QApplication([])
    draws, anchors, hovers = [], [], []
    for run in range(RUNS + 1):  # the first run warms caches and lazy imports on both sides
        panel, workspace = fresh_panel(app)
        try:
            draw = time_draw(app, panel, workspace)
            anchor = time_anchor()
            hover = time_hovers(panel)
        finally:
            panel.shutdown()
            panel.close()
            panel.deleteLater()
        if run:
            draws.append(draw)
            anchors.append(anchor)
            hovers += hover
    print(
        bench_line(
            "layout_draw_1M", statistics.median(draws), statistics.median(anchors), DRAW_GOAL
        )
    )
    hover = statistics.median(hovers)
    verdict = "PASS" if hover <= HOVER_GOAL else "MISS"
    print(f"BENCH layout_hover_update ours={hover:.4f} goal=<={HOVER_GOAL} {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
