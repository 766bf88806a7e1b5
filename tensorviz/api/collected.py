"""The caller's objects made into workspace entries — the very objects, never copies, so a view
stays a view of the caller's tensor and shares its storage with the caller's other tensors.

Tensors keep the name they have in the caller's code (the keyword, else the argument's source
text made an identifier: `x.T` → `x_T`); an nn.Module brings every parameter and buffer under
its dotted name (`model.fc.weight` → `model_fc_weight`); lists, tuples and dicts are searched as
the Script area searches a script's variables. A name shown again takes the new object (a loop
that calls `show(loss=loss)` every epoch updates `loss`); an object already in the workspace is
not added twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from tensorviz.api.caller_names import CallSite, names_holding
from tensorviz.core.script.capture import capture_namespace, identifier_from
from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceEntry
from tensorviz.core.translation import _

FROM_CODE = "your code"  # Provenance.op of every entry the Python API adds


@dataclass
class Collected:
    """What one call put into the workspace."""

    names: list[str] = field(default_factory=list)  # workspace names, in the caller's order
    modules: dict[str, torch.nn.Module] = field(default_factory=dict)  # name → the module
    notes: list[str] = field(default_factory=list)

    def first_with_graph(self, workspace: Workspace) -> str | None:
        return next((n for n in self.names if workspace.tensor(n).grad_fn is not None), None)


def label_arguments(site: CallSite, frame, values: tuple, named: dict) -> dict[str, object]:
    """name → object for `show(*values, **named)`: keywords as written, positional arguments by
    the text the caller wrote, else by a variable holding them."""
    labelled: dict[str, object] = {}
    for index, value in enumerate(values):
        text = site.positional[index] if index < len(site.positional) else None
        label = text or next(iter(names_holding(value, frame)), None) or "t"
        unique, n = label, 1
        while unique in labelled or unique in named:
            n += 1
            unique = f"{label}_{n}"
        labelled[unique] = value
    labelled.update(named)
    return labelled


def collect(
    workspace: Workspace, values: dict[str, object], site: CallSite, call: str, complain=True
) -> Collected:
    """Put every tensor among `values` (and inside its modules and containers) into the workspace
    as one undoable step; `complain`: say which values were no tensors (for show's arguments,
    not for breakpoint's whole namespace)."""
    result = Collected()
    shown_kinds = torch.Tensor | torch.nn.Module | list | tuple | dict
    ignored = [n for n, v in values.items() if complain and not isinstance(v, shown_kinds)]
    capture = capture_namespace(values)
    dotted = _dotted_names(values)
    by_object = {id(t): n for n, t in workspace.tensors().items()}
    added: list[WorkspaceEntry] = []
    replaced: list[WorkspaceEntry] = []
    taken: set[str] = set()
    wanted = {identifier_from(f.path): f.tensor for f in capture.tensors}
    for found in capture.tensors:
        held = by_object.get(id(found.tensor))
        if held is not None and wanted.get(held, found.tensor) is found.tensor:
            if held not in result.names:  # already shown, and its name is not taken over now
                result.names.append(held)
            continue
        name = _name_for(workspace, identifier_from(found.path), taken)
        taken.add(name)
        provenance = _provenance(found.path, dotted.get(id(found.tensor)), site, call)
        entry = WorkspaceEntry(name, found.tensor, provenance, notes=_notes(found))
        (replaced if name in workspace else added).append(entry)
        by_object[id(found.tensor)] = name
        result.names.append(name)
    result.modules = {
        identifier_from(label): value
        for label, value in values.items()
        if isinstance(value, torch.nn.Module)
    }
    if added or replaced:
        shown = ", ".join(e.name for e in [*added, *replaced][:4])
        more = "…" if len(added) + len(replaced) > 4 else ""
        workspace.record_script_run(added, replaced, [], None, f"{call}: {shown}{more}")
    if capture.truncated:
        result.notes.append(_("Only the first 500 tensors were added; the rest were left out."))
    if ignored:
        listed = ", ".join(ignored[:5]) + ("…" if len(ignored) > 5 else "")
        result.notes.append(
            _("Not a tensor or nn.Module, so not shown: {names}").format(names=listed)
        )
    return result


def namespace_of(frame) -> dict[str, object]:
    """The caller's globals, overridden by its locals (as a name lookup at that line sees them)."""
    return {**frame.f_globals, **frame.f_locals}


def _name_for(workspace: Workspace, base: str, taken: set[str]) -> str:
    """`base`, or the next free variant; a name an earlier call from code gave is free (that
    entry is updated), one the user made in the app is not."""
    if base in ("torch", "np", "nn", "F"):
        base = f"{base}_t"
    candidate, n = base, 1
    while candidate in taken or (
        candidate in workspace and workspace.entry(candidate).provenance.op != FROM_CODE
    ):
        n += 1
        candidate = f"{base}{n}"
    return candidate


def _dotted_names(values: dict[str, object]) -> dict[int, str]:
    """id(tensor) → `label.dotted.name` for every parameter and buffer of the modules given."""
    dotted: dict[int, str] = {}
    for label, value in values.items():
        if isinstance(value, torch.nn.Module):
            for name, tensor in [*value.named_parameters(), *value.named_buffers()]:
                dotted.setdefault(id(tensor), f"{label}.{name}")
    return dotted


def _provenance(path: str, dotted: str | None, site: CallSite, call: str) -> Provenance:
    params = {"call": call, "path": path, "file": site.filename, "line": site.line,
              "function": site.function}  # fmt: skip
    if dotted:
        params["dotted"] = dotted  # the module's own name for it: named_parameters()
    return Provenance(FROM_CODE, path, (), params)


def _notes(found) -> tuple[str, ...]:
    tensor = found.tensor
    if tensor.device.type == "meta":
        return (
            _(
                "{name} is on the meta device: it has a shape, dtype and strides but no values, "
                "so there is nothing to draw."
            ).format(name=found.path),
        )
    if tensor.device.type != "cpu":
        return (
            _(
                "{name} stays on {device}: tensorviz does not move it, and copies to the CPU only "
                "what it draws (the table's slice, the statistics' results)."
            ).format(name=found.path, device=tensor.device),
        )
    return ()
