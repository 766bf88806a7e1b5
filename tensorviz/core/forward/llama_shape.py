"""A decoder with Llama's shape (RMSNorm, grouped-query attention, SwiGLU MLP, tied nothing),
written with nn layers, for the meta-device preset: a 70B-parameter configuration records its
whole architecture without allocating its 140 GB of weights."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class LlamaConfig:
    vocab: int = 32_000
    hidden: int = 8192
    intermediate: int = 28_672
    layers: int = 80
    heads: int = 64
    kv_heads: int = 8


class RMSNorm(nn.Module):
    def __init__(self, size: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class LlamaAttention(nn.Module):
    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        self.heads, self.kv_heads = config.heads, config.kv_heads
        self.head_size = config.hidden // config.heads
        kv = self.kv_heads * self.head_size
        self.q_proj = nn.Linear(config.hidden, config.hidden, bias=False)
        self.k_proj = nn.Linear(config.hidden, kv, bias=False)
        self.v_proj = nn.Linear(config.hidden, kv, bias=False)
        self.o_proj = nn.Linear(config.hidden, config.hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, _ = x.shape
        q = self.q_proj(x).view(batch, length, self.heads, self.head_size).transpose(1, 2)
        k = self.k_proj(x).view(batch, length, self.kv_heads, self.head_size).transpose(1, 2)
        v = self.v_proj(x).view(batch, length, self.kv_heads, self.head_size).transpose(1, 2)
        repeat = self.heads // self.kv_heads
        k, v = k.repeat_interleave(repeat, dim=1), v.repeat_interleave(repeat, dim=1)
        out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(batch, length, -1))


class LlamaMLP(nn.Module):
    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(config.hidden, config.intermediate, bias=False)
        self.up_proj = nn.Linear(config.hidden, config.intermediate, bias=False)
        self.down_proj = nn.Linear(config.intermediate, config.hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(nn.functional.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(config.hidden)
        self.self_attn = LlamaAttention(config)
        self.post_attention_layernorm = RMSNorm(config.hidden)
        self.mlp = LlamaMLP(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.self_attn(self.input_layernorm(x))
        return x + self.mlp(self.post_attention_layernorm(x))


class LlamaModel(nn.Module):
    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab, config.hidden)
        self.layers = nn.ModuleList(LlamaDecoderLayer(config) for _ in range(config.layers))
        self.norm = RMSNorm(config.hidden)
        self.lm_head = nn.Linear(config.hidden, config.vocab, bias=False)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        x = self.embed_tokens(input_ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.norm(x))


def llama_on_meta(config: LlamaConfig = LlamaConfig(), tokens: int = 16):
    """(model, input_ids) on the meta device: shapes only, no memory for the weights."""
    with torch.device("meta"):
        model = LlamaModel(config)
        input_ids = torch.zeros(1, tokens, dtype=torch.long)
    return model, input_ids
