"""Ready-made graphs that mirror MISSION.md's autograd section, built with real torch.

Each preset can run its forward pass again on the same leaves (`BuiltGraph.rebuild`), as a
tutorial's training loop does: a second Backward after one that freed the graph (no
retain_graph) gets a fresh graph, and the leaves' .grad accumulates as it does in the loop
(z = x**2 + 1 at x = 2: 4 → 8 → 12)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.autograd.graph import AutogradGraph, LeafNames, extract_graph
from tensorviz.core.forward.module_tags import tagging_modules
from tensorviz.core.translation import _


@dataclass
class BuiltGraph:
    """A forward pass, done: the root to walk back from and the names of its tensors."""

    root: torch.Tensor
    root_name: str
    named: dict[str, torch.Tensor]  # leaves (and interesting intermediates) by name
    module: torch.nn.Module | None = None
    notes: str = ""
    rebuild: Callable[[], BuiltGraph] | None = None  # the same forward again, same leaves

    def leaf_names(self) -> LeafNames:
        names = LeafNames(self.named)
        if self.module is not None:
            names.add_module(self.module)
        return names

    def extract(self) -> AutogradGraph:
        return extract_graph([self.root], self.leaf_names(), [self.root_name])


@dataclass(frozen=True)
class GraphPreset:
    key: str
    title_text: Callable[[], str]  # the title in the language in force when asked
    code: str
    build: Callable[[], BuiltGraph]

    @property
    def title(self) -> str:
        return self.title_text()


def _repeatable(forward: Callable[[], BuiltGraph]) -> BuiltGraph:
    """The forward's first result, able to run `forward` again on the same leaves."""

    def run() -> BuiltGraph:
        built = forward()
        built.rebuild = run
        return built

    return run()


def _square_plus_linear() -> BuiltGraph:
    x = torch.tensor(2.0, requires_grad=True)

    def forward() -> BuiltGraph:
        y = x**2 + 3 * x
        return BuiltGraph(y, "y", {"x": x}, notes=_("dy/dx = 2x + 3 = 7 at x = 2"))

    return _repeatable(forward)


def _square_plus_one() -> BuiltGraph:
    x = torch.tensor(2.0, requires_grad=True)

    def forward() -> BuiltGraph:
        z = x**2 + 1
        notes = _(
            "Press Backward three times: x.grad = 4 → 8 → 12. Each pass runs z = x**2 + 1 "
            "again on the same x, as the tutorial's loop does, and backward adds into x.grad "
            "— until Zero grad."
        )
        return BuiltGraph(z, "z", {"x": x}, notes=notes)

    return _repeatable(forward)


def _linear_regression() -> BuiltGraph:
    rng = np.random.default_rng(42)
    x = torch.tensor(rng.random((100, 1)) * 10, dtype=torch.float32)
    y = 2.5 * x + 1.8 + 2 * torch.tensor(rng.standard_normal((100, 1)), dtype=torch.float32)
    torch.manual_seed(42)
    w = torch.randn(1, requires_grad=True)
    b = torch.randn(1, requires_grad=True)

    def forward() -> BuiltGraph:
        loss = ((w * x + b - y) ** 2).mean()
        return BuiltGraph(loss, "loss", {"w": w, "b": b, "x": x, "y": y}, notes=_("dL/dw, dL/db"))

    return _repeatable(forward)


def _mlp() -> BuiltGraph:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    inputs, targets = torch.randn(8, 3), torch.randn(8, 1)

    def forward() -> BuiltGraph:
        with tagging_modules():  # each backward node learns which layer made it
            prediction = model(inputs)
        loss = torch.nn.functional.mse_loss(prediction, targets)
        return BuiltGraph(
            loss,
            "loss",
            {"inputs": inputs},
            module=model,
            notes=_("leaves named as in model.named_parameters()"),
        )

    return _repeatable(forward)


def _split_chunk() -> BuiltGraph:
    x = torch.arange(6.0, requires_grad=True)

    def forward() -> BuiltGraph:
        h = x * 2
        a, b, c = h.chunk(3)
        p, q = x.split([4, 2])
        loss = (a * b).sum() + c.exp().sum() + p.sum() * q.sum()
        return BuiltGraph(
            loss, "loss", {"x": x}, notes=_("each edge out of a split names its output")
        )

    return _repeatable(forward)


def _in_place_view() -> BuiltGraph:
    x = torch.ones(4, requires_grad=True)

    def forward() -> BuiltGraph:
        h = x * 2
        h[1:3].mul_(10)  # writes through a view of a non-leaf: CopySlices
        loss = h.sum()
        return BuiltGraph(loss, "loss", {"x": x}, notes=_("h[1:3].mul_(10) became CopySlices"))

    return _repeatable(forward)


def _detached_branch() -> BuiltGraph:
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def forward() -> BuiltGraph:
        a = x * 3
        b = a.detach() * 2  # cut: no gradient flows through b
        loss = (a + b).sum()
        return BuiltGraph(loss, "loss", {"x": x}, notes=_("dloss/dx = 3, not 3 + 6: b is detached"))

    return _repeatable(forward)


PRESETS: dict[str, GraphPreset] = {
    p.key: p
    for p in (
        GraphPreset(
            "square",
            lambda: _("y = x**2 + 3*x at x = 2"),
            "y = x**2 + 3 * x",
            _square_plus_linear,
        ),
        GraphPreset(
            "accumulate", lambda: _("z = x**2 + 1 (accumulate)"), "z = x**2 + 1", _square_plus_one
        ),
        GraphPreset(
            "regression",
            lambda: _("linear-regression loss"),
            "loss = ((w * x + b - y) ** 2).mean()",
            _linear_regression,
        ),
        GraphPreset(
            "mlp", lambda: _("nn.Linear MLP + MSE"), "mse_loss(model(inputs), targets)", _mlp
        ),
        GraphPreset(
            "split",
            lambda: _("split / chunk outputs"),
            "a, b, c = (x * 2).chunk(3); ...",
            _split_chunk,
        ),
        GraphPreset(
            "inplace", lambda: _("in-place write on a view"), "h[1:3].mul_(10)", _in_place_view
        ),
        GraphPreset(
            "detach", lambda: _("a detached branch"), "b = a.detach() * 2", _detached_branch
        ),
    )
}


def preset(key: str) -> GraphPreset:
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(PRESETS)
        raise KeyError(
            _("unknown preset '{key}' (choose from {known})").format(key=key, known=known)
        ) from None
