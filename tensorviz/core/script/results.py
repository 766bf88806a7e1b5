"""Putting what a finished script made into the workspace, as one undoable step.

Decisions: a top-level name takes its own name (rebinding an existing name replaces that entry);
a tensor inside a container or module takes the name made from its path, and the same path maps
to the same entry on every run (`model_0_weight` is updated, never `model_0_weight2`). A tensor
that already is a workspace entry under another name (`y = x`) is not added twice. A name the
script `del`s stays in the workspace (delete it in the Workbench). Workspace tensors the script
wrote in place are marked changed, and undo puts their bytes back; redo puts the run's bytes
back again.

A run that raised adds what existed when it failed, marked "before the error on line N", and
never touches the workspace's own entries (their memory was put back by the run): a name the
failed run rebound is added as `name_at_error` beside the entry it would have replaced. Entries
a failed run added are provisional: the next run's tensor of the same name and path takes their
place (a failing rerun its `name_at_error` too), where a failed run never takes an entry.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from tensorviz.core.script.capture import MAX_TENSORS, CapturedTensor
from tensorviz.core.script.run import ScriptResult
from tensorviz.core.tensors.identity import shares_storage
from tensorviz.core.tensors.workspace import Provenance, Workspace, WorkspaceEntry, WorkspaceError
from tensorviz.core.tensors.workspace_snapshot import WorkspaceSnapshot
from tensorviz.core.translation import _, ngettext

Note = Callable[[], str]  # a note's text in the language in force when it is called


@dataclass(frozen=True)
class CapturedRow:
    """One line of the Script area's "Captured" list."""

    name: str
    path: str
    line: int
    status: str  # "added" | "updated" | "changed in place"
    before_error: bool = False  # captured from a run that raised


@dataclass
class RunSummary:
    rows: list[CapturedRow] = field(default_factory=list)
    note_texts: list[Note] = field(default_factory=list)  # what the run decided, worded on demand
    failed_line: int = 0  # > 0: the rows are what existed before the error on this line

    @property
    def notes(self) -> list[str]:
        """The notes in the language in force now: a list still on screen after View →
        Language reads them again."""
        return [text() for text in self.note_texts]

    @property
    def added(self) -> list[str]:
        return [r.name for r in self.rows if r.status == "added"]

    @property
    def updated(self) -> list[str]:
        return [r.name for r in self.rows if r.status != "added"]

    def headline(self, duration_s: float) -> str:
        added, updated = len(self.added), len(self.updated)
        if self.failed_line:
            count = len(self.rows)
            return ngettext(
                "Failed at line {line} — {count} tensor captured before the error; the "
                "workspace's own tensors are as they were",
                "Failed at line {line} — {count} tensors captured before the error; the "
                "workspace's own tensors are as they were",
                count,
            ).format(line=self.failed_line, count=count)
        seconds = f"{duration_s:.2f}"
        if updated:
            return ngettext(
                "Finished in {seconds} s — {added} tensor added, {updated} updated",
                "Finished in {seconds} s — {added} tensors added, {updated} updated",
                added,
            ).format(seconds=seconds, added=added, updated=updated)
        return ngettext(
            "Finished in {seconds} s — {added} tensor added",
            "Finished in {seconds} s — {added} tensors added",
            added,
        ).format(seconds=seconds, added=added)


AT_ERROR_SUFFIX = "_at_error"


def _is_script_entry_for(entry: WorkspaceEntry, path: str) -> bool:
    return entry.provenance.op == "script" and entry.provenance.params.get("path") == path


def _is_failed_capture(entry: WorkspaceEntry) -> bool:
    return entry.provenance.op == "script" and bool(entry.provenance.params.get("failed_line"))


def _fits(workspace: Workspace, name: str, path: str, failed: bool) -> bool:
    """A run may use `name` if it is free or already its own entry for `path` — for a failed
    run, only an entry an earlier failed run captured (never one of the workspace's own)."""
    if name not in workspace:
        return True
    existing = workspace.entry(name)
    return _is_script_entry_for(existing, path) and (not failed or _is_failed_capture(existing))


def _name_for(workspace: Workspace, captured: CapturedTensor, taken: set[str], failed: bool):
    base = captured.top_name if captured.is_top_level else captured.base_name
    if base in ("torch", "np", "nn", "F"):
        base = f"{base}_t"
    if captured.is_top_level and not failed:
        return base  # rebinding a name replaces that entry
    if failed and base not in taken and not _fits(workspace, base, captured.path, failed):
        base += AT_ERROR_SUFFIX  # beside the workspace's own entry of that name
    n = 1
    while True:
        name = base if n == 1 else f"{base}_{n}"
        if name not in taken and _fits(workspace, name, captured.path, failed):
            return name
        n += 1


