"""The Autograd graph area on an unrolled LSTMCell with shared weights (~2,500 nodes).

Ours: extract the graph from grad_fn.next_functions and lay it out (ranks, crossing reduction,
coordinates, hub stubs for the four shared parameters) — everything core does before the scene
places items. Anchor: torch building that same graph (the forward pass of the unrolled cell).
Second line: the same plus the scene built and painted once (a GraphView, offscreen).
Interleaved runs, medians. Also prints the graph's size and our edge crossings.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import torch  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.autograd.graph import LeafNames, extract_graph  # noqa: E402
from tensorviz.core.graph_layout.layered_layout import layout_graph  # noqa: E402
from tensorviz.ui.autograd.graph_view import GraphView  # noqa: E402

RUNS = 5
STEPS = 160
GOAL = 40.0
SCENE_GOAL = 60.0


def forward(cell: torch.nn.LSTMCell, inputs: torch.Tensor) -> torch.Tensor:
    h = c = torch.zeros(1, cell.hidden_size)
    for step in range(inputs.shape[0]):
        h, c = cell(inputs[step], (h, c))
    return h.sum()


def main() -> int:
    torch.manual_seed(0)
    cell = torch.nn.LSTMCell(8, 16)
    inputs = torch.randn(STEPS, 1, 8)
    names = LeafNames()
    names.add_module(cell)
    app = QApplication.instance() or QApplication([])
    view = GraphView()
    view.resize(1000, 700)
    view.show()
    ours, scenes, anchors = [], [], []
    for run in range(RUNS + 1):  # the first run warms caches on both sides
        start = time.perf_counter()
        loss = forward(cell, inputs)
        anchor = time.perf_counter() - start
        start = time.perf_counter()
        graph = extract_graph(loss, names, ["loss"])
        layout = layout_graph(graph.graph)
        mine = time.perf_counter() - start
        view.show_layout(graph.graph, layout)
        view.viewport().repaint()
        app.processEvents()
        with_scene = time.perf_counter() - start
        if run:
            ours.append(mine)
            scenes.append(with_scene)
            anchors.append(anchor)
    print(
        f"graph: {graph.graph.number_of_nodes()} nodes, {graph.graph.number_of_edges()} edges, "
        f"{len(layout.stubs_of)} hubs, {layout.crossings} crossings, {len(layout.layers)} layers"
    )
    print(
        bench_line(
            "graph_extract_layout_lstm", statistics.median(ours), statistics.median(anchors), GOAL
        )
    )
    print(
        bench_line(
            "graph_extract_layout_scene_lstm",
            statistics.median(scenes),
            statistics.median(anchors),
            SCENE_GOAL,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
