"""Long chains stay compact: the backward graph of a transformer is a chain with a leaf or a
branch beside it in every layer; each block must not push it further sideways (it drifted
7,400 px on GPT-2 when a node split every conflict evenly with its neighbour)."""

import pytest
import torch
from model_shapes import GPT2LMHeadModel, ViT

from tensorviz.core.autograd.graph import extract_graph
from tensorviz.core.graph_layout.layered_layout import NODE_GAP, layout_graph


def _gpt2(layers):
    torch.manual_seed(0)
    model = GPT2LMHeadModel(layers=layers, hidden=64, heads=4)
    return extract_graph(model(torch.randint(0, 100, (1, 8))).logits.sum()).graph


def _vit(layers):
    torch.manual_seed(0)
    return extract_graph(
        ViT(layers=layers, hidden=64, heads=4)(torch.randn(1, 3, 32, 32)).sum()
    ).graph


@pytest.mark.parametrize("build", [_gpt2, _vit], ids=["gpt2", "vit"])
def test_six_times_the_blocks_is_no_wider(build):
    # each block stacks right under the last one: a half-step drift per block (the mean of two
    # placements that each break a tie the other way) made 12 blocks twice as wide as 2
    short, long = layout_graph(build(2)), layout_graph(build(12))
    assert len(long.layers) > 5 * len(short.layers)
    assert long.width < 1.2 * short.width


def test_a_chain_with_a_leaf_beside_every_node_stays_straight():
    x = torch.ones(3, requires_grad=True)
    for _ in range(200):
        x = x * torch.full((3,), 1.01, requires_grad=True)  # a new leaf read at every step
    layout = layout_graph(extract_graph(x.sum()).graph)
    widest = max(
        sum(layout.nodes[k].width for k in layer) + NODE_GAP * (len(layer) - 1)
        for layer in layout.layers
    )
    assert layout.width < 2 * widest
