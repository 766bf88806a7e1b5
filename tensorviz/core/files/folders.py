"""Checkpoint folders and sharded checkpoints, read as one tree.

* an `*.index.json` (safetensors or .bin): one tree over all its shards, each entry naming its
  shard; a missing or unreadable shard is named, its entries listed as missing, the rest shown;
* a folder (a transformers `save_pretrained` folder, a Trainer `checkpoint-N/`): every checkpoint
  file beside its JSON files (config.json, generation_config.json, trainer_state.json, ...) as
  plain values; shards of an index appear once, under their index; subfolders one level down;
* a torch.distributed.checkpoint folder: see dcp.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from tensorviz.core.files.file_errors import TensorFileError
from tensorviz.core.files.formats import detect_format, format_label
from tensorviz.core.files.quoting import one_line, quoted
from tensorviz.core.files.readers import FileContent, read_file
from tensorviz.core.files.tree import MissingEntry, walk
from tensorviz.core.files.value_reading import stamp_now
from tensorviz.core.translation import _

CHECKPOINT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".npy", ".npz", ".pkl")
MAX_JSON_BYTES = 4 << 20
MAX_FILES = 400
MAX_DEPTH = 2


@dataclass(frozen=True)
class FilePart:
    """A file or folder shown as one child of a folder's tree."""

    name: str  # relative to the folder opened
    label: str  # its format, in words
    format: str | None = None  # the reader's key ("safetensors", "index", "json", ...)


def read_folder_like(path: str, fmt: str) -> FileContent:
    if fmt == "index":
        return read_index(path)
    if fmt == "dcp":
        from tensorviz.core.files.dcp import read_dcp

        folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
        return read_dcp(folder)
    content = FileContent("folder", obj={})
    _read_folder(path, "", content, 0)
    if not content.obj:
        raise TensorFileError(_("The folder holds no checkpoint or JSON files tensorviz reads."))
    return content


def _read_folder(folder: str, prefix: str, content: FileContent, depth: int) -> None:
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise TensorFileError(
            _("The folder cannot be listed: {why}.").format(why=error.strerror)
        ) from None
    if len(names) > MAX_FILES:
        many = (
            _("{folder} has {n} entries: the first {read} are read.")
            if prefix
            else _("The folder has {n} entries: the first {read} are read.")
        )
        content.notes.append(many.format(folder=prefix, n=f"{len(names):,}", read=MAX_FILES))
        names = names[:MAX_FILES]
    shards = set()
    for name in names:
        if name.endswith(".index.json"):
            shards |= set(_weight_map(os.path.join(folder, name)).values())
    skipped = []
    for name in names:
        full, key = os.path.join(folder, name), f"{prefix}{name}"
        if name in shards or name.startswith("."):
            continue
        if os.path.isdir(full):
            if os.path.isfile(os.path.join(full, ".metadata")):
                _add(content, key, full, "dcp")
            elif depth < MAX_DEPTH:
                before = len(content.obj)
                _read_folder(full, f"{key}/", content, depth + 1)
                if len(content.obj) == before:
                    skipped.append(f"{name}/")
            continue
        if name.endswith(".index.json"):
            _add(content, key, full, "index")
        elif name.endswith(".json"):
            content.obj[key] = _json_value(full, content)
            content.parts[(key,)] = FilePart(key, "JSON", "json")
        elif name.endswith(CHECKPOINT_SUFFIXES):
            _add(content, key, full, None)
        else:
            skipped.append(name)
    if skipped:
        shown = ", ".join(quoted(s, 40) for s in skipped[:8]) + (" …" if len(skipped) > 8 else "")
        content.notes.append(_("Not read (not checkpoint files): {names}.").format(names=shown))


def _add(content: FileContent, key: str, full: str, fmt: str | None) -> None:
    """One file's content as the child `key`; a file that cannot be read is named, not fatal."""
    try:
        fmt = fmt or detect_format(full)
        part = read_folder_like(full, fmt) if fmt in ("index", "dcp") else read_file(full, fmt)
    except (TensorFileError, OSError) as problem:
        words = str(problem) if isinstance(problem, TensorFileError) else problem.strerror
        why = one_line(words, 200)
        content.obj[key] = MissingEntry(_("cannot be read: {why}").format(why=why))
        content.parts[(key,)] = FilePart(key, _("unreadable"))
        content.notes.append(f"{key}: {one_line(words, 200)}")
        return
    content.obj[key] = part.obj
    content.parts[(key,)] = FilePart(key, format_label(part.format), part.format)
    for access, inner in part.parts.items():
        content.parts[(key, *access)] = FilePart(f"{key}/{inner.name}", inner.label, inner.format)
    folder = os.path.dirname(key)
    for access, source in part.sources.items():
        content.sources[(key, *access)] = f"{folder}/{source}" if folder else source
    _merge(content, part, key)


