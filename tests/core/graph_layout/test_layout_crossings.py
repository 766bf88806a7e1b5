"""Crossings of drawn routes (the count bench/graph.py uses for us and for dot), and layouts of
residual graphs that must draw without any: a skip connection beside a weight leaf used to cost
one crossing per block."""

import torch

from tensorviz.core.autograd.graph import LeafNames, extract_graph
from tensorviz.core.graph_layout.crossings import inversions, route_crossings, segment_crossings
from tensorviz.core.graph_layout.layered_layout import layout_graph


def brute_force_segment_crossings(edges) -> int:
    """Edges join consecutive ranks only: (rank, x at rank, x at rank + 1)."""
    total = 0
    for i, (rank_a, top_a, bottom_a) in enumerate(edges):
        for rank_b, top_b, bottom_b in edges[i + 1 :]:
            if rank_a == rank_b and (top_a - top_b) * (bottom_a - bottom_b) < 0:
                total += 1
    return total


def test_inversions_match_brute_force():
    values = [5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6]
    expected = sum(1 for i, a in enumerate(values) for b in values[i + 1 :] if a > b)
    assert inversions(values) == expected


def test_segment_crossings_cut_long_edges_at_each_rank():
    ys = [0.0, 10.0, 20.0]
    # a long edge from x=0 on rank 0 to x=20 on rank 2 passes x=10 on rank 1; two short edges
    # cross it: (rank 0, x=20) → (rank 1, x=0) and (rank 1, x=20) → (rank 2, x=0)
    edges = [
        (0, 2, [(0.0, 0.0), (20.0, 20.0)]),
        (0, 1, [(20.0, 0.0), (0.0, 10.0)]),
        (1, 2, [(20.0, 10.0), (0.0, 20.0)]),
    ]
    cut = [(0, 0.0, 10.0), (1, 10.0, 20.0), (0, 20.0, 0.0), (1, 20.0, 0.0)]
    assert segment_crossings(ys, edges) == brute_force_segment_crossings(cut) == 2


def residual_blocks(blocks: int) -> tuple[torch.Tensor, torch.nn.Module]:
    """Post-norm residual blocks, h = norm(h + outer(relu(inner(h)))): the skip edge runs past
    the feed-forward branch and its weight leaves."""
    torch.manual_seed(0)
    modules = torch.nn.ModuleList()
    h = torch.randn(2, 3, 8, requires_grad=True)
    for _ in range(blocks):
        inner, outer, norm = torch.nn.Linear(8, 16), torch.nn.Linear(16, 8), torch.nn.LayerNorm(8)
        modules.extend([inner, outer, norm])
        h = norm(h + outer(torch.relu(inner(h))))
    return h.pow(2).mean(), modules


def drawn_crossings(loss: torch.Tensor, module: torch.nn.Module | None = None):
    names = LeafNames()
    if module is not None:
        names.add_module(module)
    layout = layout_graph(extract_graph(loss, names, ["loss"]).graph)
    return layout.crossings, route_crossings(layout)


def test_residual_blocks_draw_without_crossings():
    assert drawn_crossings(*residual_blocks(3)) == (0, 0)


def test_transformer_encoder_draws_without_crossings():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    model.train()
    loss = model(torch.randn(2, 5, 16)).pow(2).mean()
    assert drawn_crossings(loss, model) == (0, 0)
