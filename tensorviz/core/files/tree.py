"""The tree of what a file holds: one Node per saved entry (never per element).

Containers become dict/list rows (a state dict's dotted keys grouped by prefix), tensors tensor
rows, plain values value rows; an nn.Module pickled whole shows as its module tree (submodules,
parameters and buffers by the names `module.name` reaches them, then its plain attributes);
other objects show their class and the state the pickle recorded; calls show the callable and
its arguments. The tree is bounded: huge containers are summarised, cycles are cut, depth is
limited, so no file can make it explode.
"""

from __future__ import annotations

import argparse
import types
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.files.file_nodes import Node
from tensorviz.core.files.stand_ins import (
    Appended,
    Arg,
    Attr,
    CallStandIn,
    GlobalRef,
    Kwarg,
    ObjectStandIn,
)
from tensorviz.core.translation import _, ngettext

MAX_CHILDREN = 10_000  # a list of a million ints is shown as a value, never a million rows
MAX_NODES = 200_000
MAX_DEPTH = 120
# what every nn.Module carries; shown only when not empty (a hook is someone's code)
MODULE_INTERNALS = {"_parameters", "_buffers", "_modules", "training", "_is_full_backward_hook"}
NAMESPACES = (argparse.Namespace, types.SimpleNamespace)


@dataclass(frozen=True)
class TextFile:
    """A text file shown as it is (a TorchScript archive's code), never run."""

    text: str
    nbytes: int

    def summary(self) -> str:
        lines = self.text.count("\n") + 1
        text = ngettext(
            "text, {lines} line, {nbytes} bytes", "text, {lines} lines, {nbytes} bytes", lines
        )
        return text.format(lines=f"{lines:,}", nbytes=f"{self.nbytes:,}")


@dataclass(frozen=True)
class MissingEntry:
    """An entry named (by an index, a folder) whose data is not there: `why` says so."""

    why: str


