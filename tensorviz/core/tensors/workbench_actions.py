"""The Workbench's actions on the workspace: create a tensor, apply an operation, write through
NumPy. Parameters are validated before torch runs; any failure — ours or torch's — becomes an
ActionError carrying an ExplainedError, and leaves the workspace exactly as it was.

Creating and operating come in two halves (PreparedAction): preparing checks the parameters and
sizes the result on the meta device — index masks included — without allocating anything, and
refuses what the memory budget cannot hold; `compute` runs torch (index masks are computed
here) and may run off the GUI thread when the work is large; `finish` records the result in the
workspace. In-place writes are checked before they start (in_place_writes)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import torch

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.tensors.action_results import (
    HEAVY_BYTES,
    HEAVY_MULTIPLY_ADDS,
    ActionError,
    ActionOutcome,
    PreparedAction,
    computed_keys,
    input_problem,
    mask_bytes,
    meta_keys,
    torch_warning_note,
    torch_warns_every_time,
)
from tensorviz.core.tensors.creation import (
    CREATIONS_BY_NAME,
    CreationOptions,
    create,
    creation_bytes,
)
from tensorviz.core.tensors.identity import view_verdict
from tensorviz.core.tensors.in_place_writes import prepare_write
from tensorviz.core.tensors.index_expressions import IndexSyntaxError, parse_index
from tensorviz.core.tensors.memory_budget import (
    allocation_problem,
    masks_counted,
    new_bytes_on_meta,
)
from tensorviz.core.tensors.op_params import (
    TENSOR_KINDS,
    ParamError,
    ParamSpec,
    format_param,
    parse_param,
    tensor_names,
)
from tensorviz.core.tensors.op_spec import OpSpec, code_line
from tensorviz.core.tensors.operation_specs import OPERATIONS_BY_NAME
from tensorviz.core.tensors.type_promotion import promotion_note
from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceEntry, WorkspaceError
from tensorviz.core.translation import _

__all__ = [  # what the Workbench calls (the result types live in action_results)
    "ActionError", "ActionOutcome", "PreparedAction", "apply_operation", "create_tensor",
    "input_problem", "populate_default_workspace", "prepare_creation", "prepare_operation",
    "write_numpy",
]  # fmt: skip

MATRIX_PRODUCTS = ("matmul", "mm", "bmm")


def create_tensor(
    workspace: Workspace,
    kind: str,
    raw_params: Mapping[str, str],
    options: CreationOptions,
    name: str | None = None,
) -> ActionOutcome:
    return prepare_creation(workspace, kind, raw_params, options, name).run()


def prepare_creation(
    workspace: Workspace,
    kind: str,
    raw_params: Mapping[str, str],
    options: CreationOptions,
    name: str | None = None,
) -> PreparedAction:
    spec = CREATIONS_BY_NAME.get(kind)
    if spec is None:
        raise input_problem(_("Unknown way to create a tensor: '{kind}'.").format(kind=kind))
    if name:
        try:
            workspace.check_new_name(name)
        except WorkspaceError as error:
            raise input_problem(str(error)) from None
    tensors = workspace.tensors()

    def compute():
        try:
            return create(spec, raw_params, options, tensors)
        except ParamError as error:
            raise input_problem(str(error)) from None
        except Exception as error:  # noqa: BLE001 — torch refused; explain it
            raise ActionError(explain_error(error, kind, (), dict(raw_params))) from None

    def finish(created) -> ActionOutcome:
        entry_name = name or workspace.suggest_name(_creation_base_name(workspace))
        sources = tuple(raw_params[p.name] for p in spec.params if p.kind == "tensor")
        entry = WorkspaceEntry(
            entry_name,
            created.tensor,
            Provenance(kind, created.code, sources, dict(raw_params)),
            numpy_array=created.numpy_array,
            notes=created.notes,
        )
        *setup, last = created.code.splitlines()
        try:
            workspace.add([entry], f"{entry_name} = {last}")
        except WorkspaceError as error:  # the name was taken while torch worked
            raise input_problem(str(error)) from None
        code = "\n".join([*setup, f"{entry_name} = {last}"])
        return ActionOutcome(code, (entry_name,), notes=created.notes)

    heavy = creation_bytes(spec, raw_params, options, tensors) > HEAVY_BYTES
    return PreparedAction(spec.name, heavy, compute, finish)


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
            if spec.kind == "index":  # its masks are computed later, by `compute`
                parsed = parse_index(text, input_name, tensors)
                values[spec.name], shown[spec.name] = parsed, parsed.text
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
    return prepare_operation(workspace, op_name, input_name, raw_params, name).run()


def prepare_operation(
    workspace: Workspace,
    op_name: str,
    input_name: str | None,
    raw_params: Mapping[str, str],
    name: str | None = None,
) -> PreparedAction:
    op = OPERATIONS_BY_NAME.get(op_name)
    if op is None:
        raise input_problem(_("Unknown operation '{op}'.").format(op=op_name))
    tensors = workspace.tensors()
    if op.takes_input and input_name not in tensors:
        raise input_problem(
            _("Choose an input tensor for {op} (none named '{name}').").format(
                op=op_name, name=input_name
            )
        )
    x = tensors[input_name] if op.takes_input else None
    values, shown = _parse_params(op, input_name or "", raw_params, tensors)
    code = code_line(op, input_name, shown)
    inputs = _input_tensors(op, input_name, raw_params, tensors)
    if name:
        try:
            workspace.check_new_name(name)
        except WorkspaceError as error:
            raise input_problem(str(error)) from None

    # How each input was written where that matters to an explanation (`K.T` on 3-D K).
    written = tuple(_written_as(workspace, name) for name in inputs)

    def explained(error: Exception) -> ActionError:
        params = {**values, "input_exprs": written}
        return ActionError(
            explain_error(error, op_name, list(inputs.values()), params, list(inputs))
        )

    if op.inplace:  # a write into workspace memory: checked by `compute`, done by `finish`
        return prepare_write(workspace, op, input_name, values, code, explained)

    masks = mask_bytes(values)
    needed = new_bytes_on_meta(op.run, x, meta_keys(values))
    what = (
        _("The result of {code} with the masks of its index")
        if masks
        else _("The result of {code}")
    ).format(code=code)
    if problem := allocation_problem((needed or 0) + masks, what):
        raise input_problem(problem)

    def compute():
        real = computed_keys(values)
        if needed is None and masks:  # x[x > 0]: sized now that the mask's count is known
            counted = {k: masks_counted(v) if k == "index" else v for k, v in real.items()}
            sized = new_bytes_on_meta(op.run, x, counted)
            if sized is not None and (problem := allocation_problem(sized + masks, what)):
                raise input_problem(problem)
        try:
            with warnings.catch_warnings(record=True) as caught, torch_warns_every_time():
                warnings.simplefilter("always")
                result = op.run(x, **real)
        except Exception as error:  # noqa: BLE001 — torch refused; explain it
            raise explained(error) from None
        notes = [torch_warning_note(w.message) for w in caught]
        if "other" in real:  # arithmetic: say why the result has its dtype
            other_text = (raw_params.get("other") or "").strip()
            names = (input_name or "", other_text if other_text in tensors else "")
            notes.append(promotion_note(op.name, x, real["other"], result, names))
        return result, tuple(dict.fromkeys(note for note in notes if note))

    def finish(computed) -> ActionOutcome:
        result, notes = computed
        return _add_results(workspace, op, result, inputs, code, dict(raw_params), name, notes)

    return PreparedAction(code, _is_heavy(op, x, needed) or masks > HEAVY_BYTES, compute, finish)


def _is_heavy(op: OpSpec, x, needed: int | None) -> bool:
    """Worth running off the GUI thread: a large result, or a long matrix product. A result
    whose size depends on the data (x[x > 0]) is judged by the input it reads."""
    if needed is None:
        return isinstance(x, torch.Tensor) and x.numel() * x.element_size() > HEAVY_BYTES
    if op.name in MATRIX_PRODUCTS and isinstance(x, torch.Tensor) and x.dim() > 0:
        return (needed // x.element_size()) * x.shape[-1] > HEAVY_MULTIPLY_ADDS
    return needed > HEAVY_BYTES


def _written_as(workspace: Workspace, name: str) -> str:
    """`K.T` for a tensor the Workbench made with .T (its code line), else its name."""
    provenance = workspace.entry(name).provenance
    return provenance.code if provenance.op == "T" and provenance.code else name


def _input_tensors(op: OpSpec, input_name, raw, tensors) -> dict[str, torch.Tensor]:
    """The named tensors an operation reads, for the view/copy verdict and explanations."""
    names = [input_name] if op.takes_input else []
    for spec in op.params:
        text = (raw.get(spec.name) or "").strip()
        if spec.kind in (*TENSOR_KINDS, "tensor_or_number") and text in tensors:
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
    for _unused, t in parts:
        if any(size < 0 for size in t.shape):  # torch accepted e.g. expand(0, -2)
            raise input_problem(
                _(
                    "torch returned a tensor of shape {shape} — a negative size is meaningless "
                    "(torch does not check it here). Use -1 only to keep a size, and sizes ≥ 0 "
                    "otherwise."
                ).format(shape=list(t.shape))
            )
    provenance = Provenance(op.name, code, tuple(inputs), raw)
    entries = [WorkspaceEntry(n, t, provenance, notes=notes) for n, t in parts]
    try:
        created = workspace.add(entries, f"{', '.join(n for n, _unused in parts)} = {code}")
    except WorkspaceError as error:
        raise input_problem(str(error)) from None
    verdicts = {n: view_verdict(t, inputs) for n, t in parts}
    return ActionOutcome(f"{', '.join(created)} = {code}", tuple(created), verdicts, notes=notes)


def write_numpy(workspace: Workspace, name: str, index_text: str, value_text: str) -> ActionOutcome:
    """arr[index] = value on the NumPy array kept with `name` — shows from_numpy's sharing."""
    entry = workspace.entry(name)
    array = entry.numpy_array
    if array is None:
        raise input_problem(_("{name} was not made from a NumPy array.").format(name=name))
    try:
        parsed = parse_index(index_text, "arr", {})
        value = parse_param(ParamSpec("value", "number"), value_text)
    except (ParamError, IndexSyntaxError) as error:
        raise input_problem(str(error)) from None
    code = f"arr[{parsed.text}] = {value!r}"

    key = parsed.key()

    def write() -> None:  # NumPy checks every index before it writes one: no partial write
        array[key] = value

    shared = numpy_shares_memory(array, entry.tensor)
    try:
        changed = workspace.write_in_place(name, write, code, reaches_tensor=shared)
    except Exception as error:  # noqa: BLE001 — NumPy refused (e.g. index out of range)
        raise ActionError(explain_error(error, "numpy write", [entry.tensor], {})) from None
    note = (
        _("{name} changed too: torch.from_numpy shares the array's memory.")
        if shared
        else _("{name} did not change: torch.tensor(arr) copied the data.")
    ).format(name=name)
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
