"""How wide the Autograd graph's layout is beside Graphviz dot's, on the backward graphs of
GPT-2-, ViT- and ResNet-50-shaped models (tests/model_shapes.py, random weights): long chains
must stay compact, goal width <= 1.5x dot's.

Both lay out the same graph with the same boxes: dot gets each node's width and height from our
layout (fixedsize) and our gaps (nodesep = NODE_GAP, ranksep = LAYER_GAP - NODE_HEIGHT); its
width is read from `dot -Tplain`. Also prints the time of each (ours: layout_graph only).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import torch  # noqa: E402
from model_shapes import GPT2LMHeadModel, ResNet, ViT  # noqa: E402

from tensorviz.core.autograd.graph import LeafNames, extract_graph  # noqa: E402
from tensorviz.core.graph_layout.layered_layout import (  # noqa: E402
    LAYER_GAP,
    NODE_GAP,
    NODE_HEIGHT,
    layout_graph,
)

GOAL = 1.5
DOT_TIMEOUT = 300


def graphs():
    torch.manual_seed(0)
    gpt2 = GPT2LMHeadModel(layers=12, hidden=64, heads=4)
    vit = ViT(layers=12, hidden=64, heads=4)
    resnet = ResNet((3, 4, 6, 3), width=8)
    yield "gpt2", gpt2, gpt2(torch.randint(0, 100, (1, 8))).logits.sum()
    yield "vit", vit, vit(torch.randn(1, 3, 32, 32)).sum()
    yield "resnet50", resnet, resnet(torch.randn(1, 3, 64, 64)).sum()


def dot_width(graph, layout) -> float | None:
    lines = [
        "digraph g {",
        f"  nodesep={NODE_GAP / 72:.4f}; ranksep={(LAYER_GAP - NODE_HEIGHT) / 72:.4f};",
        '  node [shape=box, fixedsize=true, label=""];',
    ]
    for key, placed in layout.nodes.items():
        lines.append(f'  "{key}" [width={placed.width / 72:.4f}, height={placed.height / 72:.4f}];')
    for route in layout.edges:
        lines.append(f'  "{route.source}" -> "{route.target}";')
    lines.append("}")
    try:
        plain = subprocess.run(
            ["dot", "-Tplain"],
            input="\n".join(lines),
            capture_output=True,
            text=True,
            check=True,
            timeout=DOT_TIMEOUT,
        ).stdout
    except subprocess.TimeoutExpired:
        return None
    _, _scale, width, _height = plain.splitlines()[0].split()[:4]
    return float(width) * 72


def main() -> int:
    have_dot = shutil.which("dot") is not None
    if not have_dot:
        print("anchor unavailable: graphviz's dot is not on PATH; printing ours= figures only")
    for name, model, loss in graphs():
        names = LeafNames()
        names.add_module(model)
        graph = extract_graph(loss, names).graph
        start = time.perf_counter()
        layout = layout_graph(graph)
        seconds = time.perf_counter() - start
        widest = max(len(layer) for layer in layout.layers)
        print(
            f"{name}: {graph.number_of_nodes()} nodes, {len(layout.layers)} layers, at most "
            f"{widest} per layer; ours {layout.width:.0f} px in {seconds:.2f} s",
            flush=True,
        )
        if not have_dot:
            print(
                f"BENCH graph_width_{name} ours={layout.width:.0f} anchor=unavailable "
                f"goal=<={GOAL} NOANCHOR"
            )
            continue
        start = time.perf_counter()
        theirs = dot_width(graph, layout)
        if theirs is None:
            print(
                f"BENCH graph_width_{name} ours={layout.width:.0f} anchor=timeout goal=<={GOAL} "
                "TIMEOUT"
            )
            continue
        print(f"{name}: dot {theirs:.0f} px in {time.perf_counter() - start:.2f} s")
        ratio = layout.width / theirs
        verdict = "PASS" if ratio <= GOAL else "MISS"
        print(
            f"BENCH graph_width_{name} ours={layout.width:.0f} anchor={theirs:.0f} "
            f"ratio={ratio:.2f} goal=<={GOAL} {verdict}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
