"""What a script leaves behind reaches the workspace: names, views, containers, modules,
provenance lines, and one undo step per run."""

import pytest
import torch
from script_helpers import line_of, run_script

from tensorviz.core.script.capture import identifier_from
from tensorviz.core.script.source import binding_lines, compile_script
from tensorviz.core.tensors.identity import shares_storage, view_verdict
from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)
    return ws


def test_views_made_in_the_script_share_storage_with_their_base(workspace):
    source = "v = x.mT\na = torch.arange(6)\nb = a.view(2, 3)\nc = a.clone()\n"
    run_script(workspace, source)
    x, v = workspace.tensor("x"), workspace.tensor("v")
    a, b, c = (workspace.tensor(n) for n in "abc")
    assert v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()  # torch's own word
    assert shares_storage(v, x) and view_verdict(v, {"x": x}).kind == "view"
    assert b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()
    assert shares_storage(b, a) and view_verdict(b, {"a": a}).kind == "view"
    assert view_verdict(c, {"a": a}).kind == "copy"
    assert set(workspace.sharing("x")) == {"x", "x_t", "v"}


def test_provenance_says_script_and_the_line_that_bound_the_name(workspace):
    source = (
        "import math\n"
        "w = torch.ones(2)\n"
        "for i in range(2):\n"
        "    w = w * 2\n"
        "(p, q) = torch.ones(1), torch.zeros(1)\n"
        "if (m := torch.eye(2)) is not None:\n"
        "    pass\n"
        "def make():\n"
        "    global g\n"
        "    g = torch.ones(3)\n"
        "make()\n"
        "with torch.no_grad():\n"
        "    h = torch.ones(1)\n"
    )
    _, result, summary = run_script(workspace, source)
    expected = {
        "w": line_of(source, "w = w * 2"),
        "p": line_of(source, "(p, q)"),
        "q": line_of(source, "(p, q)"),
        "m": line_of(source, "m :="),
        "g": line_of(source, "g = torch.ones(3)"),
        "h": line_of(source, "h = torch.ones(1)"),
    }
    for name, line in expected.items():
        provenance = workspace.entry(name).provenance
        assert provenance.op == "script" and provenance.params["line"] == line, name
        assert provenance.params["path"] == name
        assert source.splitlines()[line - 1].strip() in provenance.code
    assert {r.name: r.line for r in summary.rows} == {**expected}


def test_binding_lines_cover_the_python_binding_forms():
    source = "import os.path as p2\nfrom math import pi\nclass K: pass\nx += 1\nz: int = 3\n"
    source += "for a, *rest in []: pass\n[y := 1 for _ in ()]\nlambda: (u := 2)\n"
    _, tree, _ = compile_script(source)
    lines = binding_lines(tree)
    assert lines == {"p2": 1, "pi": 2, "K": 3, "x": 4, "z": 5, "a": 6, "rest": 6, "y": 7}


def test_containers_and_module_parameters_get_stable_path_names(workspace):
    source = (
        "model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))\n"
        "xs = [torch.ones(1), (torch.zeros(2),)]\n"
        "d = {'w': torch.ones(2), 'lr rate': torch.tensor(0.1), 3: torch.ones(3)}\n"
    )
    _, first, summary = run_script(workspace, source)
    model = first.namespace["model"]
    expected = {
        "model_0_weight": ("model[0].weight", model[0].weight),
        "model_0_bias": ("model[0].bias", model[0].bias),
        "model_1_running_mean": ("model[1].running_mean", model[1].running_mean),
        "xs_0": ("xs[0]", first.namespace["xs"][0]),
        "xs_1_0": ("xs[1][0]", first.namespace["xs"][1][0]),
        "d_w": ("d['w']", first.namespace["d"]["w"]),
        "d_lr_rate": ("d['lr rate']", first.namespace["d"]["lr rate"]),
        "d_3": ("d[3]", first.namespace["d"][3]),
    }
    for name, (path, tensor) in expected.items():
        assert workspace.tensor(name) is tensor
        assert workspace.entry(name).provenance.params["path"] == path
    names = workspace.names()
    _, _, again = run_script(workspace, source, first.namespace)  # a rerun updates, never adds
    assert workspace.names() == names
    assert set(again.updated) >= set(expected) and not again.added
    assert workspace.tensor("model_0_weight") is not model[0].weight  # the new run's model


