"""GPT-2-, BERT-, T5-, ViT- and ResNet-shaped models written with nn layers (small configs,
random weights, nothing downloaded), as those architectures are built: GPT-2's blocks in a
ModuleList `h` returning tuples, BERT's `encoder.layer`, T5's stacks whose first block alone has
the relative attention bias, a ViT encoder and a ResNet of bottlenecks. Shared by the tests and
bench/ (which puts this folder on sys.path)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


class Conv1D(nn.Module):  # GPT-2's linear layer (weight stored transposed)
    def __init__(self, out_features: int, in_features: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.02)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x):
        return torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(*x.shape[:-1], -1)


class GPT2Attention(nn.Module):
    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.c_attn = Conv1D(3 * hidden, hidden)
        self.c_proj = Conv1D(hidden, hidden)
        self.attn_dropout = nn.Dropout(0.1)
        self.resid_dropout = nn.Dropout(0.1)

    def forward(self, x):
        batch, length, hidden = x.shape
        q, k, v = self.c_attn(x).split(hidden, dim=2)
        q, k, v = (t.view(batch, length, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        weights = (q @ k.transpose(-1, -2)) / (q.size(-1) ** 0.5)
        mask = torch.tril(torch.ones(length, length, dtype=torch.bool, device=x.device))
        weights = self.attn_dropout(weights.masked_fill(~mask, float("-inf")).softmax(-1))
        out = (weights @ v).transpose(1, 2).reshape(batch, length, hidden)
        return self.resid_dropout(self.c_proj(out)), (k, v)


class GPT2MLP(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.c_fc = Conv1D(4 * hidden, hidden)
        self.c_proj = Conv1D(hidden, 4 * hidden)
        self.act = nn.GELU(approximate="tanh")
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        return self.dropout(self.c_proj(self.act(self.c_fc(x))))


class GPT2Block(nn.Module):
    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(hidden)
        self.attn = GPT2Attention(hidden, heads)
        self.ln_2 = nn.LayerNorm(hidden)
        self.mlp = GPT2MLP(hidden)

    def forward(self, hidden_states):
        attn_out, present = self.attn(self.ln_1(hidden_states))
        hidden_states = hidden_states + attn_out
        hidden_states = hidden_states + self.mlp(self.ln_2(hidden_states))
        return (hidden_states, present)


@dataclass
class CausalLMOutput:  # the shape of transformers' ModelOutput: a dataclass of tensors
    logits: torch.Tensor
    last_hidden_state: torch.Tensor


class GPT2Model(nn.Module):
    def __init__(
        self,
        vocab: int = 100,
        positions: int = 32,
        hidden: int = 32,
        layers: int = 4,
        heads: int = 4,
    ) -> None:
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(positions, hidden)
        self.drop = nn.Dropout(0.1)
        self.h = nn.ModuleList(GPT2Block(hidden, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(hidden)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        hidden_states = self.drop(self.wte(input_ids) + self.wpe(positions))
        for block in self.h:
            hidden_states = block(hidden_states)[0]
        return self.ln_f(hidden_states)


class GPT2LMHeadModel(nn.Module):
    def __init__(self, **config) -> None:
        super().__init__()
        self.transformer = GPT2Model(**config)
        hidden = self.transformer.wte.embedding_dim
        self.lm_head = nn.Linear(hidden, self.transformer.wte.num_embeddings, bias=False)
        self.lm_head.weight = self.transformer.wte.weight  # tied, as GPT-2 does

    def forward(self, input_ids):
        hidden = self.transformer(input_ids)
        return CausalLMOutput(self.lm_head(hidden), hidden)


class BertSelfAttention(nn.Module):
    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = (nn.Linear(hidden, hidden) for _ in range(3))
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, mask):
        batch, length, hidden = x.shape

        def split(t):
            return t.view(batch, length, self.heads, -1).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / (q.shape[-1] ** 0.5) + mask
        context = self.dropout(scores.softmax(-1)) @ v
        return context.transpose(1, 2).reshape(batch, length, hidden)


class BertLayer(nn.Module):
    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.attention_output = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden)
        self.intermediate = nn.Linear(hidden, 4 * hidden)
        self.output = nn.Linear(4 * hidden, hidden)
        self.output_norm = nn.LayerNorm(hidden)

    def forward(self, x, mask):
        x = self.attention_norm(x + self.attention_output(self.attention(x, mask)))
        inner = nn.functional.gelu(self.intermediate(x))
        return (self.output_norm(x + self.output(inner)),)


class BertEncoder(nn.Module):
    def __init__(self, hidden: int, heads: int, layers: int) -> None:
        super().__init__()
        self.layer = nn.ModuleList(BertLayer(hidden, heads) for _ in range(layers))

    def forward(self, x, mask):
        for layer in self.layer:
            x = layer(x, mask)[0]
        return x


class BertModel(nn.Module):
    def __init__(self, vocab: int = 100, hidden: int = 32, layers: int = 4, heads: int = 4):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(64, hidden)
        self.embeddings_norm = nn.LayerNorm(hidden)
        self.encoder = BertEncoder(hidden, heads, layers)
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.embeddings_norm(
            self.word_embeddings(input_ids) + self.position_embeddings(positions)
        )
        mask = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        sequence = self.encoder(x, mask)
        return {"last_hidden_state": sequence, "pooler_output": self.pooler(sequence[:, 0]).tanh()}


class T5Attention(nn.Module):
    def __init__(self, hidden: int, heads: int, relative_bias: bool) -> None:
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(hidden, hidden, bias=False) for _ in range(4))
        self.relative_attention_bias = nn.Embedding(32, heads) if relative_bias else None

    def forward(self, x, position_bias=None):
        batch, length, hidden = x.shape

        def split(t):
            return t.view(batch, length, self.heads, -1).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        if position_bias is None:  # only the first block computes it; the others reuse it
            distance = torch.arange(length)[None, :] - torch.arange(length)[:, None]
            buckets = distance.clamp(-15, 16) + 15
            position_bias = self.relative_attention_bias(buckets).permute(2, 0, 1)[None]
        weights = (q @ k.transpose(-1, -2) + position_bias).softmax(-1)
        out = (weights @ v).transpose(1, 2).reshape(batch, length, hidden)
        return self.o(out), position_bias


class T5Block(nn.Module):
    def __init__(self, hidden: int, heads: int, relative_bias: bool) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(hidden)
        self.attention = T5Attention(hidden, heads, relative_bias)
        self.ff_norm = nn.LayerNorm(hidden)
        self.wi = nn.Linear(hidden, 4 * hidden, bias=False)
        self.wo = nn.Linear(4 * hidden, hidden, bias=False)

    def forward(self, x, position_bias=None):
        attended, position_bias = self.attention(self.norm(x), position_bias)
        x = x + attended
        x = x + self.wo(torch.relu(self.wi(self.ff_norm(x))))
        return x, position_bias


class T5Stack(nn.Module):
    def __init__(self, embed: nn.Embedding, hidden: int, heads: int, layers: int) -> None:
        super().__init__()
        self.embed_tokens = embed
        self.block = nn.ModuleList(T5Block(hidden, heads, i == 0) for i in range(layers))
        self.final_layer_norm = nn.LayerNorm(hidden)

    def forward(self, input_ids):
        x, position_bias = self.embed_tokens(input_ids), None
        for block in self.block:
            x, position_bias = block(x, position_bias)
        return self.final_layer_norm(x)


class T5Model(nn.Module):
    def __init__(self, vocab: int = 100, hidden: int = 32, layers: int = 4, heads: int = 4):
        super().__init__()
        self.shared = nn.Embedding(vocab, hidden)
        self.encoder = T5Stack(self.shared, hidden, heads, layers)
        self.decoder = T5Stack(self.shared, hidden, heads, layers)

    def forward(self, input_ids, decoder_input_ids):
        return self.decoder(decoder_input_ids) + self.encoder(input_ids).mean(1, keepdim=True)


class ViTLayer(nn.Module):
    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.layernorm_before = nn.LayerNorm(hidden)
        self.attention = nn.MultiheadAttention(hidden, heads, batch_first=True)
        self.layernorm_after = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(
            nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden)
        )

    def forward(self, x):
        y = self.layernorm_before(x)
        x = x + self.attention(y, y, y, need_weights=False)[0]
        return x + self.mlp(self.layernorm_after(x))


class ViT(nn.Module):
    def __init__(
        self, hidden: int = 32, layers: int = 4, heads: int = 4, patch: int = 8, image: int = 32
    ) -> None:
        super().__init__()
        self.patch_embeddings = nn.Conv2d(3, hidden, patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, hidden))
        self.position_embeddings = nn.Parameter(torch.zeros(1, (image // patch) ** 2 + 1, hidden))
        self.layer = nn.ModuleList(ViTLayer(hidden, heads) for _ in range(layers))
        self.layernorm = nn.LayerNorm(hidden)
        self.classifier = nn.Linear(hidden, 10)

    def forward(self, pixel_values):
        x = self.patch_embeddings(pixel_values).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        x = x + self.position_embeddings
        for layer in self.layer:
            x = layer(x)
        return self.classifier(self.layernorm(x)[:, 0])


class Bottleneck(nn.Module):
    def __init__(self, channels: int, width: int, stride: int = 1) -> None:
        super().__init__()
        out = width * 4
        self.conv1, self.bn1 = nn.Conv2d(channels, width, 1, bias=False), nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3, self.bn3 = nn.Conv2d(width, out, 1, bias=False), nn.BatchNorm2d(out)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or channels != out:
            self.downsample = nn.Sequential(
                nn.Conv2d(channels, out, 1, stride, bias=False), nn.BatchNorm2d(out)
            )

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        return self.relu(self.bn3(self.conv3(y)) + identity)


class ResNet(nn.Module):
    """ResNet-50's layout (3, 4, 6, 3 bottlenecks) at a small width."""

    def __init__(self, blocks=(3, 4, 6, 3), width: int = 8) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, 2, 3, bias=False)
        self.bn1, self.relu = nn.BatchNorm2d(width), nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        stages, channels = [], width
        for index, count in enumerate(blocks):
            stage_width = width * 2**index
            layers = [Bottleneck(channels, stage_width, 1 if index == 0 else 2)]
            channels = stage_width * 4
            layers += [Bottleneck(channels, stage_width) for _ in range(count - 1)]
            stages.append(nn.Sequential(*layers))
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.fc = nn.Linear(channels, 10)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))
