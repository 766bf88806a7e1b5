"""An optimizer's state named by parameter, against torch's own numbering (the live optimizer's
param_groups): nanoGPT's decay/no-decay groups, the tutorials' single group beside a BatchNorm's
buffers, Lightning's list of optimizers. Where the file cannot prove the names (a parameter
missing, groups in another order, an optimizer saved apart from the model) the numbers stay,
a note says why, and nothing false is said."""

import sys
from pathlib import Path

import torch

from tensorviz.core.files.inspection import inspect_file

sys.path.insert(0, str(Path(__file__).parents[2]))
import training_checkpoints as checkpoints  # noqa: E402


def named_state(inspection) -> dict[int, str]:
    """Optimizer index → the parameter its state was named after (from every tensor of it)."""
    found: dict[int, set] = {}
    for node in inspection.entries:
        if node.optimizer_state:
            found.setdefault(node.access[-2], set()).add(node.parameter)
    assert all(len(names) == 1 for names in found.values())
    return {index: names.pop() for index, names in found.items()}


def test_nanogpt_decay_and_no_decay_groups_are_named_as_torch_numbers_them(tmp_path):
    model, optimizer = checkpoints.nanogpt(tmp_path / "ckpt.pt", iters=2)
    assert [len(g["params"]) for g in optimizer.param_groups] == [14, 26]  # the split is real
    truth = checkpoints.parameter_names(model, optimizer)
    inspection = inspect_file(tmp_path / "ckpt.pt")
    assert named_state(inspection) == truth
    assert truth[13] == "transformer.h.2.mlp.c_proj.weight"  # group 0's last: a 2-D weight
    assert truth[14] == "transformer.h.0.ln_1.weight"  # group 1 restarts in the model's order
    assert "lm_head.weight" not in truth.values()  # tied: named_parameters gives it once
    assert any("named by parameter" in note for note in inspection.notes)


def test_the_tutorials_single_group_beside_batchnorm_buffers(tmp_path):
    model, optimizer = checkpoints.tutorial(tmp_path / "tutorial.pt")
    inspection = inspect_file(tmp_path / "tutorial.pt")
    assert named_state(inspection) == checkpoints.parameter_names(model, optimizer)


def test_lightnings_list_of_optimizers(tmp_path):
    model, optimizer = checkpoints.lightning(tmp_path / "epoch=0.ckpt")
    truth = checkpoints.parameter_names(model, optimizer)
    inspection = inspect_file(tmp_path / "epoch=0.ckpt")
    assert named_state(inspection) == {i: f"model.{name}" for i, name in truth.items()}


def test_what_the_file_cannot_prove_stays_numbered(tmp_path):
    model, optimizer = checkpoints.nanogpt(tmp_path / "ckpt.pt")
    checkpoint = torch.load(tmp_path / "ckpt.pt", weights_only=True)
    # a parameter dropped from the model's state dict: the counts no longer meet
    short = dict(checkpoint, model={k: v for k, v in checkpoint["model"].items()
                                    if k != "transformer.wpe.weight"})  # fmt: skip
    torch.save(short, tmp_path / "short.pt")
    # the groups listed in another order than the model's (largest first): shapes do not fit
    state = optimizer.state_dict()
    order = sorted(range(len(truth := checkpoints.parameter_names(model, optimizer))),
                   key=lambda i: -model.get_parameter(truth[i]).numel())  # fmt: skip
    renumbered = {
        "state": {new: state["state"][old] for new, old in enumerate(order)},
        "param_groups": [dict(state["param_groups"][0], params=list(range(len(order))))],
    }
    torch.save(dict(checkpoint, optimizer=renumbered), tmp_path / "reordered.pt")
    for name, why in (("short.pt", "the model's state dict has"), ("reordered.pt", "shapes")):
        inspection = inspect_file(tmp_path / name)
        assert named_state(inspection) == dict.fromkeys(range(40), ""), name
        assert any("stays numbered" in note and why in note for note in inspection.notes), name


def test_an_optimizer_saved_beside_the_weights_is_marked_not_named(tmp_path):
    import safetensors.torch

    model, optimizer = checkpoints.nanogpt(tmp_path / "ckpt.pt")
    folder = tmp_path / "checkpoint-2"
    folder.mkdir()
    weights = {k: v for k, v in model.state_dict().items() if k != "lm_head.weight"}
    safetensors.torch.save_file(weights, str(folder / "model.safetensors"))
    torch.save(optimizer.state_dict(), folder / "optimizer.pt")
    inspection = inspect_file(folder)  # safetensors keeps no order: nothing to rely on
    marked = [node for node in inspection.entries if node.optimizer_state]
    assert len(marked) == 3 * 40 and not any(node.parameter for node in marked)
