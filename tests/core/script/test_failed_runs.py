"""A run that raises: what existed when it failed is captured, marked, beside a workspace whose
own tensors are exactly as they were; reruns replace those captures, never the workspace's own."""

import pytest
import torch
from script_helpers import line_of, run_script

from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace

REFUSED_VIEW = "a = torch.arange(6.0)\nb = a.view(2, 3).t()\nc = b.view(6)\n"


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)
    return ws


def test_the_tensor_torch_refused_is_captured_with_its_real_layout(workspace):
    _, result, summary = run_script(workspace, REFUSED_VIEW)
    plain = torch.arange(6.0).view(2, 3).t()
    with pytest.raises(RuntimeError) as refused:  # torch itself, on the same tensor
        plain.view(6)
    assert result.status == "failed" and result.line == 3
    assert str(refused.value).splitlines()[0] in result.failure.traceback
    assert summary.failed_line == 3 and all(row.before_error for row in summary.rows)
    assert [row.name for row in summary.rows] == ["a", "b"]
    b = workspace.tensor("b")
    assert b.stride() == plain.stride() and b.is_contiguous() == plain.is_contiguous()
    assert b.untyped_storage().data_ptr() == workspace.tensor("a").untyped_storage().data_ptr()
    provenance = workspace.entry("b").provenance
    assert provenance.params["failed_line"] == 3
    assert provenance.statement("b") == "b = a.view(2, 3).t()  # script, line 2"
    assert "before the error" in summary.headline(result.duration_s)
    assert workspace.undo_description() == "capture before the error on line 3"


def test_the_workspaces_own_entries_stay_and_rebound_names_go_beside_them(workspace):
    x, x_values = workspace.tensor("x"), workspace.tensor("x").clone()
    x_t_entry = workspace.entry("x_t")
    source = "x = torch.zeros(2)\ny = x + 1\nraise ValueError('boom')\n"
    _, _, summary = run_script(workspace, source)
    assert workspace.tensor("x") is x and torch.equal(x, x_values)
    assert workspace.entry("x_t") is x_t_entry
    assert [row.name for row in summary.rows] == ["x_at_error", "y"]
    assert torch.equal(workspace.tensor("x_at_error"), torch.zeros(2))
    assert workspace.entry("x_at_error").provenance.params["path"] == "x"
    names = workspace.names()
    _, _, again = run_script(workspace, source)  # the same failure: its captures are replaced
    assert workspace.names() == names and [r.status for r in again.rows] == ["updated"] * 2
    assert workspace.tensor("x") is x
    _, finished, _ = run_script(workspace, "y = torch.ones(1)\n")
    assert finished.status == "finished" and torch.equal(workspace.tensor("y"), torch.ones(1))
    assert "failed_line" not in workspace.entry("y").provenance.params


def test_undo_and_redo_take_the_capture_back_and_forth(workspace):
    names = workspace.names()
    run_script(workspace, REFUSED_VIEW)
    b = workspace.tensor("b")
    workspace.undo()
    assert workspace.names() == names
    workspace.redo()
    assert workspace.names() == [*names, "a", "b"] and workspace.tensor("b") is b


def test_a_view_of_memory_the_failed_run_wrote_says_its_values_were_put_back(workspace):
    before = workspace.tensor("x").clone()
    source = "v = x[0]\nx.mul_(0)\nraise ValueError('boom')\n"
    _, _, summary = run_script(workspace, source)
    assert torch.equal(workspace.tensor("x"), before)
    assert torch.equal(workspace.tensor("v"), before[0])  # the restored bytes, not zeros
    assert any("v reads the memory of x" in note for note in summary.notes)


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("def demo():\n    t = torch.ones(1)\n", "defines demo() but never calls it"),
        ("raise ValueError('first line')\n", "nothing had made a tensor before the error"),
        ("t = torch.ones(1)\ndel t\n", "no variable of the script"),
    ],
)
def test_a_run_that_captures_nothing_says_why(workspace, source, says):
    _, _, summary = run_script(workspace, source)
    assert not summary.rows and any(says in note for note in summary.notes)


def test_a_stopped_or_syntax_error_run_captures_nothing(workspace):
    names = workspace.names()
    _, result, summary = run_script(workspace, "t = torch.ones(1)\nx = (\n")
    assert result.status == "syntax_error" and not summary.rows and workspace.names() == names


def test_the_failing_line_of_a_capture_is_the_innermost_script_line(workspace):
    source = (
        "def demo():\n    a = torch.arange(6.0).view(2, 3).t()\n    return a.view(6)\n\ndemo()\n"
    )
    _, result, summary = run_script(workspace, source)
    assert result.line == line_of(source, "return a.view(6)") == summary.failed_line
    assert [row.path for row in summary.rows] == ["demo.a"]
