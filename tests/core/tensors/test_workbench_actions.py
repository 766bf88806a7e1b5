"""Every Workbench operation against the same torch call made directly: same values, same
strides, and the same view/copy verdict as comparing the direct call's storages."""

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from workbench_workspace import assert_unchanged, shares, snapshot, workspace

from tensorviz.core.tensors.creation import CreationOptions
from tensorviz.core.tensors.workbench_actions import (
    ActionError,
    apply_operation,
    create_tensor,
)
from tensorviz.core.tensors.workspace import Provenance, Workspace

CASES = [
    ("view", "x", {"shape": "6, -1"}, lambda t: t["x"].view(6, -1)),
    ("reshape", "x", {"shape": "4, 6"}, lambda t: t["x"].reshape(4, 6)),
    ("flatten", "x", {"start_dim": "1", "end_dim": "-1"}, lambda t: t["x"].flatten(1, -1)),
    ("squeeze", "col", {"dim": "1"}, lambda t: t["col"].squeeze(1)),
    ("squeeze", "col", {"dim": ""}, lambda t: t["col"].squeeze()),
    ("unsqueeze", "x", {"dim": "0"}, lambda t: t["x"].unsqueeze(0)),
    ("transpose", "x", {"dim0": "0", "dim1": "2"}, lambda t: t["x"].transpose(0, 2)),
    ("permute", "x", {"dims": "2, 0, 1"}, lambda t: t["x"].permute(2, 0, 1)),
    ("t", "m", {}, lambda t: t["m"].t()),
    ("T", "m", {}, lambda t: t["m"].T),
    ("contiguous", "m", {}, lambda t: t["m"].contiguous()),
    ("expand", "col", {"shape": "3, 5"}, lambda t: t["col"].expand(3, 5)),
    (
        "broadcast_to",
        "col",
        {"shape": "2, 3, 4"},
        lambda t: torch.broadcast_to(t["col"], (2, 3, 4)),
    ),
    ("repeat", "col", {"repeats": "1, 5"}, lambda t: t["col"].repeat(1, 5)),
    ("clone", "x", {}, lambda t: t["x"].clone()),
    ("detach", "x", {}, lambda t: t["x"].detach()),
    ("narrow", "x", {"dim": "2", "start": "1", "length": "2"}, lambda t: t["x"].narrow(2, 1, 2)),
    ("index", "x", {"index": "0, 1"}, lambda t: t["x"][0, 1]),
    ("index", "x", {"index": "x[:, 0:2]"}, lambda t: t["x"][:, 0:2]),
    ("index", "x", {"index": "..., 0"}, lambda t: t["x"][..., 0]),
    ("index", "x", {"index": "::2, None, 1:"}, lambda t: t["x"][::2, None, 1:]),
    ("index", "x", {"index": "x > 10"}, lambda t: t["x"][t["x"] > 10]),
    (
        "index_select",
        "x",
        {"dim": "2", "index": "0, 3"},
        lambda t: t["x"].index_select(2, torch.tensor([0, 3])),
    ),
    ("gather", "m", {"dim": "1", "index": "idx"}, lambda t: t["m"].gather(1, t["idx"])),
    (
        "scatter",
        "m",
        {"dim": "1", "index": "idx", "value": "-1"},
        lambda t: t["m"].scatter(1, t["idx"], -1),
    ),
    (
        "one_hot",
        "labels",
        {"num_classes": "10"},
        lambda t: torch.zeros(4, 10).scatter_(1, t["labels"].unsqueeze(1), 1),
    ),
    ("cat", None, {"tensors": "m, m", "dim": "0"}, lambda t: torch.cat([t["m"], t["m"]], dim=0)),
    ("stack", None, {"tensors": "m, m", "dim": "0"}, lambda t: torch.stack([t["m"], t["m"]])),
    ("add", "x", {"other": "col"}, lambda t: t["x"] + t["col"]),
    ("sub", "x", {"other": "2"}, lambda t: t["x"] - 2),
    ("mul", "m", {"other": "m"}, lambda t: t["m"] * t["m"]),
    ("div", "m", {"other": "4"}, lambda t: t["m"] / 4),
    ("pow", "m", {"other": "2"}, lambda t: t["m"] ** 2),
    ("relu", "m", {}, lambda t: torch.relu(t["m"] - 5)),
    ("sigmoid", "m", {}, lambda t: torch.sigmoid(t["m"])),
    ("tanh", "m", {}, lambda t: torch.tanh(t["m"])),
    ("matmul", "m", {"other": "n"}, lambda t: t["m"] @ t["n"]),
    ("mm", "m", {"other": "n"}, lambda t: torch.mm(t["m"], t["n"])),
    ("bmm", "x", {"other": "b"}, lambda t: torch.bmm(t["x"], t["b"])),
    ("sum", "x", {"dim": "0", "keepdim": "False"}, lambda t: t["x"].sum(dim=0)),
    ("sum", "x", {"dim": "", "keepdim": "False"}, lambda t: t["x"].sum()),
    ("mean", "x", {"dim": "2", "keepdim": "True"}, lambda t: t["x"].mean(dim=2, keepdim=True)),
    ("max", "x", {"dim": "", "keepdim": "False"}, lambda t: t["x"].max()),
    ("min", "x", {"dim": "", "keepdim": "False"}, lambda t: t["x"].min()),
    ("argmax", "x", {"dim": "1", "keepdim": "False"}, lambda t: t["x"].argmax(dim=1)),
    ("std", "x", {"dim": "", "keepdim": "False"}, lambda t: t["x"].std()),
    ("float", "labels", {}, lambda t: t["labels"].float()),
    ("long", "x", {}, lambda t: t["x"].long()),
    ("to_dtype", "x", {"dtype": "float64"}, lambda t: t["x"].to(torch.float64)),
    ("to_dtype", "x", {"dtype": "float32"}, lambda t: t["x"].to(torch.float32)),
    ("to_device", "x", {"device": "cpu"}, lambda t: t["x"].to("cpu")),
]


