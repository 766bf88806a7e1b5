"""`tensorviz run SCRIPT.py [--json]`: the Script area's runner and capture, headless; checked
against the same script run by plain Python."""

import json

import numpy as np
import torch

from tensorviz.app import main

SCRIPT = """\
x = torch.arange(6.0).reshape(2, 3)
v = x.T
w = torch.randn(3, 2, requires_grad=True)
y = (x @ w).sum()
model = nn.Linear(2, 1)
print("first")
import sys; print("second", file=sys.stderr)
print("third")
"""


def plain_python(source: str) -> dict:
    namespace = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional, "np": np}
    exec(source, namespace)  # noqa: S102 — the test's own script
    return namespace


def test_json_lists_every_tensor_as_torch_made_it(tmp_path, capsys):
    path = tmp_path / "snippet.py"
    path.write_text(SCRIPT)
    assert main(["run", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    reference = plain_python(SCRIPT)
    tensors = {row["name"]: row for row in data["tensors"]}
    for name in ("x", "v", "w", "y"):
        assert tensors[name]["shape"] == list(reference[name].shape)
        assert tensors[name]["line"] == 1 + SCRIPT.splitlines().index(
            next(line for line in SCRIPT.splitlines() if line.startswith(f"{name} ="))
        )
    assert tensors["y"]["grad_fn"] == type(reference["y"].grad_fn).__name__
    assert tensors["model_weight"]["shape"] == list(reference["model"].weight.shape)
    same_memory = reference["v"].untyped_storage().data_ptr() == reference["x"].data_ptr()
    assert ("v" in tensors["x"]["shares_storage_with"]) == same_memory
    assert [(c["stream"], c["text"].strip()) for c in data["output"]] == [
        ("stdout", "first"),
        ("stderr", "second"),
        ("stdout", "third"),
    ]
    assert data["status"] == "finished" and data["error"] is None


def test_a_raising_script_exits_1_with_its_line_and_the_explanation(tmp_path, capsys):
    path = tmp_path / "bad.py"
    path.write_text("a = torch.ones(2, 3)\nb = a @ a\n")
    assert main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    try:
        torch.ones(2, 3) @ torch.ones(2, 3)
    except RuntimeError as error:
        torch_message = str(error)
    assert "line 2" in err and "b = a @ a" in err and torch_message in err
    assert "Fix:" in err


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("a = (\n")
    for argv in (["run", str(broken)], ["run", str(tmp_path / "missing.py")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and err.startswith("tensorviz run: error:")


def test_sys_exit_n_exits_n_with_one_line(tmp_path, capsys):
    path = tmp_path / "leaves.py"
    path.write_text("print('working')\nimport sys\nsys.exit(3)\n")
    assert main(["run", str(path)]) == 3
    captured = capsys.readouterr()
    assert "working" in captured.out
    assert captured.err.strip() == "The script called exit(3)"


def test_a_raising_script_lists_what_existed_before_the_error(tmp_path, capsys):
    path = tmp_path / "refused.py"
    path.write_text(
        "def demo():\n    a = torch.arange(6.0)\n    b = a.view(2, 3).t()\n    return b.view(6)\n"
        "demo()\n"
    )
    assert main(["run", "--json", str(path)]) == 1
    data = json.loads(capsys.readouterr().out)
    tensors = {row["path"]: row for row in data["tensors"]}
    plain = torch.arange(6.0).view(2, 3).t()
    assert tensors["demo.b"]["shape"] == list(plain.shape) and tensors["demo.b"]["before_error"]
    assert tensors["demo.b"]["name"] == "demo_b" and data["error"]["line"] == 4
    assert main(["run", str(path)]) == 1
    assert "2 tensors captured before the error on line 4:" in capsys.readouterr().out