def test_a_tensor_that_already_is_an_entry_is_not_added_twice(workspace):
    _, _, summary = run_script(workspace, "y = x\npair = (x, torch.ones(1))\n")
    assert "y" not in workspace and "pair_0" not in workspace and "pair_1" in workspace
    assert "y is the workspace tensor x — not added twice." in summary.notes


def test_path_names_never_take_over_an_entry_of_someone_else(workspace):
    run_script(workspace, "d_w = torch.zeros(1)\n")
    _, first, _ = run_script(workspace, "d = {'w': torch.ones(1)}\n")
    assert workspace.entry("d_w_2").provenance.params["path"] == "d['w']"
    run_script(workspace, "d = {'w': torch.ones(1)}\n", first.namespace)
    assert "d_w_3" not in workspace


def test_rebinding_an_existing_name_replaces_it_and_del_keeps_it(workspace):
    old_x = workspace.tensor("x")
    _, _, summary = run_script(workspace, "x = torch.zeros(2)\ndel x_t\n")
    assert torch.equal(workspace.tensor("x"), torch.zeros(2)) and summary.updated == ["x"]
    assert "x_t" in workspace
    workspace.undo()
    assert workspace.tensor("x") is old_x


def test_identifier_from_paths():
    assert identifier_from("model[0].weight") == "model_0_weight"
    assert identifier_from("d['w']") == "d_w"
    assert identifier_from("xs[0]") == "xs_0"
    assert identifier_from("_private") == "private"


def test_one_undo_takes_back_a_whole_run(workspace):
    x_before = workspace.tensor("x").clone()
    events = []
    workspace.subscribe(events.append)
    source = "a = torch.ones(2)\nb = a * 2\nx.mul_(3)\nx_t.requires_grad_(False)\n"
    _, result, summary = run_script(workspace, source)
    assert set(summary.added) == {"a", "b"} and set(summary.updated) == {"x", "x_t"}
    assert [(e.kind, set(e.names)) for e in events] == [
        ("added", {"a", "b"}),
        ("changed", {"x", "x_t"}),
    ]
    assert torch.equal(workspace.tensor("x"), x_before * 3)
    assert workspace.undo_description() == "run script"
    workspace.undo()
    assert workspace.names() == ["x", "x_t"]
    assert torch.equal(workspace.tensor("x"), x_before)
    assert workspace.undo_description() != "run script"


def test_a_run_that_changes_nothing_records_no_undo_step(workspace):
    last_step = workspace.undo_description()
    _, result, summary = run_script(workspace, "n = 3\ny = x.sum().item()\n")
    assert result.status == "finished" and not summary.rows
    assert workspace.undo_description() == last_step


def test_non_leaf_tensors_keep_their_graph(workspace):
    run_script(workspace, "w = torch.ones(2, requires_grad=True)\nloss = (w * w).sum()\n")
    loss = workspace.tensor("loss")
    assert type(loss.grad_fn).__name__ == "SumBackward0"
    assert loss.grad_fn.next_functions[0][0].next_functions[0][0].variable is workspace.tensor("w")


def test_a_full_workspace_does_not_use_up_the_capture_limit(workspace, monkeypatch):
    from tensorviz.core.script import capture as script_capture

    monkeypatch.setattr(script_capture, "MAX_TENSORS", 5)
    run_script(workspace, "ts = [torch.zeros(1) for _ in range(5)]\n")
    assert len(workspace) >= 5
    _, result, summary = run_script(workspace, "out = torch.ones(1)\n")
    assert "out" in workspace and not result.capture.truncated
