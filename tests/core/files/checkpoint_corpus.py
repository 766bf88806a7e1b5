"""Checkpoints of the shapes practitioners really have, written here by the real tools where the
test environment has them (torch, NumPy, safetensors, torch.distributed.checkpoint) and in the
layouts Lightning and transformers write (they are not test dependencies). Each case returns the
path to open; `reference(path, inspection, access)` gives the same entry as torch itself loads it
(`torch.load(weights_only=False)` of our own file — safe, we wrote it)."""

from __future__ import annotations

import argparse
import collections
import dataclasses
import datetime
import json
import pathlib
import random

import numpy as np
import safetensors.torch
import torch
from torch import nn

from tensorviz.core.files.stand_ins import Appended, Attr


class AttributeDict(dict):
    """Lightning's hyper_parameters container: a dict subclass with attribute access."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError as error:
            raise AttributeError(key) from error


class DictConfig:
    """OmegaConf-like: state through __getstate__/__setstate__, content in a private dict."""

    def __init__(self, content: dict) -> None:
        self._content = content
        self._metadata = {"flags": {"readonly": False}, "key_type": "str"}

    def __getstate__(self):
        return {"_content": self._content, "_metadata": self._metadata}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __eq__(self, other):
        return isinstance(other, DictConfig) and vars(self) == vars(other)


@dataclasses.dataclass
class TrainingArguments:
    """transformers' TrainingArguments is a dataclass pickled whole into training_args.bin."""

    output_dir: str = "out"
    learning_rate: float = 5e-5
    num_train_epochs: float = 3.0
    seed: int = 42


class TinyGPT(nn.Module):
    """GPT-2 shaped: token and position embeddings, blocks, a head tied to the embedding."""

    def __init__(self, vocab=11, dim=8, blocks=2) -> None:
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(6, dim)
        self.h = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, 2, 16, batch_first=True) for _ in range(blocks)
        )
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight  # tied
        self.register_buffer("mask", torch.tril(torch.ones(6, 6)))


def _trained(model: nn.Module):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    model(torch.randint(0, 11, (2, 6)) if isinstance(model, TinyGPT) else torch.randn(2, 4))
    loss = sum(p.sum() for p in model.parameters())
    loss.backward()
    optimizer.step()
    scheduler.step()
    return optimizer, scheduler


class Small(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))

    def forward(self, x):
        return self.net(x)


def tutorial(tmp_path, protocol: int = 2, legacy: bool = False):
    torch.manual_seed(0)
    model = Small()
    optimizer, scheduler = _trained(model)
    path = tmp_path / f"tutorial_p{protocol}{'_legacy' if legacy else ''}.pt"
    checkpoint = {
        "epoch": 7, "loss": 0.25, "model_state_dict": model.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(), "scheduler": scheduler.state_dict(),
        "args": argparse.Namespace(lr=1e-3, batch_size=32, data=pathlib.Path("/data/train")),
        "best_acc": np.float64(0.875), "class_counts": collections.Counter({"cat": 3, "dog": 5}),
        "history": np.arange(5, dtype=np.float32), "saved": datetime.datetime(2024, 5, 1, 12, 30),
        "by_split": collections.defaultdict(list, {"train": [1, 2]}),
        "flags": {"amp", "ema"}, "raw": b"\x00\x01", "shape": torch.Size([3, 4]),
        "dtype": torch.bfloat16, "device": torch.device("cpu"), "tied": None,
    }  # fmt: skip
    checkpoint["view_of_weight"] = model.net[0].weight.detach()[1]  # shares a storage
    torch.save(checkpoint, path, pickle_protocol=protocol,
               _use_new_zipfile_serialization=not legacy)  # fmt: skip
    return path