def _code(captured: CapturedTensor, line: int, source_lines: list[str]) -> tuple[str, bool]:
    """(the code shown for the entry, whether it is the script's own line binding the name)."""
    text = source_lines[line - 1].strip() if 0 < line <= len(source_lines) else ""
    binds = bool(text) and (captured.is_top_level or captured.is_function_local)
    shown = text if binds else captured.path
    where = f"  # script, line {line}" if line else "  # script"
    if captured.scope:
        where += f", in {captured.scope}()"
    return shown + where, binds


def _entry(name: str, captured: CapturedTensor, line: int, source_lines, failed_line: int):
    code, binds = _code(captured, line, source_lines)
    params = {"line": line, "path": captured.path, "binds": binds}
    if failed_line:
        params["failed_line"] = failed_line
    return WorkspaceEntry(
        name, captured.tensor, Provenance("script", code, (), params), captured.numpy_array
    )


def _line_of(result: ScriptResult, captured: CapturedTensor) -> int:
    if captured.scope:
        return result.function_lines.get(captured.scope, {}).get(captured.top_name, 0)
    return result.lines.get(captured.top_name, 0)


def apply_script_result(
    workspace: Workspace, result: ScriptResult, source: str, also_undo=None, also_redo=None
) -> RunSummary:
    """Add / update the workspace from a finished run, or add what a failed run left; returns
    what the Captured list shows. `also_undo` / `also_redo` run when the run is undone / redone
    (the caller's own state, e.g. the namespace the next run sees)."""
    summary = RunSummary()
    capture = result.capture
    if result.status not in ("finished", "failed") or capture is None:
        return summary
    failed = result.status == "failed"
    summary.failed_line = max(result.line, 1) if failed else 0
    source_lines = source.splitlines()
    existing = workspace.tensors()
    by_object = {id(t): n for n, t in existing.items()}
    taken: set[str] = {  # top-level names the run binds to a new tensor
        c.top_name
        for c in capture.tensors
        if c.is_top_level and existing.get(c.top_name) is not c.tensor and not failed
    }
    added, replaced = [], []
    aliases = list(capture.aliases)
    for captured in capture.tensors:
        line = _line_of(result, captured)
        holder = by_object.get(id(captured.tensor))
        if holder is not None:
            if holder != captured.path and not captured.scope:
                aliases.append((captured.path, holder))
            continue
        name = _name_for(workspace, captured, taken, failed)
        taken.add(name)
        entry = _entry(name, captured, line, source_lines, summary.failed_line)
        if name in workspace:
            replaced.append(entry)
            summary.rows.append(CapturedRow(name, captured.path, line, "updated", failed))
        else:
            try:
                workspace.check_new_name(name)
            except WorkspaceError as error:
                summary.note_texts.append(partial(_not_captured, captured.path, str(error)))
                continue
            added.append(entry)
            summary.rows.append(CapturedRow(name, captured.path, line, "added", failed))
    shown = {r.name for r in summary.rows}
    changed = [n for n in result.changed if n in workspace and n not in shown]
    for name in changed:
        summary.rows.append(CapturedRow(name, name, 0, "changed in place"))
    snapshot = None if failed else result.snapshot
    undo_steps = [step for step in (snapshot.restore if snapshot else None, also_undo) if step]

    def restore() -> None:
        for step in undo_steps:
            step()

    def remember_after():
        """On undo: copy what the run left in the memory it wrote, so redo can put it back."""
        after = None
        if snapshot is not None and changed:
            after = WorkspaceSnapshot.take({n: snapshot.tensors[n].tensor for n in changed})
            if not after.complete:
                return None

        def put_back() -> None:
            if after is not None:
                after.restore()
            if also_redo is not None:
                also_redo()

        return put_back, after.kept_bytes if after is not None else 0

    held = snapshot.kept_bytes if snapshot is not None else 0
    if failed:
        description = _("capture before the error on line {line}").format(line=summary.failed_line)
    else:
        description = _("run script")
    workspace.record_script_run(
        added, replaced, changed, restore, description, held, remember_after
    )
    summary.note_texts.extend(_alias_notes(workspace, aliases))
    summary.note_texts.extend(_capture_notes(result))
    summary.note_texts.extend(_failed_run_notes(workspace, result, summary))
    if not summary.rows:
        summary.note_texts.append(_why_nothing(result, source))
    return summary


