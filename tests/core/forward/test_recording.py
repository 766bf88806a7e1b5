"""Recording a forward, checked against torch itself: named_modules() and numel() for the module
tree, an independent pair of forward hooks for the shapes at every module boundary, an
independent TorchFunctionMode for the ops run in each module."""

import dataclasses

import pytest
import torch
from model_shapes import BertModel, GPT2LMHeadModel, T5Model
from torch import nn
from torch.overrides import TorchFunctionMode

from tensorviz.core.forward.recording import record_forward


def _models():
    torch.manual_seed(0)
    ids = torch.randint(0, 100, (2, 8))
    return [
        ("gpt2", GPT2LMHeadModel(), (ids,), {}),
        ("bert", BertModel(), (ids,), {"attention_mask": torch.ones(2, 8)}),
        ("t5", T5Model(), (ids, torch.randint(0, 100, (2, 5))), {}),
    ]


MODELS = _models()
IDS = [m[0] for m in MODELS]


@pytest.mark.parametrize(("name", "model", "args", "kwargs"), MODELS, ids=IDS)
def test_module_tree_and_parameter_counts_are_named_modules(name, model, args, kwargs):
    record = record_forward(model, args, kwargs)
    assert list(record.modules) == [n for n, _ in model.named_modules()]
    for qualified, module in model.named_modules():
        info = record.modules[qualified]
        assert info.class_name == type(module).__name__
        assert info.total_params == sum(p.numel() for p in module.parameters())
        assert info.own_params == sum(p.numel() for p in module.parameters(recurse=False))
        own = {n: tuple(p.shape) for n, p in module.named_parameters(recurse=False)}
        assert {p.name: p.shape for p in info.own_parameters if p.kind == "parameter"} == own
        for child_name, _child in module.named_children():
            child_qualified = f"{qualified}.{child_name}" if qualified else child_name
            if child_qualified in record.modules:  # (a shared child is listed once)
                assert record.modules[child_qualified].parent == qualified


def _reference_boundaries(model, args, kwargs):
    """(module name, input shapes, output shapes) per call, from plain forward hooks."""
    names = {id(m): n for n, m in model.named_modules()}
    calls, open_calls, handles = [], [], []

    def shapes(value):
        if isinstance(value, torch.Tensor):
            return [tuple(value.shape)]
        if dataclasses.is_dataclass(value):
            value = [getattr(value, f.name) for f in dataclasses.fields(value)]
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, (list, tuple)):
            return [s for item in value for s in shapes(item)]
        return []

    def before(module, hook_args, hook_kwargs):
        calls.append(
            [names[id(module)], shapes(list(hook_args) + list(hook_kwargs.values())), None]
        )
        open_calls.append(calls[-1])

    def after(module, _args, output):
        open_calls.pop()[2] = shapes(output)

    for module in model.modules():
        handles.append(module.register_forward_pre_hook(before, with_kwargs=True))
        handles.append(module.register_forward_hook(after))
    with torch.no_grad():
        model(*args, **kwargs)
    for handle in handles:
        handle.remove()
    return calls


@pytest.mark.parametrize(("name", "model", "args", "kwargs"), MODELS, ids=IDS)
def test_shapes_at_every_module_boundary_equal_forward_hooks(name, model, args, kwargs):
    model.eval()  # dropout off: both runs take the same path
    record = record_forward(model, args, kwargs)
    reference = _reference_boundaries(model, args, kwargs)
    ours = [
        [c.module, [t.shape for _, t in c.inputs], [t.shape for _, t in c.outputs]]
        for c in record.calls.values()
    ]
    assert ours == reference
    assert all(c.finished for c in record.calls.values())


class _ReferenceCount(TorchFunctionMode):
    """Counts, per innermost module, the torch calls that return a tensor."""

    def __init__(self, stack):
        super().__init__()
        self.stack, self.counts = stack, {}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        values = result if isinstance(result, (tuple, list)) else [result]
        if getattr(func, "__name__", "") != "__get__" and any(
            isinstance(v, torch.Tensor) for v in values
        ):
            key = self.stack[-1] if self.stack else None
            self.counts[key] = self.counts.get(key, 0) + 1
        return result


@pytest.mark.parametrize(("name", "model", "args", "kwargs"), MODELS, ids=IDS)
def test_op_counts_per_module_equal_a_reference_mode(name, model, args, kwargs):
    model.eval()
    record = record_forward(model, args, kwargs)
    ours = {}
    for node in record.nodes.values():
        if node.kind == "op":
            module = record.calls[node.call].module if node.call else None
            ours[module] = ours.get(module, 0) + 1
    stack, handles = [], []
    names = {id(m): n for n, m in model.named_modules()}

    def enter(module, _args):
        stack.append(names[id(module)])

    def leave(_module, _args, _output):
        stack.pop()

    for module in model.modules():
        handles.append(module.register_forward_pre_hook(enter))
        handles.append(module.register_forward_hook(leave))
    with _ReferenceCount(stack) as counting:
        model(*args, **kwargs)
    for handle in handles:
        handle.remove()
    assert ours == counting.counts


