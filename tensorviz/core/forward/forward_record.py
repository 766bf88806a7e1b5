"""What a recorded forward holds: the model's module tree, each module call, the nodes of the
computation (inputs, torch operations, module outputs, outside tensors, outputs) and the tensors
between them as edges, each labelled with its shape and dtype.

Node kinds:
  * "input": a tensor the forward was called with (`x`, `input_ids`);
  * "op": one torch function call (`linear`, `add_`, `getitem`) inside the module call it ran in;
  * "module_output": a tensor a module call returned (the edge that leaves the module);
  * "tensor": a tensor from outside (a global, a tensor kept on the model) that an op read;
  * "output": what the forward returned (`logits`, `[0]`).
Parameters and buffers are not nodes: each op lists the ones it read, each module counts its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.forward.tensor_structure import TensorInfo
from tensorviz.core.translation import _


@dataclass(frozen=True)
class ParameterInfo:
    name: str  # its name in its module ("weight")
    shape: tuple[int, ...]
    dtype: str
    nbytes: int
    kind: str = "parameter"  # | "buffer"
    tied_to: str = ""  # a tied parameter: the qualified name it is counted under


@dataclass
class ModuleInfo:
    """One module of the model, as model.named_modules() lists it."""

    name: str  # qualified ("" for the model itself, "h.5.attn")
    class_name: str
    parent: str | None
    own_parameters: list[ParameterInfo] = field(default_factory=list)
    own_params: int = 0  # numel of its own parameters (buffers not counted)
    own_bytes: int = 0
    total_params: int = 0  # numel of module.parameters(): its subtree, shared ones once
    total_bytes: int = 0
    calls: list[str] = field(default_factory=list)  # call ids, in call order


@dataclass
class ModuleCall:
    """One call of a module's forward (a module called twice has two)."""

    id: str  # "c0", "c1", ...
    module: str  # qualified name
    class_name: str
    parent: str | None  # the call it happened inside
    depth: int  # 0 for the outermost call
    number: int  # 1 for the module's first call, 2 for its second, ...
    inputs: list[tuple[str, TensorInfo]] = field(default_factory=list)
    outputs: list[tuple[str, TensorInfo]] = field(default_factory=list)
    items: list[tuple[str, str]] = field(default_factory=list)  # ("node"|"call", id), in order
    finished: bool = False
    error: str = ""  # what it raised (the call did not return)

    @property
    def title(self) -> str:
        name = self.module or _("(model)")
        if self.number == 1:
            return name
        return _("{name} (call {number})").format(name=name, number=self.number)


@dataclass
class RecordedNode:
    id: str  # "n0", "n1", ...
    kind: str  # input | op | module_output | tensor | output
    label: str  # op name, argument name or output path
    call: str | None  # the module call it belongs to (None: outside every module)
    outputs: list[TensorInfo] = field(default_factory=list)
    parameters: list[str] = field(default_factory=list)  # qualified names of params it read
    in_place: bool = False
    failed: bool = False


@dataclass(frozen=True)
class TensorEdge:
    source: str
    target: str
    output_index: int  # which output of the source
    input_index: int  # where the target reads it (position among its tensor arguments)
    tensor: TensorInfo


@dataclass
class ForwardRecord:
    serial: int  # tells records apart (backward nodes are tagged with it)
    title: str  # "model(x)"
    modules: dict[str, ModuleInfo] = field(default_factory=dict)  # named_modules() order
    calls: dict[str, ModuleCall] = field(default_factory=dict)  # call order
    nodes: dict[str, RecordedNode] = field(default_factory=dict)  # creation order
    edges: list[TensorEdge] = field(default_factory=list)
    top_items: list[tuple[str, str]] = field(default_factory=list)  # outside every call
    error: ExplainedError | None = None
    error_type: str = ""
    failed_node: str | None = None  # the op that raised, when a torch op raised
    failed_call: str | None = None  # the innermost call that did not return
    meta: bool = False  # values are meta tensors: shapes only

    def tied(self) -> list[tuple[str, str]]:
        """(qualified name, the name it is tied to) of every tied parameter."""
        return [(f"{m.name}.{p.name}" if m.name else p.name, p.tied_to)
                for m in self.modules.values() for p in m.own_parameters if p.tied_to]  # fmt: skip

    def ops_in(self, call: str | None) -> list[RecordedNode]:
        """The op nodes that ran directly in `call` (not in its sub-calls)."""
        return [n for n in self.nodes.values() if n.kind == "op" and n.call == call]

    def calls_of(self, module: str) -> list[ModuleCall]:
        return [self.calls[c] for c in self.modules[module].calls] if module in self.modules else []

    def items_of(self, call: str | None) -> list[tuple[str, str]]:
        return self.top_items if call is None else self.calls[call].items

    def call_chain(self, call: str | None) -> list[str]:
        """The calls from the outermost one down to `call`."""
        chain = []
        while call is not None:
            chain.append(call)
            call = self.calls[call].parent
        return chain[::-1]

    def find(self, text: str) -> list[str]:
        """Call ids whose module name or class contains `text`, then node ids whose label
        does (case-insensitive): "h.5.attn" finds the attention of block 5."""
        needle = text.strip().lower()
        if not needle:
            return []
        calls = [
            c.id
            for c in self.calls.values()
            if needle in c.module.lower() or needle in c.class_name.lower()
        ]
        nodes = [n.id for n in self.nodes.values() if needle in n.label.lower()]
        return calls + nodes

    def to_json(self, folds=()) -> dict:
        """Modules (qualified name, class, parent, params, calls), calls (input/output shapes),
        nodes and edges, the folded repeats and the error, as `tensorviz forward --json`
        prints them."""
        modules = [
            {
                "name": m.name,
                "class": m.class_name,
                "parent": m.parent,
                "params": m.total_params,
                "own_params": m.own_params,
                "param_bytes": m.total_bytes,
                "parameters": [
                    {
                        "name": p.name,
                        "shape": list(p.shape),
                        "dtype": p.dtype,
                        "kind": p.kind,
                        "tied_to": p.tied_to or None,
                    }
                    for p in m.own_parameters
                ],  # fmt: skip
                "calls": list(m.calls),
            }
            for m in self.modules.values()
        ]
        calls = [
            {
                "id": c.id,
                "module": c.module,
                "class": c.class_name,
                "parent": c.parent,
                "depth": c.depth,
                "inputs": [{"path": p, **t.to_json()} for p, t in c.inputs],
                "outputs": [{"path": p, **t.to_json()} for p, t in c.outputs],
                "finished": c.finished,
            }
            for c in self.calls.values()
        ]
        nodes = []
        for n in self.nodes.values():
            row = {"id": n.id, "kind": n.kind, "name": n.label, "call": n.call}
            row["outputs"] = [t.to_json() for t in n.outputs]
            if n.parameters:
                row["parameters"] = list(n.parameters)
            if n.in_place:
                row["in_place"] = True
            if n.failed:
                row["failed"] = True
            nodes.append(row)
        edges = [
            {"source": e.source, "target": e.target, "output": e.output_index, **e.tensor.to_json()}
            for e in self.edges
        ]
        data = {
            "title": self.title,
            "meta": self.meta,
            "modules": modules,
            "calls": calls,
            "nodes": nodes,
            "edges": edges,
            "folds": [fold.to_json(self) for fold in folds],
        }
        if self.error is not None:
            data["error"] = {
                "type": self.error_type,
                "message": self.error.torch_message,
                "explanation": self.error.explanation,
                "fix": self.error.fix,
                "failed_node": self.failed_node,
                "failed_call": self.failed_call,
            }
        return data
