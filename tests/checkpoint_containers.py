"""One GPT-2 shaped model's weights saved the ways the tools write them: transformers'
save_pretrained folders (model.safetensors, sharded safetensors with an index, pytorch_model.bin,
sharded .bin with an index) and a plain torch.save(state_dict). transformers is not a test
dependency: its layout is written here with the same libraries it calls (safetensors' save_file
with metadata {"format": "pt"} and tied weights saved once; torch.save of the state dict, shards
that keep tied weights together, as huggingface_hub's split does)."""

from __future__ import annotations

import json
import pathlib

import safetensors.torch
import torch
from model_shapes import GPT2LMHeadModel

CONFIG = {
    "model_type": "gpt2",
    "n_embd": 32,
    "n_layer": 2,
    "n_head": 4,
    "vocab_size": 100,
    "n_positions": 32,
    "architectures": ["GPT2LMHeadModel"],
    "tie_word_embeddings": True,
}
TIED = "lm_head.weight"  # transformers' _tied_weights_keys of GPT2LMHeadModel


def gpt2_model(seed: int = 0) -> GPT2LMHeadModel:
    """GPT-2's own initialisation: zero biases and LayerNorm ones/zeros stay constants."""
    torch.manual_seed(seed)
    return GPT2LMHeadModel(vocab=100, positions=32, hidden=32, layers=2, heads=4)


def _shards(names: list[str], state: dict, count: int) -> list[list[str]]:
    """Keys split in `count` shards in order; keys that share a storage stay in one shard."""
    first_of: dict = {}
    groups: list[list[str]] = []
    for name in names:
        storage = state[name].untyped_storage().data_ptr()
        if storage in first_of:
            first_of[storage].append(name)
        else:
            first_of[storage] = [name]
            groups.append(first_of[storage])
    cut = len(groups) // count
    return [sum(groups[i * cut : (i + 1) * cut if i < count - 1 else None], [])
            for i in range(count)]  # fmt: skip


def save_pretrained(model, folder: pathlib.Path, safe: bool, shards: int = 1) -> pathlib.Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(CONFIG, indent=2))
    state = model.state_dict()
    if safe:  # safetensors allows no aliasing: the tied key is dropped, saved once
        state = {k: v.contiguous() for k, v in state.items() if k != TIED}
    ext, stem = (".safetensors", "model") if safe else (".bin", "pytorch_model")
    weight_map = {}
    parts = _shards(list(state), state, shards)
    for number, keys in enumerate(parts, start=1):
        name = f"{stem}-{number:05d}-of-{shards:05d}{ext}" if shards > 1 else f"{stem}{ext}"
        part = {k: state[k] for k in keys}
        if safe:
            safetensors.torch.save_file(part, str(folder / name), metadata={"format": "pt"})
        else:
            torch.save(part, folder / name)
        weight_map |= dict.fromkeys(keys, name)
    if shards > 1:
        total = sum(t.nbytes for t in {t.untyped_storage().data_ptr(): t
                                       for t in state.values()}.values())  # fmt: skip
        index = {"metadata": {"total_size": total}, "weight_map": weight_map}
        (folder / f"{stem}{ext}.index.json").write_text(json.dumps(index, indent=2))
    return folder


def five_containers(root: pathlib.Path, seed: int = 0) -> dict[str, pathlib.Path]:
    """The same weights five ways: name → the path a user opens."""
    model = gpt2_model(seed)
    plain = root / "model.pt"
    root.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), plain)
    return {
        "safetensors": save_pretrained(model, root / "st", safe=True),
        "safetensors-sharded": save_pretrained(model, root / "st-sharded", safe=True, shards=2),
        "bin": save_pretrained(model, root / "bin", safe=False),
        "bin-sharded": save_pretrained(model, root / "bin-sharded", safe=False, shards=2),
        "pt": plain,
    }
