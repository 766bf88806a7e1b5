"""Running scripts: output order, errors trimmed to the user's code, stopping, a failed run
leaving the workspace exactly as it was."""

import sys
import time
import warnings

import numpy as np
import pytest
import torch
from script_helpers import line_of, run_script, start_in_thread

from tensorviz.core.script.output import ScriptOutput, output_is_routed
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Provenance, Workspace


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)  # x = arange(24).reshape(2, 3, 4), x_t its transpose (a view)
    return ws


@pytest.fixture(autouse=True)
def nothing_left_patched():
    stdout, stderr, sleep = sys.stdout, sys.stderr, time.sleep
    yield
    assert sys.stdout is stdout and sys.stderr is stderr and time.sleep is sleep
    assert not output_is_routed()


def test_namespace_has_the_modules_and_the_workspace_tensors_themselves(workspace):
    source = "assert torch and nn is torch.nn and F is torch.nn.functional and np\nseen = x\n"
    source += "assert __name__ == '__main__'\n"
    run, result, _ = run_script(workspace, source)
    assert result.status == "finished", result.failure
    assert result.namespace["seen"] is workspace.tensor("x")


def test_output_keeps_the_order_of_print_stderr_and_warnings(workspace):
    source = (
        "import sys, warnings\n"
        "print('one')\n"
        "sys.stderr.write('two\\n')\n"
        "warnings.warn('three')\n"
        "print('four', flush=True)\n"
        "torch.ones(2, 3).T.T.T.ndim\n"  # no warning: 2-D
        "x.T\n"  # torch's own UserWarning (x is 3-D)
        "print('five')\n"
    )
    run, result, _ = run_script(workspace, source)
    assert result.status == "finished"
    chunks, dropped = run.output.drain()
    assert dropped == 0
    text = "".join(t for _s, t in chunks)
    order = [text.index(word) for word in ("one", "two", "three", "four", "x.T", "five")]
    assert order == sorted(order)
    streams = {s for s, t in chunks if "two" in t or "three" in t}
    assert streams == {"stderr"}
    assert f"<script>:{line_of(source, 'x.T')}: UserWarning" in text  # the user's line


def test_output_from_other_threads_is_not_captured(capsys):
    run = ScriptRun("print('inside')\n", {})
    thread = start_in_thread(run)
    print("outside")
    thread.join(10)
    assert "inside" in run.output.text() and "outside" not in run.output.text()
    assert "outside" in capsys.readouterr().out


def test_endless_output_is_capped():
    output = ScriptOutput(max_chars=1000)
    for i in range(10_000):
        output.write("stdout", f"{i}\n")
    chunks, dropped = output.drain()
    text = "".join(t for _s, t in chunks)
    assert len(text) <= 1000 + 4096 and text.endswith("9999\n") and dropped > 0


def test_syntax_error_runs_nothing_and_points_at_the_line(workspace):
    source = "y = torch.ones(3)\nfor i in range(3)\n    pass\n"
    run, result, summary = run_script(workspace, source)
    assert result.status == "syntax_error" and result.line == 2
    assert "expected ':'" in result.syntax_error.report() and "^" in result.syntax_error.report()
    assert "y" not in workspace and not summary.rows


def test_error_traceback_is_trimmed_to_the_script_and_explained(workspace):
    source = "def grow(t):\n    return t @ torch.ones(3)\n\nbig = x.flatten(0, 1)\ngrow(big)\n"
    with pytest.raises(RuntimeError) as torch_error:
        workspace.tensor("x").flatten(0, 1) @ torch.ones(3)
    run, result, _ = run_script(workspace, source)
    assert result.status == "failed"
    failure = result.failure
    assert failure.line == line_of(source, "return t @")
    assert failure.traceback.startswith("Traceback (most recent call last):")
    assert 'File "<script>", line 5, in <module>' in failure.traceback
    assert "script_run.py" not in failure.traceback and "exec(" not in failure.traceback
    assert str(torch_error.value) in failure.traceback
    assert failure.explained.torch_message == str(torch_error.value)
    assert failure.torch_error and failure.explained.kind != "unknown"


