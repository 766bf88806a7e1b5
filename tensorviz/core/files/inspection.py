"""What is inside a tensor file or a checkpoint folder: a tree of its contents, each tensor's
identity, the storages the entries share, the bytes a saved view wastes, plain values, objects
and the calls a plain torch.load would make. The CLI prints it; the Files area shows it.

`inspect_file` never raises for bad input: the problem is one sentence in `FileInspection.error`.
Nothing from the file is ever run, and no tensor data is read until a value is asked for.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import torch

from tensorviz.core.files.file_errors import TensorFileError
from tensorviz.core.files.file_nodes import Node, StorageGroupInfo, TensorInfo, access_text
from tensorviz.core.files.folders import mark_sources, read_folder_like
from tensorviz.core.files.formats import detect_format, extension_note, format_label
from tensorviz.core.files.json_tree import inspection_json
from tensorviz.core.files.open_requests import path_problem
from tensorviz.core.files.optimizer_names import name_optimizer_state
from tensorviz.core.files.quoting import one_line
from tensorviz.core.files.readers import FileContent, read_file
from tensorviz.core.files.state_keys import mark_state_keys
from tensorviz.core.files.storages import share_storages, sum_bytes
from tensorviz.core.files.tree import build_tree, walk
from tensorviz.core.files.value_blocks import streamable_record, value_blocks
from tensorviz.core.files.value_reading import (
    FileChangedError,
    ReadBuffer,
    read_copies,
    stamp_now,
    value_at,
)
from tensorviz.core.files.weights_only import SafetyReport
from tensorviz.core.gc_pause import gc_paused
from tensorviz.core.translation import _, ngettext

__all__ = ["FileChangedError", "FileInspection", "Node", "ReadBuffer", "StorageGroupInfo",
           "TensorInfo", "access_text", "inspect_file", "tensor_nodes_below",
           "value_at"]  # fmt: skip


@dataclass
class FileInspection:
    path: str
    format: str | None = None
    safe: bool = True  # False: the file holds calls a plain torch.load would make
    unsafe_globals: list[str] = field(default_factory=list)  # what weights_only=True refuses
    root: Node | None = None
    entries: list[Node] = field(default_factory=list)  # tensor nodes, in tree order
    storages: list[StorageGroupInfo] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    # the object read from the file: tensors on the meta device, read on demand with tensor_at
    loaded: object = field(default=None, repr=False)
    file_stamp: tuple | None = None  # (inode, size, mtime) when read: data read later must match
    # storage key → where its bytes lie (value_reading.StoredBytes); None: nothing in a file
    file_offsets: dict | None = field(default=None, repr=False)
    file_stamps: dict[str, tuple] = field(default_factory=dict, repr=False)  # every file read
    safety: SafetyReport = field(default_factory=SafetyReport, repr=False)
    metadata: dict | None = None  # safetensors __metadata__, an index file's metadata
    file_parts: dict = field(default_factory=dict, repr=False)  # folders: access → FilePart
    entry_sources: dict = field(default_factory=dict, repr=False)  # access → shard / chunks

    @property
    def format_label(self) -> str:
        return format_label(self.format)

    @property
    def calls(self) -> list:
        """The calls a plain torch.load(weights_only=False) would make (CallStandIns)."""
        return self.safety.calls

    def changed_on_disk(self) -> str | None:
        """Why the listed tensors can no longer be read as listed, or None (a quick check before
        work; the reads themselves check again, so a change in between is still caught)."""
        for path, stamp in self.file_stamps.items():
            name = Path(path).name
            try:
                now = stamp_now(path)
            except OSError:
                return _(
                    "{name} was deleted or moved since it was opened; reopen it to read its data."
                ).format(name=name)
            if now != stamp:
                return _(
                    "{name} changed on disk since it was opened; reopen it to read its data."
                ).format(name=name)
        return None

    def tensor_at(self, access: tuple, into: ReadBuffer | None = None) -> torch.Tensor:
        """A copy of one entry in ordinary memory, read from the file with plain reads (into
        `into`'s memory when given: valid until its next read). Raises FileChangedError, one
        sentence."""
        return read_copies(self.path, self.format, self.file_stamp, self.file_offsets,
                           self.loaded, [access], self.file_stamps, into)[0]  # fmt: skip

    def tensor_blocks(
        self, access: tuple, elements: int, into: ReadBuffer
    ) -> tuple[torch.Size, torch.dtype, Iterator[torch.Tensor]] | None:
        """One entry's shape, dtype and values `elements` at a time, each block read into `into`
        and valid until the next (value_blocks.py); None when the entry cannot be streamed:
        read it whole."""
        tensor = value_at(self.loaded, access)
        record = streamable_record(tensor, self.file_offsets)
        if record is None:
            return None
        stamps = dict(self.file_stamps)
        if self.file_stamp is not None:
            stamps.setdefault(self.path, self.file_stamp)
        return tensor.shape, tensor.dtype, value_blocks(tensor, record, stamps, elements, into)

    def tensors_in_memory(self, accesses: list[tuple]) -> list[torch.Tensor]:
        """Copies of these tensors in ordinary memory (no longer backed by the file), keeping the
        storage sharing between them."""
        return read_copies(self.path, self.format, self.file_stamp, self.file_offsets,
                           self.loaded, accesses, self.file_stamps)  # fmt: skip

    def shared_groups(self) -> list[StorageGroupInfo]:
        return [g for g in self.storages if len(g.members) > 1]

    def safety_sentences(self, with_code: bool = True) -> list[str]:
        return self.safety.sentences(self.path, with_code)

    def to_json(self) -> dict:
        return inspection_json(self)


def inspect_file(path: str | os.PathLike) -> FileInspection:
    text = os.fsdecode(path)
    result = FileInspection(text)
    if problem := path_problem(text, folders=True):
        result.error = one_line(problem.message())
        return result
    with warnings.catch_warnings(record=True) as caught, gc_paused():  # warnings never reach
        warnings.simplefilter("always")  # stderr; the tree's many small objects skip the GC
        _inspect(result)
    result.notes += _warning_notes(caught)
    if result.error is not None:
        result.error = one_line(result.error, 600)
    return result


def _inspect(result: FileInspection) -> None:
    text = result.path
    try:
        result.format = detect_format(text)
        if note := extension_note(text, result.format):
            result.notes.append(note)
        content = read_content(text, result.format)
    except TensorFileError as problem:
        result.error = str(problem)
        return
    except (OSError, MemoryError) as error:
        result.error = _("The file could not be read: {why}.").format(why=_os_words(error))
        return
    except RecursionError:
        result.error = _("The file nests its contents deeper than Python can follow.")
        return
    except Exception as error:  # noqa: BLE001 — whatever a damaged file does: one sentence
        result.error = _("The file could not be read: {error}").format(
            error=f"{type(error).__name__}: {_first_line(error)}"
        )
        return
    _take(result, content)
    try:
        _describe(result)
    except Exception as error:  # noqa: BLE001 — never a traceback: one sentence, nothing shown
        result.root, result.entries, result.storages = None, [], []
        result.error = _(
            "The file loaded, but its contents could not be described: {error}"
        ).format(error=f"{type(error).__name__}: {_first_line(error)}")


def read_content(path: str, fmt: str) -> FileContent:
    if fmt in ("folder", "index", "dcp"):
        return read_folder_like(path, fmt)
    return read_file(path, fmt)


def _take(result: FileInspection, content: FileContent) -> None:
    result.format = content.format
    result.loaded = content.obj
    result.file_offsets = content.records
    result.file_stamps = dict(content.stamps)
    result.file_stamp = content.stamps.get(result.path)
    result.notes += content.notes
    result.safety = content.safety
    result.metadata = content.metadata
    result.file_parts, result.entry_sources = content.parts, content.sources
    result.safe = not content.safety.runs_code
    result.unsafe_globals = content.safety.refused_globals


def _os_words(error: BaseException) -> str:
    return getattr(error, "strerror", None) or type(error).__name__


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else _("no details")


def _warning_notes(caught) -> list[str]:
    """torch's warnings while reading, kept as notes (deprecations of its own API dropped)."""
    notes = []
    for warning in caught:
        text = _first_line(warning.message)
        if "TypedStorage is deprecated" in text or issubclass(warning.category, DeprecationWarning):
            continue
        notes.append(_("torch warned: {message}").format(message=one_line(text, 200)))
    return list(dict.fromkeys(notes))


def _describe(result: FileInspection) -> None:
    """The tree, each entry's facts and the storages they share."""
    folder = os.path.isdir(result.path)
    result.root = build_tree(result.loaded, f"{Path(result.path).name}/" if folder else _("(file)"))
    result.entries = [node for node in walk(result.root) if node.kind == "tensor"]
    result.storages = share_storages(
        result.entries, lambda a: value_at(result.loaded, a), result.file_offsets
    )
    sum_bytes(result.root)
    mark_sources(result)
    mark_state_keys(result)
    name_optimizer_state(result)
    special = [n for n in result.entries if n.tensor.storage_id is None]
    if special:
        kinds = sorted({n.tensor.layout if n.tensor.device != "meta" else "meta" for n in special})
        note = ngettext(
            "{n} entry is a {kinds} tensor: shown with layout, shape, dtype (and nnz for sparse), "
            "but with no plain storage there is no sharing information, values or statistics.",
            "{n} entries are {kinds} tensors: shown with layout, shape, dtype (and nnz for "
            "sparse), but with no plain storage there is no sharing information, values or "
            "statistics.",
            len(special),
        )
        result.notes.append(note.format(n=len(special), kinds=" / ".join(kinds)))


def tensor_nodes_below(nodes: list[Node]) -> list[Node]:
    """These tensor nodes, and every tensor below these containers, each once, in tree order."""
    found: dict[int, Node] = {}
    for node in nodes:
        for below in walk(node):
            if below.tensor is not None:
                found.setdefault(id(below), below)
    return list(found.values())
