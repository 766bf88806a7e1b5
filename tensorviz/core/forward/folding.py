"""Repeated blocks: consecutive sibling module calls whose recorded subgraphs are the same
(`h.0 … h.11` of GPT-2, `encoder.layer.0 … 11` of BERT, an RNN cell called once per step) are
one Fold, drawn as "GPT2Block × 12" until the user opens it.

A call's signature is everything recorded under it, in order, with its own numbering: each
sub-call's class and parameter shapes, each node's kind, label, output shapes and dtypes, and
where each of its inputs comes from (a node under the call, or outside it).
Two calls fold together when their signatures are equal and the second reads an output of the
first (a chain: q, k and v projections of one input are parallel, not repeated blocks)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tensorviz.core.forward.forward_record import ForwardRecord


@dataclass
class Fold:
    id: str
    parent: str | None  # the call the members ran in
    members: list[str]  # call ids, in call order
    class_name: str
    first_name: str
    last_name: str
    counterpart: dict[str, str] = field(default_factory=dict)  # id under member k → member 1's

    @property
    def label(self) -> str:
        return f"{self.class_name} × {len(self.members)}"

    @property
    def names(self) -> str:
        return f"{self.first_name} … {self.last_name}"

    def to_json(self, record: ForwardRecord) -> dict:
        return {
            "id": self.id,
            "parent": self.parent,
            "class": self.class_name,
            "count": len(self.members),
            "calls": list(self.members),
            "modules": [record.calls[c].module for c in self.members],
        }


def subtree(record: ForwardRecord, call: str) -> tuple[list[str], list[str]]:
    """(node ids, call ids) under `call`, in recorded order (the call itself first)."""
    nodes, calls, pending = [], [], [call]
    while pending:
        current = pending.pop()
        calls.append(current)
        children = []
        for kind, item in record.calls[current].items:
            if kind == "node":
                nodes.append(item)
            else:
                children.append(item)
        pending.extend(reversed(children))
    return nodes, calls


class _Signatures:
    def __init__(self, record: ForwardRecord) -> None:
        self.record = record
        self.incoming: dict[str, list] = {}
        for edge in record.edges:
            self.incoming.setdefault(edge.target, []).append(edge)

    def of(self, call: str) -> tuple:
        record = self.record
        nodes, calls = subtree(record, call)
        local = {node: i for i, node in enumerate(nodes)}
        parts: list[tuple] = []
        for c in calls:
            info = record.calls[c]
            module = record.modules.get(info.module)
            shapes = (
                tuple((p.name, p.shape, p.dtype) for p in module.own_parameters) if module else ()
            )
            parts.append(("call", info.class_name, shapes, info.depth - record.calls[call].depth))
        for node in nodes:
            data = record.nodes[node]
            reads = []
            for edge in self.incoming.get(node, ()):
                if edge.source in local:
                    reads.append((local[edge.source], edge.output_index, edge.input_index))
                else:  # from outside: h = c = zeros(...) read twice still folds with (h, c)
                    reads.append(("outside", edge.input_index))
            outputs = tuple((t.shape, t.dtype) for t in data.outputs)
            parts.append(
                (
                    data.kind,
                    data.label,
                    outputs,
                    tuple(data.parameters and [p.rsplit(".", 1)[-1] for p in data.parameters]),
                    tuple(reads),
                )
            )
        return tuple(parts)


def _reads_output_of(record: ForwardRecord, earlier: str, later: str, members_of) -> bool:
    outputs = {
        n
        for kind, n in record.calls[earlier].items
        if kind == "node" and record.nodes[n].kind == "module_output"
    }
    later_nodes = members_of(later)
    return any(e.source in outputs and e.target in later_nodes for e in record.edges)


def find_folds(record: ForwardRecord) -> list[Fold]:
    """Every maximal run (2 or more) of chained sibling calls with equal signatures."""
    signatures = _Signatures(record)
    cache: dict[str, tuple] = {}
    node_sets: dict[str, set[str]] = {}

    def signature(call: str) -> tuple:
        if call not in cache:
            cache[call] = signatures.of(call)
        return cache[call]

    def members_of(call: str) -> set[str]:
        if call not in node_sets:
            node_sets[call] = set(subtree(record, call)[0])
        return node_sets[call]

    folds: list[Fold] = []
    parents = [None, *record.calls]
    for parent in parents:
        children = [item for kind, item in record.items_of(parent) if kind == "call"]
        run: list[str] = []
        for child in [*children, None]:
            if (
                child is not None
                and run
                and record.calls[child].class_name == record.calls[run[-1]].class_name
                and signature(child) == signature(run[-1])
                and _reads_output_of(record, run[-1], child, members_of)
            ):
                run.append(child)
                continue
            if len(run) >= 2:
                folds.append(_fold(record, f"f{len(folds)}", parent, run))
            run = [child] if child is not None else []
    return folds


def _fold(record: ForwardRecord, fold_id: str, parent, members: list[str]) -> Fold:
    first, last = record.calls[members[0]], record.calls[members[-1]]
    fold = Fold(fold_id, parent, list(members), first.class_name, first.title, last.title)
    first_nodes, first_calls = subtree(record, members[0])
    for member in members[1:]:
        nodes, calls = subtree(record, member)
        fold.counterpart.update(zip(nodes, first_nodes, strict=True))
        fold.counterpart.update(zip(calls, first_calls, strict=True))
    return fold
