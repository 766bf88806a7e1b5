"""Which nn.Module made each backward node, written on the node itself.

Autograd numbers the nodes it creates, per thread, in creation order (`_sequence_nr`). A module's
call starts at one number; when it returns, every node reachable from its outputs whose number
is at least that start was made during the call. Inner modules return first, so each node is
tagged by the innermost module that made it, in `grad_fn.metadata` (a dict torch keeps on the
node for as long as the node lives), under MODULE_KEY. A parameter's AccumulateGrad is tagged
by the innermost module that read it first (its owner, for a tied weight its first user).

`tagging_modules()` does this for every module call in the current thread (global module hooks:
the Script area's runs); `ModuleTagger` is the same for a recorder that has its own hooks."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from tensorviz.core.forward.tensor_structure import flatten_tensors

MODULE_KEY = "tensorviz.module"  # ((path, class), ...) of the calls open when it was made
FORWARD_KEY = "tensorviz.forward"  # (record serial, node id) of the forward op it belongs to


def sequence_number() -> int:
    """The number autograd gives the next node made in this thread (nothing is made)."""
    return torch._C._autograd._get_sequence_nr()


def tag_nodes_made_since(output, start: int, path) -> None:
    """Tag the untagged nodes reachable from `output`'s tensors made since `start` with
    `path`: the (qualified name, class) of each module call open, outermost first."""
    pending = [t.grad_fn for _, t in flatten_tensors(output) if t.grad_fn is not None]
    seen: set[int] = set()
    while pending:
        fn = pending.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        if type(fn).__name__ == "AccumulateGrad":
            fn.metadata.setdefault(MODULE_KEY, path)
            continue
        if fn._sequence_nr() < start:
            continue  # made before this call: neither it nor its inputs are ours
        fn.metadata.setdefault(MODULE_KEY, path)
        pending.extend(next_fn for next_fn, _ in fn.next_functions)


def module_path_of(fn) -> tuple[tuple[str, str], ...]:
    """The module calls a backward node was made in, outermost first (() when untagged)."""
    try:
        return fn.metadata.get(MODULE_KEY, ())
    except (AttributeError, RuntimeError):
        return ()


def graph_module_tags(tensor) -> tuple[int, int]:
    """(nodes tagged with a module, AccumulateGrad nodes of nn.Parameters) of the backward
    graph behind `tensor`: a graph with parameters and no tag was made by a model's forward
    that ran untagged."""
    start = getattr(tensor, "grad_fn", None)
    pending, seen = [start] if start is not None else [], set()
    tagged = parameters = 0
    while pending:
        fn = pending.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        tagged += bool(module_path_of(fn))
        if isinstance(getattr(fn, "variable", None), torch.nn.Parameter):
            parameters += 1
        pending.extend(next_fn for next_fn, _ in fn.next_functions)
    return tagged, parameters


class ModuleTagger:
    """A stack of the module calls running now; `enter`/`leave` from forward pre/post hooks."""

    def __init__(self) -> None:
        self.stack: list[tuple[str, str, int]] = []  # (path, class, first sequence number)

    def enter(self, path: str, class_name: str) -> None:
        self.stack.append((path, class_name, sequence_number()))

    def leave(self, output) -> None:
        """The innermost call returned `output` (None: it raised). The model itself (path "")
        is no group: its nodes stay untagged unless a submodule made them."""
        if self.stack:
            chain = tuple((path, name) for path, name, _ in self.stack if path)
            path, _, start = self.stack.pop()
            if path and output is not None:
                tag_nodes_made_since(output, start, chain)


class _GlobalTagger(ModuleTagger):
    """Global module hooks, for one thread: the outermost module called is the root whose
    named_modules() name the others (a module outside its tree is named by its class)."""

    def __init__(self) -> None:
        super().__init__()
        self.thread = threading.get_ident()
        self.names: dict[int, str] = {}  # id(module) → its name in the root called now
        self.root_calls: dict[int, tuple] = {}  # id(root module) → (module, args) of its last call

    def _path(self, module: torch.nn.Module, args: tuple) -> str:
        if not self.stack:
            self.names = {id(m): name for name, m in module.named_modules()}
            self.root_calls[id(module)] = (module, args)
            return ""
        known = self.names.get(id(module))
        if known is not None:
            return known
        parent = self.stack[-1][0]
        return f"{parent}.{type(module).__name__}" if parent else type(module).__name__

    def before(self, module, args) -> None:
        if threading.get_ident() == self.thread:
            self.enter(self._path(module, args), type(module).__name__)

    def after(self, module, _args, output) -> None:
        if threading.get_ident() != self.thread or not self.stack:
            return
        failed = output is None and sys.exc_info()[1] is not None
        self.leave(None if failed else output)  # the innermost open call is this one


@contextmanager
def tagging_modules() -> Iterator[ModuleTagger]:
    """Tag the backward nodes of every module call made in this thread inside the block."""
    tagger = _GlobalTagger()
    modules = torch.nn.modules.module
    before = modules.register_module_forward_pre_hook(tagger.before)
    after = modules.register_module_forward_hook(tagger.after, always_call=True)
    try:
        yield tagger
    finally:
        before.remove()
        after.remove()
