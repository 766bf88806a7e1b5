"""A failed in-place write changes nothing, whatever its size: torch checks the bounds of index
tensors only while it writes, so without a snapshot (memory beyond the undo budget) the
Workbench must refuse the write before it starts. The issue's case, zeros(540_000_000) then
t[[0, 1, 2, 540000010]] = 7, is built with a patched undo budget and a smaller tensor; the
mechanism — no snapshot, torch writing element by element — is the same."""

import numpy as np
import pytest
import torch

from tensorviz.core.tensors import memory_budget
from tensorviz.core.tensors import workspace as workspace_module
from tensorviz.core.tensors.creation import CreationOptions
from tensorviz.core.tensors.memory_budget import human_bytes
from tensorviz.core.tensors.workbench_actions import (
    ActionError,
    apply_operation,
    create_tensor,
    prepare_operation,
    write_numpy,
)
from tensorviz.core.tensors.workspace import Provenance, Workspace

N = 1000


@pytest.fixture
def no_undo(monkeypatch):
    """An undo budget smaller than every tensor here: no write can be snapshotted."""
    monkeypatch.setattr(workspace_module, "UNDO_MAX_BYTES", 16)


def workspace_of(**tensors) -> Workspace:
    ws = Workspace()
    for name, tensor in tensors.items():
        ws.add_tensor(name, tensor, Provenance("test", name))
    return ws


def torch_message(write) -> str:
    """What torch itself says for the same write on a copy."""
    with pytest.raises(Exception) as raised:  # noqa: PT011 — whatever torch raises
        write()
    return str(raised.value)


def test_torch_itself_writes_part_way_before_it_raises():
    """Why the check is needed: the issue's input, on plain torch."""
    t = torch.zeros(N)
    with pytest.raises(IndexError):
        t[[0, 1, 2, N + 10]] = 7
    assert torch.equal(t[:3], torch.full((3,), 7.0))


def test_the_issues_write_leaves_the_tensor_unchanged_without_a_snapshot(no_undo):
    ws = workspace_of(t=torch.zeros(N))
    assert not ws.write_is_undoable("t")
    with pytest.raises(ActionError) as refused:
        apply_operation(ws, "index_assign", "t", {"index": f"[0, 1, 2, {N + 10}]", "value": "7"})
    expected = torch_message(lambda: torch.zeros(N).__setitem__([0, 1, 2, N + 10], 7))
    assert refused.value.explained.torch_message == expected
    assert torch.equal(ws.tensor("t"), torch.zeros(N)) and ws.entry("t").version == 0


def test_the_same_write_with_a_snapshot_never_starts_either():
    ws = workspace_of(t=torch.zeros(N))
    assert ws.write_is_undoable("t")
    steps = ws.undo_description()
    with pytest.raises(ActionError):
        apply_operation(ws, "index_assign", "t", {"index": f"[0, {N}]", "value": "7"})
    assert torch.equal(ws.tensor("t"), torch.zeros(N)) and ws.undo_description() == steps


def test_a_write_through_a_view_is_checked_against_the_views_shape(no_undo):
    ws = workspace_of(t=torch.zeros(4, 250))
    ws.add_tensor("v", ws.tensor("t")[1:3], Provenance("index", "t[1:3]", ("t",)))
    with pytest.raises(ActionError):
        apply_operation(ws, "index_assign", "v", {"index": "[0, 2]", "value": "1"})
    assert torch.equal(ws.tensor("t"), torch.zeros(4, 250))


def test_scatter_out_of_bounds_changes_nothing(no_undo):
    index = torch.tensor([[0, 1, 2, 5]])
    ws = workspace_of(t=torch.zeros(3, 4), index=index)
    plain = torch.zeros(3, 4)
    expected = torch_message(lambda: plain.scatter_(0, index, 1))
    assert plain.sum() > 0  # torch wrote before it raised
    with pytest.raises(ActionError) as refused:
        apply_operation(ws, "scatter_", "t", {"dim": "0", "index": "index", "value": "1"})
    assert refused.value.explained.torch_message == expected
    assert torch.equal(ws.tensor("t"), torch.zeros(3, 4))


