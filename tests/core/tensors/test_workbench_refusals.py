"""Workbench actions that torch refuses or that we refuse before torch runs (bad parameters, writes
into views that cannot take them, sizes over the budget, the meta device): each one explained,
with the workspace left exactly as it was; and in-place writes that reach every view."""

import pytest
import torch
from workbench_workspace import assert_unchanged, snapshot, workspace

from tensorviz.core.tensors.creation import CreationOptions
from tensorviz.core.tensors.workbench_actions import (
    ActionError,
    apply_operation,
    create_tensor,
    write_numpy,
)
from tensorviz.core.tensors.workspace import Provenance, Workspace


@pytest.mark.parametrize(
    "op, source, params, kind",
    [
        ("view", "x_t", {"shape": "-1"}, "view_non_contiguous"),
        ("matmul", "m", {"other": "m"}, "matmul_shape"),
        ("add", "x", {"other": "n"}, "broadcast"),
        ("index", "x", {"index": "5"}, None),
        ("view", "x", {"shape": "5, 5"}, None),
        ("view", "x", {"shape": "6, a"}, "bad_parameter"),
        ("index", "x", {"index": "__import__('os')"}, "bad_parameter"),
        ("gather", "m", {"dim": "1", "index": "nope"}, "bad_parameter"),
    ],
)
def test_errors_are_explained_and_leave_the_workspace_unchanged(op, source, params, kind):
    ws = workspace()
    apply_operation(ws, "transpose", "x", {"dim0": "0", "dim1": "2"}, name="x_t")
    before = snapshot(ws)
    with pytest.raises(ActionError) as caught:
        apply_operation(ws, op, source, params)
    explained = caught.value.explained
    if kind:
        assert explained.kind == kind
    assert explained.explanation and explained.fix
    assert_unchanged(ws, before)


def test_view_error_shows_torchs_own_message():
    ws = workspace()
    apply_operation(ws, "transpose", "x", {"dim0": "0", "dim1": "1"}, name="x_t")
    with pytest.raises(ActionError) as caught:
        apply_operation(ws, "view", "x_t", {"shape": "-1"})
    try:
        ws.tensor("x_t").view(-1)
    except RuntimeError as direct:
        assert caught.value.explained.torch_message == str(direct)
    assert "x_t.reshape(-1)" in caught.value.explained.fix  # the fix names the user's tensor


def test_in_place_writes_reach_every_view_and_undo_restores():
    ws = workspace()
    apply_operation(ws, "transpose", "x", {"dim0": "0", "dim1": "1"}, name="x_t")
    before = ws.tensor("x").clone()
    outcome = apply_operation(ws, "index_assign", "x_t", {"index": "0", "value": "-1"})
    expected = before.clone()
    expected.transpose(0, 1)[0] = -1
    assert torch.equal(ws.tensor("x"), expected)
    assert set(outcome.changed) == {"x", "x_t"} and outcome.verdicts["x_t"].kind == "in-place"
    ws.undo()
    assert torch.equal(ws.tensor("x"), before)


def test_in_place_on_leaf_requiring_grad_is_refused_and_explained():
    ws = workspace()
    create_tensor(ws, "ones", {"shape": "3"}, CreationOptions(requires_grad=True), name="w")
    before = snapshot(ws)
    with pytest.raises(ActionError) as caught:
        apply_operation(ws, "add_", "w", {"other": "1"})
    assert caught.value.explained.kind == "inplace_leaf"
    assert_unchanged(ws, before)


def test_writing_into_an_expanded_tensor_is_refused_and_explained():
    ws = workspace()
    apply_operation(ws, "expand", "col", {"shape": "3, 4"}, name="wide")
    before = snapshot(ws)
    with pytest.raises(ActionError) as caught:
        apply_operation(ws, "add_", "wide", {"other": "1"})
    assert caught.value.explained.kind == "expanded_write"
    assert_unchanged(ws, before)


@pytest.mark.parametrize(
    "mode, reaches", [("from_numpy (shares memory)", True), ("tensor (copies)", False)]
)
def test_numpy_write_shows_sharing_or_copy(mode, reaches):
    ws = Workspace()
    create_tensor(
        ws,
        "from NumPy",
        {"shape": "2, 3", "fill": "arange", "mode": mode},
        CreationOptions(),
        name="a",
    )
    outcome = write_numpy(ws, "a", "0, 0", "99")
    assert ws.entry("a").numpy_array[0, 0] == 99
    assert (ws.tensor("a")[0, 0].item() == 99) == reaches
    assert bool(outcome.changed) == reaches
    ws.undo()
    assert ws.entry("a").numpy_array[0, 0] == 0


def test_huge_creation_is_refused_with_the_bytes_it_needs():
    ws = Workspace()
    with pytest.raises(ActionError) as caught:
        create_tensor(ws, "zeros", {"shape": "100000, 100000"}, CreationOptions())
    assert "needs 37.3 GB" in caught.value.explained.explanation
    assert len(ws) == 0


def test_huge_result_is_refused_before_torch_allocates_but_views_are_free():
    ws = workspace()
    with pytest.raises(ActionError) as caught:
        apply_operation(ws, "repeat", "x", {"repeats": "100000, 100000, 1"})
    assert "needs" in caught.value.explained.explanation
    out = apply_operation(ws, "expand", "col", {"shape": "3, 10000000000"})  # stride 0: no bytes
    assert ws.tensor(out.created[0]).stride() == (1, 0)


def test_operation_with_no_result_tensors_is_refused():
    ws = Workspace()
    ws.add_tensor("e", torch.empty(0, 3), Provenance("empty", ""))
    with pytest.raises(ActionError) as caught:
        apply_operation(ws, "unbind", "e", {"dim": "0"})
    assert "no tensors" in caught.value.explained.explanation
    assert ws.names() == ["e"]


def test_integer_tensor_with_requires_grad_is_explained():
    ws = Workspace()
    with pytest.raises(ActionError) as caught:
        create_tensor(ws, "tensor", {"data": "[1, 2]"}, CreationOptions(requires_grad=True))
    assert caught.value.explained.kind == "integer_requires_grad"


def test_meta_device_is_refused():
    ws = workspace()
    with pytest.raises(ActionError):
        apply_operation(ws, "to_device", "x", {"device": "meta"})
