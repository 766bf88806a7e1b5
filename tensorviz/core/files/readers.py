"""One file read whatever its format: the object to show, where its tensors' bytes lie, notes,
the weights_only report and metadata. Nothing here reads tensor data or runs the file's code.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from tensorviz.core.files.formats import load_numpy
from tensorviz.core.files.pickle_files import (
    LoadedPickle,
    open_zip_reader,
    read_legacy,
    read_zip_pickle,
)
from tensorviz.core.files.safetensors_format import read_safetensors
from tensorviz.core.files.torchscript import read_torchscript
from tensorviz.core.files.value_reading import stamp_now
from tensorviz.core.files.weights_only import SafetyReport


@dataclass
class FileContent:
    format: str
    obj: object = None
    records: dict = field(default_factory=dict)  # storage key → where its bytes lie
    stamps: dict[str, tuple] = field(default_factory=dict)  # path → (inode, size, mtime)
    notes: list[str] = field(default_factory=list)
    safety: SafetyReport = field(default_factory=SafetyReport)
    metadata: dict | None = None  # safetensors __metadata__, an index's "metadata"
    parts: dict = field(default_factory=dict)  # folders: access → FilePart (a file's row)
    sources: dict = field(default_factory=dict)  # access → the shard/chunk file of an entry


def read_file(path: str, fmt: str) -> FileContent:
    """Raises TensorFileError (one sentence) or OSError for what cannot be read."""
    content = FileContent(fmt, stamps={path: stamp_now(path)})  # before reading: changes show
    if fmt in ("npy", "npz"):
        content.obj, content.notes = load_numpy(path, fmt)
        return content
    if fmt == "safetensors":
        content.obj, content.records, content.metadata, content.notes = read_safetensors(path)
        if content.metadata is not None:
            content.obj = {"__metadata__": dict(content.metadata), **content.obj}
        return content
    if fmt in ("torch-zip", "torchscript"):
        with _zip_source(path) as source:
            if fmt == "torchscript":
                loaded = read_torchscript(path, source)
            else:
                loaded = read_zip_pickle(path, open_zip_reader(source))
        return _from_pickle(content, loaded)
    loaded = read_legacy(path)
    if loaded.plain_pickle:
        content.format = "pickle"
    return _from_pickle(content, loaded)


def _from_pickle(content: FileContent, loaded: LoadedPickle) -> FileContent:
    content.obj, content.records = loaded.obj, loaded.records
    content.notes += loaded.notes
    for unpickler in loaded.unpicklers:
        content.notes += [f"{p}." for p in dict.fromkeys(unpickler.problems)][:5]
    content.safety = SafetyReport.of(
        loaded.unpicklers, loaded.weights_only_opcodes, data=loaded.pickle_data
    )
    if content.format == "torchscript":
        content.safety.loader = "torch.jit.load"
    return content


class _zip_source:  # noqa: N801 — a context manager, used like open()
    """What torch's zip reader opens: the path, or (for a name that is not UTF-8, which torch's
    reader cannot take) the open file."""

    def __init__(self, path: str) -> None:
        self.path, self.file = path, None

    def __enter__(self):
        try:
            os.fsdecode(self.path).encode("utf-8")
            return self.path
        except UnicodeEncodeError:
            self.file = open(self.path, "rb")  # noqa: SIM115 — closed in __exit__
            return self.file

    def __exit__(self, *_exc) -> None:
        if self.file is not None:
            self.file.close()