def test_valid_writes_still_happen_and_equal_torchs(no_undo):
    index = torch.tensor([[0, 1, 2, 0]])
    ws = workspace_of(t=torch.zeros(3, 4), m=torch.arange(12.0).reshape(3, 4), index=index)
    apply_operation(ws, "scatter_", "t", {"dim": "0", "index": "index", "value": "1"})
    assert torch.equal(ws.tensor("t"), torch.zeros(3, 4).scatter_(0, index, 1))
    apply_operation(ws, "index_assign", "m", {"index": "m > 5", "value": "0"})
    expected = torch.arange(12.0).reshape(3, 4)
    expected[expected > 5] = 0
    assert torch.equal(ws.tensor("m"), expected)
    apply_operation(ws, "index_assign", "m", {"index": "[0, -1], 1:3", "value": "9"})
    expected[[0, -1], 1:3] = 9
    assert torch.equal(ws.tensor("m"), expected)


@pytest.mark.parametrize(
    ("op_name", "tensor", "params"),
    [
        ("add_", torch.zeros(N, dtype=torch.long), {"other": "0.5"}),  # int ← float
        ("add_", torch.zeros(N, requires_grad=True), {"other": "1"}),  # a leaf that needs grad
        ("mul_", torch.zeros(1).expand(N), {"other": "2"}),  # stride 0: one element many times
        ("fill_", torch.zeros(N), {"value": "1j"}),  # complex into float
        ("index_assign", torch.zeros(N), {"index": str(N), "value": "1"}),  # a plain int
        ("index_assign", torch.zeros(4, 250), {"index": "[0, 1]", "value": "t"}),  # value shape
    ],
)
def test_refusals_torch_makes_before_writing_change_nothing(no_undo, op_name, tensor, params):
    ws = workspace_of(t=tensor)
    before = tensor.detach().clone()
    with pytest.raises(ActionError):
        apply_operation(ws, op_name, "t", params)
    assert torch.equal(ws.tensor("t").detach(), before)


def test_a_numpy_write_out_of_bounds_changes_nothing(no_undo):
    ws = Workspace()
    options = CreationOptions()
    raw = {"shape": str(N), "mode": "from_numpy (shares memory)"}
    create_tensor(ws, "from NumPy", raw, options, name="a")
    before = ws.entry("a").numpy_array.copy()
    with pytest.raises(ActionError):
        write_numpy(ws, "a", f"[0, 1, 2, {N + 10}]", "7")
    assert np.array_equal(ws.entry("a").numpy_array, before)


# --- what cannot be checked beforehand waits for a yes ----------------------------------------


def test_an_uncheckable_write_that_cannot_be_undone_asks_first(no_undo, monkeypatch):
    ws = workspace_of(t=torch.zeros(4, 1000))
    # checking [0, 1, 2, 3] reads 4 rows of 1,000 bools: more than this budget spares
    monkeypatch.setattr(memory_budget, "available_memory_bytes", lambda: 2000)
    outcome = prepare_operation(ws, "index_assign", "t", {"index": "[0, 1, 2, 3]", "value": "7"})
    outcome = outcome.run()
    assert outcome.question and "Write anyway?" in outcome.question
    assert f"to check them needs {human_bytes(4 * 1000)}" in outcome.question  # 4 × 1,000 bools
    assert torch.equal(ws.tensor("t"), torch.zeros(4, 1000)) and not outcome.changed
    done = outcome.proceed()
    assert done.changed == ("t",) and torch.equal(ws.tensor("t"), torch.full((4, 1000), 7.0))


def test_an_uncheckable_write_that_can_be_undone_just_runs(monkeypatch):
    ws = workspace_of(t=torch.zeros(4, 1000))
    monkeypatch.setattr(memory_budget, "available_memory_bytes", lambda: 2000)
    outcome = apply_operation(ws, "index_assign", "t", {"index": "[0, 3]", "value": "7"})
    assert not outcome.question and outcome.changed == ("t",)  # undoable: nothing to ask
    written = ws.tensor("t").clone()
    with pytest.raises(ActionError):  # torch writes row 0, raises on 9; the snapshot undoes it
        apply_operation(ws, "index_assign", "t", {"index": "[1, 9]", "value": "5"})
    assert torch.equal(ws.tensor("t"), written)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA device here")
def test_a_cuda_write_out_of_bounds_is_refused_without_a_device_assert(no_undo):
    """The check runs on a CPU stand-in: on CUDA a bounds failure is a device-side assert."""
    ws = workspace_of(t=torch.zeros(N, device="cuda"))
    with pytest.raises(ActionError) as refused:
        apply_operation(ws, "index_assign", "t", {"index": f"[0, 1, 2, {N + 10}]", "value": "7"})
    assert "out of bounds" in refused.value.explained.torch_message
    assert torch.equal(ws.tensor("t").cpu(), torch.zeros(N))  # and CUDA still works
