"""A GPT-2 shaped model built from nn layers: a small config, tied embedding and output weights."""

import pytest
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = nn.ModuleDict({"c_attn": nn.Linear(width, 3 * width)})
        self.mlp = nn.ModuleDict({"c_fc": nn.Linear(width, 4 * width)})


class TinyGPT(nn.Module):
    def __init__(self, width: int = 8, blocks: int = 12, vocab: int = 40) -> None:
        super().__init__()
        self.transformer = nn.ModuleDict(
            {
                "wte": nn.Embedding(vocab, width),
                "wpe": nn.Embedding(16, width),
                "h": nn.ModuleList(Block(width) for _ in range(blocks)),
                "ln_f": nn.LayerNorm(width),
            }
        )
        self.lm_head = nn.Linear(width, vocab, bias=False)
        self.lm_head.weight = self.transformer.wte.weight  # tied, as GPT-2 does


@pytest.fixture
def gpt_state():
    torch.manual_seed(0)
    model = TinyGPT()
    with torch.no_grad():  # LayerNorm starts at ones/zeros: give every tensor its own values
        for parameter in model.parameters():
            parameter.add_(torch.randn_like(parameter) * 0.1)
    return model.state_dict()
