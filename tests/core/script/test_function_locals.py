"""Tensors made inside functions the script defines are captured when the function returns or
raises, named after their dotted path (`demo.images` → `demo_images`)."""

import traceback

import pytest
import torch
from script_helpers import line_of, run_script

from tensorviz.core.script.function_locals import (
    FunctionLocals,
    compile_with_locals_hook,
    hook_namespace,
)
from tensorviz.core.script.source import SCRIPT_FILENAME
from tensorviz.core.tensors.workspace import Workspace

CAPSTONE = """\
def demo():
    torch.manual_seed(0)
    images = torch.rand(4, 3, 8, 8)
    flat = images.flatten(1)
    w = torch.randn(192, 10, requires_grad=True)
    logits = flat @ w
    return logits.softmax(dim=1)

probs = demo()
"""


def test_the_capstone_demo_leaves_its_tensors_named_by_their_path():
    ws = Workspace()
    _, result, summary = run_script(ws, CAPSTONE)
    assert result.status == "finished"
    paths = {row.name: row.path for row in summary.rows}
    assert paths == {
        "probs": "probs",
        "demo_images": "demo.images",
        "demo_flat": "demo.flat",
        "demo_w": "demo.w",
        "demo_logits": "demo.logits",
    }
    torch.manual_seed(0)  # the same computation, in plain torch
    images = torch.rand(4, 3, 8, 8)
    assert torch.equal(ws.tensor("demo_images"), images)
    flat, images_seen = ws.tensor("demo_flat"), ws.tensor("demo_images")
    assert flat.untyped_storage().data_ptr() == images_seen.untyped_storage().data_ptr()
    assert ws.tensor("demo_logits").grad_fn is not None and ws.tensor("demo_w").is_leaf
    entry = ws.entry("demo_images")
    assert entry.provenance.params["line"] == line_of(CAPSTONE, "images = torch.rand")
    assert entry.provenance.statement("demo_images") == (
        "images = torch.rand(4, 3, 8, 8)  # script, line 3, in demo()"
    )


def test_a_rerun_updates_the_same_entries():
    ws = Workspace()
    run_script(ws, CAPSTONE)
    names = ws.names()
    _, _, summary = run_script(ws, CAPSTONE)
    assert ws.names() == names and {r.status for r in summary.rows} == {"updated"}


def test_methods_and_nested_functions_use_their_qualified_names():
    source = """\
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x):
        h = self.fc(x)
        def double():
            d = h * 2
            return d.sum()
        return double()

model = Net()
out = model(torch.ones(1, 2))
"""
    ws = Workspace()
    _, _, summary = run_script(ws, source)
    paths = [row.path for row in summary.rows]
    assert "Net.forward.h" in paths and "Net.forward.double.d" in paths
    assert ws.entry("Net_forward_h").provenance.params["path"] == "Net.forward.h"
    # the model's parameters are met again as self.fc.* inside the methods: captured once
    assert paths.count("model.fc.weight") == 1 and not any("self.fc" in p for p in paths)
    assert not any("Net.forward" in note for note in summary.notes)


def test_the_last_call_of_a_function_wins():
    source = (
        "def count(n):\n"
        "    t = torch.full((1,), float(n))\n"
        "    return count(n - 1) if n else t\n"
        "count(3)\n"
    )
    ws = Workspace()
    run_script(ws, source)
    assert ws.tensor("count_t").item() == 3.0  # the outermost call returns last


@pytest.mark.parametrize(
    "source",
    [
        'def f(a):\n    """doc"""\n    b = a * 2\n    return b.view(-1, 7)\nf(torch.ones(6))\n',
        "async def g():\n    pass\n\ndef f():\n    global k\n    k = 1\n"
        "    raise KeyError(k)\nf()\n",
    ],
)
def test_functions_keep_their_docstring_and_their_traceback_lines(source):
    plain, hooked = {}, {}
    for namespace, code in (
        (plain, compile(source, SCRIPT_FILENAME, "exec")),
        (hooked, compile_with_locals_hook(source)),
    ):
        namespace.update(torch=torch, **hook_namespace(FunctionLocals()))
        with pytest.raises(Exception) as raised:  # noqa: PT011 — any error; compared below
            exec(code, namespace)  # noqa: S102
        namespace["tb"] = [
            (f.name, f.lineno) for f in traceback.extract_tb(raised.value.__traceback__)
        ]
        namespace["error"] = str(raised.value)
    assert hooked["tb"] == plain["tb"] and hooked["error"] == plain["error"]
    assert hooked["f"].__doc__ == plain["f"].__doc__
