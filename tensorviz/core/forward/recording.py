"""Recording a forward: forward pre/post hooks on every submodule of the model, and a
TorchFunctionMode that sees each torch function call between them.

Each call a module makes is a ModuleCall; each torch function call that returns a tensor (or
writes one in place) is an "op" node in the innermost call running; each input tensor is traced
to the node that produced it (a dict from the tensor's id, checked against a weak reference, so
no tensor is kept alive and a reused id is never mistaken for the old tensor). What a module
returns becomes its "module_output" nodes, so a later reader is linked to the module, not to the
op deep inside it. Parameters and buffers are named, not drawn. A forward that raises keeps
everything recorded so far; the op that raised is marked and the error explained (core/explain).

Each op's output grad_fn is tagged with (record serial, node id) and every backward node with
the module that made it (module_tags.py), so the Autograd graph finds both.
"""

from __future__ import annotations

import itertools
import sys
import threading
import weakref
from contextlib import ExitStack

import torch
from torch.overrides import TorchFunctionMode

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.forward.forward_record import (
    ForwardRecord,
    ModuleCall,
    RecordedNode,
    TensorEdge,
)
from tensorviz.core.forward.module_tags import FORWARD_KEY, ModuleTagger
from tensorviz.core.forward.module_tree import module_infos
from tensorviz.core.forward.tensor_structure import (
    TensorInfo,
    TensorInfoMemo,
    bound_arguments,
    flatten_tensors,
)
from tensorviz.core.forward.torch_calls import is_in_place, op_name

_SERIALS = itertools.count(1)

try:  # torch's own helpers for the torch-function mode stack (what it uses around a handler)
    from torch.overrides import _get_current_function_mode, _pop_mode, _push_mode
except ImportError:  # pragma: no cover — another torch: the hooks' reads go through the mode
    _get_current_function_mode = None


class _OwnReads:
    """While the recorder's hooks read what a module was given and returned (.shape, .dtype,
    .grad_fn), the recorder is busy (the mode lets those calls through unrecorded) and its mode,
    when it is the innermost one, is set aside as torch sets a mode aside while its handler
    runs: thousands of reads a forward then cost no Python call each."""

    def __init__(self, recorder: ForwardRecorder) -> None:
        self.recorder = recorder
        self.set_aside = None

    def __enter__(self) -> None:
        self.recorder.busy = True
        mode = self.recorder.mode
        if mode is not None and _get_current_function_mode is not None:
            if _get_current_function_mode() is mode:
                self.set_aside = _pop_mode()

    def __exit__(self, *_exc) -> None:
        if self.set_aside is not None:
            _push_mode(self.set_aside)
            self.set_aside = None
        self.recorder.busy = False