def lightning(tmp_path):
    torch.manual_seed(1)
    model = Small()
    optimizer, scheduler = _trained(model)
    path = tmp_path / "epoch=2-step=30.ckpt"
    checkpoint = {
        "epoch": 2, "global_step": 30, "pytorch-lightning_version": "2.4.0",
        "state_dict": {f"model.{k}": v for k, v in model.state_dict().items()},
        "loops": {"fit_loop": {"state_dict": {}, "epoch_progress": {
            "total": {"ready": 3, "started": 3, "processed": 3, "completed": 2},
            "current": {"ready": 3, "started": 3, "processed": 3, "completed": 2}},
            "epoch_loop.batch_progress": {"total": {"ready": 30, "completed": 30},
                                          "is_last_batch": True}}},
        "callbacks": {"ModelCheckpoint{'monitor': 'val_loss', 'mode': 'min'}": {
            "best_model_score": torch.tensor(0.31), "best_model_path": "/ckpt/best.ckpt",
            "dirpath": "/ckpt", "best_k_models": {"/ckpt/best.ckpt": torch.tensor(0.31)}}},
        "optimizer_states": [optimizer.state_dict()], "lr_schedulers": [scheduler.state_dict()],
        "hparams_name": "kwargs",
        "hyper_parameters": AttributeDict(hidden=3, lr=1e-3, config=DictConfig({"layers": 2})),
    }  # fmt: skip
    torch.save(checkpoint, path)
    return path


def whole_model(tmp_path):
    torch.manual_seed(2)
    model = TinyGPT()
    path = tmp_path / "gpt.pt"
    torch.save(model, path)
    return path


def torchscript(tmp_path):
    torch.manual_seed(3)
    path = tmp_path / "scripted.pt"
    torch.jit.script(Small()).save(str(path))
    return path


def dtypes(tmp_path, suffix: str):
    tensors = {
        "f8_e4m3": torch.randn(3, 4).to(torch.float8_e4m3fn),
        "f8_e5m2": torch.randn(4).to(torch.float8_e5m2), "bf16": torch.randn(2, 3).bfloat16(),
        "u16": torch.tensor([1, 65535], dtype=torch.int32).to(torch.uint16),
        "u32": torch.tensor([7, 2**32 - 1], dtype=torch.int64).to(torch.uint32),
        "u64": torch.tensor([9], dtype=torch.int64).to(torch.uint64),
        "i8": torch.tensor([-3, 4], dtype=torch.int8), "c64": torch.randn(2, dtype=torch.cfloat),
    }  # fmt: skip
    path = tmp_path / f"dtypes{suffix}"
    if suffix == ".safetensors":
        safetensors.torch.save_file(tensors, str(path), metadata={"format": "pt"})
    else:
        torch.save(tensors, path)
    return path


