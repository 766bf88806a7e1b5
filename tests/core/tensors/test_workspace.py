import pytest
import torch

from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceError


def make_workspace():
    ws = Workspace()
    x = torch.arange(24).reshape(2, 3, 4)
    ws.add_tensor("x", x, Provenance("arange", "torch.arange(24).reshape(2, 3, 4)"))
    ws.add_tensor("xt", x.transpose(0, 1), Provenance("transpose", "x.transpose(0, 1)", ("x",)))
    ws.add_tensor("c", x.clone(), Provenance("clone", "x.clone()", ("x",)))
    return ws


def test_sharing_is_decided_by_storage():
    ws = make_workspace()
    assert ws.sharing("x") == ["x", "xt"]
    assert ws.sharing("c") == ["c"]


def test_history_graph_follows_provenance():
    graph = make_workspace().history_graph()
    assert set(graph.edges) == {("x", "xt"), ("x", "c")}
    assert graph.edges["x", "xt"]["op"] == "transpose"


def test_lineage_lists_ancestors_oldest_first():
    ws = make_workspace()
    ws.add_tensor(
        "y",
        ws.tensor("xt") + ws.tensor("c").transpose(0, 1),
        Provenance("add", "xt + c.transpose(0, 1)", ("xt", "c")),
    )
    assert ws.lineage("y") == ["x", "xt", "c", "y"]
    assert ws.lineage("x") == ["x"]


def test_rename_keeps_history_and_undo_restores_it():
    ws = make_workspace()
    events = []
    ws.subscribe(events.append)
    ws.rename("x", "base")
    assert ws.names() == ["base", "xt", "c"]
    assert ("base", "xt") in ws.history_graph().edges
    assert events[-1].kind == "renamed" and events[-1].old_name == "x"
    ws.undo()
    assert ws.names() == ["x", "xt", "c"] and ("x", "xt") in ws.history_graph().edges


@pytest.mark.parametrize("bad", ["1x", "my tensor", "class", "", "torch", "xt"])
def test_bad_names_are_refused_and_change_nothing(bad):
    ws = make_workspace()
    with pytest.raises(WorkspaceError):
        ws.rename("x", bad)
    assert ws.names() == ["x", "xt", "c"]


def test_duplicate_is_a_copy_and_delete_undo_restores_position():
    ws = make_workspace()
    dup = ws.duplicate("xt")
    assert torch.equal(ws.tensor(dup), ws.tensor("xt"))
    assert ws.sharing(dup) == [dup]
    ws.delete("xt")
    assert "xt" not in ws
    ws.undo()
    assert ws.names()[:3] == ["x", "xt", "c"]
    ws.undo()
    assert dup not in ws


def test_in_place_write_marks_every_sharer_and_undo_restores_bytes():
    ws = make_workspace()
    before = ws.tensor("x").clone()
    changed = ws.write_in_place("xt", lambda: ws.tensor("xt").mul_(10), "xt.mul_(10)")
    assert changed == ["x", "xt"]
    assert torch.equal(ws.tensor("x"), before * 10)  # the view wrote through to its base
    assert ws.entry("x").version == 1 and ws.entry("c").version == 0
    assert ws.undo() == "xt.mul_(10)"
    assert torch.equal(ws.tensor("x"), before)


def test_failing_write_leaves_memory_as_it_was():
    ws = make_workspace()
    before = ws.tensor("x").clone()

    def half_then_fail():
        ws.tensor("x")[0].fill_(-1)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        ws.write_in_place("x", half_then_fail, "bad")
    assert torch.equal(ws.tensor("x"), before)
    assert not any(step == "bad" for step in [ws.undo_description()])


def test_suggest_name_is_unique_and_valid():
    ws = make_workspace()
    assert ws.suggest_name("x") == "x2"
    assert ws.suggest_name("2d view") == "t_2d_view"
    assert ws.suggest_name("torch") == "torch2"


def test_undo_with_nothing_to_undo_is_a_clear_error():
    with pytest.raises(WorkspaceError, match="Nothing to undo"):
        Workspace().undo()


def test_reusing_a_deleted_name_never_rewires_history():
    ws = make_workspace()
    ws.delete("x")
    ws.add_tensor("x", ws.tensor("xt").clone(), Provenance("clone", "xt.clone()", ("xt",)))
    assert ws.lineage("x") == ["xt", "x"]  # no loop: xt's old parent was another tensor
    assert ws.lineage("xt") == ["xt"]
    assert ws.parents("c") == []  # c's parent (the old x) is gone


def test_renaming_a_parent_keeps_the_link():
    ws = make_workspace()
    ws.rename("x", "base")
    assert ws.parents("xt") == ["base"]


def test_names_that_python_would_fold_are_refused():
    ws = make_workspace()
    with pytest.raises(WorkspaceError):
        ws.rename("x", "ﬁ")  # NFKC turns it into "fi"
