"""Backward, recorded: the order torch really visits the nodes and the gradients that flow.

Every node of an AutogradGraph gets a `register_prehook` (gradient arriving) and a
`register_hook` (gradients sent on) for one backward call; the hooks are removed afterwards.
Gradients are kept as plain NumPy copies, so the record holds no autograd history. Before the
pass, each node's local derivative is read from its saved tensors (a backward without
retain_graph frees them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from tensorviz.core.autograd.grad_summary import KEPT_VALUES, GradSummary  # noqa: F401
from tensorviz.core.autograd.graph import AutogradGraph
from tensorviz.core.autograd.local_derivatives import NodeDerivatives, graph_derivatives
from tensorviz.core.autograd.saved_values import saved_values
from tensorviz.core.translation import _

DESCRIBED_NODES = 400  # graphs up to this many backward nodes get their derivatives read first


@dataclass(frozen=True)
class BackwardVisit:
    node: str  # node id in the AutogradGraph
    op: str
    grads_in: tuple[GradSummary | None, ...]  # arriving: one per output of the forward op
    grads_out: tuple[GradSummary | None, ...]  # sent on: one per next_functions entry
    leaf_grad: GradSummary | None = None  # AccumulateGrad: the leaf's .grad after this visit


@dataclass
class BackwardRecord:
    visits: list[BackwardVisit] = field(default_factory=list)
    error: str = ""  # torch's message when backward refused
    derivatives: dict[str, NodeDerivatives] = field(default_factory=dict)  # read before the pass

    def visit_of(self, node: str) -> BackwardVisit | None:
        return next((v for v in self.visits if v.node == node), None)


def explain_backward_error(message: str) -> str:
    if "implicitly created only for scalar" in message:
        return _(
            "backward() on a tensor with more than one element needs a `gradient` argument "
            "(for example torch.ones_like(y)), or reduce it first with .sum() or .mean()."
        )
    if "second time" in message or "freed" in message:
        return _(
            "The first backward freed the saved tensors. Tick retain_graph to keep them for "
            "another backward, or rebuild the graph with a fresh forward pass."
        )
    if "does not require grad" in message:
        return _("Nothing in this tensor's history requires grad: there is no graph to walk.")
    return ""


def record_backward(
    graph: AutogradGraph,
    root: torch.Tensor,
    gradient: torch.Tensor | None = None,
    retain_graph: bool = False,
) -> BackwardRecord:
    """Run `root.backward(...)` with hooks on every node of `graph`; never raises torch errors."""
    record = BackwardRecord()
    try:
        recorded_pass(graph, lambda: root.backward(gradient, retain_graph=retain_graph), record)
    except RuntimeError as error:
        message = str(error).splitlines()[0]
        explanation = explain_backward_error(str(error))
        record.error = f"{message}\n{explanation}".strip()
    return record


def recorded_pass(
    graph: AutogradGraph, run: Callable[[], object], record: BackwardRecord | None = None
) -> BackwardRecord:
    """Call `run` (a backward through `graph`: the Backward button's, or a script's own) with
    hooks on every node of `graph`, into `record`. Whatever `run` raises is raised."""
    record = record if record is not None else BackwardRecord()
    handles = hook_pass(graph, record)
    try:
        run()
    finally:
        for handle in handles:
            handle.remove()
    return record


def hook_pass(graph: AutogradGraph, record: BackwardRecord) -> list:
    """Read every node's local derivative into `record`, then hook every node so that the next
    backward through `graph` appends its visits to `record`; the caller removes the returned
    handles once that backward ran (recorded_pass, or a watched run's paused step, whose
    backward is the user's own call)."""
    record.derivatives = graph_derivatives(graph, DESCRIBED_NODES)
    handles = []
    arriving: dict[str, tuple] = {}

    def prehook(node_id):
        def on_arrival(grad_outputs):
            arriving[node_id] = tuple(GradSummary.of(g) for g in grad_outputs)

        return on_arrival

    def posthook(node_id, fn):
        def on_sent(grad_inputs, grad_outputs):
            leaf = None
            if type(fn).__name__ == "AccumulateGrad":
                leaf = GradSummary.of(fn.variable.grad)
            received = arriving.get(node_id) or tuple(GradSummary.of(g) for g in grad_outputs)
            sent = tuple(GradSummary.of(g) for g in grad_inputs)
            record.visits.append(BackwardVisit(node_id, type(fn).__name__, received, sent, leaf))

        return on_sent

    try:
        for node_id, fn in graph.functions.items():
            handles.append(fn.register_prehook(prehook(node_id)))
            handles.append(fn.register_hook(posthook(node_id, fn)))
    except BaseException:
        for handle in handles:
            handle.remove()
        raise
    return handles


def graph_was_freed(graph: AutogradGraph, looked_at: int = 50) -> bool:
    """True when a backward without retain_graph already freed the graph's saved tensors (read
    from the first nodes that saved any: torch frees them all in one pass)."""
    for node in graph.nodes_of_kind("backward")[:looked_at]:
        values = saved_values(graph.functions[node])
        if any(v.kind == "freed" for v in values):
            return True
        if any(v.kind == "tensor" for v in values):
            return False
    return False


def why_grad_is_none(tensor: torch.Tensor, reached: bool, had_gradient: bool = True) -> str:
    """Why `tensor.grad` is None after a backward (or "" when it is not None)."""
    if not tensor.requires_grad:
        return _(
            "requires_grad is False: autograd never tracked this tensor (or it was cut by "
            "detach() / made under torch.no_grad())."
        )
    if not tensor.is_leaf and not tensor.retains_grad:
        return _("It is not a leaf: .grad is kept only for leaves unless you call retain_grad().")
    if tensor.grad is not None:
        return ""
    if not had_gradient:
        return _("backward() on a non-scalar needs a `gradient` argument; it stopped before.")
    if not reached:
        return _("Backward never reached it: it is not on a path from the root you called.")
    return _("Backward has not run yet (or the gradient was zeroed with grad = None).")


def edge_gradients(graph: AutogradGraph, visits: list[BackwardVisit]) -> dict:
    """(input node, consumer node) → the gradient the consumer sent back along that edge, for
    the visits given (a prefix of a record, while stepping). Several uses of one input add up."""
    result: dict[tuple[str, str], GradSummary] = {}
    g = graph.graph
    for visit in visits:
        for root in graph.roots:
            if g.has_edge(visit.node, root) and visit.grads_in and visit.grads_in[0] is not None:
                result[(visit.node, root)] = visit.grads_in[0]
        for source, _unused, data in g.in_edges(visit.node, data=True):
            parts = [
                visit.grads_out[i]
                for i in data["input_nrs"]
                if i < len(visit.grads_out) and visit.grads_out[i] is not None
            ]
            if parts:
                total = sum(p.values for p in parts[1:]) + parts[0].values
                result[(source, visit.node)] = GradSummary(parts[0].shape, total)
    return result


class StepThrough:
    """Which recorded visit the user is looking at: 0 = before backward, len(visits) = done."""

    def __init__(self, record: BackwardRecord) -> None:
        self.record = record
        self.position = 0

    @property
    def total(self) -> int:
        return len(self.record.visits)

    def step_forward(self) -> bool:
        if self.position >= self.total:
            return False
        self.position += 1
        return True

    def step_back(self) -> bool:
        if self.position == 0:
            return False
        self.position -= 1
        return True

    def run_to_end(self) -> None:
        self.position = self.total

    def seen(self) -> list[BackwardVisit]:
        return self.record.visits[: self.position]

    def current(self) -> BackwardVisit | None:
        return self.record.visits[self.position - 1] if self.position else None
