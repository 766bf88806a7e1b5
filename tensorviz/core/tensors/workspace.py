"""The workspace: named tensors with provenance, the single source of tensors for every area.

Each entry remembers which operation, inputs and parameters made it, so the entries form a small
history graph. Every change is one undoable step. Listeners (the UI) are plain callbacks that
receive a WorkspaceEvent; the workspace itself knows nothing of Qt.
"""

from __future__ import annotations

import keyword
import traceback
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import networkx as nx
import numpy as np
import torch

from tensorviz.core.tensors.identity import shares_storage
from tensorviz.core.tensors.memory_budget import available_memory_bytes, human_bytes


class WorkspaceError(ValueError):
    """A workspace request that cannot be done (bad name, unknown tensor, nothing to undo)."""


@dataclass(frozen=True)
class Provenance:
    op: str  # "arange", "transpose", "split", "duplicate", ...
    code: str  # the equivalent PyTorch line, e.g. "x.transpose(0, 1)"
    inputs: tuple[str, ...] = ()
    params: dict = field(default_factory=dict)


@dataclass
class WorkspaceEntry:
    name: str
    tensor: torch.Tensor
    provenance: Provenance
    numpy_array: np.ndarray | None = None  # kept for from_numpy / torch.tensor(arr)
    notes: tuple[str, ...] = ()  # traps worth a warning (e.g. torch.Tensor(n) is uninitialised)
    version: int = 0  # bumped whenever an in-place write reaches this entry's storage
    uid: int = 0  # set by the workspace: stable across renames, never reused
    parent_uids: tuple[int, ...] = ()  # the entries named in provenance.inputs, when it was made


@dataclass(frozen=True)
class WorkspaceEvent:
    kind: str  # "added" | "removed" | "renamed" | "changed"
    names: tuple[str, ...]
    old_name: str | None = None


@dataclass
class _UndoStep:
    description: str
    undo: Callable[[], None]
    nbytes: int = 0  # memory only this step keeps alive (snapshots, deleted tensors)


# Undo keeps copies of written memory; the oldest steps are forgotten beyond this much.
UNDO_MEMORY_FRACTION = 0.25  # of the memory available now
UNDO_MAX_BYTES = 2 * 2**30


def undo_budget_bytes() -> int:
    return min(UNDO_MAX_BYTES, int(available_memory_bytes() * UNDO_MEMORY_FRACTION))


