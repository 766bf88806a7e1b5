"""The workspace: named tensors with provenance, the single source of tensors for every area.

Each entry remembers which operation, inputs and parameters made it, so the entries form a small
history graph. Every change is one undoable step. Listeners (the UI) are plain callbacks that
receive a WorkspaceEvent; the workspace itself knows nothing of Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import torch

from tensorviz.core.tensors.identity import shares_storage
from tensorviz.core.tensors.memory_budget import available_memory_bytes, human_bytes
from tensorviz.core.tensors.undo_history import Step, UndoHistory, reversible
from tensorviz.core.tensors.workspace_entries import (  # noqa: F401 — imported from here too
    Provenance,
    WorkspaceEntry,
    WorkspaceError,
    WorkspaceEvent,
)
from tensorviz.core.tensors.workspace_reading import WorkspaceReading
from tensorviz.core.translation import _

# Undo and redo keep copies of written memory; the oldest steps are forgotten beyond this much.
UNDO_MEMORY_FRACTION = 0.25  # of the memory available now
UNDO_MAX_BYTES = 2 * 2**30


def undo_budget_bytes() -> int:
    return min(UNDO_MAX_BYTES, int(available_memory_bytes() * UNDO_MEMORY_FRACTION))


class Workspace(WorkspaceReading):
    """The workspace; reading it, listening to it and its naming rules: WorkspaceReading."""

    def __init__(self) -> None:
        super().__init__()
        self._next_uid = 0
        self._history = UndoHistory(undo_budget_bytes)

    # --- changing (each call is one undoable step) ---------------------------------------------

    def add(self, entries: list[WorkspaceEntry], description: str | None = None) -> list[str]:
        """Add entries (e.g. all parts of a split) as one step; names must be new and valid."""
        self._check_new_names(entries)
        if not entries:
            raise WorkspaceError(_("Nothing to add: the operation produced no tensors."))
        uid_of = {n: e.uid for n, e in self._entries.items()}
        for e in entries:
            self._next_uid += 1
            e.uid = self._next_uid
            e.parent_uids = tuple(uid_of[n] for n in e.provenance.inputs if n in uid_of)
            uid_of[e.name] = e.uid  # later entries of the same step may be made from it
            self._entries[e.name] = e
        names = [e.name for e in entries]
        removed: list[WorkspaceEntry] = []  # the entries as they were when undone

        def undo() -> None:
            removed[:] = [self._entries[n] for n in names]
            self._remove(names)

        self._push(
            reversible(
                description or _("create {names}").format(names=", ".join(names)),
                undo,
                lambda: self._put_back(removed),
                held_by_redo=lambda: self._bytes_only_in(removed),
            )
        )
        self._emit("added", names)
        return names

    def _check_new_names(self, entries: list[WorkspaceEntry]) -> None:
        seen = set()
        for e in entries:
            self.check_new_name(e.name)
            if e.name in seen:
                raise WorkspaceError(_("The name '{name}' is used twice.").format(name=e.name))
            seen.add(e.name)

    def add_tensor(self, name: str, tensor: torch.Tensor, provenance: Provenance, **extra) -> str:
        return self.add([WorkspaceEntry(name, tensor, provenance, **extra)])[0]

    def rename(self, old: str, new: str) -> None:
        entry = self.entry(old)
        if new == old:
            return
        self.check_new_name(new)
        self._rename(entry, new)
        self._push(
            reversible(
                _("rename {old} to {new}").format(old=old, new=new),
                lambda: self._rename(self._entries[new], old),
                lambda: self._rename(self._entries[old], new),
            )
        )

    def duplicate(self, name: str, new_name: str | None = None) -> str:
        source = self.entry(name)
        new_name = new_name or self.suggest_name(f"{name}_copy")
        array = source.numpy_array.copy() if source.numpy_array is not None else None
        provenance = Provenance("duplicate", f"{name}.clone()", (name,))
        return self.add(
            [WorkspaceEntry(new_name, source.tensor.clone(), provenance, array)],
            _("duplicate {name}").format(name=name),
        )[0]

    def delete(self, name: str) -> None:
        entry = self.entry(name)
        position = list(self._entries).index(name)
        self._remove([name])
        deleted = [entry]  # the entry as it was when last deleted

        def redo() -> None:
            deleted[:] = [self._entries[name]]
            self._remove([name])

        self._push(
            reversible(
                _("delete {name}").format(name=name),
                lambda: self._insert(deleted[0], position),
                redo,
                held_by_undo=lambda: self._bytes_only_in(deleted),
            )
        )

    def write_in_place(
        self,
        name: str,
        write: Callable[[], object],
        description: str,
        reaches_tensor=True,
        notes: list[str] | None = None,
    ) -> list[str]:
        """Run `write` (an in-place torch or NumPy write into `name`'s memory) as one step.

        The written storage is snapshotted first so undo restores the exact bytes, and a write
        that raises leaves the memory as it was. Returns every entry whose tensor saw the change
        (none when only a copied NumPy array was written: `reaches_tensor=False`).

        Memory too large to copy within the undo budget is written without a snapshot: the undo
        history is cleared (older steps would restore stale bytes) and `notes` says so."""
        entry = self.entry(name)
        storage = entry.tensor.untyped_storage()
        array = entry.numpy_array
        nbytes = self.write_bytes(name)
        if nbytes > undo_budget_bytes():
            write()
            self._history.clear()
            if notes is not None:
                notes.append(
                    _(
                        "Not undoable: a copy of the {size} this wrote into would not fit the "
                        "memory kept for undo, so the undo history was cleared."
                    ).format(size=human_bytes(nbytes))
                )
            return self._mark_changed(name, reaches_tensor)
        snapshot = storage.clone()
        array_snapshot = array.copy() if array is not None else None
        try:
            write()
        except BaseException:
            self._restore_bytes(entry, storage, snapshot, array_snapshot)
            raise
        changed = self._mark_changed(name, reaches_tensor)
        after: list = []  # the bytes the write left, copied on the first undo (for redo)

        def undo() -> bool:
            if not after and 2 * nbytes <= undo_budget_bytes():
                after.extend((storage.clone(), array.copy() if array is not None else None))
            self._restore_bytes(entry, storage, snapshot, array_snapshot)
            self._mark_changed(name, reaches_tensor)
            return bool(after)

        def redo() -> None:
            self._restore_bytes(entry, storage, *after)
            self._mark_changed(name, reaches_tensor)

        held = lambda: nbytes * (2 if after else 1)  # noqa: E731
        self._push(reversible(description, undo, redo, held, held))
        return changed

    def write_bytes(self, name: str) -> int:
        """The memory an in-place write into `name` can reach (its storage and NumPy array)."""
        entry = self.entry(name)
        array = entry.numpy_array
        return entry.tensor.untyped_storage().nbytes() + (array.nbytes if array is not None else 0)

    def write_is_undoable(self, name: str) -> bool:
        """Whether write_in_place can snapshot `name` first (within the undo budget)."""
        return self.write_bytes(name) <= undo_budget_bytes()

    def record_script_run(
        self,
        added: list[WorkspaceEntry],
        replaced: list[WorkspaceEntry],
        changed: list[str],
        restore: Callable[[], None] | None = None,
        description: str = "",
        held_bytes: int = 0,
        remember_after: Callable[[], tuple[Callable[[], None], int] | None] | None = None,
    ) -> bool:
        """A whole script run as one undoable step: `added` entries are new names, `replaced`
        ones take the place of existing entries the script rebound (undo puts the old entries
        back), `changed` names were written in place by the run (versions bump for every entry
        sharing their memory; `restore` puts their bytes back on undo). `remember_after`, called
        on undo before `restore`, copies what the run left in memory and returns (the call that
        puts it back, the bytes the copy holds) for redo, or None when it cannot. False when the
        run changed nothing (no step is recorded)."""
        self._check_new_names(added)
        old = {e.name: self.entry(e.name) for e in replaced}
        if not (added or replaced or changed):
            return False
        for e in [*replaced, *added]:
            self._next_uid += 1
            e.uid = self._next_uid
        new = {e.name: e for e in [*replaced, *added]}
        in_place = [n for n in changed if n in self._entries and n not in old]
        after: list = []  # (put back what the run left, its bytes), taken on undo

        def undo() -> bool:
            again = remember_after() if remember_after is not None else (None, 0)
            after[:] = [again] if again is not None else []
            if restore is not None:
                restore()
            new.update({n: self._entries[n] for n in new if n in self._entries})
            self._swap_entries(old, list(added_names), in_place)
            return bool(after)

        def redo() -> None:
            put_back, _unused = after[0]
            if put_back is not None:
                put_back()
            self._swap_entries(new, [], in_place)

        added_names = [e.name for e in added]
        description = description or _("run script")
        self._swap_entries(new, [], in_place)
        self._push(
            reversible(
                description,
                undo,
                redo,
                held_bytes,
                lambda: held_bytes + (after[0][1] if after else 0),
            )
        )
        return True

    def replace_all(self, entries: list[WorkspaceEntry], description: str) -> list[str]:
        """Put `entries` in place of every entry (opening a session) as one undoable step.
        Their uid and parent_uids are the saved ones: each gets a fresh uid here and the
        history links follow."""
        Workspace()._check_new_names(entries)  # valid and distinct, whatever is here now
        fresh = {}
        for e in entries:
            self._next_uid += 1
            fresh[e.uid] = self._next_uid
        for e in entries:
            e.parent_uids = tuple(fresh[u] for u in e.parent_uids if u in fresh)
            e.uid = fresh[e.uid]
        old, new = dict(self._entries), {e.name: e for e in entries}

        def put(entries_now: dict) -> None:
            self._remove(list(self._entries))
            self._entries = dict(entries_now)
            self._emit("added", list(self._entries))

        held_old = sum(_storage_bytes(e.tensor) for e in old.values())
        held_new = sum(_storage_bytes(e.tensor) for e in new.values())
        put(new)
        self._push(reversible(description, lambda: put(old), lambda: put(new), held_old, held_new))
        return list(self._entries)

    def _swap_entries(self, put: dict, remove: list[str], in_place: list[str]) -> None:
        """One side of a script run: put entries in place (new names are appended), remove
        others, bump the versions of what the run wrote; events as the workspace sends them."""
        appended = [n for n in put if n not in self._entries]
        replaced = [n for n in put if n in self._entries]
        self._entries.update(put)
        bumped = self._bump_versions(in_place)
        if remove:
            self._remove(remove)
        if appended:
            self._emit("added", appended)
        if replaced or bumped:
            self._emit("changed", _unique([*replaced, *bumped]))

    def _bump_versions(self, names: list[str]) -> list[str]:
        """Bump the version of `names` and of every entry sharing their memory."""
        reached = _unique(n for name in names for n in self.sharing(name))
        for n in reached:
            self._entries[n].version += 1
        return reached

    def can_undo(self) -> bool:
        return self._history.can_undo()

    def can_redo(self) -> bool:
        return self._history.can_redo()

    def undo_description(self) -> str | None:
        return self._history.undo_description()

    def redo_description(self) -> str | None:
        return self._history.redo_description()

    def undo(self) -> str:
        description = self._history.undo()
        if description is None:
            raise WorkspaceError(_("Nothing to undo."))
        return description

    def redo(self) -> str:
        description = self._history.redo()
        if description is None:
            raise WorkspaceError(_("Nothing to redo."))
        return description

    # --- internals -------------------------------------------------------------------------------

    def _push(self, step: Step) -> None:
        """Record a new step (undo and redo share one memory budget: UndoHistory)."""
        self._history.push(step)

    def _bytes_only_in(self, entries: list[WorkspaceEntry]) -> int:
        """Memory that only `entries` keep alive (none of the workspace's entries reads it)."""
        return sum(_storage_bytes(e.tensor) for e in entries if not self._storage_in_use(e.tensor))

    def _put_back(self, entries: list[WorkspaceEntry]) -> None:
        for e in entries:
            self._entries[e.name] = e
        self._emit("added", [e.name for e in entries])

    def _storage_in_use(self, tensor: torch.Tensor) -> bool:
        return any(shares_storage(e.tensor, tensor) for e in self._entries.values())

    def _remove(self, names: list[str]) -> None:
        for name in names:
            self._entries.pop(name, None)
        self._emit("removed", names)

    def _insert(self, entry: WorkspaceEntry, position: int) -> None:
        items = list(self._entries.items())
        items.insert(position, (entry.name, entry))
        self._entries = dict(items)
        self._emit("added", [entry.name])

    def _rename(self, entry: WorkspaceEntry, new: str) -> None:
        old = entry.name
        self._entries = {
            (new if n == old else n): (replace(e, name=new) if n == old else e)
            for n, e in self._entries.items()
        }
        self._emit("renamed", [new], old_name=old)

    def _mark_changed(self, name: str, reaches_tensor: bool = True) -> list[str]:
        changed = self.sharing(name) if reaches_tensor else []
        for n in changed:
            self._entries[n].version += 1
        self._emit("changed", changed or [name])  # a NumPy-only write still refreshes `name`
        return changed

    @staticmethod
    def _restore_bytes(entry, storage, snapshot, array_snapshot) -> None:
        with torch.no_grad():
            storage.copy_(snapshot)
        if array_snapshot is not None and entry.numpy_array is not None:
            np.copyto(entry.numpy_array, array_snapshot)


def _storage_bytes(tensor: torch.Tensor) -> int:
    try:
        return tensor.untyped_storage().nbytes()
    except (RuntimeError, NotImplementedError):  # sparse and other layouts without one storage
        return 0


def _unique(names) -> list[str]:
    return list(dict.fromkeys(names))
