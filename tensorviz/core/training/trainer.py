"""Gradient descent on the reference linear regression, one phase or one epoch at a time.

The loop is the one a learner writes, on real torch objects::

    y_pred = x * w + b                      # forward
    loss = ((y_pred - y) ** 2).mean()       # loss
    loss.backward()                         # backward
    with torch.no_grad(): w -= lr * w.grad  # update (or optimizer.step())
    w.grad.zero_()                          # zero grad (or optimizer.zero_grad())

The Trainer yields plain numbers (StepRecord, PhaseRecord) — never tensors — so a worker thread
can hand them to the GUI. It stops at the first epoch where the loss, a parameter or a gradient is
inf/NaN (Divergence, with remedies), and turns torch's own error into an ExplainedError.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import torch

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.training.data import (
    TrainingConfig,
    TrainingData,
    least_squares,
    make_data,
)
from tensorviz.core.training.phased_loop import (  # noqa: F401 — re-exported for the areas
    MAX_BATCHES_PER_EPOCH,
    PHASES,
    Divergence,
    PhasedLoop,
    PhaseRecord,
    forgotten_zero_grad_code,
)
from tensorviz.core.training.remedies import (  # noqa: F401 — apply_remedy: re-exported
    Remedy,
    apply_remedy,
    remedies_for,
)
from tensorviz.core.translation import _

PHASE_CODE = {
    "forward": "y_pred = x * w + b",
    "loss": "loss = ((y_pred - y) ** 2).mean()",
    "backward": "loss.backward()",
    "update": "with torch.no_grad():\n    w -= lr * w.grad; b -= lr * b.grad",
    "zero_grad": "w.grad.zero_(); b.grad.zero_()",
}
OPTIMIZER_CODE = {"update": "optimizer.step()", "zero_grad": "optimizer.zero_grad()"}


def phase_codes(config: TrainingConfig) -> dict[str, str]:
    """The line of code each phase runs under this configuration."""
    codes = dict(PHASE_CODE)
    if config.update_style != "manual":
        codes.update(OPTIMIZER_CODE)
    elif config.update_without_no_grad:
        codes["update"] = "w -= lr * w.grad  # " + _("no torch.no_grad()")
    if config.forget_zero_grad:
        codes["zero_grad"] = forgotten_zero_grad_code()
    return codes


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One epoch, as plain numbers. loss is the loss computed in that epoch (before its update,
    as a plain script prints it); w and b are the values after the update; grad_* are autograd's
    .grad used by the update (before clipping) and hand_grad_* the formula on the same batch."""

    epoch: int  # 1-based
    loss: float
    w: float
    b: float
    grad_w: float
    grad_b: float
    hand_grad_w: float
    hand_grad_b: float
    grad_norm: float  # total norm of (w.grad, b.grad), as clip_grad_norm_ measures it
    clipped: bool
    elapsed: float  # seconds of training compute so far

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


