"""In-place writes of the Workbench (`x[i] = v`, `scatter_`, `add_`, ...) that change nothing when
they fail, whatever the size of the memory they write.

torch checks shapes, dtypes, overlap and autograd's leaf rule before it writes an element, but
checks the bounds of index tensors element by element while writing: `t[[0, 1, 2, 10**9]] = 7`
writes t[0..2] and then raises. A snapshot taken first undoes that, but memory larger than the
undo budget is not copied. So before any write, the indices are read through the same indexing
on a stand-in of the target's shape that holds one element (stride 0): torch's own bounds check
and message, nothing written, an allocation the size of the index's result in bools.

Where that check cannot be made (the stand-in's result would not fit the memory budget, or the
device has no such kernel), a write that cannot be undone is not started without the user's
yes: the outcome carries the question and a `proceed` for after it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import torch

from tensorviz.core.tensors.action_results import (
    HEAVY_BYTES,
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
from tensorviz.core.tensors.identity import Verdict
from tensorviz.core.tensors.memory_budget import (
    allocation_problem,
    human_bytes,
    masks_counted,
    new_bytes_on_meta,
    spare_bytes,
)
from tensorviz.core.tensors.op_spec import OpSpec
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.core.translation import _


@dataclass(frozen=True)
class WriteCheck:
    """The verdict on a write before it starts; `undecided` says why it could not be checked."""

    undecided: str = ""


def check_write(op: OpSpec, x: torch.Tensor, values: dict) -> WriteCheck:
    """Raise torch's error when `op` would fail half-way through writing `x` (index bounds);
    otherwise say whether that was decided. Nothing is written."""
    if op.index_probe is None or not _has_integer_indices(values.get("index")):
        return WriteCheck()  # every check torch makes comes before the first element is written
    stand_in = torch.zeros((), dtype=torch.bool).expand(tuple(x.shape))
    sizing = {k: masks_counted(v) if k == "index" else v for k, v in values.items()}
    needed = new_bytes_on_meta(op.index_probe, stand_in, sizing)
    if needed is None:
        return WriteCheck(_("Its indices could not be sized for a check beforehand."))
    if needed > (spare := spare_bytes()):
        return WriteCheck(
            _(
                "Reading through its indices to check them needs {needed}, more than the "
                "{spare} this machine can spare now."
            ).format(needed=human_bytes(needed), spare=human_bytes(spare))
        )
    try:
        op.index_probe(stand_in, **{k: _on_cpu(v) for k, v in values.items()})
    except NotImplementedError:
        return WriteCheck(_("torch cannot check these indices without writing."))
    except (IndexError, RuntimeError) as error:
        if "out of bounds" in str(error):
            raise
        # any other refusal (a dtype, a shape) the real write raises itself before writing,
        # in its own words: let it
    return WriteCheck()


def _has_integer_indices(key) -> bool:
    """Whether an index holds integer arrays, whose bounds torch checks only while writing."""
    if isinstance(key, tuple):
        return any(_has_integer_indices(part) for part in key)
    if isinstance(key, torch.Tensor):
        return key.dtype != torch.bool and not key.is_floating_point()
    if isinstance(key, list):
        return any(not isinstance(v, bool) for v in key)
    return False


def _on_cpu(value):
    """The stand-in lives on the CPU: a CUDA bounds failure would be a device-side assert."""
    if isinstance(value, torch.Tensor):
        return value.cpu()
    if isinstance(value, (list, tuple)):
        return type(value)(_on_cpu(v) for v in value)
    return value


def prepare_write(
    workspace: Workspace,
    op: OpSpec,
    input_name: str,
    values: dict,
    code: str,
    explained,
) -> PreparedAction:
    """An in-place operation on `input_name`: `compute` computes its index masks and checks the
    write (off the GUI thread when big); `finish` writes, on the workspace's thread."""
    x = workspace.tensor(input_name)
    masks = mask_bytes(values)
    if problem := allocation_problem(masks, _("The index mask of {code}").format(code=code)):
        raise input_problem(problem)
    heavy = masks > HEAVY_BYTES or _check_bytes(op, x, values) > HEAVY_BYTES

    def compute():
        real = computed_keys(values)
        try:
            return real, check_write(op, x, real)
        except ActionError:
            raise
        except Exception as error:  # noqa: BLE001 — torch refused; explain it, nothing written
            raise explained(error) from None

    def finish(computed) -> ActionOutcome:
        real, check = computed

        def write() -> ActionOutcome:
            return _write(workspace, op, input_name, real, code, explained)

        if check.undecided and not workspace.write_is_undoable(input_name):
            return ActionOutcome(
                code, question=_question(workspace, input_name, check), proceed=write
            )
        return write()

    return PreparedAction(code, heavy, compute, finish)


def _check_bytes(op: OpSpec, x: torch.Tensor, values: dict) -> int:
    """About what check_write will allocate: its stand-in's result, sized on meta; with a mask
    in the index (its count is known only once computed) up to one bool per element of x."""
    if op.index_probe is None:
        return 0
    stand_in = torch.zeros((), dtype=torch.bool).expand(tuple(x.shape))
    sized = new_bytes_on_meta(op.index_probe, stand_in, meta_keys(values))
    return x.numel() if sized is None else sized


def _question(workspace: Workspace, name: str, check: WriteCheck) -> str:
    size = human_bytes(workspace.write_bytes(name))
    return _(
        "This write cannot be checked beforehand. {reason} It writes into {size} of memory, too "
        "much to copy for undo, so if torch fails part-way, the elements written before the "
        "failure stay changed. Write anyway?"
    ).format(reason=check.undecided, size=size)


def _write(workspace, op: OpSpec, input_name: str, values: dict, code: str, explained):
    x = workspace.tensor(input_name)
    notes: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as caught, torch_warns_every_time():
            warnings.simplefilter("always")
            changed = workspace.write_in_place(
                input_name, lambda: op.run(x, **values), code, notes=notes
            )
    except Exception as error:  # noqa: BLE001 — torch refused; explain it
        raise explained(error) from None
    notes += [torch_warning_note(w.message) for w in caught]
    verdict = Verdict("in-place", tuple(changed))
    return ActionOutcome(
        code, (), {input_name: verdict}, tuple(changed), tuple(dict.fromkeys(notes))
    )
