"""The step a watched loop is paused at: its batch, outputs, loss, parameters and gradients —
the loop's very tensors, never copies — and the loss's autograd graph with the backward pass the
loop itself ran through it, ready for the Autograd area's step-through.

torch frees a graph's saved tensors in the backward that walks it, so the graph is read before:
the recorder's backward listener calls `BackwardCapture.start(loss)` just before the user's
backward, which extracts the graph (`grad_fn.next_functions`), reads each node's local
derivative and hooks every node; the step boundary then `finish()`es it (hooks removed) and the
pass is kept as a ScriptBackwardPass, the form the Script area hands the Autograd area. This
happens only for a step the gate will pause at (StepGate.wants_graph), so other steps pay
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from tensorviz.core.autograd.backward_steps import BackwardRecord, graph_was_freed, hook_pass
from tensorviz.core.autograd.graph import AutogradGraph, LeafNames, extract_graph
from tensorviz.core.autograd.script_backward import ScriptBackwardPass
from tensorviz.core.script.capture import identifier_from

LOSS_LABEL = "loss"


@dataclass
class BackwardCapture:
    """One real backward pass being recorded: hooks on the loss's graph until `finish()`."""

    loss: torch.Tensor
    graph: AutogradGraph
    record: BackwardRecord
    handles: list = field(default_factory=list)

    @classmethod
    def start(cls, loss, models: dict | None = None) -> BackwardCapture | None:
        """Read `loss`'s graph and hook it, leaves named after the models' parameters
        (`model.fc.weight`); None when `loss` has no graph (nothing requires grad)."""
        if not isinstance(loss, torch.Tensor) or loss.grad_fn is None:
            return None
        names = LeafNames()
        for label, model in (models or {}).items():
            if isinstance(model, torch.nn.Module):
                names.add_module(model, prefix=f"{label}.")
        graph = extract_graph(loss, names, [LOSS_LABEL])
        record = BackwardRecord()
        return cls(loss, graph, record, hook_pass(graph, record))

    def finish(self) -> None:
        """The pass ran (or will not): the hooks come off the graph's nodes."""
        for handle in self.handles:
            handle.remove()
        self.handles = []

    def as_pass(self, step: int) -> ScriptBackwardPass:
        retained = not graph_was_freed(self.graph)
        return ScriptBackwardPass(
            step, 0, LOSS_LABEL, self.graph, self.record, [self.loss], retained
        )


@dataclass
class PausedStep:
    """What a paused step shows: the loop's own objects at the boundary before the update."""

    step: int
    optimizer_index: int = 0
    loss: object = None  # the loss tensor the loop called backward() on (or a number)
    inputs: object = None  # the root model's inputs in the last forward
    outputs: object = None  # ... and its outputs
    models: dict[str, torch.nn.Module] = field(default_factory=dict)
    parameters: dict[str, torch.Tensor] = field(default_factory=dict)  # "model.fc.weight" → p
    gradients: dict[str, torch.Tensor] = field(default_factory=dict)  # "model.fc.weight" → p.grad
    optimizer: object = None
    backward: ScriptBackwardPass | None = None  # the loss's graph and the pass the loop ran

    def workspace_values(self) -> dict[str, object]:
        """name → object for the Workbench: loss, inputs, outputs, the models (their
        parameters under dotted names) and each gradient as `model_fc_weight_grad`."""
        values: dict[str, object] = {}
        if isinstance(self.loss, torch.Tensor):
            values["loss"] = self.loss
        for label, value in (("inputs", self.inputs), ("outputs", self.outputs)):
            if value is not None:
                values[label] = _unwrapped(value)
        values.update(self.models)
        for dotted, grad in self.gradients.items():
            values[f"{identifier_from(dotted)}_grad"] = grad
        return values

    @property
    def graph(self) -> AutogradGraph | None:
        return self.backward.graph if self.backward is not None else None


def collect_paused_step(moment, capture: BackwardCapture | None) -> PausedStep:
    """The PausedStep of a StepMoment (step, optimizer_index, optimizer, loss, models, inputs,
    outputs), with the backward `capture` recorded for this step, if any."""
    given = getattr(moment, "models", None)
    models = models_of(given)
    inputs, outputs = getattr(moment, "inputs", None), getattr(moment, "outputs", None)
    if isinstance(given, list | tuple) and len(given) == len(models):  # the recorder's roots:
        inputs, outputs = _per_root(inputs, models), _per_root(outputs, models)  # one each
    parameters: dict[str, torch.Tensor] = {}
    for label, model in models.items():
        for dotted, parameter in model.named_parameters():
            parameters.setdefault(f"{label}.{dotted}", parameter)
    gradients = {n: p.grad for n, p in parameters.items() if p.grad is not None}
    loss = getattr(moment, "loss", None)
    if capture is not None and not isinstance(loss, torch.Tensor):
        loss = capture.loss
    step = int(moment.step)
    return PausedStep(
        step=step,
        optimizer_index=int(getattr(moment, "optimizer_index", 0) or 0),
        loss=loss,
        inputs=inputs,
        outputs=outputs,
        models=models,
        parameters=parameters,
        gradients=gradients,
        optimizer=getattr(moment, "optimizer", None),
        backward=capture.as_pass(step) if capture is not None else None,
    )


def models_of(models) -> dict[str, torch.nn.Module]:
    if not models:
        return {}
    if isinstance(models, torch.nn.Module):
        return {"model": models}
    if isinstance(models, dict):
        return {str(k): m for k, m in models.items() if isinstance(m, torch.nn.Module)}
    listed = [m for m in models if isinstance(m, torch.nn.Module)]
    return {("model" if i == 0 else f"model{i + 1}"): m for i, m in enumerate(listed)}


def _per_root(values, models: dict):
    """The recorder's one-value-per-root-model list: the root's own value for one model,
    {label: value} for several."""
    if not isinstance(values, list) or len(values) != len(models):
        return values
    if len(values) == 1:
        return values[0]
    return {label: value for label, value in zip(models, values, strict=True) if value is not None}


def _unwrapped(value):
    """A forward's one positional input shown as `inputs`, several as `inputs_0`, ..."""
    if isinstance(value, tuple | list) and len(value) == 1:
        return value[0]
    return value
