"""Grouping backward nodes by the nn.Module whose forward made them, and collapsing them.

The reference for "which module made this node" is torch's own sequence numbers read by an
independent pair of hooks in each test (the nodes created between a module's pre and post hook)."""

import threading

import torch
from torch import nn

from tensorviz.core.autograd.graph import LeafNames, extract_graph
from tensorviz.core.autograd.module_groups import (
    collapse_modules,
    module_levels,
    module_of_nodes,
)
from tensorviz.core.autograd.presets import PRESETS
from tensorviz.core.forward.module_tags import tagging_modules
from tensorviz.core.graph_layout.layered_layout import layout_graph


def test_each_linear_layer_owns_its_addmm_and_parameters():
    built = PRESETS["mlp"].build()
    graph = built.extract()
    groups = module_of_nodes(graph)
    by_group = {}
    for node, (name, _class) in groups.items():
        by_group.setdefault(name, set()).add(graph.graph.nodes[node]["label"])
    assert by_group["0"] == {"AddmmBackward0", "TBackward0", "0.weight", "0.bias"}
    assert by_group["1"] == {"ReluBackward0"}
    assert by_group["2"] == {"AddmmBackward0", "TBackward0", "2.weight", "2.bias"}
    loss_node = next(n for n, d in graph.graph.nodes(data=True) if d["op"] == "MseLossBackward0")
    assert loss_node not in groups  # made outside the model


def test_collapsed_graph_is_the_chain_of_modules():
    built = PRESETS["mlp"].build()
    graph = built.extract()
    collapsed, shown_as = collapse_modules(graph.graph, module_of_nodes(graph))
    labels = {n: d["label"] for n, d in collapsed.nodes(data=True)}
    chain = ["module:0", "module:1", "module:2"]
    assert [labels[n] for n in chain] == ["0 · Linear", "1 · ReLU", "2 · Linear"]
    assert collapsed.has_edge("module:0", "module:1") and collapsed.has_edge("module:1", "module:2")
    assert set(shown_as) == set(graph.graph.nodes)
    assert collapsed.nodes["module:2"]["output_shapes"] == ((8, 1),)
    layout = layout_graph(collapsed)
    assert {p.node for p in layout.nodes.values()} == set(collapsed.nodes)


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attn = nn.Linear(8, 8)
        self.mlp = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))

    def forward(self, x):
        x = x + self.attn(x)
        return x + self.mlp(x)


class Stack(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.h = nn.ModuleList(Block() for _ in range(3))
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        for block in self.h:
            x = block(x)
        return self.head(x)


def _reference_owner(model: nn.Module, inputs) -> tuple[torch.Tensor, dict[int, str]]:
    """Sequence number → innermost module, from bare hooks that read torch's counter."""
    spans = []
    starts = {}
    names = {id(m): n for n, m in model.named_modules()}
    handles = []
    for module in model.modules():

        def before(m, _args):
            starts[id(m)] = torch._C._autograd._get_sequence_nr()

        def after(m, _args, _out):
            spans.append((names[id(m)], starts[id(m)], torch._C._autograd._get_sequence_nr()))

        handles += [module.register_forward_pre_hook(before), module.register_forward_hook(after)]
    with tagging_modules():
        out = model(inputs).sum()
    for handle in handles:
        handle.remove()
    return out, spans


def test_modulelist_blocks_are_groups_at_the_level_below_their_parent():
    torch.manual_seed(0)
    model = Stack()
    out, spans = _reference_owner(model, torch.randn(4, 8))
    names = LeafNames()
    names.add_module(model)
    graph = extract_graph(out, names)
    assert module_levels(graph) == 3  # h.k, h.k.mlp, h.k.mlp.0
    level1 = module_of_nodes(graph, 1)
    assert {name for name, _ in level1.values()} == {"h.0", "h.1", "h.2", "head"}
    for node, fn in graph.functions.items():
        if type(fn).__name__ == "AccumulateGrad" or node not in level1:
            continue
        number = fn._sequence_nr()
        holders = [(end - start, name) for name, start, end in spans
                   if name and start <= number < end]  # fmt: skip
        assert holders, node
        innermost = min(holders)[1]
        assert graph.graph.nodes[node]["module"][-1][0] == innermost
    collapsed, _ = collapse_modules(graph.graph, level1)
    chain = [collapsed.nodes[f"module:{name}"]["label"] for name in ("h.0", "h.1", "h.2")]
    assert chain == ["h.0 · Block", "h.1 · Block", "h.2 · Block"]
    assert collapsed.has_edge("module:h.0", "module:h.1")


def test_search_finds_dotted_module_names():
    torch.manual_seed(0)
    model = Stack()
    with tagging_modules():
        out = model(torch.randn(2, 8)).sum()
    graph = extract_graph(out)
    found = graph.find("h.1.mlp")
    assert found
    assert all(any(p.startswith("h.1.mlp") for p, _ in graph.graph.nodes[n]["module"])
               for n in found)  # fmt: skip


def test_tagging_is_limited_to_its_thread_and_removed_afterwards():
    torch.manual_seed(0)
    model = nn.Linear(3, 3)
    tagged_elsewhere = []

    def other_thread():
        out = model(torch.randn(1, 3))
        tagged_elsewhere.append(dict(out.grad_fn.metadata))

    with tagging_modules():
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert tagged_elsewhere == [{}]
    assert not torch.nn.modules.module._global_forward_hooks
    assert not torch.nn.modules.module._global_forward_pre_hooks
