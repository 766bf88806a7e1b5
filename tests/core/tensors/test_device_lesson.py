"""The device lesson on any machine: the Workbench's meta preset meets torch's real device error,
explained, and the workspace stays as it was."""

import pytest
import torch

from tensorviz.core.tensors.creation import CREATIONS_BY_NAME, CreationOptions
from tensorviz.core.tensors.summary import no_values_note
from tensorviz.core.tensors.workbench_actions import (
    ActionError,
    apply_operation,
    create_tensor,
    populate_default_workspace,
)
from tensorviz.core.tensors.workspace import Workspace

PRESET = "device lesson: ones(2, 3, 4) on meta"


def test_the_preset_is_a_meta_tensor_shaped_like_the_default_x():
    ws = Workspace()
    populate_default_workspace(ws)
    create_tensor(ws, PRESET, {}, CreationOptions(device="cpu", requires_grad=True), name="m")
    m, x = ws.tensor("m"), ws.tensor("x")
    assert m.device.type == "meta" and m.shape == x.shape and not m.requires_grad
    assert "other = x" in ws.entry("m").notes[0]
    assert not CREATIONS_BY_NAME[PRESET].uses_options  # its device is the lesson: fixed


@pytest.mark.parametrize("first, other", [("m", "x"), ("x", "m")])
def test_adding_a_cpu_tensor_raises_torchs_real_device_error_explained(first, other):
    ws = Workspace()
    populate_default_workspace(ws)
    create_tensor(ws, PRESET, {}, CreationOptions(), name="m")
    tensors = ws.tensors()
    with pytest.raises(RuntimeError) as torchs:
        tensors[first] + tensors[other]
    with pytest.raises(ActionError) as refused:
        apply_operation(ws, "add", first, {"other": other})
    explained = refused.value.explained
    assert explained.rule == "device" and explained.torch_message == str(torchs.value)
    assert "meta and cpu" in explained.explanation or "cpu and meta" in explained.explanation
    assert "x.to('meta')" in explained.fix and "torch.cuda.is_available()" in explained.fix
    assert ws.names() == ["x", "x_t", "m"]  # nothing was added
    planned = tensors["m"] + tensors["x"].to("meta")  # the fix it gives runs
    assert planned.device.type == "meta" and planned.shape == (2, 3, 4)


def test_a_meta_tensor_says_why_it_has_no_values():
    note = no_values_note(torch.ones(2, 3, device="meta"))
    assert "no values" in note and "[2, 3]" in note
    assert no_values_note(torch.ones(2)) is None
    with pytest.raises(NotImplementedError):
        torch.ones(2, device="meta").tolist()  # torch itself has none to give
