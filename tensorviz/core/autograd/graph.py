"""The graph autograd really built: an iterative walk of `grad_fn.next_functions` into networkx.

Nodes (ids are strings in walk order, so the same graph always gets the same ids):
  * kind "tensor": a root tensor the graph was asked for (its grad_fn feeds it);
  * kind "backward": a backward Node, named `type(fn).__name__` (`MulBackward0`, ...);
  * kind "accumulate_grad": where a leaf's gradient collects; carries the leaf's name, shape,
    dtype and requires_grad.
Edges point from input to consumer (the forward direction). One edge per (input, consumer)
pair; `input_nrs` are the consumer's next_functions positions that read the input and
`output_nrs` the matching outputs of the input node (split/chunk/unbind have several);
`output_nr` is the first of them. `(None, 0)` entries — inputs that need no
grad — are kept on the consumer as `cut_inputs`. Saved tensors are read on demand
(`AutogradGraph.saved_of`) and defensively: after a backward without retain_graph they are freed
and show as such, never raising.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx
import torch

from tensorviz.core.autograd.saved_values import SAVED_PREFIX, SavedValue, saved_values, storage_key
from tensorviz.core.forward.module_tags import FORWARD_KEY, MODULE_KEY
from tensorviz.core.gc_pause import gc_paused
from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.translation import _, ngettext

REWRITE_NODES = ("CopySlices", "AsStridedBackward0", "AsStridedBackward1")


@dataclass
class AutogradGraph:
    """The extracted graph plus what the walk learned on the way."""

    graph: nx.DiGraph
    roots: list[str]  # node ids of the root tensors
    node_of_fn: dict[int, str] = field(default_factory=dict)  # id(Node) → node id, while alive
    functions: dict[str, object] = field(default_factory=dict)  # node id → torch Node

    def nodes_of_kind(self, kind: str) -> list[str]:
        return [n for n, data in self.graph.nodes(data=True) if data["kind"] == kind]

    def find(self, text: str) -> list[str]:
        """Node ids whose label or module contains `text` (case-insensitive: "h.5.attn" finds
        what block 5's attention made), in walk order."""
        needle = text.strip().lower()
        if not needle:
            return []
        return [
            n
            for n, d in self.graph.nodes(data=True)
            if needle in d["label"].lower()
            or any(needle in path.lower() for path, _unused in d.get("module", ()))
        ]

    def saved_of(self, node_id: str) -> tuple[SavedValue, ...]:
        """The `_saved_*` values of a backward node, read now (so freed ones read as freed);
        read on demand, not during the walk, since most nodes are never inspected."""
        fn = self.functions.get(node_id)
        if fn is None or type(fn).__name__ == "AccumulateGrad":
            return ()
        return saved_values(fn)

    def size_text(self) -> str:
        """What the graph holds, counted one way wherever it is shown: '7 backward nodes,
        1 tensor' (AccumulateGrad is a backward node too; the tensors are the roots drawn)."""
        kinds = [data["kind"] for _node, data in self.graph.nodes(data=True)]
        tensors = kinds.count("tensor")
        backward = ngettext("{n} backward node", "{n} backward nodes", len(kinds) - tensors)
        text = backward.format(n=f"{len(kinds) - tensors:,}")
        if not tensors:
            return text
        roots = ngettext("{n} tensor", "{n} tensors", tensors).format(n=f"{tensors:,}")
        return _("{backward}, {tensors}").format(backward=text, tensors=roots)

    def to_json(self) -> dict:
        """Nodes (kind backward | accumulate_grad | tensor | saved) and edges input → consumer.

        Each saved tensor (`_saved_self`, ...) is a node of its own, kind "saved", with id
        "<backward id>:<attribute>", shape, dtype and `freed` (true after a backward without
        retain_graph; shape and dtype are then null/""), and one edge saved → the backward node
        that saved it, with output_nr null (a saved tensor is not an output of a node).
        Non-tensor saved values (`_saved_exponent`, dims) stay on the backward node in
        `saved_values` {attribute: text}. A node made by a tagged forward (the app's runs,
        `tensorviz.tag_modules()`) has `module` (the innermost module's qualified name) and
        `module_path` [{"name", "class"}, ...] (the module calls it was made in, outermost
        first)."""
        nodes, saved_nodes, saved_edges = [], [], []
        for node_id, data in self.graph.nodes(data=True):
            row = {
                "id": node_id,
                "kind": data["kind"],
                "name": data["label"],
                "shape": list(data["shape"]) if data.get("shape") is not None else None,
            }
            if data.get("dtype"):
                row["dtype"] = data["dtype"]
            if data.get("output_shapes"):
                row["output_shapes"] = [list(shape) for shape in data["output_shapes"]]
            if data.get("module"):  # a tagged forward made it: its module calls, outermost first
                row["module"] = data["module"][-1][0]
                row["module_path"] = [{"name": name, "class": cls} for name, cls in data["module"]]
            values = {}
            for saved in self.saved_of(node_id):
                if saved.kind not in ("tensor", "freed"):
                    values[saved.attribute] = saved.text
                    continue
                saved_id = f"{node_id}:{SAVED_PREFIX}{saved.attribute}"
                freed = saved.kind == "freed"
                saved_nodes.append(
                    {
                        "id": saved_id,
                        "kind": "saved",
                        "name": SAVED_PREFIX + saved.attribute,
                        "shape": None if freed else list(saved.shape),
                        "dtype": saved.dtype,
                        "freed": freed,
                    }
                )
                saved_edges.append({"source": saved_id, "target": node_id, "output_nr": None})
            if values:
                row["saved_values"] = values
            if data.get("cut_inputs"):
                row["cut_inputs"] = list(data["cut_inputs"])
            nodes.append(row)
        edges = [
            {"source": s, "target": t, "output_nr": nr}
            for s, t, d in self.graph.edges(data=True)
            for nr in sorted(set(d["output_nrs"]))
        ]
        return {"nodes": nodes + saved_nodes, "edges": edges + saved_edges}


class LeafNames:
    """Names for leaf tensors: workspace names or a module's dotted parameter names."""

    def __init__(self, named: dict[str, torch.Tensor] | None = None) -> None:
        self._by_identity: dict[int, str] = {}
        self._by_storage: dict[tuple, str] = {}
        self._keep: list[torch.Tensor] = []  # keeps ids valid while we look them up
        for name, tensor in (named or {}).items():
            self.add(name, tensor)

    def add(self, name: str, tensor: torch.Tensor) -> None:
        self._keep.append(tensor)
        self._by_identity.setdefault(id(tensor), name)
        self._by_storage.setdefault(storage_key(tensor), name)

    def add_module(self, module: torch.nn.Module, prefix: str = "") -> None:
        for name, parameter in module.named_parameters():
            self.add(prefix + name, parameter)

    def name_of(self, tensor: torch.Tensor) -> str | None:
        return self._by_identity.get(id(tensor)) or self._by_storage.get(storage_key(tensor))


def _tags(fn) -> tuple[tuple, tuple | None]:
    """(module calls it was made in, (record serial, forward op id)) from the node's metadata,
    where a tagged forward wrote them (core/forward)."""
    metadata = fn.metadata
    if not metadata:
        return (), None
    return metadata.get(MODULE_KEY, ()), metadata.get(FORWARD_KEY)


def _leaf_attributes(fn, names: LeafNames, serial: int) -> dict:
    leaf = fn.variable
    name = names.name_of(leaf) or f"leaf {serial}"
    module, _unused = _tags(fn)
    return {
        "module": module,
        "kind": "accumulate_grad",
        "label": name,
        "op": "AccumulateGrad",
        "shape": tuple(leaf.shape),
        "dtype": dtype_name(leaf.dtype),
        "requires_grad": leaf.requires_grad,
        "cut_inputs": (),
    }


def output_shapes(fn) -> tuple[tuple[int, ...], ...]:
    """Shapes of the forward op's outputs (the gradients this node receives), when torch says."""
    try:
        return tuple([tuple(meta.shape) for meta in fn._input_metadata])
    except (AttributeError, RuntimeError, TypeError):
        return ()


def _backward_attributes(fn) -> dict:
    op = type(fn).__name__
    module, forward = _tags(fn)
    return {
        "module": module,
        "forward": forward,
        "kind": "backward",
        "label": op,
        "op": op,
        "shape": None,
        "dtype": "",
        "rewrite": op in REWRITE_NODES,
        "output_shapes": output_shapes(fn),
        "cut_inputs": (),
    }


def extract_graph(
    roots: torch.Tensor | Iterable[torch.Tensor],
    names: dict[str, torch.Tensor] | LeafNames | None = None,
    root_names: Iterable[str] | None = None,
) -> AutogradGraph:
    """Walk every root's grad_fn (iteratively: a 20,000-node chain is fine) into a DiGraph."""
    with gc_paused():
        return _extract_graph(roots, names, root_names)


def _extract_graph(roots, names, root_names) -> AutogradGraph:
    roots = [roots] if isinstance(roots, torch.Tensor) else list(roots)
    leaf_names = names if isinstance(names, LeafNames) else LeafNames(names)
    labels = list(root_names) if root_names is not None else []
    graph = nx.DiGraph()
    result = AutogradGraph(graph, [])
    node_of_fn = result.node_of_fn
    pending: list = []
    leaf_serial = 0
    # nodes and edges are collected in walk order and added to networkx in two bulk calls
    node_rows: list[tuple[str, dict]] = []
    edges: dict[tuple[str, str], dict] = {}

    def node_for(fn) -> str:
        nonlocal leaf_serial
        key = id(fn)
        node_id = node_of_fn.get(key)
        if node_id is not None:
            return node_id
        node_id = f"n{len(node_of_fn)}"
        node_of_fn[key] = node_id
        result.functions[node_id] = fn
        if type(fn).__name__ == "AccumulateGrad":
            leaf_serial += 1
            node_rows.append((node_id, _leaf_attributes(fn, leaf_names, leaf_serial)))
        else:
            node_rows.append((node_id, _backward_attributes(fn)))
        pending.append((fn, node_rows[-1][1]))
        return node_id

    for position, root in enumerate(roots):
        root_id = f"root{position}"
        label = labels[position] if position < len(labels) else leaf_names.name_of(root)
        node_rows.append(
            (
                root_id,
                {
                    "kind": "tensor",
                    "label": label or f"root {position}",
                    "op": "tensor",
                    "shape": tuple(root.shape),
                    "dtype": dtype_name(root.dtype),
                    "is_view": root._base is not None,
                    "cut_inputs": (),
                },
            )
        )
        result.roots.append(root_id)
        if root.grad_fn is not None:
            nr = root.output_nr
            source = node_for(root.grad_fn)
            edges[(source, root_id)] = {"output_nr": nr, "input_nrs": (0,), "output_nrs": (nr,)}
    while pending:
        fn, attributes = pending.pop()
        consumer = node_of_fn[id(fn)]
        cut = []
        for input_nr, (next_fn, output_nr) in enumerate(fn.next_functions):
            if next_fn is None:
                cut.append(input_nr)
                continue
            source = node_for(next_fn)
            edge = edges.get((source, consumer))
            if edge is not None:
                edge["input_nrs"] = (*edge["input_nrs"], input_nr)
                edge["output_nrs"] = (*edge["output_nrs"], output_nr)
            else:
                edges[(source, consumer)] = {
                    "output_nr": output_nr,
                    "input_nrs": (input_nr,),
                    "output_nrs": (output_nr,),
                }
        attributes["cut_inputs"] = tuple(cut)
    _fill(graph, node_rows, edges)
    return result


def _fill(graph: nx.DiGraph, node_rows: list, edges: dict) -> None:
    """add_nodes_from + add_edges_from into a new, empty DiGraph (plain dict factories) without
    their copy of every attribute dict: the walk's own dicts become the graph's."""
    attributes, successors, predecessors = graph._node, graph._succ, graph._pred
    for node, data in node_rows:
        attributes[node] = data
        successors[node] = {}
        predecessors[node] = {}
    for (source, target), data in edges.items():
        successors[source][target] = data
        predecessors[target][source] = data


def output_count(graph: nx.DiGraph, node_id: str) -> int:
    """How many distinct outputs of this node are read (2+ for split/chunk/unbind)."""
    return len(
        {
            nr
            for _unused, _unused2, d in graph.out_edges(node_id, data=True)
            for nr in d["output_nrs"]
        }
    )


def why_no_grad_fn(tensor: torch.Tensor, made_by: str = "") -> str:
    """The reason a tensor has no grad_fn, in a sentence. `made_by` is its provenance op."""
    if tensor.grad_fn is not None:
        return _("It has one: {name}.").format(name=type(tensor.grad_fn).__name__)
    if tensor.requires_grad:
        return _(
            "It is a leaf you created with requires_grad=True: it has no grad_fn; its gradient "
            "collects in .grad through an AccumulateGrad node."
        )
    if made_by == "detach":
        return _(
            "It was made by detach(): a new leaf that shares storage but is cut from the graph."
        )
    if made_by == "no_grad":
        return _("It was computed under torch.no_grad(): autograd recorded nothing.")
    base = tensor._base
    if base is not None and base.requires_grad:
        return _("It is a view made under no_grad or by detach() of a tensor that requires grad.")
    return _(
        "It is a leaf with requires_grad=False (and nothing it came from required grad), so "
        "autograd did not record how it was made — or it was detached or made under no_grad."
    )