class _Builder:
    def __init__(self) -> None:
        self.count = 0
        self.ancestors: set[int] = set()

    def node(self, name: str, obj, access: tuple, depth: int = 0) -> Node:
        self.count += 1
        if isinstance(obj, torch.Tensor):
            return Node(name, "tensor", access)
        if depth > MAX_DEPTH or self.count > MAX_NODES:
            why = (
                _("(not expanded: nested too deep)")
                if depth > MAX_DEPTH
                else _("(not expanded: the tree is already very large)")
            )
            return Node(name, "value", access, value_text=why)
        if id(obj) in self.ancestors:
            return Node(name, "value", access, value_text=_("(refers back to a containing entry)"))
        self.ancestors.add(id(obj))
        try:
            return self._expand(name, obj, access, depth + 1)
        finally:
            self.ancestors.discard(id(obj))

    def _expand(self, name: str, obj, access: tuple, depth: int) -> Node:
        if isinstance(obj, MissingEntry):
            return Node(name, "missing", access, value_text=obj.why)
        if isinstance(obj, TextFile):
            return Node(name, "text", access, value_text=obj.summary(), value=obj.text)
        if isinstance(obj, ObjectStandIn) and obj.is_module():
            return self._module(name, obj, access, depth)
        if isinstance(obj, ObjectStandIn):
            node = Node(name, "object", access, class_name=obj.class_name)
            self._recorded(node, obj, access, depth)
            return node
        if isinstance(obj, CallStandIn):
            kind = "value" if obj.problem else "call"
            node = Node(name, kind, access, class_name=obj.callable_name, danger=obj.danger)
            node.value_text = (
                _("not built: {call} ({problem})").format(call=obj.text(), problem=obj.problem)
                if obj.problem
                else _("would call {call}").format(call=obj.text())
            )  # the call itself stays as the file has it: posix.system('touch …')
            self._recorded(node, obj, access, depth)
            return node
        if isinstance(obj, GlobalRef):
            named = _("{name} (named, never imported)").format(name=obj.qualified_name)
            return Node(name, "global", access, class_name=obj.qualified_name, value_text=named)
        if isinstance(obj, NAMESPACES):
            cls = f"{type(obj).__module__}.{type(obj).__qualname__}"
            node = Node(name, "object", access, class_name=cls)
            for key, value in vars(obj).items():
                self.attach(node, self.node(str(key), value, (*access, Attr(key)), depth))
            return node
        if isinstance(obj, Mapping) and len(obj) <= MAX_CHILDREN:
            node = Node(name, "dict", access)
            if _is_dotted(obj):
                self._group_by_prefix(node, obj, access, depth)
            else:
                for key, value in obj.items():
                    self.attach(node, self.node(_key_name(key), value, (*access, key), depth))
            return node
        if (
            isinstance(obj, list | tuple | deque)
            and len(obj) > 16
            and all(isinstance(v, int | float | bool | str | None) for v in obj)
        ):  # a random state, a list of ids: one value row, not hundreds
            return Node(name, "value", access, value_text=value_text(obj), value=obj)
        if isinstance(obj, list | tuple | deque) and len(obj) <= MAX_CHILDREN:
            kind = "tuple" if isinstance(obj, tuple) else "list"
            node = Node(name, kind, access)
            for index, value in enumerate(obj):
                self.attach(node, self.node(f"[{index}]", value, (*access, index), depth))
            return node
        return Node(name, "value", access, value_text=value_text(obj), value=obj)

    def _module(self, name: str, obj: ObjectStandIn, access: tuple, depth: int) -> Node:
        """An nn.Module pickled whole, or a TorchScript module (its attributes are its members)."""
        node = Node(name, "module", access, class_name=obj.class_name)
        for key, value in obj.module_members().items():
            self.attach(node, self.node(str(key), value, (*access, Attr(key)), depth))
        for key, value in obj.attributes().items():
            if not isinstance(key, str) or key in MODULE_INTERNALS or key in node_names(node):
                continue
            if key.startswith("_") and _empty(value):
                continue  # the empty hook dicts and sets every module has
            self.attach(node, self.node(key, value, (*access, Attr(key)), depth))
        return node

    def _recorded(self, node: Node, obj, access: tuple, depth: int) -> None:
        """The arguments, state, items and appends a pickle recorded for an object or call."""
        for index, value in enumerate(obj.args):
            self.attach(node, self.node(f"(arg {index})", value, (*access, Arg(index)), depth))
        for key, value in obj.kwargs.items():
            self.attach(node, self.node(f"({key}=)", value, (*access, Kwarg(key)), depth))
        attributes = obj.attributes()
        for key, value in attributes.items():
            if isinstance(key, str):
                self.attach(node, self.node(key, value, (*access, Attr(key)), depth))
        opaque = obj.opaque_state()
        if opaque is not None:
            self.attach(node, self.node("(state)", opaque, (*access, Attr("__state__")), depth))
        for key, value in list(obj.items.items())[:MAX_CHILDREN]:
            self.attach(node, self.node(_key_name(key), value, (*access, key), depth))
        for index, value in enumerate(obj.appended[:MAX_CHILDREN]):
            step = Appended(index)
            self.attach(node, self.node(f"[{index}]", value, (*access, step), depth))

    def _group_by_prefix(self, node: Node, obj: Mapping, access: tuple, depth: int) -> None:
        """A state dict: 'encoder.layers.0.weight' becomes encoder › layers › 0 › weight."""
        groups: dict[tuple[str, ...], Node] = {(): node}
        for key, value in obj.items():
            parts = key.split(".")
            for level in range(1, len(parts)):
                prefix = tuple(parts[:level])
                if prefix not in groups:
                    groups[prefix] = Node(parts[level - 1], "group", access)
                    self.attach(groups[prefix[:-1]], groups[prefix])
            leaf = self.node(parts[-1], value, (*access, key), depth)
            self.attach(groups[tuple(parts[:-1])], leaf)

    @staticmethod
    def attach(parent: Node, child: Node) -> None:
        child.parent = parent
        child.row = len(parent.children)
        parent.children.append(child)