def _merge(content: FileContent, part: FileContent, where: str) -> None:
    content.records.update(part.records)
    content.stamps.update(part.stamps)
    content.notes += [f"{where}: {note}" for note in part.notes]
    for call in part.safety.calls:
        part.safety.where.setdefault(id(call), where)
    content.safety.merge(part.safety, where)
    if part.metadata:
        content.metadata = {**(content.metadata or {}), where: part.metadata}


def _json_value(path: str, content: FileContent):
    size = os.path.getsize(path)
    if size > MAX_JSON_BYTES:
        return MissingEntry(
            _("JSON of {nbytes} bytes, not read (more than 4 MB)").format(nbytes=f"{size:,}")
        )
    try:
        with open(path, "rb") as f:
            return json.loads(f.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        content.notes.append(_("{name} is not valid JSON.").format(name=Path(path).name))
        return MissingEntry(_("not valid JSON"))


# --- sharded checkpoints -------------------------------------------------------------------------


def _weight_map(path: str) -> dict[str, str]:
    try:
        with open(path, "rb") as f:
            index = json.loads(f.read(MAX_JSON_BYTES).decode("utf-8"))
        weight_map = index.get("weight_map") if isinstance(index, dict) else None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(weight_map, dict):
        return {}
    return {str(k): str(v) for k, v in weight_map.items()}


def read_index(path: str) -> FileContent:
    """One tree over every shard an index names; a shard that is missing or cannot be read is
    named in a note and its entries listed as missing."""
    content = FileContent("index", obj={}, stamps={path: stamp_now(path)})
    try:
        with open(path, "rb") as f:
            index = json.loads(f.read(MAX_JSON_BYTES + 1).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise TensorFileError(_("The index file is not valid JSON.")) from None
    weight_map = _weight_map(path)
    if not weight_map:
        raise TensorFileError(
            _("The index file has no weight_map naming tensors and their shards.")
        )
    if isinstance(index.get("metadata"), dict):
        content.metadata = {"metadata": index["metadata"]}
    folder = os.path.dirname(path)
    by_shard: dict[str, list[str]] = {}
    for name, shard in weight_map.items():
        by_shard.setdefault(shard, []).append(name)
    tensors = {}
    for shard, names in by_shard.items():
        shard_path = os.path.join(folder, shard)
        if os.path.basename(shard) != shard or not os.path.isfile(shard_path):
            why = _("missing: {shard} is not in the folder").format(shard=quoted(shard, 60))
            content.notes.append(
                _("Shard {shard} is missing: its {n} entries are listed by name only.").format(
                    shard=quoted(shard, 60), n=len(names)
                )
            )
            tensors.update({n: MissingEntry(why) for n in names})
            continue
        try:
            part = read_file(shard_path, detect_format(shard_path))
        except (TensorFileError, OSError) as problem:
            words = str(problem) if isinstance(problem, TensorFileError) else problem.strerror
            why = one_line(words, 200)
            content.notes.append(
                _(
                    "Shard {shard} cannot be read ({why}): its {n} entries are listed by name only."
                ).format(shard=quoted(shard, 60), why=why, n=len(names))
            )
            unreadable = _("in {shard}, which cannot be read").format(shard=shard)
            tensors.update({n: MissingEntry(unreadable) for n in names})
            continue
        found = part.obj if isinstance(part.obj, dict) else {}
        absent = [n for n in names if n not in found]
        if absent:
            content.notes.append(
                _("Shard {shard} lacks {n} entries the index names.").format(
                    shard=quoted(shard, 60), n=len(absent)
                )
            )
        for name in names:
            tensors[name] = found.get(name, MissingEntry(_("not in {shard}").format(shard=shard)))
            content.sources[(name,)] = shard
        _merge(content, part, shard)
    content.obj = tensors
    return content


def mark_sources(result) -> None:
    """Name each entry's file (its shard) and make the folder's children file rows."""
    content_parts, sources = result.file_parts, result.entry_sources
    if result.root is None or not (content_parts or sources):
        return
    for node in walk(result.root):
        part = content_parts.get(node.access)
        if part is not None and node.kind not in ("tensor", "missing", "group"):
            node.kind, node.value_text = "file", part.label
        if node.kind == "tensor":
            node.source = _source_of(node.access, content_parts, sources)


def _source_of(access: tuple, parts: dict, sources: dict) -> str:
    if access in sources:
        return sources[access]
    for length in range(len(access), 0, -1):
        if access[:length] in parts:
            return parts[access[:length]].name
    return ""
