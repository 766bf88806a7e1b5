"""Training checkpoints as their tools write them, after real optimizer steps: nanoGPT's
`train.py` ({'model', 'optimizer', 'model_args', 'iter_num', 'best_val_loss', 'config'}, its GPT
with the lm_head tied to the token embedding and configure_optimizers' decay/no-decay groups),
the PyTorch tutorials' {'epoch', 'model_state_dict', 'optimizer_state_dict', 'loss'} and
Lightning's {'state_dict', 'optimizer_states': [...]} (Lightning is not a test dependency: the
dict it saves is written here). `parameter_names(model, optimizer)` is torch's own answer to
"which parameter is optimizer index i"."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


@dataclass
class GPTConfig:  # nanoGPT's model.py, small
    block_size: int = 16
    vocab_size: int = 64
    n_layer: int = 3
    n_head: int = 2
    n_embd: int = 16
    dropout: float = 0.0
    bias: bool = True


class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.n_head, self.n_embd = config.n_head, config.n_embd

    def forward(self, x):
        batch, length, width = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q, k, v = (t.view(batch, length, self.n_head, -1).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(batch, length, width))


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            drop=nn.Dropout(config.dropout),
            h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f=LayerNorm(config.n_embd, bias=config.bias),
        ))  # fmt: skip
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying, as nanoGPT does
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config.n_layer))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets):
        pos = torch.arange(0, idx.size(1), dtype=torch.long)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))

    def configure_optimizers(self, weight_decay, learning_rate, betas):  # nanoGPT's, verbatim
        param_dict = {pn: p for pn, p in self.named_parameters()}
        param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [
            {"params": decay_params, "weight_decay": weight_decay},
            {"params": nodecay_params, "weight_decay": 0.0},
        ]
        return torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas)


def _steps(model, optimizer, config, steps: int) -> torch.Tensor:
    loss = torch.tensor(0.0)
    for _ in range(steps):
        data = torch.randint(0, config.vocab_size, (4, config.block_size + 1))
        loss = model(data[:, :-1], data[:, 1:])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return loss.detach()


def nanogpt(path, iters: int = 2, seed: int = 0):
    """nanoGPT's ckpt.pt after `iters` iterations; returns (model, optimizer)."""
    torch.manual_seed(seed)
    config = GPTConfig()
    model = GPT(config)
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95))
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
    config = GPTConfig(n_layer=2)
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