@pytest.mark.parametrize("op, source, params, direct", CASES)
def test_operation_equals_direct_torch_call(op, source, params, direct):
    if op == "relu":
        params, direct = {}, (lambda t: torch.relu(t["m"]))
    ws = workspace()
    tensors = ws.tensors()
    outcome = apply_operation(ws, op, source, params)
    expected = direct(tensors)
    (name,) = outcome.created
    result = ws.tensor(name)
    assert result.shape == expected.shape and result.dtype == expected.dtype
    assert torch.equal(result, expected)
    assert result.stride() == expected.stride()
    expected_view = source is not None and shares(expected, tensors[source])
    assert (outcome.verdicts[name].kind == "view") == expected_view
    assert ws.entry(name).provenance.op == op


@pytest.mark.parametrize(
    "op, params, direct",
    [
        ("split", {"split_size": "1", "dim": "1"}, lambda x: x.split(1, 1)),
        ("split", {"split_size": "[1, 2]", "dim": "1"}, lambda x: x.split([1, 2], 1)),
        ("chunk", {"chunks": "3", "dim": "2"}, lambda x: x.chunk(3, 2)),
        ("unbind", {"dim": "0"}, lambda x: x.unbind(0)),
        ("max", {"dim": "1", "keepdim": "False"}, lambda x: tuple(x.max(dim=1))),
    ],
)
def test_multi_output_operations_add_every_part(op, params, direct):
    ws = workspace()
    outcome = apply_operation(ws, op, "x", params)
    expected = direct(ws.tensor("x"))
    assert len(outcome.created) == len(expected)
    for name, part in zip(outcome.created, expected, strict=True):
        assert torch.equal(ws.tensor(name), part) and ws.tensor(name).stride() == part.stride()
        assert (outcome.verdicts[name].kind == "view") == shares(part, ws.tensor("x"))
    ws.undo()  # one step removes all parts
    assert not any(name in ws for name in outcome.created)


