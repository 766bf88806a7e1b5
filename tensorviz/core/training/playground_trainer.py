"""A playground network trained one phase or one epoch at a time, on real torch objects.

The loop is the one the exported script runs (script_export), line for line::

    for epoch in range(1, epochs + 1):
        epoch_loss = 0.0
        for x_batch, y_batch in batches:                  # shuffled by a seeded generator
            output = model(x_batch)                       # forward
            loss = loss_fn(output, y_batch)               # loss  (+ l2 · Σ ‖W‖²)
            loss.backward()                               # backward
            optimizer.step()                              # update
            optimizer.zero_grad()                         # zero grad
            epoch_loss += loss.item() * len(y_batch) / n_train
        model.eval()
        with torch.no_grad():
            test_loss = loss_fn(model(x_test), y_test).item()
        model.train()

so the script reproduces this run bit for bit. Records and pictures are plain numbers and NumPy
arrays, never tensors, so a worker thread can hand them to the GUI.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.datasets import TaskData, make_task_data
from tensorviz.core.training.network import (
    build_network,
    input_features,
    l2_penalty,
    linear_layers,
    make_loss,
    make_optimizer,
    predicted_class,
)
from tensorviz.core.training.network_choices import TASKS, is_network_task
from tensorviz.core.training.network_picture import NetworkLayout, network_layout
from tensorviz.core.training.network_pictures import NetworkPictures, Picturer
from tensorviz.core.training.phased_loop import (
    Divergence,
    PhasedLoop,
    PhaseRecord,
    forgotten_zero_grad_code,
)
from tensorviz.core.training.remedies import network_remedies
from tensorviz.core.translation import _


def network_phase_codes(config: TrainingConfig) -> dict[str, str]:
    """The code each phase of a playground step runs under this configuration."""
    l2 = config.l2 > 0
    return {
        "forward": "output = model(x_batch)",
        "loss": "loss = loss_fn(output, y_batch)"
        + ("\nobjective = loss + l2 * Σ ‖W‖²" if l2 else ""),
        "backward": "objective.backward()" if l2 else "loss.backward()",
        "update": (
            "clip_grad_norm_(model.parameters(), max_norm)\n"
            if config.clip_grad_norm is not None
            else ""
        )
        + "optimizer.step()",
        "zero_grad": forgotten_zero_grad_code()
        if config.forget_zero_grad
        else "optimizer.zero_grad()",
    }


@dataclass(frozen=True, slots=True)
class NetworkRecord:
    """One epoch, as plain numbers. loss: the training loss of the epoch (each mini-batch's
    loss_fn value before its update, weighted by its size; without the L2 term); test_*: on the
    held-out samples after the epoch, in eval mode; grad_norms: ‖∂objective/∂W‖ of each Linear
    layer on the epoch's last mini-batch, before clipping."""

    epoch: int
    loss: float
    test_loss: float | None
    test_accuracy: float | None  # classification only
    grad_norms: tuple[float, ...]
    elapsed: float

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