def save_pretrained(tmp_path, sharded: bool, bin_format: bool = False):
    """transformers' layout: config.json, generation_config.json and the weights (tied weights
    saved once), one file or shards with an index."""
    torch.manual_seed(4)
    folder = tmp_path / ("sharded" if sharded else "pretrained") / ("bin" if bin_format else "st")
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(
        {"model_type": "gpt2", "n_embd": 8, "n_layer": 2, "vocab_size": 11,
         "architectures": ["GPT2LMHeadModel"], "torch_dtype": "float32"}))  # fmt: skip
    (folder / "generation_config.json").write_text(
        json.dumps({"max_length": 20, "do_sample": False})
    )
    state = {k: v.contiguous() for k, v in TinyGPT().state_dict().items() if k != "lm_head.weight"}
    ext, prefix = (".bin", "pytorch_model") if bin_format else (".safetensors", "model")
    names = list(state)
    shards = [names[: len(names) // 2], names[len(names) // 2 :]] if sharded else [names]
    weight_map = {}
    for number, keys in enumerate(shards, start=1):
        name = f"{prefix}-{number:05d}-of-{len(shards):05d}{ext}" if sharded else f"{prefix}{ext}"
        part = {k: state[k].clone() for k in keys}
        if bin_format:
            torch.save(part, folder / name)
        else:
            safetensors.torch.save_file(part, str(folder / name), metadata={"format": "pt"})
        weight_map |= dict.fromkeys(keys, name)
    if sharded:
        index = {"metadata": {"total_size": sum(t.nbytes for t in state.values())},
                 "weight_map": weight_map}  # fmt: skip
        (folder / f"{prefix}{ext}.index.json").write_text(json.dumps(index))
    return folder


def trainer_checkpoint(tmp_path):
    """A transformers Trainer checkpoint-N/ folder."""
    folder = save_pretrained(tmp_path, sharded=False).rename(tmp_path / "checkpoint-500")
    torch.manual_seed(5)
    model = Small()
    optimizer, scheduler = _trained(model)
    torch.save(optimizer.state_dict(), folder / "optimizer.pt")
    torch.save(scheduler.state_dict(), folder / "scheduler.pt")
    random.seed(0)
    np.random.seed(0)
    torch.save({"python": random.getstate(), "numpy": np.random.get_state(),
                "cpu": torch.random.get_rng_state()}, folder / "rng_state.pth")  # fmt: skip
    (folder / "trainer_state.json").write_text(json.dumps(
        {"global_step": 500, "epoch": 1.5, "best_metric": None,
         "log_history": [{"loss": 2.1, "step": 250}, {"loss": 1.7, "step": 500}]}))  # fmt: skip
    torch.save(TrainingArguments(), folder / "training_args.bin")
    return folder


def distributed(tmp_path):
    import torch.distributed.checkpoint as dcp

    torch.manual_seed(6)
    folder = tmp_path / "dcp"
    model = Small()
    state = {"model": model.state_dict(), "step": 12, "tag": "run-a"}
    dcp.save(state, checkpoint_id=str(folder))
    return folder


# --- torch's own answers -------------------------------------------------------------------------


def torch_load(path):
    return torch.load(path, weights_only=False, map_location="cpu")


def reference_root(path: pathlib.Path, inspection):
    """What torch (and json, and safetensors) give for the same path."""
    if inspection.format == "torchscript":
        return {"module": torch.jit.load(str(path))}
    if inspection.format == "dcp":
        from torch.distributed.checkpoint.format_utils import dcp_to_torch_save

        single = path.parent / f"{path.name}.pt"
        dcp_to_torch_save(str(path), str(single))
        return torch_load(single)
    if inspection.format == "safetensors":
        loaded = safetensors.torch.load_file(str(path))
        return {"__metadata__": _metadata(path), **loaded}
    if inspection.format == "index":
        return {k: _file(path.parent / v)[k] for k, v in _index(path).items()}
    if inspection.format == "folder":
        return _FolderReference(path)
    return torch_load(path)


def _metadata(path):
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        return f.metadata()


def _index(path):
    return json.loads(path.read_text())["weight_map"]


def _file(path: pathlib.Path):
    if path.suffix == ".json" and not path.name.endswith(".index.json"):
        return json.loads(path.read_text())
    if path.suffix == ".safetensors":
        return {"__metadata__": _metadata(path), **safetensors.torch.load_file(str(path))}
    if path.name.endswith(".index.json"):
        return {k: _file(path.parent / v)[k] for k, v in _index(path).items()}
    return torch_load(path)


class _FolderReference:
    def __init__(self, folder: pathlib.Path) -> None:
        self.folder = folder

    def __getitem__(self, name):
        return _file(self.folder / name)


def resolve(real, access: tuple):
    """Our access path applied to torch's object (attributes by getattr, as a user types them)."""
    for step in access:
        if isinstance(step, Attr):
            real = getattr(real, step.name) if not hasattr(real, "__dict__") or step.name not in \
                vars(real) else vars(real)[step.name]  # fmt: skip
        elif isinstance(step, Appended):
            real = real[step.index]
        else:
            real = real[step]
    return real