def test_created_names_follow_letters_and_results_name_their_origin():
    ws = Workspace()
    out = create_tensor(ws, "zeros", {"shape": "2, 3"}, CreationOptions())
    assert out.created == ("x",) and out.code == "x = torch.zeros(2, 3)"
    out = apply_operation(ws, "transpose", "x", {"dim0": "0", "dim1": "1"})
    assert out.created == ("x_transpose",) and out.code == "x_transpose = x.transpose(0, 1)"


UNARY = [
    "view",
    "reshape",
    "transpose",
    "permute",
    "t",
    "contiguous",
    "expand",
    "repeat",
    "unsqueeze",
    "squeeze",
    "flatten",
    "sum",
    "relu",
    "clone",
    "index",
    "narrow",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    steps=st.lists(
        st.tuples(st.sampled_from(UNARY), st.lists(st.integers(-4, 5), max_size=4)),
        min_size=1,
        max_size=5,
    ),
)
def test_random_chains_match_torch_or_surface_its_error(shape, steps):
    """Random ops with random (often wrong) parameters: our result equals torch's, or torch's
    error is surfaced as an explanation and nothing changes — never a crash."""
    ws = Workspace()
    numel = 1
    for s in shape:
        numel *= s
    ws.add_tensor("x", torch.arange(float(numel)).reshape(shape), Provenance("arange", ""))
    current = "x"
    for op, numbers in steps:
        text = ", ".join(map(str, numbers))
        first = str(numbers[0]) if numbers else "0"
        second = str(numbers[1]) if len(numbers) > 1 else "1"
        params = {
            "shape": text,
            "dims": text,
            "repeats": text or "1",
            "dim": first,
            "dim0": first,
            "dim1": second,
            "start_dim": first,
            "end_dim": second,
            "index": text or "0",
            "start": first,
            "length": second,
            "keepdim": "False",
        }
        before = snapshot(ws)
        try:
            outcome = apply_operation(ws, op, current, params)
        except ActionError as error:
            assert error.explained.title
            assert_unchanged(ws, before)
            continue
        current = outcome.created[0]
        assert isinstance(ws.tensor(current), torch.Tensor)


def test_code_line_reproduces_the_result():
    """The PyTorch line we show, run by Python itself, gives the same tensor."""
    for op, source, params, _direct in CASES:
        ws = workspace()
        tensors = ws.tensors()
        outcome = apply_operation(ws, op, source, params)
        line = outcome.code.split(" = ", 1)[1]
        expected = eval(line, {"torch": torch}, dict(tensors))  # test-only oracle
        result = ws.tensor(outcome.created[0])
        assert torch.equal(result, expected) and result.shape == expected.shape, line


@pytest.mark.parametrize("op", ["sum", "mean", "argmax", "std"])
def test_keepdim_is_honoured_without_dim(op):
    ws = workspace()
    outcome = apply_operation(ws, op, "x", {"dim": "", "keepdim": "True"})
    expected = getattr(ws.tensor("x"), op)(dim=None, keepdim=True)
    assert ws.tensor(outcome.created[0]).shape == expected.shape == (1, 1, 1)


def test_max_without_dim_shows_the_call_that_ran():
    ws = workspace()
    outcome = apply_operation(ws, "max", "x", {"dim": "", "keepdim": "False"})
    assert outcome.code.endswith("= x.max()")


def test_view_of_an_empty_tensor_is_a_view():
    ws = Workspace()
    ws.add_tensor("e", torch.empty(0, 3), Provenance("empty", ""))
    outcome = apply_operation(ws, "view", "e", {"shape": "3, 0"})
    assert outcome.verdicts[outcome.created[0]].kind == "view"


def test_torch_warnings_become_notes_on_the_result():
    ws = workspace()
    outcome = apply_operation(ws, "T", "x", {})  # .T on 3-D is deprecated: torch warns
    assert any("torch warns" in note for note in ws.entry(outcome.created[0]).notes)