class Trainer(PhasedLoop):
    """Owns the data, the parameters and the optimizer; advances one phase or one epoch."""

    def __init__(self, config: TrainingConfig, data: TrainingData | None = None) -> None:
        config.validate()
        self.config = config
        self.device = torch.device(config.device)
        self.data = data or make_data(config)
        self._start(self.data.n)
        self.least_squares = least_squares(self.data.x, self.data.y)
        self.x = self.data.x.to(self.device)
        self.y = self.data.y.to(self.device)
        torch.manual_seed(config.seed)
        w = torch.randn(1, requires_grad=True)
        b = torch.randn(1, requires_grad=True)
        # A leaf moved with .to() would become a non-leaf; detach keeps it a leaf (same values).
        self.w = w.to(self.device).detach().requires_grad_()
        self.b = b.to(self.device).detach().requires_grad_()
        self.initial = (float(w.detach()), float(b.detach()))
        self.optimizer = self._make_optimizer()
        self._begin_loop()

    def _make_optimizer(self):
        c = self.config
        if c.update_style == "sgd":
            return torch.optim.SGD(
                [self.w, self.b], lr=c.lr, momentum=c.momentum, weight_decay=c.weight_decay
            )
        if c.update_style == "adam":
            return torch.optim.Adam([self.w, self.b], lr=c.lr, weight_decay=c.weight_decay)
        return None

    def parameters(self) -> dict[str, torch.Tensor]:
        """Detached CPU copies of w and b (for saving with torch.save)."""
        return {"w": self.w.detach().cpu().clone(), "b": self.b.detach().cpu().clone()}

    # --- the loop --------------------------------------------------------------------------------

    def _run(self) -> Iterator[str]:
        c, w, b, s = self.config, self.w, self.b, self._state
        count = self.batches_per_epoch
        for epoch in range(1, c.epochs + 1):
            s.update(epoch=epoch, done=0)
            loss_sum = torch.zeros((), device=self.device)
            for number, (x, y) in enumerate(self._batches(self.x, self.y), start=1):
                s.update(batch=number, x=x, y=y)
                s["y_pred"] = y_pred = x * w + b
                yield "forward"
                s["loss"] = loss = ((y_pred - y) ** 2).mean()
                yield "loss"
                loss.backward()
                s["grads"] = (w.grad.detach().clone(), b.grad.detach().clone())
                s["w_used"], s["b_used"] = w.detach().clone(), b.detach().clone()
                yield "backward"
                # In float64: squares of float32 gradients near 1e20 overflow float32 to inf.
                s["norm"] = torch.linalg.vector_norm(torch.cat([w.grad, b.grad]).double())
                if c.clip_grad_norm is not None:
                    torch.nn.utils.clip_grad_norm_([w, b], c.clip_grad_norm)
                if not self._update():
                    return
                yield "update"
                if not c.forget_zero_grad:
                    if self.optimizer is not None:
                        self.optimizer.zero_grad()
                    else:
                        w.grad.zero_()
                        b.grad.zero_()
                loss_sum = loss_sum + loss.detach() * (x.shape[0] / self.data.n)
                s["done"] = number
                if number == count:  # the epoch is complete once its last zero_grad ran
                    self._record(loss.detach() if number == 1 else loss_sum)
                yield "zero_grad"
                if self.divergence is not None:
                    return

    def _update(self) -> bool:
        c, w, b = self.config, self.w, self.b
        if self.optimizer is not None:
            self.optimizer.step()
            return True
        try:
            if c.update_without_no_grad:
                w -= c.lr * w.grad  # torch refuses: an in-place change of a leaf
                b -= c.lr * b.grad
            else:
                with torch.no_grad():
                    w -= c.lr * w.grad
                    b -= c.lr * b.grad
        except RuntimeError as error:
            self.error = explain_error(error, op="w -= lr * w.grad", tensors=[w], names=["w"])
            return False
        return True

    def _record(self, loss: torch.Tensor) -> None:
        s = self._state
        x, y = s["x"], s["y"]
        grad_w, grad_b = s["grads"]
        residual = s["w_used"] * x + s["b_used"] - y
        hand_w = 2.0 / x.shape[0] * (residual * x).sum()
        hand_b = 2.0 / x.shape[0] * residual.sum()
        parts = [loss, self.w.detach(), self.b.detach(), grad_w, grad_b, hand_w, hand_b, s["norm"]]
        values = torch.cat([p.reshape(1).double() for p in parts]).tolist()  # one device sync
        loss_v, w_v, b_v, gw, gb, hw, hb, norm = values
        clip = self.config.clip_grad_norm
        record = StepRecord(
            epoch=self.epoch + 1,
            loss=loss_v,
            w=w_v,
            b=b_v,
            grad_w=gw,
            grad_b=gb,
            hand_grad_w=hw,
            hand_grad_b=hb,
            grad_norm=norm,
            clipped=clip is not None and norm > clip,
            elapsed=self._elapsed,
        )
        self.history.append(record)
        checks = (("loss", loss_v), ("w", w_v), ("b", b_v), ("w.grad", gw), ("b.grad", gb))
        for name, value in checks:
            if not math.isfinite(value):
                self.divergence = Divergence(
                    record.epoch, name, value, remedies_for(self.config, self.data.x)
                )
                break

    def _describe(self, phase: str) -> PhaseRecord:
        s = self._state
        values: dict[str, float] = {}
        if phase == "forward":
            values = {f"y_pred[{i}]": v for i, v in enumerate(s["y_pred"][:3, 0].tolist())}
        elif phase == "loss":
            values = {"loss": s["loss"].item()}
        elif phase == "backward":
            values = {"w.grad": self.w.grad.item(), "b.grad": self.b.grad.item()}
        elif phase == "update":
            values = {"w": self.w.item(), "b": self.b.item()}
        elif phase == "zero_grad":
            values = {"w.grad": self.w.grad.item(), "b.grad": self.b.grad.item()}
        code = phase_codes(self.config)[phase]
        return PhaseRecord(s["epoch"], s["batch"], phase, code, values)


def loss_graph(config: TrainingConfig, w: float, b: float) -> dict[str, torch.Tensor]:
    """The loss at parameters (w, b) as a fresh autograd graph, full batch on the CPU, built with
    the trainer's own forward and loss lines — for the Autograd graph area. Returns the named
    tensors a learner would have in a plain script: w, b (leaves), x, y, y_pred, loss."""
    data = make_data(config)
    w_leaf = torch.tensor([w], requires_grad=True)
    b_leaf = torch.tensor([b], requires_grad=True)
    y_pred = data.x * w_leaf + b_leaf
    loss = ((y_pred - data.y) ** 2).mean()
    return {"w": w_leaf, "b": b_leaf, "x": data.x, "y": data.y, "y_pred": y_pred, "loss": loss}


def add_loss_graph_to_workspace(workspace, tensors: dict[str, torch.Tensor]) -> str:
    """Put the tensors of `loss_graph` in the workspace as one undoable step, each with the
    line that made it, so every area can show them; returns the loss's name."""
    from tensorviz.core.tensors.workspace import Provenance, WorkspaceEntry

    names = {key: workspace.suggest_name(f"train_{key}") for key in tensors}
    w, b = (float(tensors[key].detach()) for key in ("w", "b"))
    n = {key: names[key] for key in names}
    made = {
        "w": Provenance("training", f"torch.tensor([{w:.6g}], requires_grad=True)"),
        "b": Provenance("training", f"torch.tensor([{b:.6g}], requires_grad=True)"),
        "x": Provenance(_("training data"), _("x (the training inputs)")),
        "y": Provenance(_("training data"), _("y (the training targets)")),
        "y_pred": Provenance(
            "forward", f"{n['x']} * {n['w']} + {n['b']}", (n["x"], n["w"], n["b"])
        ),
        "loss": Provenance(
            "loss", f"(({n['y_pred']} - {n['y']}) ** 2).mean()", (n["y_pred"], n["y"])
        ),
    }
    entries = [WorkspaceEntry(names[key], tensors[key], made[key]) for key in made]
    workspace.add(entries, _("loss graph from training ({name})").format(name=names["loss"]))
    return names["loss"]