def test_plain_python_error_and_exit(workspace):
    _, result, _ = run_script(workspace, "y = 1\nundefined_name + 1\n")
    assert (
        result.status == "failed" and result.line == 2 and "NameError" in result.failure.traceback
    )
    assert not result.failure.torch_error
    _, result, _ = run_script(workspace, "z = torch.ones(1)\nexit(0)\nw = 1\n")
    assert result.status == "finished" and "z" in workspace
    _, result, _ = run_script(workspace, "exit(3)\n")
    assert result.status == "failed" and "exit(3)" in result.failure.explained.title


def test_input_raises_a_clear_error(workspace):
    _, result, _ = run_script(workspace, "n = input('how many? ')\n")
    assert result.status == "failed" and "no keyboard input" in result.failure.traceback


def _state(workspace):
    return {
        e.name: (e.tensor.clone(), e.tensor.requires_grad, e.tensor.grad, e.version)
        for e in workspace
    }


def test_a_raising_script_leaves_the_workspace_exactly_as_it_was(workspace):
    workspace.add_tensor("w", torch.ones(3, requires_grad=True), Provenance("ones", "w"))
    (workspace.tensor("w") * 2).sum().backward()
    grad_before = workspace.tensor("w").grad
    grad_bytes = grad_before.clone()
    workspace.add_tensor("f", torch.zeros(2), Provenance("zeros", "f"))
    names, before = workspace.names(), _state(workspace)
    source = (
        "x[0, 0, 0] = 99\n"  # an in-place write into an existing tensor (x_t sees it too)
        "x_t.mul_(2)\n"
        "(w * 3).sum().backward()\n"  # accumulates into the existing w.grad in place
        "f.requires_grad_()\n"
        "new = torch.ones(2)\n"
        "raise ValueError('boom')\n"
    )
    _, result, summary = run_script(workspace, source)
    assert result.status == "failed" and result.line == 6
    # what the run made before the error is added beside them, marked (test_failed_runs.py)
    assert [(r.name, r.before_error) for r in summary.rows] == [("new", True)]
    assert workspace.names() == [*names, "new"]
    for name, (values, requires_grad, grad, version) in before.items():
        tensor = workspace.tensor(name)
        assert torch.equal(tensor, values), name
        assert tensor.requires_grad == requires_grad and tensor.grad is grad
        assert workspace.entry(name).version == version
    assert workspace.tensor("w").grad is grad_before and torch.equal(grad_before, grad_bytes)
    assert workspace.tensor("x").data_ptr() == workspace.tensor("x_t").data_ptr()


@pytest.mark.parametrize(
    "change",
    [
        "x.resize_(50)",
        "x.unsqueeze_(0)",
        "x.data = torch.zeros(5)",
        "x.set_(torch.zeros(7).long())",
    ],
)
def test_a_failed_run_puts_back_shape_strides_and_storage(workspace, change):
    x = workspace.tensor("x")
    values, stride = x.clone(), x.stride()
    _, result, _ = run_script(workspace, f"{change}\nraise ValueError('boom')\n")
    assert result.status == "failed"
    x = workspace.tensor("x")
    assert x.shape == values.shape and x.stride() == stride and x.dtype == values.dtype
    assert torch.equal(x, values) and torch.equal(workspace.tensor("x_t"), values.transpose(0, 1))
    assert x.untyped_storage().data_ptr() == workspace.tensor("x_t").untyped_storage().data_ptr()


def test_the_next_run_sees_the_last_successful_runs_variables(workspace):
    _, first, _ = run_script(workspace, "model = nn.Linear(2, 1)\nsteps = 3\n")
    _, second, _ = run_script(
        workspace, "out = model(torch.ones(1, 2))\nk = steps\n", first.namespace
    )
    assert second.status == "finished" and second.namespace["k"] == 3
    workspace.delete("out")  # tensors come from the workspace, never from the last namespace
    _, third, _ = run_script(workspace, "gone = 'out' in dir()\n", second.namespace)
    assert third.namespace["gone"] is False