class PlaygroundTrainer(PhasedLoop):
    """Owns the task's data, the nn.Sequential, the loss and the optimizer."""

    def __init__(self, config: TrainingConfig, data: TaskData | None = None) -> None:
        config.validate()
        if not is_network_task(config.task):
            raise TrainingConfigError(
                _("{task!r} is not a playground network task").format(task=config.task)
            )
        self.config = config
        self.device = torch.device(config.device)
        self.data = data or make_task_data(config)
        self._start(len(self.data.train))
        self.classes = self.data.classes
        torch.manual_seed(config.seed)
        self.model = build_network(config, self.classes).to(self.device)
        self.layers = linear_layers(self.model)
        self.x_train = input_features(self.data.x_train, config.features).to(self.device)
        self.y_train = self.data.y_train.to(self.device)
        self.x_test = input_features(self.data.x_test, config.features).to(self.device)
        self.y_test = self.data.y_test.to(self.device)
        self._test_labels = self.y_test.reshape(-1).long() if self.classes else None
        self.loss_fn = make_loss(config)
        self.optimizer = make_optimizer(config, self.model)
        self.layout: NetworkLayout = network_layout(
            config.features, config.hidden_layers, self.layers[-1].out_features
        )
        self.dims = TASKS[config.task].dims
        self.picturer = Picturer(config, self.data.plane, self.layout, self.dims, self.device)
        self._begin_loop()

    # --- the loop --------------------------------------------------------------------------------

    def _run(self) -> Iterator[str]:
        """The loop; torch's own error (out of memory on a device, say) stops it as data."""
        try:
            yield from self._epochs()
        except (RuntimeError, ValueError) as error:
            phase = self._state.get("phase", "forward")
            code = network_phase_codes(self.config).get(phase, "")
            self.error = explain_error(error, op=code.splitlines()[0] if code else None)

    def _epochs(self) -> Iterator[str]:
        c, s, model = self.config, self._state, self.model
        count = self.batches_per_epoch
        for epoch in range(1, c.epochs + 1):
            s.update(epoch=epoch, done=0)
            epoch_loss = 0.0
            for number, (x, y) in enumerate(self._batches(self.x_train, self.y_train), start=1):
                s.update(batch=number, phase="forward")
                s["output"] = output = model(x)
                yield "forward"
                s["phase"] = "loss"
                s["loss"] = loss = self.loss_fn(output, y)
                objective = loss + c.l2 * l2_penalty(model) if c.l2 > 0 else loss
                s["objective"] = objective
                yield "loss"
                s["phase"] = "backward"
                objective.backward()
                if number == count:
                    s["grad_norms"] = self.gradient_norms()
                yield "backward"
                s["phase"] = "update"
                if c.clip_grad_norm is not None:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), c.clip_grad_norm)
                self.optimizer.step()
                yield "update"
                s["phase"] = "zero_grad"
                if not c.forget_zero_grad:
                    self.optimizer.zero_grad()
                epoch_loss += loss.item() * len(y) / self.n_samples
                s["done"] = number
                if number == count:  # the epoch is complete once its last zero_grad ran
                    self._record(epoch_loss, s["grad_norms"])
                yield "zero_grad"
                if self.divergence is not None:
                    return

    def gradient_norms(self) -> tuple[float, ...]:
        """‖W.grad‖ of each Linear layer (0 where .grad is None), in float64."""
        norms = [
            torch.linalg.vector_norm(layer.weight.grad.double())
            if layer.weight.grad is not None
            else torch.zeros((), dtype=torch.float64, device=self.device)
            for layer in self.layers
        ]
        return tuple(torch.stack(norms).tolist())

    def _record(self, epoch_loss: float, grad_norms: tuple[float, ...]) -> None:
        test_loss = accuracy = None
        if self.x_test.shape[0]:
            self.model.eval()
            with torch.no_grad():
                output = self.model(self.x_test)
                test_loss = self.loss_fn(output, self.y_test).item()
                if self.classes:
                    hits = predicted_class(self.config, output) == self._test_labels
                    accuracy = hits.double().mean().item()
            self.model.train()
        record = NetworkRecord(
            self.epoch + 1, epoch_loss, test_loss, accuracy, grad_norms, self._elapsed
        )
        self.history.append(record)
        checks = [("loss", epoch_loss), (_("test loss"), test_loss)]
        checks += [(f"‖W{i}.grad‖", norm) for i, norm in enumerate(grad_norms, start=1)]
        for name, value in checks:
            if value is not None and not math.isfinite(value):
                self.divergence = Divergence(
                    record.epoch, name, value, network_remedies(self.config)
                )
                break

    def _describe(self, phase: str) -> PhaseRecord:
        s = self._state
        values: dict[str, float] = {}
        if phase == "forward":
            values = {f"output[{i}]": v for i, v in enumerate(s["output"][:3, 0].tolist())}
        elif phase == "loss":
            values = {"loss": s["loss"].item()}
            if self.config.l2 > 0:
                values["objective"] = s["objective"].item()
        elif phase in ("backward", "zero_grad"):
            norms = self.gradient_norms()
            values = {f"‖W{i}.grad‖": v for i, v in enumerate(norms, start=1)}
        elif phase == "update":
            values = {
                f"‖W{i}‖": torch.linalg.vector_norm(layer.weight.detach()).item()
                for i, layer in enumerate(self.layers, start=1)
            }
        code = network_phase_codes(self.config)[phase]
        return PhaseRecord(s["epoch"], s["batch"], phase, code, values)

    # --- pictures --------------------------------------------------------------------------------

    def pictures(self) -> NetworkPictures:
        """The live pictures of the model as it is now (network_pictures.Picturer): eval mode,
        no_grad, the training run (its dropout generator included) untouched."""
        return self.picturer.pictures(self.model, self.epoch, self.last_grad_norms())

    def last_grad_norms(self) -> tuple[float, ...]:
        """The last finished epoch's gradient norms per layer (zeros before the first)."""
        return self.history[-1].grad_norms if self.history else (0.0,) * len(self.layers)

    def feature_maps(self) -> np.ndarray:
        return self.picturer.feature_maps()

    def parameters(self) -> dict[str, torch.Tensor]:
        """Detached CPU copies of the state dict (for torch.save)."""
        return {k: v.detach().cpu().clone() for k, v in self.model.state_dict().items()}