class _Producers:
    """Which node made each live tensor: id(tensor) → (weak reference, node id, output index)."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[weakref.ref, str, int]] = {}

    def register(self, tensor: torch.Tensor, node: str, index: int) -> None:
        self._made[id(tensor)] = (weakref.ref(tensor), node, index)

    def lookup(self, tensor: torch.Tensor) -> tuple[str, int] | None:
        found = self._made.get(id(tensor))
        if found is None or found[0]() is not tensor:
            return None
        return found[1], found[2]


class _OpMode(TorchFunctionMode):
    def __init__(self, recorder: ForwardRecorder) -> None:
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        recorder = self.recorder
        if recorder.busy:  # our own hooks' reads (.shape, .grad_fn): not the model's ops
            return func(*args, **kwargs)
        try:
            result = func(*args, **kwargs)
        except Exception as error:
            recorder.add_op(func, args, kwargs, None, error)
            raise
        recorder.add_op(func, args, kwargs, result)
        return result


class ForwardRecorder:
    def __init__(self, title: str, model: torch.nn.Module | None = None) -> None:
        self.record = ForwardRecord(next(_SERIALS), title)
        self.model = model
        self.busy = False
        self.mode: TorchFunctionMode | None = None  # record_forward's, while it records
        self.stack: list[str] = []  # call ids, innermost last
        self.producers = _Producers()
        self.infos = TensorInfoMemo()
        self.tagger = ModuleTagger()
        self.parameter_names: dict[int, tuple[weakref.ref, str]] = {}
        self.module_names: dict[int, str] = {}
        self._failure: tuple[BaseException, str, list] | None = None
        self._keep: list[torch.nn.Module] = []  # modules named so far (their ids stay valid)
        if model is not None:
            self.add_model(model, "")

    def add_model(self, model: torch.nn.Module, prefix: str) -> None:
        """Name `model` and its submodules, parameters and buffers (under `prefix`)."""
        self._keep.append(model)
        dotted = f"{prefix}." if prefix else ""
        for name, info in module_infos(model).items():
            info.name = dotted + name if name else prefix
            info.parent = (dotted + info.parent if info.parent else prefix) if name else None
            self.record.modules.setdefault(info.name, info)
        for name, module in model.named_modules():
            self.module_names.setdefault(id(module), dotted + name if name else prefix)
        for name, tensor in (*model.named_parameters(), *model.named_buffers()):
            self.parameter_names.setdefault(id(tensor), (weakref.ref(tensor), dotted + name))
            self.record.meta |= tensor.is_meta

    def _name_of(self, module: torch.nn.Module) -> str:
        """A module's qualified name; one met for the first time (a function's forward calls
        modules we were not given) is named by its class: LSTMCell, LSTMCell_2, ..."""
        name = self.module_names.get(id(module))
        if name is None:
            base, count = type(module).__name__, 1
            name = base
            while name in self.record.modules:
                count += 1
                name = f"{base}_{count}"
            self.add_model(module, name)
        return name

    # --- nodes -----------------------------------------------------------------------------------

    def _node(self, kind: str, label: str, outputs=()) -> RecordedNode:
        call = self.stack[-1] if self.stack else None
        node = RecordedNode(f"n{len(self.record.nodes)}", kind, label, call, list(outputs))
        self.record.nodes[node.id] = node
        self.record.items_of(call).append(("node", node.id))
        return node

    def _parameter_name(self, tensor: torch.Tensor) -> str | None:
        found = self.parameter_names.get(id(tensor))
        return found[1] if found is not None and found[0]() is tensor else None

    def _sources(self, tensors: list[tuple[str, torch.Tensor]]):
        """(source node, output index, its TensorInfo now) per input tensor, or (None, name,
        None) for a parameter; tensors from nowhere become "tensor" nodes first."""
        sources = []
        for _, tensor in tensors:
            found = self.producers.lookup(tensor)
            if found is None:
                name = self._parameter_name(tensor)
                if name is not None:
                    sources.append((None, name, None))
                    continue
                label = "parameter" if isinstance(tensor, torch.nn.Parameter) else "tensor"
                info = self.infos.of(tensor)
                made = self._node("tensor", label, [info])
                self.producers.register(tensor, made.id, 0)
                self.record.meta |= tensor.is_meta
                sources.append((made.id, 0, info))
            else:
                sources.append((*found, self.infos.of(tensor)))
        return sources

    def _link(self, node: RecordedNode, sources) -> None:
        for position, (source, index, info) in enumerate(sources):
            if source is None:
                if index not in node.parameters:
                    node.parameters.append(index)
                continue
            self.record.edges.append(TensorEdge(source, node.id, index, position, info))

    def add_inputs(self, named: list[tuple[str, object]]) -> None:
        for name, value in named:
            for path, tensor in flatten_tensors(value, name):
                node = self._node("input", path, [self.infos.of(tensor)])
                self.producers.register(tensor, node.id, 0)
                self.record.meta |= tensor.is_meta

    def add_op(self, func, args, kwargs, result, error: BaseException | None = None) -> None:
        name = op_name(func)
        if name is None:
            return
        self.busy = True
        try:
            in_place = is_in_place(name, kwargs)
            outputs = flatten_tensors(result)
            if error is None and not outputs and not in_place:
                return  # size(), dim(), item(): no tensor comes out
            inputs = flatten_tensors(args) + (flatten_tensors(kwargs) if kwargs else [])
            sources = self._sources(inputs)
            if in_place and not outputs:  # __setitem__ returns None; it wrote its first argument
                outputs = inputs[:1] if error is None else []
            node = self._node("op", name, [self.infos.of(t) for _, t in outputs])
            node.in_place = in_place
            self._link(node, sources)
            for index, (_, tensor) in enumerate(outputs):
                self.producers.register(tensor, node.id, index)
                fn = tensor.grad_fn
                if fn is not None:
                    fn.metadata.setdefault(FORWARD_KEY, (self.record.serial, node.id))
            if error is not None:
                node.failed = True
                self._failure = (error, node.id, [t for _, t in inputs])
        finally:
            self.busy = False

    # --- module calls ----------------------------------------------------------------------------

    def enter_call(self, module: torch.nn.Module, args: tuple, kwargs: dict) -> None:
        with _OwnReads(self):
            name = self._name_of(module)
            info = self.record.modules.get(name)
            parent = self.stack[-1] if self.stack else None
            call = ModuleCall(
                f"c{len(self.record.calls)}",
                name,
                type(module).__name__,
                parent,
                self.record.calls[parent].depth + 1 if parent else 0,
                len(info.calls) + 1 if info else 1,
            )
            for argument, value in bound_arguments(module.forward, args, kwargs):
                for path, tensor in flatten_tensors(value, argument):
                    call.inputs.append((path, self.infos.of(tensor)))
            self.record.calls[call.id] = call
            self.record.items_of(parent).append(("call", call.id))
            if info is not None:
                info.calls.append(call.id)
            self.stack.append(call.id)
            self.tagger.enter(name, call.class_name)

    def leave_call(self, module: torch.nn.Module, output) -> None:
        if not self.stack:
            return
        with _OwnReads(self):
            raised = output is None and sys.exc_info()[1] is not None
            self.tagger.leave(None if raised else output)
            call = self.record.calls[self.stack[-1]]
            if raised:
                call.error = repr(sys.exc_info()[1])[:200]
                self.record.failed_call = self.record.failed_call or call.id
            else:
                flat = flatten_tensors(output)
                for path, tensor in flat:
                    label = path or "output"
                    sources = self._sources([(path, tensor)])
                    info = sources[0][2] or self.infos.of(tensor)  # (None: a parameter)
                    node = self._node("module_output", label, [info])
                    self._link(node, sources)
                    self.producers.register(tensor, node.id, 0)
                    call.outputs.append((label, info))
                call.finished = True
            self.stack.pop()

    # --- the whole forward -----------------------------------------------------------------------

    def add_outputs(self, result) -> None:
        with _OwnReads(self):
            for path, tensor in flatten_tensors(result, "output"):
                sources = self._sources([(path, tensor)])
                node = self._node(
                    "output", path.removeprefix("output.") or "output", [self.infos.of(tensor)]
                )
                self._link(node, sources)

    def fail(self, error: BaseException) -> None:
        record = self.record
        op, tensors = None, []
        if self._failure is not None and self._failure[0] is error:
            _, record.failed_node, tensors = self._failure
            op = record.nodes[record.failed_node].label
        record.error = explain_error(error, op, tensors)
        record.error_type = type(error).__name__
        self._failure = None  # the failing op's inputs are not kept

    def hooks(self, modules: torch.nn.Module) -> ExitStack:
        """Pre/post hooks on every module of `modules`, removed when the stack closes."""
        stack = ExitStack()
        for module in modules.modules():
            pre = module.register_forward_pre_hook(self._before, with_kwargs=True)
            post = module.register_forward_hook(self._after, always_call=True)
            stack.callback(pre.remove)
            stack.callback(post.remove)
        return stack

    def global_hooks(self) -> ExitStack:
        """Pre/post hooks on every module called in this thread (a function's forward)."""
        thread = threading.get_ident()

        def before(module, args) -> None:
            if threading.get_ident() == thread:
                self.enter_call(module, args, {})

        def after(module, args, output) -> None:
            if threading.get_ident() == thread:
                self.leave_call(module, output)

        stack = ExitStack()
        modules = torch.nn.modules.module
        stack.callback(modules.register_module_forward_pre_hook(before).remove)
        stack.callback(modules.register_module_forward_hook(after, always_call=True).remove)
        return stack

    def _before(self, module, args, kwargs) -> None:
        self.enter_call(module, args, kwargs)

    def _after(self, module, _args, output) -> None:
        self.leave_call(module, output)


def record_forward(
    target,
    args: tuple = (),
    kwargs: dict | None = None,
    title: str = "",
    modules: dict[str, torch.nn.Module] | None = None,
    keep_outputs: list | None = None,
) -> ForwardRecord:
    """Run `target(*args, **kwargs)` (an nn.Module or any function) and record it. A function's
    modules are found as it calls them (named by `modules`, e.g. a script's variables, else by
    class). Never raises an Exception of the forward's: it is kept, explained, in the record.
    `keep_outputs`, a list, receives what the forward returned (the record itself holds no
    tensor)."""
    kwargs = kwargs or {}
    model = target if isinstance(target, torch.nn.Module) else None
    recorder = ForwardRecorder(title or _title(target, args, kwargs), model)
    for name, module in (modules or {}).items():
        if module is not model:
            recorder.add_model(module, name)
    function = target.forward if model is not None else target
    recorder.add_inputs(bound_arguments(function, tuple(args), kwargs))
    with ExitStack() as stack:
        if model is not None:
            stack.enter_context(recorder.hooks(model))
        else:
            stack.enter_context(recorder.global_hooks())
        recorder.mode = stack.enter_context(_OpMode(recorder))
        try:
            result = target(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 — the forward's error is data (rule 7)
            failure = error
        else:
            failure = None
            recorder.add_outputs(result)
            if keep_outputs is not None:
                keep_outputs.append(result)
    if failure is not None:  # explained outside the mode: explaining runs torch calls too
        recorder.fail(failure)
    return recorder.record


def _title(target, args: tuple, kwargs: dict) -> str:
    name = type(target).__name__ if isinstance(target, torch.nn.Module) else target.__name__
    shapes = [TensorInfo.of(t).shape_text() for _, t in flatten_tensors([args, kwargs])]
    return f"{name}({', '.join(shapes)})"