def build_tree(obj, name: str = "(file)") -> Node:
    root = _Builder().node(name, obj, ())
    count_tensors(root)
    return root


def attach(parent: Node, child: Node) -> None:
    _Builder.attach(parent, child)


def node_names(node: Node) -> set[str]:
    return {child.name for child in node.children}


def count_tensors(node: Node) -> None:
    for child in node.children:
        count_tensors(child)
    node.tensor_count = sum(c.tensor_count for c in node.children) + (node.kind == "tensor")


def walk(node: Node):
    """Every node below `node` (itself first), in tree order; iterative, so depth costs nothing."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _empty(value) -> bool:
    return isinstance(value, dict | list | set | tuple) and not value or value is None


def _key_name(key) -> str:
    return key if isinstance(key, str) else repr(key)


def _is_dotted(obj: Mapping) -> bool:
    keys = list(obj)
    return (
        len(keys) > 1
        and all(isinstance(k, str) for k in keys)
        and any("." in k for k in keys)
        and all(
            isinstance(v, torch.Tensor | MissingEntry)
            or type(v).__name__ == "UnreadableEntry"
            or k == "__metadata__"
            for k, v in obj.items()
        )
    )


def _value_words(translated: bool) -> tuple[str, str, str]:
    if not translated:  # the same words, kept English: a value read in two languages is equal
        return "{type} of {n} numbers: {head}, …", "{type} of {n} items", "… ({n} long)"
    return _("{type} of {n} numbers: {head}, …"), _("{type} of {n} items"), _("… ({n} long)")


def value_text(obj, translated: bool = True) -> str:
    """A short repr that never builds a huge string (a million-item list, a long blob); with
    `translated` False its few words stay English (what comparisons compare)."""
    numbers, items, long = _value_words(translated)
    if isinstance(obj, np.ndarray):
        shape = ", ".join(map(str, obj.shape))
        text = f"ndarray [{shape}] {obj.dtype}"
        if obj.size <= 8 and obj.dtype.kind in "biufc":
            text += f": {np.array2string(obj, separator=', ')}"
        return text
    if isinstance(obj, list | tuple) and obj and all(isinstance(v, int | float) for v in obj[:8]):
        head = ", ".join(map(repr, obj[:6]))
        return numbers.format(type=type(obj).__name__, n=f"{len(obj):,}", head=head)
    if isinstance(obj, Mapping | list | tuple | set | frozenset | deque):
        return items.format(type=type(obj).__name__, n=f"{len(obj):,}")
    if isinstance(obj, str | bytes) and len(obj) > 200:
        return repr(obj[:199]) + long.format(n=f"{len(obj):,}")
    try:
        text = repr(obj)
    except Exception:  # noqa: BLE001 — a value whose repr fails is still a row
        text = f"<{type(obj).__name__}>"
    return text if len(text) <= 200 else text[:199] + "…"


COUNTER_ROWS = 8  # a tensor-free subtree with more rows than this starts collapsed


def starts_collapsed(node: Node) -> bool:
    """Long runs of plain values (Lightning's `loops` counters, an optimizer's param_groups, a
    config) start collapsed, so the tensors are in sight; a subtree with a tensor or a call in it
    never hides it."""
    if not node.children:
        return True
    if node.tensor_count or node.kind == "call":
        return False
    rows = 0
    for below in walk(node):
        if below.kind == "call":
            return False
        rows += 1
    return rows - 1 > COUNTER_ROWS


def expanded_by_default(root: Node, budget: int = 2000) -> list[Node]:
    """The nodes to show expanded when a file opens, in tree order, at most `budget` rows shown:
    everything except what starts collapsed, shallowest first."""
    chosen, shown, level = [], 1, [root]
    while level and shown < budget:
        following = []
        for node in level:
            if starts_collapsed(node) or shown + len(node.children) > budget:
                continue
            chosen.append(node)
            shown += len(node.children)
            following += node.children
        level = following
    return chosen
