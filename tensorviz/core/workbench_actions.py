"""The Workbench's actions on the workspace: create a tensor, apply an operation, write through
NumPy. Parameters are validated before torch runs; any failure — ours or torch's — becomes an
ActionError carrying an ExplainedError, and leaves the workspace exactly as it was."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from tensorviz.core.error_explanations import ExplainedError, explain_error
from tensorviz.core.index_expressions import IndexSyntaxError, parse_index
from tensorviz.core.memory_budget import operation_memory_problem
from tensorviz.core.op_params import (
    ParamError,
    ParamSpec,
    format_param,
    parse_param,
    tensor_names,
)
from tensorviz.core.operation_specs import OPERATIONS_BY_NAME, OpSpec, code_line
from tensorviz.core.tensor_creation import CREATIONS_BY_NAME, CreationOptions, create
from tensorviz.core.tensor_identity import Verdict, view_verdict
from tensorviz.core.workspace import Provenance, Workspace, WorkspaceEntry, WorkspaceError


class ActionError(Exception):
    def __init__(self, explained: ExplainedError) -> None:
        super().__init__(explained.title)
        self.explained = explained


@dataclass(frozen=True)
class ActionOutcome:
    code: str
    created: tuple[str, ...] = ()
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    changed: tuple[str, ...] = ()  # entries whose memory an in-place write reached
    notes: tuple[str, ...] = ()


def input_problem(message: str) -> ActionError:
    """A problem found before torch was called: there is no torch message to show."""
    return ActionError(
        ExplainedError(
            kind="bad_parameter",
            title="Check the input",
            torch_message="",
            explanation=message,
            fix="Correct that value and try again; nothing was changed.",
        )
    )


def create_tensor(
    workspace: Workspace,
    kind: str,
    raw_params: Mapping[str, str],
    options: CreationOptions,
    name: str | None = None,
) -> ActionOutcome:
    spec = CREATIONS_BY_NAME.get(kind)
    if spec is None:
        raise input_problem(f"Unknown way to create a tensor: '{kind}'.")
    try:
        if name:
            workspace.check_new_name(name)
        created = create(spec, raw_params, options, workspace.tensors())
    except (ParamError, WorkspaceError) as error:
        raise input_problem(str(error)) from None
    except Exception as error:  # noqa: BLE001 — torch refused; explain it
        raise ActionError(explain_error(error, kind, (), dict(raw_params))) from None
    name = name or workspace.suggest_name(_creation_base_name(workspace))
    sources = tuple(raw_params[p.name] for p in spec.params if p.kind == "tensor")
    entry = WorkspaceEntry(
        name,
        created.tensor,
        Provenance(kind, created.code, sources, dict(raw_params)),
        numpy_array=created.numpy_array,
        notes=created.notes,
    )
    workspace.add([entry], f"{name} = {created.code.splitlines()[-1]}")
    code = "\n".join(created.code.splitlines()[:-1] + [f"{name} = {created.code.splitlines()[-1]}"])
    return ActionOutcome(code, (name,), notes=created.notes)


def _creation_base_name(workspace: Workspace) -> str:
    for letter in "xyzabcdefghuvw":
        if letter not in workspace:
            return letter
    return "t"


def _parse_params(
    op: OpSpec, input_name: str, raw: Mapping[str, str], tensors
) -> tuple[dict, dict]:
    """(values for torch, text for the code line); raises ActionError before torch runs."""
    values, shown = {}, {}
    for spec in op.params:
        text = (raw.get(spec.name) or "").strip() or spec.default
        try:
            if spec.kind == "index":
                parsed = parse_index(text, input_name, tensors)
                values[spec.name], shown[spec.name] = parsed.key, parsed.text
                continue
            values[spec.name] = parse_param(spec, text, tensors)
        except (ParamError, IndexSyntaxError) as error:
            raise input_problem(str(error)) from None
        shown[spec.name] = format_param(spec, values[spec.name], text)
    return values, shown


def apply_operation(
    workspace: Workspace,
    op_name: str,
    input_name: str | None,
    raw_params: Mapping[str, str],
    name: str | None = None,
) -> ActionOutcome:
    op = OPERATIONS_BY_NAME.get(op_name)
    if op is None:
        raise input_problem(f"Unknown operation '{op_name}'.")
    tensors = workspace.tensors()
    if op.takes_input and input_name not in tensors:
        raise input_problem(f"Choose an input tensor for {op_name} (none named '{input_name}').")
    x = tensors[input_name] if op.takes_input else None
    values, shown = _parse_params(op, input_name or "", raw_params, tensors)
    code = code_line(op, input_name, shown)
    inputs = _input_tensors(op, input_name, raw_params, tensors)
    if name:
        try:
            workspace.check_new_name(name)
        except WorkspaceError as error:
            raise input_problem(str(error)) from None
    if not op.inplace and (
        problem := operation_memory_problem(op.run, x, values, f"The result of {code}")
    ):
        raise input_problem(problem)
    try:
        if op.inplace:
            changed = workspace.write_in_place(input_name, lambda: op.run(x, **values), code)
            verdict = Verdict(
                "in-place",
                f"in place — wrote into the storage of {', '.join(changed)}",
                tuple(changed),
            )
            return ActionOutcome(code, (), {input_name: verdict}, tuple(changed))
        with warnings.catch_warnings(record=True) as caught, _torch_warns_every_time():
            warnings.simplefilter("always")
            result = op.run(x, **values)
    except Exception as error:  # noqa: BLE001 — torch refused; explain it
        raise ActionError(
            explain_error(error, op_name, list(inputs.values()), values, list(inputs))
        ) from None
    notes = tuple(dict.fromkeys(f"torch warns: {w.message}" for w in caught))
    return _add_results(workspace, op, result, inputs, code, dict(raw_params), name, notes)


@contextmanager
def _torch_warns_every_time():
    """torch warns about some things only once per process; a learner should see it each time."""
    before = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        yield
    finally:
        torch.set_warn_always(before)


def _input_tensors(op: OpSpec, input_name, raw, tensors) -> dict[str, torch.Tensor]:
    """The named tensors an operation reads, for the view/copy verdict and explanations."""
    names = [input_name] if op.takes_input else []
    for spec in op.params:
        text = (raw.get(spec.name) or "").strip()
        if spec.kind in ("tensor", "tensor_or_number") and text in tensors:
            names.append(text)
        elif spec.kind == "tensors":
            names += [n for n in tensor_names(text) if n in tensors]
    return {n: tensors[n] for n in dict.fromkeys(names)}


def _add_results(workspace, op, result, inputs, code, raw, name, notes) -> ActionOutcome:
    base = name or workspace.suggest_name(f"{next(iter(inputs), op.name)}_{op.name}")
    if isinstance(result, torch.Tensor):
        parts = [(base, result)]
    else:  # split/chunk/unbind give a tuple; max/min with dim give (values, indices)
        labels = getattr(result, "_fields", None) or [str(i) for i in range(len(result))]
        parts = [
            (workspace.suggest_name(f"{base}_{label}"), t)
            for label, t in zip(labels, result, strict=True)
        ]
    for _, t in parts:
        if any(size < 0 for size in t.shape):  # torch accepted e.g. expand(0, -2)
            raise input_problem(
                f"torch returned a tensor of shape {list(t.shape)} — a negative size is "
                "meaningless (torch does not check it here). Use -1 only to keep a size, and "
                "sizes ≥ 0 otherwise."
            )
    provenance = Provenance(op.name, code, tuple(inputs), raw)
    entries = [WorkspaceEntry(n, t, provenance, notes=notes) for n, t in parts]
    try:
        created = workspace.add(entries, f"{', '.join(n for n, _ in parts)} = {code}")
    except WorkspaceError as error:
        raise input_problem(str(error)) from None
    verdicts = {n: view_verdict(t, inputs) for n, t in parts}
    return ActionOutcome(f"{', '.join(created)} = {code}", tuple(created), verdicts, notes=notes)


def write_numpy(workspace: Workspace, name: str, index_text: str, value_text: str) -> ActionOutcome:
    """arr[index] = value on the NumPy array kept with `name` — shows from_numpy's sharing."""
    entry = workspace.entry(name)
    array = entry.numpy_array
    if array is None:
        raise input_problem(f"{name} was not made from a NumPy array.")
    try:
        parsed = parse_index(index_text, "arr", {})
        value = parse_param(ParamSpec("value", "number"), value_text)
    except (ParamError, IndexSyntaxError) as error:
        raise input_problem(str(error)) from None
    code = f"arr[{parsed.text}] = {value!r}"

    def write() -> None:
        array[parsed.key] = value

    shared = numpy_shares_memory(array, entry.tensor)
    try:
        changed = workspace.write_in_place(name, write, code, reaches_tensor=shared)
    except Exception as error:  # noqa: BLE001 — NumPy refused (e.g. index out of range)
        raise ActionError(explain_error(error, "numpy write", [entry.tensor], {})) from None
    note = (
        f"{name} changed too: torch.from_numpy shares the array's memory."
        if shared
        else f"{name} did not change: torch.tensor(arr) copied the data."
    )
    return ActionOutcome(code, (), {}, tuple(changed), (note,))


def numpy_shares_memory(array, tensor: torch.Tensor) -> bool:
    """True when the tensor reads the array's own buffer (torch.from_numpy), not a copy."""
    storage = tensor.untyped_storage()
    start = array.__array_interface__["data"][0]
    return (
        tensor.device.type == "cpu"
        and start <= storage.data_ptr() + storage.nbytes()
        and (storage.data_ptr() <= start + array.nbytes)
        and storage.nbytes() > 0
    )


def populate_default_workspace(workspace: Workspace) -> None:
    """What a first-time user sees: x = arange(24).reshape(2, 3, 4) and its transpose, a view."""
    create_tensor(workspace, "arange(24).reshape(2, 3, 4)", {}, CreationOptions(), name="x")
    apply_operation(workspace, "transpose", "x", {"dim0": "0", "dim1": "1"}, name="x_t")
