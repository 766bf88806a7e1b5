"""Workspace.record_script_run: a whole script run as one undoable step."""

import pytest
import torch

from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceEntry, WorkspaceError


def entry(name, tensor):
    return WorkspaceEntry(name, tensor, Provenance("script", f"{name} = …", (), {"line": 1}))


@pytest.fixture
def workspace():
    ws = Workspace()
    base = torch.arange(6.0)
    ws.add([entry("a", base), entry("a_view", base.view(2, 3)), entry("old", torch.ones(2))])
    return ws


def test_adds_replaces_and_marks_changed_in_one_step_with_events(workspace):
    events = []
    workspace.subscribe(events.append)
    old_entry = workspace.entry("old")
    saved = workspace.tensor("a").clone()
    workspace.tensor("a").mul_(10)  # what the script did in place
    restored = []
    recorded = workspace.record_script_run(
        [entry("new", torch.zeros(1))],
        [entry("old", torch.full((2,), 7.0))],
        ["a"],
        lambda: (workspace.tensor("a").copy_(saved), restored.append(True)),
    )
    assert recorded and workspace.names() == ["a", "a_view", "old", "new"]
    assert [(e.kind, e.names) for e in events] == [
        ("added", ("new",)),
        ("changed", ("old", "a", "a_view")),  # a's change reaches its view too
    ]
    assert workspace.entry("a").version == 1 and workspace.entry("a_view").version == 1
    assert workspace.entry("old").uid != old_entry.uid
    events.clear()
    assert workspace.undo() == "run script"
    assert restored == [True] and torch.equal(workspace.tensor("a"), saved)
    assert workspace.entry("old") is old_entry and "new" not in workspace
    assert workspace.entry("a").version == 2  # memory changed again (back): views refresh
    assert [e.kind for e in events] == ["removed", "changed"]


def test_a_bad_name_changes_nothing(workspace):
    before = workspace.names()
    with pytest.raises(WorkspaceError):
        workspace.record_script_run([entry("a", torch.ones(1))], [], [])
    with pytest.raises(WorkspaceError):
        workspace.record_script_run([], [entry("missing", torch.ones(1))], [])
    assert workspace.names() == before


def test_a_run_that_changed_nothing_is_no_step(workspace):
    description = workspace.undo_description()
    assert workspace.record_script_run([], [], []) is False
    assert workspace.undo_description() == description
