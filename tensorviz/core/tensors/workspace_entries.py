"""What the workspace holds: entries (a tensor, its name and how it was made) and the events
it sends. Plain data; the Workspace itself (workspace.py) changes them, one undoable step at a
time."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch


class WorkspaceError(ValueError):
    """A workspace request that cannot be done (bad name, unknown tensor, nothing to undo)."""


@dataclass(frozen=True)
class Provenance:
    op: str  # "arange", "transpose", "split", "duplicate", ...
    code: str  # the equivalent PyTorch line, e.g. "x.transpose(0, 1)"
    inputs: tuple[str, ...] = ()
    params: dict = field(default_factory=dict)

    def statement(self, name: str) -> str:
        """The code as the lines that made `name`: `name = x.t()`. A script's own line already
        binds its name (`params["binds"]`): it is shown as written, never `y = y = ...`."""
        lines = self.code.splitlines() or [self.op]
        if self.params.get("binds"):
            return "\n".join(lines)
        return "\n".join(lines[:-1] + [f"{name} = {lines[-1]}"])


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


@dataclass(frozen=True)
class Origin:
    """One input an entry was made from, followed by uid (the real object, not the name)."""

    name_then: str  # the name it had when the entry was made
    name_now: str | None  # its entry's name now; None when that entry is gone
    replaced: bool = False  # gone, and its name now belongs to another tensor (a script rebound it)
