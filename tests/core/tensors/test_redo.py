"""Edit → Redo: every undone workspace step can be done again, with undo's memory budget."""

import pytest
import torch

from tensorviz.core.tensors import workspace as workspace_module
from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceError

FLOATS = 100  # 400 bytes per tensor


def zeros(ws: Workspace, name: str) -> torch.Tensor:
    ws.add_tensor(name, torch.zeros(FLOATS), Provenance("zeros", f"torch.zeros({FLOATS})"))
    return ws.tensor(name)


def test_redo_puts_back_what_undo_took_add_rename_delete_duplicate():
    ws = Workspace()
    events = []
    x = zeros(ws, "x")
    ws.rename("x", "a")
    copy = ws.duplicate("a")
    ws.delete("a")
    ws.subscribe(events.append)
    for expected in ("delete a", "duplicate a", "rename x to a", "create x"):
        assert ws.undo() == expected
    assert ws.names() == [] and ws.can_redo() and ws.redo_description() == "create x"
    assert ws.redo() == "create x" and ws.tensor("x") is x  # the very tensor, not a copy
    assert ws.redo() == "rename x to a" and ws.names() == ["a"]
    assert ws.redo() == "duplicate a" and ws.names() == ["a", copy]
    assert ws.redo() == "delete a" and ws.names() == [copy]
    assert not ws.can_redo()
    kinds = [e.kind for e in events]
    undone = ["added", "removed", "renamed", "removed"]  # delete, duplicate, rename, create
    assert kinds == undone + ["added", "renamed", "added", "removed"]  # then the mirror
    assert ws.parents(copy) == []  # a is deleted again: the copy's parent is gone


def test_redo_of_an_in_place_write_puts_the_written_bytes_back():
    ws = Workspace()
    x = zeros(ws, "x")
    view = x[:10]
    ws.add_tensor("v", view, Provenance("index", "x[:10]", ("x",)))
    ws.write_in_place("x", lambda: x.add_(torch.arange(float(FLOATS))), "x.add_(arange)")
    written = x.clone()
    ws.undo()
    assert torch.equal(x, torch.zeros(FLOATS))
    versions = ws.entry("v").version
    assert ws.redo() == "x.add_(arange)"
    assert torch.equal(x, written) and torch.equal(view, written[:10])
    assert ws.entry("v").version > versions  # the view saw the write again
    ws.undo()  # and back once more: the before bytes were kept
    assert torch.equal(x, torch.zeros(FLOATS))


def test_a_new_change_forgets_what_could_be_redone():
    ws = Workspace()
    zeros(ws, "x")
    ws.undo()
    zeros(ws, "y")
    assert not ws.can_redo()
    with pytest.raises(WorkspaceError, match="Nothing to redo"):
        ws.redo()


def test_redo_copies_share_undos_budget_and_are_forgotten_first(monkeypatch):
    monkeypatch.setattr(workspace_module, "UNDO_MAX_BYTES", 1000)
    ws = Workspace()
    x = zeros(ws, "x")
    ws.write_in_place("x", lambda: x.fill_(1), "x.fill_(1)")
    ws.write_in_place("x", lambda: x.fill_(2), "x.fill_(2)")  # 800 bytes of undo copies
    ws.undo()  # a redo copy would take the total to 1200: redo is given up, undo kept
    assert torch.equal(x, torch.ones(FLOATS)) and not ws.can_redo()
    assert ws.undo() == "x.fill_(1)" and torch.equal(x, torch.zeros(FLOATS))
    assert ws.can_redo()  # now the one 400-byte step and its redo copy (800) fit
    ws.redo()
    assert torch.equal(x, torch.ones(FLOATS))


def test_a_write_whose_redo_copy_alone_exceeds_the_budget_cannot_be_redone(monkeypatch):
    monkeypatch.setattr(workspace_module, "UNDO_MAX_BYTES", 500)
    ws = Workspace()
    x = zeros(ws, "x")
    ws.write_in_place("x", lambda: x.fill_(1), "x.fill_(1)")  # 400 bytes: undoable
    assert ws.undo() == "x.fill_(1)" and torch.equal(x, torch.zeros(FLOATS))
    assert ws.redo_description() != "x.fill_(1)"  # 800 bytes for redo would not fit
