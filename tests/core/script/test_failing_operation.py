"""The operation of a script line that failed, with the operands torch really got; and the
traceback of an error raised deep inside torch, trimmed to the script."""

import warnings

import pytest
import torch

from tensorviz.core.script.failing_operation import (
    failing_operation,
    innermost_script_traceback,
)
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.source import SCRIPT_FILENAME

SETUP = (
    "import torch\n"
    "Q = torch.randn(2, 5, 8)\n"
    "w = torch.zeros(3, requires_grad=True)\n"
    "calls = []\n"
    "def noisy(t):\n"
    "    calls.append(1)\n"
    "    return t\n"
)


@pytest.fixture(autouse=True)
def _torch_warns_without_using_up_its_once():
    """`.T` on 3-D warns once per process; with warn_always the once is left to other tests."""
    before = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
    torch.set_warn_always(before)


def _failed(line: str):
    source = SETUP + line + "\n"
    namespace: dict = {}
    with pytest.raises(Exception) as raised:
        exec(compile(source, SCRIPT_FILENAME, "exec"), namespace)  # noqa: S102 — the test's script
    tb = innermost_script_traceback(raised.value)
    return failing_operation(tb, source), namespace


@pytest.mark.parametrize(
    "line, op, written",
    [
        ("scores = (Q @ Q.T) / 2", "@", ["Q", "Q.T"]),
        ("torch.matmul(Q, Q.transpose(0, 2))", "matmul", ["Q", "Q.transpose(0, 2)"]),
        ("torch.cat([Q, w])", "cat", ["Q", "w"]),
        ("Q.view(3, 3)", "view", ["Q"]),
        ("w[0] = 5", "__setitem__", ["w[0]"]),
        ("w += 1", "add_", ["w"]),
        ("Q[..., 1:3] @ Q[0]", "@", ["Q[..., 1:3]", "Q[0]"]),
    ],
)
def test_the_failing_operation_and_its_operands_as_torch_saw_them(line, op, written):
    operation, namespace = _failed(line)
    assert operation.op == op
    assert list(operation.operands) == written
    for text, tensor in operation.operands.items():
        expected = eval(text, namespace)  # noqa: S307 — the same expression, evaluated here
        assert tensor.shape == expected.shape and tensor.stride() == expected.stride()
        assert tensor.untyped_storage().data_ptr() == expected.untyped_storage().data_ptr()


def test_the_shape_a_view_asked_for_is_passed_on():
    operation, _ = _failed("Q.view(3, 3)")
    assert operation.params == {"shape": (3, 3)}


def test_an_operand_that_could_do_something_is_never_evaluated_again():
    operation, namespace = _failed("noisy(Q) @ noisy(Q).T")
    assert namespace["calls"] == [1, 1]  # the script's own two calls: the explainer made none
    assert operation.op == "@" and operation.operands == {}


def test_a_copying_method_is_not_evaluated_again():
    operation, _ = _failed("Q.contiguous() @ Q.T")
    assert list(operation.operands) == ["Q.T"]


def test_the_explanation_names_the_operands_of_the_failing_operation():
    result = ScriptRun(SETUP + "K = Q\nout = Q @ K.T\n", {}).run()
    explained = result.failure.explained
    assert explained.rule == "broadcast" and "K.T is [8, 5, 2]" in explained.explanation
    assert "Q @ K.mT gives [2, 5, 5]" in explained.fix
    assert list((torch.randn(2, 5, 8) @ torch.randn(2, 5, 8).mT).shape) == [2, 5, 5]


def test_torch_internals_below_the_script_line_are_folded_into_one_line():
    source = "import torch\ny = torch.ones(2, device='meta') + torch.ones(2)\n"
    result = ScriptRun(source, {}).run()
    traceback = result.failure.traceback
    assert 'File "<script>", line 2, in <module>' in traceback
    assert "site-packages" not in traceback and "below, hidden" in traceback
    assert traceback.rstrip().endswith(result.failure.explained.torch_message)


def test_frames_of_the_users_own_modules_below_the_script_line_are_kept(tmp_path, monkeypatch):
    (tmp_path / "helper_module.py").write_text("def boom():\n    raise ValueError('mine')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = ScriptRun("import helper_module\nhelper_module.boom()\n", {}).run()
    assert "helper_module.py" in result.failure.traceback
    assert "hidden" not in result.failure.traceback
