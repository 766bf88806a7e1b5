"""Each backward node's local derivative, from its own saved tensors, against torch.autograd.grad:
what our rule sends to an input for an arriving gradient is what torch computes."""

import pytest
import torch
import torch.nn.functional as F  # noqa: N812

from tensorviz.core.autograd.derivative_rules import RULES, rules_of
from tensorviz.core.autograd.graph import extract_graph
from tensorviz.core.autograd.local_derivatives import input_symbols, node_derivatives


def _leaf(*shape, positive=False):
    values = torch.rand(*shape) + 0.5 if positive else torch.randn(*shape)
    return values.double().requires_grad_()


def _cases():
    torch.manual_seed(0)
    a, b = _leaf(3, 4), _leaf(3, 4)
    p, q = _leaf(3, 4, positive=True), _leaf(3, 4, positive=True)
    col, row = _leaf(3, 1), _leaf(4)
    m1, m2, bias = _leaf(2, 3), _leaf(3, 5), _leaf(5)
    return {
        "pow": (lambda: a**3, [a]),
        "pow tensor": (lambda: p**q, [p, q]),
        "scalar pow": (lambda: 2**a, [a]),
        "mul": (lambda: a * b, [a, b]),
        "mul broadcast": (lambda: col * row, [col, row]),
        "mul scalar": (lambda: 3 * a, [a]),
        "div": (lambda: a / q, [a, q]),
        "add": (lambda: a + b, [a, b]),
        "add alpha": (lambda: torch.add(a, b, alpha=2.5), [a, b]),
        "sub broadcast": (lambda: col - row, [col, row]),
        "rsub": (lambda: 1 - a, [a]),
        "neg": (lambda: -a, [a]),
        "exp": (lambda: a.exp(), [a]),
        "log": (lambda: p.log(), [p]),
        "sin": (lambda: a.sin(), [a]),
        "cos": (lambda: a.cos(), [a]),
        "tanh": (lambda: a.tanh(), [a]),
        "sigmoid": (lambda: a.sigmoid(), [a]),
        "relu": (lambda: a.relu(), [a]),
        "sqrt": (lambda: p.sqrt(), [p]),
        "abs": (lambda: a.abs(), [a]),
        "clone": (lambda: a.clone(), [a]),
        "sum": (lambda: a.sum(), [a]),
        "sum dim": (lambda: a.sum(1), [a]),
        "sum keepdim": (lambda: a.sum(0, keepdim=True), [a]),
        "mean": (lambda: a.mean(), [a]),
        "mean dim": (lambda: a.mean(dim=1), [a]),
        "mm": (lambda: m1 @ m2, [m1, m2]),
        "linear": (lambda: F.linear(m1, m2.t().detach().requires_grad_(), bias), None),
        "addmm": (lambda: torch.addmm(bias, m1, m2, beta=0.5, alpha=2.0), [bias, m1, m2]),
        "mse": (lambda: F.mse_loss(a, b.detach()), [a]),
        "mse sum": (lambda: F.mse_loss(a, b.detach(), reduction="sum"), [a]),
        "view": (lambda: a.view(12), [a]),
        "t": (lambda: m1.t(), [m1]),
        "expand": (lambda: col.expand(3, 4), [col]),
        "softmax": (lambda: a.softmax(dim=1), [a]),
    }


CASES = _cases()


@pytest.mark.parametrize("case", list(CASES))
def test_each_rule_sends_what_torch_autograd_grad_computes(case):
    forward, inputs = CASES[case]
    out = forward()
    fn = out.grad_fn
    rules = rules_of(fn, ["a", "b", "c"])
    assert rules, f"{type(fn).__name__} has no rule"
    arriving = torch.randn_like(out)
    for rule in rules:
        source, _ = fn.next_functions[rule.input_nr]
        target = source.variable if type(source).__name__ == "AccumulateGrad" else None
        if target is None:  # an input made by another node (linear's weight.t()): its output
            continue
        (expected,) = torch.autograd.grad(out, target, arriving, retain_graph=True)
        assert torch.allclose(rule.vjp(arriving), expected), (case, rule.input_nr)
    if inputs is not None:
        assert {r.input_nr for r in rules} == {
            i for i, (n, _) in enumerate(fn.next_functions) if n is not None
        }


@pytest.mark.parametrize(
    "case", [c for c in CASES if c not in {"mul broadcast", "sub broadcast", "rsub"}]
)
def test_an_element_wise_local_derivative_is_torchs_gradient_of_ones(case):
    forward, _ = CASES[case]
    out = forward()
    for rule in rules_of(out.grad_fn, ["a", "b"]):
        if rule.local is None:
            continue
        source, _ = out.grad_fn.next_functions[rule.input_nr]
        (expected,) = torch.autograd.grad(
            out, source.variable, torch.ones_like(out), retain_graph=True
        )
        assert torch.allclose(rule.local.to(expected.dtype).expand_as(expected), expected), case


def test_the_tutorials_square_reads_2x_is_4_at_x_2():
    x = torch.tensor(2.0, requires_grad=True)
    y = x**2
    graph = extract_graph(y, {"x": x}, ["y"])
    node = graph.node_of_fn[id(y.grad_fn)]
    explained = node_derivatives(graph, node)
    (derivative,) = explained.derivatives
    (torch_says,) = torch.autograd.grad(y, x, retain_graph=True)
    assert derivative.value.values.item() == torch_says.item() == 4.0
    assert derivative.text() == "∂(x²)/∂x = 2·x = 4 at x = 2"


def test_a_product_names_the_other_factor_and_a_constant_is_c():
    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(5.0, requires_grad=True)
    graph = extract_graph([a * b, 4 * a], {"a": a, "b": b})
    texts = {}
    for root in graph.roots:
        (node,) = graph.graph.predecessors(root)
        texts[root] = [d.text() for d in node_derivatives(graph, node).derivatives]
        assert input_symbols(graph, node)[0] == "a"
    assert texts["root0"] == ["∂(a·b)/∂a = b = 5", "∂(a·b)/∂b = a = 3"]
    assert texts["root1"] == ["∂(a·c)/∂a = c = 4"]  # 4 * a: torch saved the constant as other


def test_freed_saved_tensors_and_unknown_ops_say_so():
    x = torch.tensor(2.0, requires_grad=True)
    y = x**2
    z = torch.special.erf(x)
    graph = extract_graph([y, z], {"x": x})
    pow_node, erf_node = (next(iter(graph.graph.predecessors(r))) for r in graph.roots)
    y.backward()  # without retain_graph: torch frees _saved_self
    assert node_derivatives(graph, pow_node).status == "freed"
    assert node_derivatives(graph, erf_node).status == "unknown"
    assert "ErfBackward0" not in RULES
