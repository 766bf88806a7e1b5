"""The screenshot tour's Compare step: a GPT-2 shaped checkpoint and its fine-tuned copy (later
blocks moved more, the embedding frozen, epoch 3 → 12), compared in the real Compare area, then
one pair's values side by side."""

from __future__ import annotations

import tempfile
from pathlib import Path

WIDTH, BLOCKS = 64, 12


def gpt2_shaped_state(seed: int = 0) -> dict:
    """The keys and shapes of a GPT-2 state dict (small width), output weights tied."""
    import torch

    generator = torch.Generator().manual_seed(seed)

    def weights(*shape):
        return torch.randn(*shape, generator=generator) * 0.05

    state = {
        "transformer.wte.weight": weights(500, WIDTH),
        "transformer.wpe.weight": weights(128, WIDTH),
    }
    shapes = {
        "ln_1": (WIDTH,),
        "attn.c_attn": (WIDTH, 3 * WIDTH),
        "attn.c_proj": (WIDTH, WIDTH),
        "ln_2": (WIDTH,),
        "mlp.c_fc": (WIDTH, 4 * WIDTH),
        "mlp.c_proj": (4 * WIDTH, WIDTH),
    }
    for i in range(BLOCKS):
        for name, shape in shapes.items():
            scale = 1 if len(shape) == 1 else 0  # LayerNorm weights sit near one
            state[f"transformer.h.{i}.{name}.weight"] = scale + weights(*shape)
            state[f"transformer.h.{i}.{name}.bias"] = weights(shape[-1])
    state["transformer.ln_f.weight"] = 1 + weights(WIDTH)
    state["transformer.ln_f.bias"] = weights(WIDTH)
    state["lm_head.weight"] = state["transformer.wte.weight"]
    return state


def fine_tuned(state: dict) -> dict:
    import torch

    generator = torch.Generator().manual_seed(1)
    tuned = {}
    for key, value in state.items():
        if ".h." in key:
            depth = int(key.split(".")[2])
            scale = 0.002 * (1 + depth)  # later blocks move more, as fine-tuning does
            noise = torch.randn(value.shape, generator=generator)
            tuned[key] = value + scale * value.abs().mean() * noise
        else:
            tuned[key] = value.clone()
    tuned["lm_head.weight"] = tuned["transformer.wte.weight"]
    return tuned


def stage_compare(window, app, out_dir: Path, wait_for) -> list[Path]:
    import torch

    state = gpt2_shaped_state()
    written = [out_dir / "compare.png", out_dir / "compare_values.png"]
    with tempfile.TemporaryDirectory() as tmp:
        path_a, path_b = Path(tmp) / "gpt2-small.pt", Path(tmp) / "gpt2-finetuned.pt"
        torch.save({"model": state, "epoch": 3, "optimizer": {"lr": 3e-4}}, path_a)
        torch.save({"model": fine_tuned(state), "epoch": 12, "optimizer": {"lr": 1e-4}}, path_b)
        panel = window.panel("compare")
        window.show_area("compare")
        panel.compare_paths(str(path_a), str(path_b))
        wait_for(lambda: panel.comparison is not None and not panel.is_busy())
        app.processEvents()
        window.grab().save(str(written[0]))
        panel.group_box.setChecked(False)
        rows = range(panel.model.rowCount())
        matrix = next(r for r in rows if len(panel.model.pair(r).a.info.shape) == 2)
        dialog = panel.open_pair(matrix)  # the most changed weight matrix
        wait_for(lambda: dialog.a is not None)
        app.processEvents()
        dialog.grab().save(str(written[1]))
        dialog.close()
        panel.group_box.setChecked(True)
    return written