def _wait_for_line(run, condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line, call = run.progress()
        if condition(line, call):
            return line, call
        time.sleep(0.005)
    raise AssertionError(f"the script never reached the expected point: {run.progress()}")


@pytest.mark.parametrize(
    "source",
    [
        "while True:\n    pass\n",
        "a = torch.randn(64, 64)\nwhile True:\n    a = torch.tanh(a @ a)\n",
        "import time\nwhile True:\n    time.sleep(0.05)\n",
        "import time\ntime.sleep(3600)\n",
        "m = nn.Sequential(nn.Linear(8, 8), nn.ReLU())\nwhile True:\n    try:\n"
        "        m(torch.ones(2, 8))\n    except Exception:\n        pass\n",
    ],
    ids=["python-loop", "torch-loop", "short-sleeps", "one-long-sleep", "except-exception"],
)
def test_stop_really_ends_an_endless_script(workspace, source):
    before = _state(workspace)
    run = ScriptRun(source + "x.add_(1)\n", workspace.tensors())
    thread = start_in_thread(run)
    try:
        _wait_for_line(run, lambda line, _call: line >= 1)
    finally:
        requested = time.monotonic()
        while thread.is_alive() and time.monotonic() - requested < 10:
            run.request_stop()  # the UI repeats the request while the thread lives
            thread.join(0.05)
    assert not thread.is_alive()
    assert time.monotonic() - requested < 1.0  # "within a second of Stop": behaviour, not speed
    assert run.result.status == "stopped" and run.result.line >= 1
    for name, (values, *_rest) in before.items():
        assert torch.equal(workspace.tensor(name), values)


def test_the_optional_torch_mode_stops_between_calls_and_names_them():
    source = "a = torch.randn(300, 300)\nwhile True:\n    b = torch.linalg.matrix_exp(a)\n"
    run = ScriptRun(source, {}, stop_between_torch_calls=True)
    thread = start_in_thread(run)
    try:
        line, call = _wait_for_line(run, lambda line, call: "matrix_exp" in (call or ""))
    finally:
        run.request_stop()
        thread.join(10)
    assert line == 3 and "matrix_exp" in call
    assert run.result.status == "stopped" and run.result.line == 3
    assert not thread.is_alive()


def test_warnings_filters_of_the_app_are_untouched(workspace):
    filters = list(warnings.filters)
    run_script(workspace, "import warnings\nwarnings.warn('w')\n")
    assert warnings.filters == filters


def test_numpy_arrays_only_kept_when_they_share(workspace):
    source = "a = np.ones(3)\nt = torch.from_numpy(a)\nlonely = np.zeros(2)\nu = torch.ones(2)\n"
    source += "u_np = u.numpy()\n"
    _, result, summary = run_script(workspace, source)
    assert workspace.entry("t").numpy_array is result.namespace["a"]
    assert workspace.entry("u").numpy_array is result.namespace["u_np"]
    assert np.shares_memory(workspace.entry("t").numpy_array, result.namespace["a"])
    assert any("1 NumPy array not captured (lonely)" in note for note in summary.notes)


def test_torch_settings_a_script_changes_are_put_back_and_said(workspace):
    dtype, threads = torch.get_default_dtype(), torch.get_num_threads()
    source = (
        "torch.set_default_dtype(torch.float64)\n"
        "torch.set_printoptions(precision=10)\n"
        "t = torch.ones(2)\n"  # made while float64 was the default
    )
    run, result, _ = run_script(workspace, source)
    assert result.status == "finished" and workspace.tensor("t").dtype == torch.float64
    assert torch.get_default_dtype() == dtype and torch.get_num_threads() == threads
    assert torch.ones(1).dtype == dtype and "0.1235" in str(torch.tensor([0.123456789]))
    said = run.output.text()
    assert "default dtype" in said and "print options" in said
