"""Payloads that a plain torch.load would run never run here: a marker file the payload would
create is never created; each is listed as the call it is, with its arguments, the rest of the
file is still shown, and `tensorviz inspect` exits 3 naming it on one stderr line."""

from __future__ import annotations

import builtins
import enum
import json
import os
import pickle
import subprocess

import checkpoint_corpus as corpus
import pytest
import torch

from tensorviz.app import main
from tensorviz.core.files.inspection import inspect_file
from tensorviz.core.files.tree import walk

pytestmark = pytest.mark.filterwarnings("ignore:torch.distributed is disabled")
SYSTEM = f"{os.system.__module__}.system"


class Shell:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


class Evaluates:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (builtins.eval, (f"open({str(self.marker)!r}, 'w').close()",))


class Executes:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (builtins.exec, (f"open({str(self.marker)!r}, 'w').close()",))


class Spawns:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (subprocess.Popen, (["touch", str(self.marker)],))


class ReduceEx:
    def __init__(self, marker):
        self.marker = marker

    def __reduce_ex__(self, protocol):
        return (os.system, (f"touch {self.marker}",))


class Nested:
    """A call whose argument is another call: eval of what a getattr chain returns."""

    def __init__(self, marker):
        self.inner = Evaluates(marker)

    def __reduce__(self):
        return (print, (self.inner,))


class Color(enum.Enum):
    RED = 1


def write(kind: str, tmp_path, marker):
    path = tmp_path / f"{kind}.pt"
    payloads = {"system": Shell, "eval": Evaluates, "exec": Executes, "subprocess": Spawns,
                "reduce_ex": ReduceEx, "nested": Nested}  # fmt: skip
    if kind in payloads:
        torch.save({"weight": torch.ones(3), "extra": payloads[kind](marker)}, path)
    elif kind == "legacy":
        torch.save({"weight": torch.ones(3), "extra": Shell(marker)}, path,
                   _use_new_zipfile_serialization=False)  # fmt: skip
    elif kind == "plain-pickle":
        path.write_bytes(pickle.dumps({"weight": [1.0, 2.0], "extra": Shell(marker)}, protocol=4))
    elif kind == "in-whole-model":
        model = torch.nn.Linear(3, 1)
        model.hook = Shell(marker)
        torch.save(model, path)
    elif kind == "in-dcp-metadata":
        folder = corpus.distributed(tmp_path)
        metadata = folder / ".metadata"
        real = pickle.loads(metadata.read_bytes())  # torch's own object, written by dcp.save
        real.planner_data["evil"] = Shell(marker)
        metadata.write_bytes(pickle.dumps(real, protocol=4))
        return folder
    return path


KINDS = ["system", "eval", "exec", "subprocess", "reduce_ex", "nested", "legacy", "plain-pickle",
         "in-whole-model", "in-dcp-metadata"]  # fmt: skip
CALLABLE = {"eval": "builtins.eval", "exec": "builtins.exec", "subprocess": "subprocess.Popen",
            "nested": "builtins.print"}  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_payload_is_listed_never_run_and_exits_3(tmp_path, kind, capfd):
    marker = tmp_path / "MARKER"
    path = write(kind, tmp_path, marker)
    result = inspect_file(path)
    assert result.error is None and not marker.exists()
    names = [call.callable_name for call in result.calls]
    assert CALLABLE.get(kind, SYSTEM) in names
    assert any(str(marker) in call.text(400) for call in result.calls) or kind == "nested"
    rows = [n for n in walk(result.root) if n.kind == "call"]
    assert rows and all(r.value_text.startswith("would call ") for r in rows)
    if kind not in ("plain-pickle", "in-dcp-metadata"):  # the tensors beside it are still there
        assert result.entries
    if kind == "in-dcp-metadata":
        assert any("pickle.load" in s for s in result.safety_sentences())
        assert len(result.entries) == 4  # the checkpoint's tensors are still listed
    assert main(["inspect", "--json", str(path)]) == 3
    captured = capfd.readouterr()
    data = json.loads(captured.out)
    assert CALLABLE.get(kind, SYSTEM) in [c["callable"] for c in data["calls"]]
    assert len(captured.err.strip().splitlines()) == 1 and "none was made" in captured.err
    assert not marker.exists()


def test_dangerous_calls_say_what_they_would_do(tmp_path):
    marker = tmp_path / "MARKER"
    path = write("system", tmp_path, marker)
    (call,) = inspect_file(path).calls
    assert call.text() == f"{SYSTEM}('touch {marker}')"
    assert "shell command" in call.danger


def test_an_enum_value_is_an_honest_call_not_a_data_class(tmp_path):
    """An Enum member pickles as a call of its class: torch.load(weights_only=False) runs it."""
    path = tmp_path / "enum.pt"
    torch.save({"color": Color.RED, "w": torch.ones(1)}, path)
    result = inspect_file(path)
    (call,) = result.calls
    assert call.callable_name == f"{Color.__module__}.Color" and call.args == (1,)
    assert call.danger is None  # not a known code-running function, still a call
    assert result.safety.safe_globals_code(result.path) is None


def test_torch_own_enums_are_looked_up_not_called(tmp_path):
    folder = corpus.distributed(tmp_path)  # .metadata holds _MEM_FORMAT_ENCODING members
    result = inspect_file(folder)
    assert result.error is None and result.calls == []