class Workspace:
    def __init__(self) -> None:
        self._entries: dict[str, WorkspaceEntry] = {}
        self._next_uid = 0
        self._undo: list[_UndoStep] = []
        self._listeners: list[Callable[[WorkspaceEvent], None]] = []

    # --- reading ---------------------------------------------------------------------------------

    def __contains__(self, name: str) -> bool:
        return name in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[WorkspaceEntry]:
        return iter(list(self._entries.values()))

    def names(self) -> list[str]:
        return list(self._entries)

    def entry(self, name: str) -> WorkspaceEntry:
        try:
            return self._entries[name]
        except KeyError:
            raise WorkspaceError(f"There is no tensor named '{name}'.") from None

    def tensor(self, name: str) -> torch.Tensor:
        return self.entry(name).tensor

    def tensors(self) -> dict[str, torch.Tensor]:
        return {name: e.tensor for name, e in self._entries.items()}

    def sharing(self, name: str) -> list[str]:
        """Every entry (itself included) whose tensor reads the same storage as `name`."""
        tensor = self.tensor(name)
        return [n for n, e in self._entries.items() if shares_storage(e.tensor, tensor)]

    def parents(self, name: str) -> list[str]:
        """Current names of the entries `name` was made from (deleted ones are left out).

        Provenance is kept by uid, so renaming a parent, or reusing a deleted name for a new
        tensor, never rewires the history."""
        by_uid = {e.uid: n for n, e in self._entries.items()}
        return [by_uid[u] for u in self.entry(name).parent_uids if u in by_uid]

    def history_graph(self) -> nx.DiGraph:
        """input → output edges labelled with the operation that made the output. Acyclic:
        a parent always existed before its child."""
        graph = nx.DiGraph()
        for name, e in self._entries.items():
            graph.add_node(name, op=e.provenance.op, code=e.provenance.code)
            for source in self.parents(name):
                graph.add_edge(source, name, op=e.provenance.op)
        return graph

    def lineage(self, name: str) -> list[str]:
        """The entries `name` was made from, oldest first, ending with `name` itself."""
        self.entry(name)
        graph = self.history_graph()
        family = nx.ancestors(graph, name) | {name}
        return [
            n
            for n in nx.lexicographical_topological_sort(
                graph.subgraph(family), key=self.names().index
            )
        ]

    # --- listening -------------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[WorkspaceEvent], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _emit(self, kind: str, names, old_name: str | None = None) -> None:
        """Tell listeners; a failing listener must not undo or half-apply a change already made."""
        event = WorkspaceEvent(kind, tuple(names), old_name)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # noqa: BLE001 — report, keep the workspace consistent
                traceback.print_exc()

    # --- names -----------------------------------------------------------------------------------

    def check_new_name(self, name: str) -> None:
        # Python folds identifiers with NFKC ("ﬁ" → "fi"): a name that changes would make the
        # shown code refer to a different variable.
        if (
            not name.isidentifier()
            or keyword.iskeyword(name)
            or unicodedata.normalize("NFKC", name) != name
        ):
            raise WorkspaceError(
                f"'{name}' is not a valid name: use letters, digits and _, not starting with a "
                "digit (it must work as a Python variable)."
            )
        if name in ("torch", "np", "nn", "F"):
            raise WorkspaceError(f"'{name}' is reserved for the module of that name.")
        if name in self._entries:
            raise WorkspaceError(f"A tensor named '{name}' already exists.")

    def suggest_name(self, base: str) -> str:
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base).strip("_") or "t"
        if base[0].isdigit() or keyword.iskeyword(base):
            base = f"t_{base}"
        candidate, n = base, 1
        while candidate in self._entries or candidate in ("torch", "np", "nn", "F"):
            n += 1
            candidate = f"{base}{n}"
        return candidate

    # --- changing (each call is one undoable step) ---------------------------------------------

    def add(self, entries: list[WorkspaceEntry], description: str | None = None) -> list[str]:
        """Add entries (e.g. all parts of a split) as one step; names must be new and valid."""
        self._check_new_names(entries)
        if not entries:
            raise WorkspaceError("Nothing to add: the operation produced no tensors.")
        uid_of = {n: e.uid for n, e in self._entries.items()}
        for e in entries:
            self._next_uid += 1
            e.uid = self._next_uid
            e.parent_uids = tuple(uid_of[n] for n in e.provenance.inputs if n in uid_of)
            uid_of[e.name] = e.uid  # later entries of the same step may be made from it
            self._entries[e.name] = e
        names = [e.name for e in entries]
        self._push(description or f"create {', '.join(names)}", lambda: self._remove(names))
        self._emit("added", names)
        return names

    def _check_new_names(self, entries: list[WorkspaceEntry]) -> None:
        seen = set()
        for e in entries:
            self.check_new_name(e.name)
            if e.name in seen:
                raise WorkspaceError(f"The name '{e.name}' is used twice.")
            seen.add(e.name)

    def add_tensor(self, name: str, tensor: torch.Tensor, provenance: Provenance, **extra) -> str:
        return self.add([WorkspaceEntry(name, tensor, provenance, **extra)])[0]

    def rename(self, old: str, new: str) -> None:
        entry = self.entry(old)
        if new == old:
            return
        self.check_new_name(new)
        self._rename(entry, new)
        self._push(f"rename {old} to {new}", lambda: self._rename(self._entries[new], old))

    def duplicate(self, name: str, new_name: str | None = None) -> str:
        source = self.entry(name)
        new_name = new_name or self.suggest_name(f"{name}_copy")
        array = source.numpy_array.copy() if source.numpy_array is not None else None
        provenance = Provenance("duplicate", f"{name}.clone()", (name,))
        return self.add(
            [WorkspaceEntry(new_name, source.tensor.clone(), provenance, array)],
            f"duplicate {name}",
        )[0]

    def delete(self, name: str) -> None:
        entry = self.entry(name)
        position = list(self._entries).index(name)
        self._remove([name])
        held = 0 if self._storage_in_use(entry.tensor) else _storage_bytes(entry.tensor)
        self._push(f"delete {name}", lambda: self._insert(entry, position), held)

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
            self._undo.clear()
            if notes is not None:
                notes.append(
                    f"Not undoable: a copy of the {human_bytes(nbytes)} this wrote into would not "
                    "fit the memory kept for undo, so the undo history was cleared."
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

        def undo() -> None:
            self._restore_bytes(entry, storage, snapshot, array_snapshot)
            self._mark_changed(name, reaches_tensor)

        self._push(description, undo, nbytes)
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
        description: str = "run script",
        held_bytes: int = 0,
    ) -> bool:
        """A whole script run as one undoable step: `added` entries are new names, `replaced`
        ones take the place of existing entries the script rebound (undo puts the old entries
        back), `changed` names were written in place by the run (versions bump for every entry
        sharing their memory; `restore` puts their bytes back on undo). False when the run
        changed nothing (no step is recorded)."""
        self._check_new_names(added)
        old = {e.name: self.entry(e.name) for e in replaced}
        if not (added or replaced or changed):
            return False
        for e in [*replaced, *added]:
            self._next_uid += 1
            e.uid = self._next_uid
            self._entries[e.name] = e
        bumped = self._bump_versions([n for n in changed if n in self._entries and n not in old])
        added_names = [e.name for e in added]

        def undo() -> None:
            if restore is not None:
                restore()
            self._entries.update(old)
            self._bump_versions(bumped)
            if added_names:
                self._remove(added_names)
            if old or bumped:
                self._emit("changed", _unique([*old, *bumped]))

        self._push(description, undo, held_bytes)
        if added_names:
            self._emit("added", added_names)
        if old or bumped:
            self._emit("changed", _unique([*old, *bumped]))
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
        old = self._entries
        self._entries = {e.name: e for e in entries}

        def undo() -> None:
            self._remove(list(self._entries))
            self._entries = old
            self._emit("added", list(old))

        held = sum(_storage_bytes(e.tensor) for e in old.values())
        self._push(description, undo, held)
        self._emit("removed", list(old))
        self._emit("added", list(self._entries))
        return list(self._entries)

    def _bump_versions(self, names: list[str]) -> list[str]:
        """Bump the version of `names` and of every entry sharing their memory."""
        reached = _unique(n for name in names for n in self.sharing(name))
        for n in reached:
            self._entries[n].version += 1
        return reached

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo_description(self) -> str | None:
        return self._undo[-1].description if self._undo else None

    def undo(self) -> str:
        if not self._undo:
            raise WorkspaceError("Nothing to undo.")
        step = self._undo.pop()
        step.undo()
        return step.description

    # --- internals -------------------------------------------------------------------------------

    def _push(self, description: str, undo: Callable[[], None], nbytes: int = 0) -> None:
        """Record a step; forget the oldest steps while what undo keeps exceeds its budget."""
        self._undo.append(_UndoStep(description, undo, nbytes))
        budget = undo_budget_bytes()
        while len(self._undo) > 1 and sum(step.nbytes for step in self._undo) > budget:
            self._undo.pop(0)

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
