"""Putting what a finished script made into the workspace, as one undoable step.

Decisions: a top-level name takes its own name (rebinding an existing name replaces that entry);
a tensor inside a container or module takes the name made from its path, and the same path maps
to the same entry on every run (`model_0_weight` is updated, never `model_0_weight2`). A tensor
that already is a workspace entry under another name (`y = x`) is not added twice. A name the
script `del`s stays in the workspace (delete it in the Workbench). Workspace tensors the script
wrote in place are marked changed, and undo puts their bytes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tensorviz.core.script.capture import CapturedTensor
from tensorviz.core.script.run import ScriptResult
from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceEntry, WorkspaceError


@dataclass(frozen=True)
class CapturedRow:
    """One line of the Script area's "Captured" list."""

    name: str
    path: str
    line: int
    status: str  # "added" | "updated" | "changed in place"


@dataclass
class RunSummary:
    rows: list[CapturedRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def added(self) -> list[str]:
        return [r.name for r in self.rows if r.status == "added"]

    @property
    def updated(self) -> list[str]:
        return [r.name for r in self.rows if r.status != "added"]

    def headline(self, duration_s: float) -> str:
        added, updated = len(self.added), len(self.updated)
        parts = [f"{added} tensor{'s' if added != 1 else ''} added"]
        if updated:
            parts.append(f"{updated} updated")
        return f"Finished in {duration_s:.2f} s — {', '.join(parts)}"


def _is_script_entry_for(entry: WorkspaceEntry, path: str) -> bool:
    return entry.provenance.op == "script" and entry.provenance.params.get("path") == path


def _nested_name(workspace: Workspace, captured: CapturedTensor, taken: set[str]) -> str:
    base = captured.base_name
    if base in ("torch", "np", "nn", "F"):
        base = f"{base}_t"
    n = 1
    while True:
        name = base if n == 1 else f"{base}_{n}"
        if name not in taken and (
            name not in workspace or _is_script_entry_for(workspace.entry(name), captured.path)
        ):
            return name
        n += 1


def _entry(name: str, captured: CapturedTensor, line: int, source_lines: list[str]):
    text = source_lines[line - 1].strip() if 0 < line <= len(source_lines) else ""
    shown = text if captured.path == captured.top_name and text else captured.path
    code = f"{shown}  # script, line {line}" if line else shown
    params = {"line": line, "path": captured.path}
    return WorkspaceEntry(
        name, captured.tensor, Provenance("script", code, (), params), captured.numpy_array
    )


def apply_script_result(
    workspace: Workspace, result: ScriptResult, source: str, also_undo=None
) -> RunSummary:
    """Add / update the workspace from a finished run; returns what the Captured list shows.
    `also_undo` runs when the run is undone (the caller's own state, e.g. the kept namespace)."""
    summary = RunSummary()
    capture = result.capture
    if result.status != "finished" or capture is None:
        return summary
    source_lines = source.splitlines()
    existing = workspace.tensors()
    by_object = {id(t): n for n, t in existing.items()}
    taken: set[str] = {  # top-level names the run binds to a new tensor
        c.top_name
        for c in capture.tensors
        if c.path == c.top_name and existing.get(c.top_name) is not c.tensor
    }
    added, replaced = [], []
    aliases = list(capture.aliases)
    for captured in capture.tensors:
        top_level = captured.path == captured.top_name
        line = result.lines.get(captured.top_name, 0)
        holder = by_object.get(id(captured.tensor))
        if holder is not None:
            if holder != captured.path:
                aliases.append((captured.path, holder))
            continue
        name = captured.top_name if top_level else _nested_name(workspace, captured, taken)
        taken.add(name)
        entry = _entry(name, captured, line, source_lines)
        if name in workspace:
            replaced.append(entry)
            summary.rows.append(CapturedRow(name, captured.path, line, "updated"))
        else:
            try:
                workspace.check_new_name(name)
            except WorkspaceError as error:
                summary.notes.append(f"{captured.path} was not captured: {error}")
                continue
            added.append(entry)
            summary.rows.append(CapturedRow(name, captured.path, line, "added"))
    shown = {r.name for r in summary.rows}
    changed = [n for n in result.changed if n in workspace and n not in shown]
    for name in changed:
        summary.rows.append(CapturedRow(name, name, 0, "changed in place"))
    snapshot = result.snapshot
    undo_steps = [step for step in (snapshot.restore if snapshot else None, also_undo) if step]

    def restore() -> None:
        for step in undo_steps:
            step()

    held = snapshot.kept_bytes if snapshot is not None else 0
    workspace.record_script_run(added, replaced, changed, restore, "run script", held)
    summary.notes.extend(_alias_notes(workspace, aliases))
    summary.notes.extend(_capture_notes(result))
    return summary


def _alias_notes(workspace: Workspace, aliases: list[tuple[str, str]]) -> list[str]:
    """`y = x` binds a second name to one tensor: say so once (not for a module's parameters
    met again under the names an earlier run gave them)."""
    notes = []
    for path, first in aliases:
        if first in workspace and _is_script_entry_for(workspace.entry(first), path):
            continue
        what = "the workspace tensor" if first in workspace else "the same tensor as"
        notes.append(f"{path} is {what} {first} — not added twice.")
    return notes[:10]


def _capture_notes(result: ScriptResult) -> list[str]:
    capture, notes = result.capture, []
    if capture.truncated:
        notes.append("Only the first 500 tensors were captured; the rest were left out.")
    arrays = capture.uncaptured_arrays
    if arrays:
        listed = ", ".join(arrays[:5]) + (", …" if len(arrays) > 5 else "")
        notes.append(
            f"{len(arrays)} NumPy array{'s' if len(arrays) != 1 else ''} not captured ({listed}); "
            "wrap with torch.from_numpy to see them."
        )
    if result.snapshot is not None and not result.snapshot.complete:
        notes.append("The workspace was too large to copy: in-place writes cannot be undone.")
    return notes
