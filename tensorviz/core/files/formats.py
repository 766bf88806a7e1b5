"""Tensor file formats: which one a file is (from its bytes, a folder from its files), NumPy
files, and saving (torch.save or safetensors, always atomically).

Pickled files (torch.save, TorchScript, distributed checkpoints) are read by our own unpickler
(pickle_files.py), never by torch.load or pickle.load: no code from a file ever runs.
"""

from __future__ import annotations

import os
import struct
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import torch

from tensorviz.core.atomic_files import write_stream_atomically
from tensorviz.core.files.file_errors import TensorFileError, zip_directory_damaged
from tensorviz.core.files.quoting import quoted
from tensorviz.core.files.safetensors_format import (
    safetensors_problems,
    safetensors_refusal,
    write_safetensors,
)
from tensorviz.core.translation import _

FORMATS = (
    "torch-zip",
    "pickle",
    "folder",
    "index",
    "dcp",
    "torch-legacy",
    "torchscript",
    "safetensors",
    "npy",
    "npz",
)


def format_label(fmt: str | None) -> str:
    """The format in words, in the language in force (the key itself when unknown)."""
    labels = {
        "torch-zip": _("torch.save (zip format)"),
        "pickle": _("a plain pickle (not torch.save)"),
        "folder": _("a folder of checkpoint files"),
        "index": _("a sharded checkpoint (index file and its shards)"),
        "dcp": _("torch.distributed.checkpoint folder"),
        "torch-legacy": _("torch.save (legacy pickle format)"),
        "torchscript": _("TorchScript archive (torch.jit.save)"),
        "safetensors": "safetensors",
        "npy": "NumPy .npy",
        "npz": "NumPy .npz",
    }
    return labels.get(fmt, fmt or _("unknown"))


EXTENSIONS = {
    "torch-zip": (".pt", ".pth", ".bin", ".ckpt", ".tar"),
    "torch-legacy": (".pt", ".pth", ".bin", ".ckpt", ".tar"),
    "pickle": (".pt", ".pth", ".bin", ".ckpt", ".pkl", ".pickle"),
    "torchscript": (".pt", ".pth", ".ptl", ".zip"),
    "safetensors": (".safetensors",),
    "npy": (".npy",),
    "npz": (".npz",),
}


def detect_format(path: str | os.PathLike) -> str:
    """The format from the file's first bytes (never from its extension); a folder is a
    distributed checkpoint when it has a .metadata file, else a folder of checkpoint files."""
    if os.path.isdir(path):
        return "dcp" if os.path.isfile(os.path.join(path, ".metadata")) else "folder"
    name = os.path.basename(os.fspath(path))
    if name.endswith(".index.json"):
        return "index"
    if name == ".metadata":
        return "dcp"
    if name.endswith(".distcp"):
        raise TensorFileError(
            _(
                "This is one shard of a torch.distributed.checkpoint folder: its bytes only make "
                "sense with the folder's .metadata. Open the folder instead."
            )
        )
    size = os.path.getsize(path)
    if size == 0:
        raise TensorFileError(_("The file is empty (0 bytes): there is nothing to read."))
    with open(path, "rb") as f:
        head = f.read(64)
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _zip_kind(path)
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    if len(head) >= 9:  # before pickle: a header length of 128+ also starts with 0x80
        (header_len,) = struct.unpack("<Q", head[:8])
        if 2 <= header_len <= size - 8 and head[8:9] == b"{":
            return "safetensors"
    if head[:1] == b"\x80" and len(head) > 2:  # pickle protocol 2+: torch's legacy format
        return "torch-legacy"
    raise TensorFileError(
        _("This is not a tensor file tensorviz recognises (torch.save, safetensors, .npy or .npz).")
    )


