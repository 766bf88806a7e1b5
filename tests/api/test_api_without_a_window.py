"""The API's promises that need no window: importing tensorviz loads no Qt, the caller's call is
read from its source, and the error hook picks the frame of the program's own code."""

import subprocess
import sys
import textwrap

import torch

import tensorviz
from tensorviz.api.caller_names import call_site
from tensorviz.api.collected import collect, label_arguments
from tensorviz.api.on_error import raising_frame
from tensorviz.core.tensors.workspace import Workspace


def test_importing_tensorviz_loads_no_qt_and_no_torch():
    probe = (
        "import sys, tensorviz\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'shiboken6', 'pyqtgraph', 'torch') or m.startswith('tensorviz.ui')))\n"
        "print(callable(tensorviz.show), callable(tensorviz.breakpoint))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.splitlines() == ["[]", "True True"]


def test_help_of_show_explains_it():
    assert "nn.Module" in tensorviz.show.__doc__ and "block" in tensorviz.show.__doc__
    assert tensorviz.show.__module__ == "tensorviz.api.calls"


def _site(*args, **kwargs):
    return sys._getframe(1), call_site(sys._getframe(1))


def test_the_arguments_source_names_them():
    x = torch.ones(2, 3)
    here = sys._getframe().f_lineno + 1
    frame, site = _site(x, x.T, x[0],
                        loss=x.sum())  # fmt: skip
    assert site.positional == ("x", "x.T", "x[0]")
    assert site.keywords == {"loss": "x.sum()"}
    assert site.line == here and site.function.startswith("test_")
    labels = label_arguments(site, frame, (x, x.T, x[0]), {"loss": x.sum()})
    workspace = Workspace()
    collected = collect(workspace, labels, site, "show")
    assert collected.names == ["x", "x_T", "x_0", "loss"]
    assert workspace.tensor("x") is x


def test_without_source_the_callers_variable_names_the_tensor():
    namespace = {}
    code = compile("import torch\nw = torch.ones(1)\nhit = f(w)\n", "<no source>", "exec")

    def f(value):
        frame = sys._getframe(1)
        site = call_site(frame)
        return site, label_arguments(site, frame, (value,), {})

    exec(code, {"f": f}, namespace)  # noqa: S102 — our own test code
    site, labels = namespace["hit"]
    assert site.positional == ()
    assert list(labels) == ["w"] and labels["w"] is namespace["w"]


def test_something_that_is_no_tensor_is_named_in_a_note():
    x = torch.ones(1)
    frame, site = _site(x, 3)
    collected = collect(Workspace(), label_arguments(site, frame, (x, 3), {}), site, "show")
    assert collected.names == ["x"]
    assert collected.notes == ["Not a tensor or nn.Module, so not shown: 3"]


def test_the_error_hook_opens_on_the_programs_own_frame_not_torchs():
    def forward(a, b):
        return torch.nn.functional.linear(a, b)  # raises inside torch's C++: this frame

    try:
        forward(torch.ones(2, 3), torch.ones(4, 5))
    except RuntimeError as error:
        frame = raising_frame(error.__traceback__)
    assert frame.f_code.co_name == "forward"
    assert set(frame.f_locals) >= {"a", "b"}


ON_ERROR_SCRIPT = textwrap.dedent(
    """
    import torch

    def step(batch):
        weight = torch.randn(5, 3)
        hidden = batch @ weight  # [4, 3] @ [5, 3]: the shapes do not fit
        return hidden

    step(torch.randn(4, 3))
    """
)


def run_script(tmp_path, text, *, import_first=False, **env):
    script = tmp_path / "train.py"
    script.write_text(("import tensorviz\n" if import_first else "") + text)
    environment = dict(
        __import__("os").environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path / "config"), TENSORVIZ_QUIT_AFTER_READY="1", **env,
    )  # fmt: skip
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=180,
        env=environment, cwd=tmp_path,
    )  # fmt: skip


def _tensorviz_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tensorviz:")]


def test_on_error_opens_the_app_on_the_raising_frame_without_importing_tensorviz(tmp_path):
    """The hook comes from the tensorviz_on_error.pth an install puts into site-packages."""
    result = run_script(tmp_path, ON_ERROR_SCRIPT, TENSORVIZ_ON_ERROR="1")
    assert result.returncode == 1  # Python's own status for an uncaught exception
    assert "Traceback (most recent call last)" in result.stderr  # printed as always
    assert "mat1 and mat2 shapes cannot be multiplied" in result.stderr
    lines = _tensorviz_lines(result.stderr)
    assert len(lines) == 1, result.stderr
    assert "3 tensors (batch, weight" in lines[0] or "2 tensors (batch, weight)" in lines[0]
    assert "stopped with an error at train.py, line 6 in step()" in lines[0]


def test_import_tensorviz_installs_the_hook_only_when_asked(monkeypatch):
    from tensorviz.api import on_error

    monkeypatch.setattr(on_error, "_installed", [])
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    monkeypatch.setenv("TENSORVIZ_ON_ERROR", "0")
    on_error.install_if_asked()
    assert sys.excepthook is sys.__excepthook__
    monkeypatch.setenv("TENSORVIZ_ON_ERROR", "1")
    on_error.install_if_asked()
    assert sys.excepthook is on_error._on_uncaught and on_error._installed == [sys.__excepthook__]


def test_without_the_variable_an_error_is_only_a_traceback(tmp_path):
    result = run_script(tmp_path, ON_ERROR_SCRIPT, import_first=True, TENSORVIZ_ON_ERROR="0")
    assert result.returncode == 1 and _tensorviz_lines(result.stderr) == []


def test_tag_modules_as_a_decorator_tags_each_node_with_its_module():
    from tensorviz.core.forward.module_tags import module_path_of

    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))

    @tensorviz.tag_modules()
    def step(x):
        return model(x).sum()

    loss = step(torch.randn(2, 3))
    owners = {}  # AccumulateGrad of each parameter → the innermost module it was tagged with
    pending = [loss.grad_fn]
    while pending:
        fn = pending.pop()
        if fn is None:
            continue
        if hasattr(fn, "variable"):
            owners[fn.variable] = module_path_of(fn)[-1][0]
        pending.extend(next_fn for next_fn, _ in fn.next_functions)
    for name, parameter in model.named_parameters():  # torch's own names of the owners
        assert owners[parameter] == name.rsplit(".", 1)[0]
    assert module_path_of(loss.grad_fn) == ()  # .sum() ran outside the model
    untagged = model(torch.randn(2, 3)).sum()  # after the decorated call: no hooks left
    assert module_path_of(untagged.grad_fn.next_functions[0][0]) == ()