def test_edges_link_each_op_to_the_op_that_made_its_input():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
    record = record_forward(model, (torch.randn(2, 3),))
    nodes = record.nodes
    linear = next(n for n in nodes.values() if n.label == "linear")
    relu = next(n for n in nodes.values() if n.label == "relu")
    assert linear.parameters == ["0.weight", "0.bias"]
    into_relu = [e for e in record.edges if e.target == relu.id]
    assert len(into_relu) == 1 and into_relu[0].tensor.shape == (2, 4)
    assert nodes[into_relu[0].source].kind == "module_output"  # linear's module returned it
    chain = [e for e in record.edges if e.target == into_relu[0].source]
    assert [nodes[e.source].label for e in chain] == ["linear"]


def test_functional_code_control_flow_in_place_and_dict_outputs():
    weight = torch.randn(4, 4)

    def forward(x, steps):
        for _ in range(steps):  # control flow: recorded as it ran
            x = torch.tanh(x @ weight)
        if x.sum() > 1e9:
            x = x * 0
        x.add_(1)
        x[0] = 0.0
        return {"out": x, "pair": (x.sum(), x.mean())}

    record = record_forward(forward, (torch.randn(2, 4), 3))
    ops = [n for n in record.nodes.values() if n.kind == "op"]
    labels = [n.label for n in ops]
    assert labels.count("matmul") == 3 and labels.count("tanh") == 3
    assert [n.label for n in ops if n.in_place] == ["add_", "__setitem__"]
    setitem = next(n for n in ops if n.label == "__setitem__")
    add = next(n for n in ops if n.label == "add_")
    assert any(e.source == add.id and e.target == setitem.id for e in record.edges)
    outputs = [n.label for n in record.nodes.values() if n.kind == "output"]
    assert outputs == ["out", "pair[0]", "pair[1]"]
    out = next(n for n in record.nodes.values() if n.label == "out")
    assert [record.nodes[e.source].label for e in record.edges if e.target == out.id] == [
        "__setitem__"
    ]  # the written-in-place tensor comes from the last write
    assert any(n.kind == "tensor" for n in record.nodes.values())  # `weight`, from outside


def test_module_called_twice_has_two_calls_and_dataclass_outputs():
    torch.manual_seed(0)
    model = GPT2LMHeadModel(layers=2)
    shared = nn.Linear(4, 4)

    def twice(x):
        return shared(shared(x))

    record = record_forward(twice, (torch.randn(1, 4),), modules={"shared": shared})
    assert [c.number for c in record.calls.values()] == [1, 2]
    assert record.modules["shared"].calls == list(record.calls)
    gpt = record_forward(model, (torch.randint(0, 100, (1, 5)),))
    assert [n.label for n in gpt.nodes.values() if n.kind == "output"] == [
        "logits",
        "last_hidden_state",
    ]


def test_a_failing_forward_records_up_to_the_failing_op():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(5, 2), nn.Linear(2, 2))
    record = record_forward(model, (torch.randn(2, 3),))
    assert record.error is not None and record.error_type == "RuntimeError"
    with pytest.raises(RuntimeError) as raised:
        model(torch.randn(2, 3))
    assert record.error.torch_message == str(raised.value)
    failed = record.nodes[record.failed_node]
    assert (
        failed.failed and failed.label == "linear" and failed.parameters == ["2.weight", "2.bias"]
    )
    assert [n.label for n in record.nodes.values() if n.kind == "op"] == [
        "linear",
        "relu",
        "linear",
    ]
    assert record.calls[failed.call].module == "2" and not record.calls[failed.call].finished
    assert "3" not in {c.module for c in record.calls.values()}  # never reached
    assert record.error.kind != "unknown"  # explained by core/explain


def test_grad_fns_are_tagged_with_their_op_and_module():
    from tensorviz.core.forward.module_tags import FORWARD_KEY, MODULE_KEY

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
    record = record_forward(model, (torch.randn(2, 3),), keep_outputs=(kept := []))
    out = kept[0]
    tanh = next(n for n in record.nodes.values() if n.label == "tanh")
    assert out.grad_fn.metadata[FORWARD_KEY] == (record.serial, tanh.id)
    assert out.grad_fn.metadata[MODULE_KEY] == (("1", "Tanh"),)
    addmm = out.grad_fn.next_functions[0][0]
    assert addmm.metadata[MODULE_KEY] == (("0", "Linear"),)
