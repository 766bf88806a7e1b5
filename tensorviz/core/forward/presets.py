"""Ready-made forwards for the Architecture area: the seeds' MLP, a small CNN, a
TransformerEncoder, an LSTM, an unrolled LSTMCell (one module called per step) and a 70B
Llama-shaped decoder on the meta device (shapes only)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import nn

from tensorviz.core.forward.llama_shape import llama_on_meta
from tensorviz.core.translation import _


@dataclass
class ForwardSubject:
    """What to record: `target(*args)`, with names for the modules a function calls."""

    target: Callable
    args: tuple
    title: str
    modules: dict[str, nn.Module] = field(default_factory=dict)


@dataclass(frozen=True)
class ForwardPreset:
    key: str
    title_text: Callable[[], str]  # the title in the language in force when asked
    build: Callable[[], ForwardSubject]

    @property
    def title(self) -> str:
        return self.title_text()


def _mlp() -> ForwardSubject:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    return ForwardSubject(model, (torch.randn(8, 3),), "model(inputs)")


class SmallCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Linear(16 * 7 * 7, 10)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.classifier(torch.flatten(self.features(images), 1))


def _cnn() -> ForwardSubject:
    torch.manual_seed(0)
    return ForwardSubject(SmallCNN(), (torch.randn(4, 1, 28, 28),), "model(images)")


def _transformer() -> ForwardSubject:
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
    model = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
    return ForwardSubject(model, (torch.randn(2, 10, 32),), "encoder(tokens)")


class LSTMClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.head = nn.Linear(16, 3)

    def forward(self, sequence: torch.Tensor) -> torch.Tensor:
        outputs, (hidden, _cell) = self.lstm(sequence)
        return self.head(outputs[:, -1])


def _lstm() -> ForwardSubject:
    torch.manual_seed(0)
    return ForwardSubject(LSTMClassifier(), (torch.randn(2, 6, 8),), "model(sequence)")


def _unrolled() -> ForwardSubject:
    torch.manual_seed(0)
    cell = nn.LSTMCell(8, 16)

    def unroll(steps: torch.Tensor) -> torch.Tensor:
        h = c = torch.zeros(steps.shape[1], 16)
        for step in steps:
            h, c = cell(step, (h, c))
        return h

    return ForwardSubject(unroll, (torch.randn(6, 2, 8),), "unroll(steps)", {"cell": cell})


def _llama_meta() -> ForwardSubject:
    model, input_ids = llama_on_meta()
    return ForwardSubject(model, (input_ids,), "llama_70b(input_ids) on meta")


PRESETS: dict[str, ForwardPreset] = {
    p.key: p
    for p in (
        ForwardPreset("mlp", lambda: _("MLP (Linear, ReLU, Linear)"), _mlp),
        ForwardPreset("cnn", lambda: _("small CNN (28×28 images)"), _cnn),
        ForwardPreset("transformer", lambda: _("TransformerEncoder, 4 layers"), _transformer),
        ForwardPreset("lstm", lambda: _("2-layer LSTM classifier"), _lstm),
        ForwardPreset("unrolled", lambda: _("LSTMCell unrolled 6 steps"), _unrolled),
        ForwardPreset("llama70b", lambda: _("Llama-shaped 70B on meta (shapes only)"), _llama_meta),
    )
}
