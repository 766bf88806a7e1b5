"""Undo keeps copies of written memory within a budget: the oldest steps are forgotten first, and
a write too large to copy is done without undo (saying so) rather than exhausting memory."""

import pytest
import torch

from tensorviz.core.tensors import workspace as workspace_module
from tensorviz.core.tensors.workbench_actions import apply_operation
from tensorviz.core.tensors.workspace import Provenance, Workspace

FLOATS = 100  # each tensor below holds 400 bytes


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(workspace_module, "UNDO_MAX_BYTES", 1000)


def workspace_with(*names: str) -> Workspace:
    ws = Workspace()
    for name in names:
        ws.add_tensor(name, torch.zeros(FLOATS), Provenance("zeros", f"torch.zeros({FLOATS})"))
    return ws


def steps(ws: Workspace) -> list[str]:
    found = []
    while ws.can_undo():
        found.append(ws.undo())
    return found


def test_the_oldest_snapshots_are_forgotten_beyond_the_budget(small_budget):
    ws = workspace_with("w")
    w = ws.tensor("w")
    for value in (1, 2, 3):
        ws.write_in_place("w", lambda v=value: w.fill_(v), f"w.fill_({value})")
    # three 400-byte copies exceed 1000 bytes: the first write (and the creation) are forgotten
    assert ws.undo() == "w.fill_(3)" and torch.equal(w, torch.full((FLOATS,), 2.0))
    assert ws.undo() == "w.fill_(2)" and torch.equal(w, torch.full((FLOATS,), 1.0))
    assert not ws.can_undo()


def test_a_write_too_large_to_copy_is_done_without_undo_and_says_so(monkeypatch):
    monkeypatch.setattr(workspace_module, "UNDO_MAX_BYTES", 100)
    ws = workspace_with("w")
    notes: list[str] = []
    changed = ws.write_in_place("w", lambda: ws.tensor("w").add_(1), "w.add_(1)", notes=notes)
    assert changed == ["w"] and torch.equal(ws.tensor("w"), torch.ones(FLOATS))
    assert not ws.can_undo() and "Not undoable" in notes[0] and "400 bytes" in notes[0]


def test_deleted_tensors_count_against_the_budget(small_budget):
    ws = workspace_with("a", "b", "c")
    for name in ("a", "b", "c"):
        ws.delete(name)
    assert steps(ws) == ["delete c", "delete b"]  # "delete a" was forgotten: 1200 > 1000
    assert ws.names() == ["b", "c"]


def test_a_deleted_view_keeps_no_extra_memory_alive(small_budget):
    ws = workspace_with("a")
    ws.add_tensor("v", ws.tensor("a")[:10], Provenance("index", "a[:10]", ("a",)))
    ws.write_in_place("a", lambda: ws.tensor("a").fill_(1), "a.fill_(1)")
    ws.delete("v")  # its storage is still a's: nothing new is kept, the write stays undoable
    assert steps(ws)[:2] == ["delete v", "a.fill_(1)"]


def test_the_workbench_reports_torchs_warning_on_an_in_place_write():
    ws = Workspace()
    ws.add_tensor("e", torch.zeros(3, 1).expand(3, 4), Provenance("expand", "expand"))
    with pytest.warns(UserWarning) as torch_says:  # what torch itself says for the same write
        torch.zeros(3, 1).expand(3, 4)[torch.zeros(3, 4) == 0] = 5
    outcome = apply_operation(ws, "index_assign", "e", {"index": "e == 0", "value": "5"})
    assert any(str(torch_says[0].message) in note for note in outcome.notes)
