"""Stand-ins, calls, modules and plain values in the Files area: each kind with its own icon and
colour, long counters folded, the Name column fitted to its names, folders opened as one tree."""

import argparse
import json

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.files.tree import walk
from tensorviz.ui.files.file_tree_model import NodeRole

pytestmark = pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")


def open_and_wait(qtbot, panel, paths):
    with qtbot.waitSignal(panel.file_loaded, timeout=30_000):
        panel.show_queue(paths)
    qtbot.waitUntil(lambda: not panel.is_busy())


def rows(model, parent):
    return {model.data(model.index(r, 0, parent)): model.index(r, 0, parent)
            for r in range(model.rowCount(parent))}  # fmt: skip


def test_kinds_have_their_own_icons_and_colours(qtbot, panel, tmp_path):
    path = tmp_path / "mixed.pt"
    torch.save({"w": torch.ones(2), "args": argparse.Namespace(lr=0.1), "acc": np.float64(0.5),
                "model": torch.nn.Linear(2, 1)}, path)  # fmt: skip
    open_and_wait(qtbot, panel, [str(path)])
    model = panel.model
    top = rows(model, model.index(0, 0))
    kinds = {name: model.data(index, NodeRole).kind for name, index in top.items()}
    assert kinds == {"w": "tensor", "args": "object", "acc": "value", "model": "module"}
    icons = {k: model.data(i, Qt.ItemDataRole.DecorationRole).cacheKey() for k, i in top.items()}
    assert len(set(icons.values())) == 4
    colours = {k: model.data(i, Qt.ItemDataRole.ForegroundRole) for k, i in top.items()}
    assert colours["w"] is None and colours["args"].color().name() == "#5b21b6"
    linear = rows(model, top["model"])
    assert set(linear) >= {"weight", "bias", "in_features", "out_features"}
    summary = model.data(model.index(top["model"].row(), 1, top["model"].parent()))
    assert summary == "Linear module, 2 tensors"
    assert "Namespace" in model.data(top["args"], Qt.ItemDataRole.ToolTipRole)


def test_long_counters_start_collapsed_and_tensors_in_sight(qtbot, panel, tmp_path):
    path = tmp_path / "lightning.ckpt"
    loops = {"fit_loop": {"epoch_progress": {part: {"ready": 3, "started": 3, "processed": 3,
             "completed": 2} for part in ("total", "current")}}}  # fmt: skip
    state = {"layer.weight": torch.ones(2, 2), "layer.bias": torch.ones(2)}
    torch.save({"state_dict": state, "loops": loops}, path)
    open_and_wait(qtbot, panel, [str(path)])
    model = panel.model
    top = rows(model, model.index(0, 0))
    assert not panel.tree.isExpanded(top["loops"])
    assert panel.tree.isExpanded(top["state_dict"])
    assert panel.tree.isExpanded(rows(model, top["state_dict"])["layer"])


def test_name_column_fits_long_names(qtbot, panel, tmp_path):
    path = tmp_path / "names.pt"
    long = "encoder.layers.0.self_attention.query_key_value_projection_weight"
    torch.save({long: torch.ones(1), "x.y": torch.ones(1)}, path)
    open_and_wait(qtbot, panel, [str(path)])
    assert panel.tree.header().sectionSize(0) >= panel.tree.sizeHintForColumn(0) or (
        panel.tree.header().sectionSize(0) >= int(panel.tree.width() * 0.4) - 1
    )


def test_a_checkpoint_folder_opens_as_one_tree(qtbot, panel, tmp_path):
    import safetensors.torch

    folder = tmp_path / "gpt"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"n_layer": 2, "vocab_size": 11}))
    safetensors.torch.save_file(
        {"wte.weight": torch.randn(4, 3)}, str(folder / "model.safetensors")
    )
    open_and_wait(qtbot, panel, [str(folder)])
    model = panel.model
    top = rows(model, model.index(0, 0))
    assert set(top) == {"config.json", "model.safetensors"}
    assert model.data(top["config.json"], NodeRole).kind == "file"
    config = rows(model, top["config.json"])
    assert model.data(model.index(config["n_layer"].row(), 1, top["config.json"])) == "2"
    weight = next(n for n in walk(model.inspection.root) if n.kind == "tensor")
    assert weight.source == "model.safetensors"
    expected = safetensors.torch.load_file(str(folder / "model.safetensors"))["wte.weight"]
    assert torch.equal(model.inspection.tensor_at(weight.access), expected)


def test_the_main_window_opens_a_dropped_or_given_folder(qtbot, window, tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    torch.save({"w": torch.ones(3)}, folder / "last.ckpt")
    panel = window.panel("files")
    with qtbot.waitSignal(panel.file_loaded, timeout=30_000):
        good, problems = window.open_paths([str(folder)])
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert problems == [] and good == [str(folder.resolve())]
    assert window.current_area() == "files"
    assert panel.model.inspection.format == "folder" and len(panel.model.inspection.entries) == 1


def test_a_parameter_of_a_model_saved_whole_goes_to_the_workspace(qtbot, panel, tmp_path):
    path = tmp_path / "model.pt"
    model = torch.nn.Sequential(torch.nn.Linear(2, 3))
    torch.save(model, path)
    open_and_wait(qtbot, panel, [str(path)])
    panel.select_entry(".0.weight")
    (name,) = panel.send_to_workspace()
    assert name.endswith("0_weight")  # a name cannot start with a digit
    assert torch.equal(panel.workspace.tensor(name), model[0].weight.detach())
