"""Recorded backward: torch's own visit order and gradients, accumulation, refusals explained."""

import pytest
import torch

from tensorviz.core.autograd.backward_steps import (
    StepThrough,
    edge_gradients,
    record_backward,
    why_grad_is_none,
)
from tensorviz.core.autograd.presets import PRESETS


def observed_order(graph, root):
    """The order torch fires prehooks registered by this test alone (an independent observer)."""
    order, handles = [], []
    for node, fn in graph.functions.items():
        handles.append(fn.register_prehook(lambda grads, node=node: order.append(node)))
    root.backward(retain_graph=True)
    for handle in handles:
        handle.remove()
    return order


@pytest.mark.parametrize("key", list(PRESETS))
def test_visit_order_is_torchs_own_order(key):
    built = PRESETS[key].build()
    graph = built.extract()
    record = record_backward(graph, built.root, retain_graph=True)
    assert not record.error
    for leaf in built.named.values():
        leaf.grad = None
    assert [v.node for v in record.visits] == observed_order(graph, built.root)


@pytest.mark.parametrize("key", list(PRESETS))
def test_leaf_gradients_equal_autograd_grad(key):
    reference = PRESETS[key].build()
    leaves = [t for t in reference.leaf_names()._keep if t.requires_grad]
    expected = torch.autograd.grad(reference.root, leaves)
    built = PRESETS[key].build()
    graph = built.extract()
    record = record_backward(graph, built.root)
    by_shape_and_value = {}
    for visit in record.visits:
        if visit.leaf_grad is not None:
            by_shape_and_value[visit.node] = visit.leaf_grad.values
    assert len(by_shape_and_value) == len(leaves)
    got = sorted(tuple(v.reshape(-1).round(4)) for v in by_shape_and_value.values())
    want = sorted(tuple(e.double().numpy().reshape(-1).round(4)) for e in expected)
    assert got == want


def test_square_plus_linear_gives_seven():
    built = PRESETS["square"].build()
    graph = built.extract()
    record = record_backward(graph, built.root)
    x = built.named["x"]
    assert x.grad.item() == 7.0
    leaf_visit = record.visits[-1]
    assert leaf_visit.op == "AccumulateGrad" and leaf_visit.leaf_grad.values == 7.0
    gradients = edge_gradients(graph, record.visits)
    ops = {n: graph.graph.nodes[n]["op"] for n in graph.graph.nodes}
    along = {
        ops[t]: g.values.item() for (s, t), g in gradients.items() if ops[s] == "AccumulateGrad"
    }
    assert along == {"PowBackward0": 4.0, "MulBackward0": 3.0}  # 2x and 3 at x = 2


def test_gradients_accumulate_across_backward_passes():
    built = PRESETS["accumulate"].build()
    graph = built.extract()
    seen = []
    for _ in range(3):
        record = record_backward(graph, built.root, retain_graph=True)
        seen.append(record.visits[-1].leaf_grad.values.item())
        assert seen[-1] == built.named["x"].grad.item()
    assert seen == [4.0, 8.0, 12.0]


def test_a_second_backward_on_a_freed_graph_is_explained_not_raised():
    built = PRESETS["square"].build()
    graph = built.extract()
    assert not record_backward(graph, built.root).error
    again = record_backward(graph, built.root)
    assert "second time" in again.error and "retain_graph" in again.error
    assert all(v.op != "AccumulateGrad" for v in again.visits)  # stopped at a freed node
    assert built.named["x"].grad.item() == 7.0


def test_non_scalar_backward_without_gradient_is_explained():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    from tensorviz.core.autograd.graph import extract_graph

    record = record_backward(extract_graph(y, {"x": x}), y)
    assert "gradient" in record.error and x.grad is None
    assert "gradient" in why_grad_is_none(x, reached=False, had_gradient=False)


def test_stepping_walks_the_record_both_ways():
    built = PRESETS["square"].build()
    stepper = StepThrough(record_backward(built.extract(), built.root))
    assert stepper.current() is None and not stepper.step_back()
    while stepper.step_forward():
        pass
    assert stepper.position == stepper.total == 4
    assert stepper.current().op == "AccumulateGrad"
    assert stepper.step_back() and stepper.current().op == "PowBackward0"


def test_why_grad_is_none():
    assert "requires_grad is False" in why_grad_is_none(torch.ones(1), reached=False)
    x = torch.ones(1, requires_grad=True)
    assert "not a leaf" in why_grad_is_none(x * 2, reached=True)
    assert "never reached" in why_grad_is_none(x, reached=False)


def test_big_gradients_keep_their_shape_and_a_bounded_copy():
    from tensorviz.core.autograd.backward_steps import KEPT_VALUES, GradSummary

    big = GradSummary.of(torch.ones(100, 100))
    assert big.shape == (100, 100) and big.values.size == KEPT_VALUES
    small = GradSummary.of(torch.arange(6.0).reshape(2, 3))
    assert small.values.shape == (2, 3) and small.values[1, 2] == 5.0
    assert GradSummary.of(torch.tensor([3 + 4j])).values.tolist() == [5.0]