def _not_captured(path: str, reason: str) -> str:
    return _("{path} was not captured: {reason}").format(path=path, reason=reason)


def _alias_note(path: str, first: str, in_workspace: bool) -> str:
    if in_workspace:
        return _("{path} is the workspace tensor {name} — not added twice.").format(
            path=path, name=first
        )
    return _("{path} is the same tensor as {name} — not added twice.").format(path=path, name=first)


def _alias_notes(workspace: Workspace, aliases: list[tuple[str, str]]) -> list[Note]:
    """`y = x` binds a second name to one tensor: say so once (not for a module's parameters
    met again under the names an earlier run gave them)."""
    notes = []
    for path, first in aliases:
        if first in workspace and _is_script_entry_for(workspace.entry(first), path):
            continue
        notes.append(partial(_alias_note, path, first, first in workspace))
    return notes[:10]


def _truncated_note() -> str:
    return _("Only the first {count} tensors were captured; the rest were left out.").format(
        count=MAX_TENSORS
    )


def _arrays_note(arrays: list[str]) -> str:
    listed = ", ".join(arrays[:5]) + (", …" if len(arrays) > 5 else "")
    return ngettext(
        "{count} NumPy array not captured ({names}); wrap with torch.from_numpy to see them.",
        "{count} NumPy arrays not captured ({names}); wrap with torch.from_numpy to see them.",
        len(arrays),
    ).format(count=len(arrays), names=listed)


def _not_undoable_note() -> str:
    return _("The workspace was too large to copy: in-place writes cannot be undone.")


def _capture_notes(result: ScriptResult) -> list[Note]:
    capture, notes = result.capture, []
    if capture.truncated:
        notes.append(_truncated_note)
    if capture.uncaptured_arrays:
        notes.append(partial(_arrays_note, list(capture.uncaptured_arrays)))
    if result.snapshot is not None and not result.snapshot.complete:
        notes.append(_not_undoable_note)
    return notes


def _memory_put_back_note(path: str, owner: str) -> str:
    return _(
        "{path} reads the memory of {owner}, which the run wrote and which was put back as it "
        "was before the run: its values are those of before the run."
    ).format(path=path, owner=owner)


def _failed_run_notes(workspace: Workspace, result: ScriptResult, summary: RunSummary) -> list:
    """A tensor captured from a failed run that reads memory the run wrote and that was put
    back shows the bytes of before the run, not those at the error: say so."""
    if not summary.failed_line or not result.restored:
        return []
    restored = {n: workspace.tensor(n) for n in result.restored if n in workspace}
    notes = []
    for row in summary.rows:
        tensor = workspace.tensor(row.name)
        owners = [n for n, t in restored.items() if shares_storage(t, tensor)]
        if owners:
            notes.append(partial(_memory_put_back_note, row.path, owners[0]))
    return notes[:5]


def _uncalled_note(uncalled: list[str]) -> str:
    return ngettext(
        "No tensor captured: the script defines {functions} but never calls it — a function's "
        "tensors are captured when it returns or raises.",
        "No tensor captured: the script defines {functions} but never calls them — a "
        "function's tensors are captured when it returns or raises.",
        len(uncalled),
    ).format(functions=", ".join(f"{n}()" for n in uncalled[:4]))


def _nothing_before_error_note() -> str:
    return _("No tensor captured: nothing had made a tensor before the error.")


def _nothing_left_note() -> str:
    return _(
        "No tensor captured: no variable of the script, or of a function it called, holds a "
        "tensor at the end of the run (tensors deleted with del, or only printed, are gone)."
    )


def _why_nothing(result: ScriptResult, source: str) -> Note:
    """Why a run captured no tensor, in one sentence. A run that failed may have stopped before
    the calls: "never calls" is said there only of functions the script does not name again."""
    capture = result.capture
    defined = [n for n, line in result.function_lines.items() if "." not in n]
    uncalled = [n for n in defined if n not in capture.functions_called]
    if result.status == "failed":
        used = _names_read(source)
        uncalled = [n for n in uncalled if n not in used]
    if uncalled and not capture.functions_called:
        return partial(_uncalled_note, uncalled)
    if result.status == "failed":
        return _nothing_before_error_note
    return _nothing_left_note


def _names_read(source: str) -> set[str]:
    """Every name the script reads somewhere (a call `make()`, `map(make, xs)`, ...)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
