"""Training checkpoints as their tools write them, after real optimizer steps: nanoGPT's
`train.py` ({'model', 'optimizer', 'model_args', 'iter_num', 'best_val_loss', 'config'}, its GPT
with the lm_head tied to the token embedding and configure_optimizers' decay/no-decay groups),
the PyTorch tutorials' {'epoch', 'model_state_dict', 'optimizer_state_dict', 'loss'} and
Lightning's {'state_dict', 'optimizer_states': [...]} (Lightning is not a test dependency: the
dict it saves is written here). `parameter_names(model, optimizer)` is torch's own answer to
"which parameter is optimizer index i"."""

from __future__ import annotations

from dataclasses import asdict

import torch
from nanogpt.model import GPT, GPTConfig  # the nanoGPT-shaped model of tests/nanogpt
from torch import nn
from torch.nn import functional as F  # noqa: N812


def _config(**changes) -> GPTConfig:  # nanoGPT's model.py, small
    return GPTConfig(**{"block_size": 16, "vocab_size": 64, "n_layer": 3, "n_embd": 16, **changes})


def _steps(model, optimizer, config, steps: int) -> torch.Tensor:
    loss = torch.tensor(0.0)
    for _ in range(steps):
        data = torch.randint(0, config.vocab_size, (4, config.block_size + 1))
        _logits, loss = model(data[:, :-1], data[:, 1:].contiguous())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return loss.detach()


def nanogpt(path, iters: int = 2, seed: int = 0):
    """nanoGPT's ckpt.pt after `iters` iterations; returns (model, optimizer)."""
    torch.manual_seed(seed)
    config = _config()
    model = GPT(config)
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cpu")
    best_val_loss = _steps(model, optimizer, config, iters)
    model_args = {k: v for k, v in asdict(config).items() if k != "dropout"}
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "model_args": model_args,
        "iter_num": iters,
        "best_val_loss": best_val_loss,
        "config": {"batch_size": 4, "learning_rate": 6e-4, "compile": False, **model_args},
    }
    torch.save(checkpoint, path)
    return model, optimizer


def tutorial(path, seed: int = 0):
    """The PyTorch tutorials' checkpoint of a small net trained with SGD + momentum."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(2):
        loss = F.cross_entropy(model(torch.randn(6, 4)), torch.randint(0, 3, (6,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save({"epoch": 2, "model_state_dict": model.state_dict(),
                "optimizer_state_dict": optimizer.state_dict(), "loss": loss.item()},
               path)  # fmt: skip
    return model, optimizer


def lightning(path, seed: int = 0):
    """What Lightning's ModelCheckpoint writes for a LightningModule holding `self.model`."""
    torch.manual_seed(seed)
    config = _config(n_layer=2)
    model = GPT(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    _steps(model, optimizer, config, 1)
    torch.save({"epoch": 0, "global_step": 1, "pytorch-lightning_version": "2.4.0",
                "state_dict": {f"model.{k}": v for k, v in model.state_dict().items()},
                "optimizer_states": [optimizer.state_dict()], "lr_schedulers": []},
               path)  # fmt: skip
    return model, optimizer


def parameter_names(model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[int, str]:
    """Optimizer index → the parameter's name, from the live objects (torch's own numbering:
    the parameters of the param_groups in order)."""
    name_of = {}
    for name, parameter in model.named_parameters():
        name_of.setdefault(id(parameter), name)
    ordered = [p for group in optimizer.param_groups for p in group["params"]]
    return {index: name_of[id(p)] for index, p in enumerate(ordered)}
