"""Reading the workspace: its entries, who shares memory with whom, how each entry was made
(provenance by uid), listeners, and the rules for names. Workspace (workspace.py) adds the
changes, each one undoable step."""

from __future__ import annotations

import keyword
import traceback
import unicodedata
from collections.abc import Callable, Iterator

import networkx as nx
import torch

from tensorviz.core.tensors.identity import shares_storage
from tensorviz.core.tensors.workspace_entries import (
    Origin,
    WorkspaceEntry,
    WorkspaceError,
    WorkspaceEvent,
)
from tensorviz.core.translation import _


class WorkspaceReading:
    def __init__(self) -> None:
        self._entries: dict[str, WorkspaceEntry] = {}
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
            raise WorkspaceError(
                _("There is no tensor named '{name}'.").format(name=name)
            ) from None

    def tensor(self, name: str) -> torch.Tensor:
        return self.entry(name).tensor

    def tensors(self) -> dict[str, torch.Tensor]:
        return {name: e.tensor for name, e in self._entries.items()}

    def sharing(self, name: str) -> list[str]:
        """Every entry (itself included) whose tensor reads the same storage as `name`."""
        tensor = self.tensor(name)
        return [n for n, e in self._entries.items() if shares_storage(e.tensor, tensor)]

    def origins(self, name: str) -> list[Origin]:
        """The inputs `name` was made from, by uid: after a script replaced `x`, `x_t` was made
        from an earlier x, not from the x of now."""
        entry = self.entry(name)
        by_uid = {e.uid: n for n, e in self._entries.items()}
        inputs = entry.provenance.inputs
        if len(entry.parent_uids) != len(inputs):  # an input was not in the workspace then
            return [Origin(n, None) for n in inputs]
        return [
            Origin(n, by_uid.get(uid), uid not in by_uid and n in self._entries)
            for n, uid in zip(inputs, entry.parent_uids, strict=True)
        ]

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
                _(
                    "'{name}' is not a valid name: use letters, digits and _, not starting with a "
                    "digit (it must work as a Python variable)."
                ).format(name=name)
            )
        if name in ("torch", "np", "nn", "F"):
            raise WorkspaceError(
                _("'{name}' is reserved for the module of that name.").format(name=name)
            )
        if name in self._entries:
            raise WorkspaceError(_("A tensor named '{name}' already exists.").format(name=name))

    def suggest_name(self, base: str) -> str:
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base).strip("_") or "t"
        if base[0].isdigit() or keyword.iskeyword(base):
            base = f"t_{base}"
        candidate, n = base, 1
        while candidate in self._entries or candidate in ("torch", "np", "nn", "F"):
            n += 1
            candidate = f"{base}{n}"
        return candidate