def _zip_kind(path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except Exception:  # noqa: BLE001 — BadZipFile, NotImplementedError (a newer zip), ...
        raise TensorFileError(zip_directory_damaged()) from None
    if names and all(n.endswith(".npy") for n in names):
        return "npz"
    if any(n.endswith("/constants.pkl") or "/code/" in n for n in names):
        return "torchscript"
    if any(n.endswith("data.pkl") for n in names):
        return "torch-zip"
    if not names:
        return "npz"  # numpy.savez() with no arrays
    raise TensorFileError(_("This zip archive holds no torch.save pickle nor NumPy arrays."))


def extension_note(path: str | os.PathLike, fmt: str) -> str | None:
    suffix = Path(path).suffix.lower()
    if fmt not in EXTENSIONS or os.path.isdir(path):
        return None
    if suffix and suffix not in EXTENSIONS[fmt]:
        return _("Named {suffix} but the bytes are {format}; read by content.").format(
            suffix=suffix, format=format_label(fmt)
        )
    return None


# --- NumPy files --------------------------------------------------------------------------------


def load_numpy(path: str | os.PathLike, fmt: str) -> tuple[object, list[str]]:
    """(the tensor or dict of tensors, notes) of an .npy or .npz file; object arrays are never
    unpickled."""
    notes: list[str] = []
    try:
        if fmt == "npy":
            obj = numpy_tensor(np.load(path, allow_pickle=False), None, notes)
        else:
            obj = _npz_tensors(path, notes)
    except TensorFileError:
        raise
    except Exception as error:  # noqa: BLE001 — every failure becomes one sentence
        raise TensorFileError(_explain_load_error(error)) from None
    return obj, notes


def _numpy_kind(array: np.ndarray) -> str:
    kinds = {
        "U": _("text"),
        "S": _("bytes"),
        "O": _("Python objects"),
        "V": _("structured records"),
        "M": _("dates"),
        "m": _("time spans"),
    }
    return kinds.get(array.dtype.kind, f"dtype {array.dtype}")


class NumpyRefusalError(TensorFileError):
    """An array torch cannot hold; `reason` says why without naming the array."""

    def __init__(self, sentence: str, reason: str) -> None:
        super().__init__(sentence)
        self.reason = reason


def numpy_tensor(array: np.ndarray, key: str | None, notes: list[str]) -> torch.Tensor:
    """A tensor of a NumPy array (`key`: its name in an .npz, None for an .npy); a foreign byte
    order is converted (a copy, with a note), a dtype torch cannot hold is one sentence."""
    if not array.dtype.isnative and array.dtype.kind in "biufc":
        big = array.dtype.byteorder != "<"
        array = array.astype(array.dtype.newbyteorder("="))
        if key is None:
            note = (
                _(
                    "The array is stored big-endian: converted to this machine's byte order (a "
                    "copy, not mapped from the file)."
                )
                if big
                else _(
                    "The array is stored little-endian: converted to this machine's byte order "
                    "(a copy, not mapped from the file)."
                )
            )
        else:
            note = (
                _(
                    "The array {key} is stored big-endian: converted to this machine's byte "
                    "order (a copy, not mapped from the file)."
                )
                if big
                else _(
                    "The array {key} is stored little-endian: converted to this machine's byte "
                    "order (a copy, not mapped from the file)."
                )
            )
        notes.append(note.format(key=repr(key)))
    try:
        return torch.from_numpy(array)
    except TypeError:
        reason = _("holds {kind} ({dtype}), which a torch tensor cannot hold").format(
            kind=_numpy_kind(array), dtype=array.dtype.str
        )
        sentence = _("The array {reason}.") if key is None else _("The array {key} {reason}.")
        raise NumpyRefusalError(sentence.format(key=repr(key), reason=reason), reason) from None


def _npz_tensors(path, notes: list[str]) -> dict[str, torch.Tensor]:
    """Every array torch can hold; the others are listed in a note with the reason."""
    tensors, skipped = {}, []
    with np.load(path, allow_pickle=False) as archive:
        for key in archive.files:
            try:
                tensors[key] = numpy_tensor(archive[key], key, notes)
            except NumpyRefusalError as refusal:
                skipped.append(f"{key!r} {refusal.reason}")
            except ValueError as error:
                if "allow_pickle" not in str(error):
                    raise
                why = _("holds Python objects (needs pickle, never loaded)")
                skipped.append(f"{key!r} {why}")
    if skipped and not tensors:
        raise TensorFileError(
            _("No array of this .npz can be a tensor: {arrays}.").format(arrays="; ".join(skipped))
        )
    if skipped:
        notes.append(
            _("Skipped {n} array(s): {arrays}.").format(n=len(skipped), arrays="; ".join(skipped))
        )
    return tensors


def _one_line(error: BaseException) -> str:
    """The first line of a library's message, escaped and short (it may quote the file)."""
    text = str(error).strip().splitlines()
    return quoted(text[0], 160, quote=False) if text else type(error).__name__


def _explain_load_error(error: BaseException) -> str:
    text = str(error)
    if "central directory" in text or "zip archive" in text or "failed reading" in text:
        return _("The zip archive is damaged or truncated: torch could not read it.")
    if "Weights only load failed" in text:
        return _(
            "Refused: torch's weights-only loader found something that is not a tensor type; "
            "tensorviz never falls back to a full unpickle."
        )
    if "allow_pickle" in text or "Object arrays" in text:
        return _(
            "The NumPy file holds Python objects (needs pickle); tensorviz does not load them."
        )
    if isinstance(error, EOFError | struct.error) or "truncated" in text or "EOF" in text:
        return _("The file is truncated: it ends before its data does.")
    return _("The file could not be read: {error}").format(error=_one_line(error))


# --- saving --------------------------------------------------------------------------------------


def save_tensors(tensors: Mapping[str, torch.Tensor], path: str | os.PathLike) -> str:
    """Save a dict of tensors as .safetensors (by extension) or torch.save; returns the format."""
    tensors = {name: t.detach() for name, t in tensors.items()}
    if str(path).lower().endswith(".safetensors"):
        if problems := safetensors_problems(tensors):
            raise TensorFileError(safetensors_refusal(problems))
        write_stream_atomically(path, lambda stream: write_safetensors(tensors, stream))
        return "safetensors"
    write_stream_atomically(path, lambda stream: torch.save(tensors, stream))
    return "torch-zip"


def made_safetensors_ready(tensors: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The fix safetensors needs: every tensor its own contiguous copy."""
    return {name: t.detach().clone().contiguous() for name, t in tensors.items()}
