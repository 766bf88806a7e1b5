"""Reading tensor files safely: the format from the bytes, the globals a pickle would import,
weights-only loading, a small safetensors reader/writer, and atomic saving.

Safety (issue 7): no code from a file ever runs. Pickles are loaded only with
`weights_only=True`, and before that the globals they would import are listed and any that
torch's weights-only unpickler does not allow makes us refuse, naming them. There is no fallback
to a full unpickle.
"""

from __future__ import annotations

import io
import os
import pickletools
import struct
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import torch

from tensorviz.core.atomic_files import write_stream_atomically
from tensorviz.core.files.file_errors import TensorFileError, UnsafeFileError
from tensorviz.core.files.safetensors_format import (
    SAFETENSORS_FIX,
    read_safetensors,
    safetensors_problems,
    write_safetensors,
)

FORMAT_LABELS = {
    "torch-zip": "torch.save (zip format)",
    "torch-legacy": "torch.save (legacy pickle format)",
    "torchscript": "TorchScript archive (torch.jit.save)",
    "safetensors": "safetensors",
    "npy": "NumPy .npy",
    "npz": "NumPy .npz",
}
EXTENSIONS = {
    "torch-zip": (".pt", ".pth", ".bin", ".ckpt", ".tar"),
    "torch-legacy": (".pt", ".pth", ".bin", ".ckpt", ".tar"),
    "torchscript": (".pt", ".pth", ".ptl", ".zip"),
    "safetensors": (".safetensors",),
    "npy": (".npy",),
    "npz": (".npz",),
}


def detect_format(path: str | os.PathLike) -> str:
    """The format from the file's first bytes (never from its extension)."""
    size = os.path.getsize(path)
    if size == 0:
        raise TensorFileError("The file is empty (0 bytes): there is nothing to read.")
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
        "This is not a tensor file tensorviz recognises (torch.save, safetensors, .npy or .npz)."
    )


def _zip_kind(path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise TensorFileError(
            "The zip archive is damaged or truncated (its directory cannot be read)."
        ) from None
    if names and all(n.endswith(".npy") for n in names):
        return "npz"
    if any(n.endswith("/constants.pkl") or "/code/" in n for n in names):
        return "torchscript"
    if any(n.endswith("data.pkl") for n in names):
        return "torch-zip"
    if not names:
        return "npz"  # numpy.savez() with no arrays
    raise TensorFileError("This zip archive holds no torch.save pickle nor NumPy arrays.")


def extension_note(path: str | os.PathLike, fmt: str) -> str | None:
    suffix = Path(path).suffix.lower()
    if suffix and suffix not in EXTENSIONS[fmt]:
        return f"Named {suffix} but the bytes are {FORMAT_LABELS[fmt]}; read by content."
    return None


# --- the globals a pickle would import -----------------------------------------------------------


def allowed_globals() -> set[str]:
    from torch import _weights_only_unpickler as unpickler

    allowed = set(unpickler._get_allowed_globals())
    allowed |= set(unpickler._get_user_allowed_globals())
    return allowed


def pickle_globals(stream: io.BufferedIOBase, pickles: int, found: list[str]) -> list[str]:
    """Append to `found` the 'module.name' of every GLOBAL / STACK_GLOBAL in the next `pickles`
    pickles of a stream, read with pickletools (nothing is imported or called)."""
    for _ in range(pickles):
        strings: list[str] = []
        memo: dict[int, object] = {}
        for opcode, arg, _pos in pickletools.genops(stream):
            name = opcode.name
            if name == "GLOBAL":
                found.append(str(arg).replace(" ", "."))
            elif name == "STACK_GLOBAL" and len(strings) >= 2:
                found.append(f"{strings[-2]}.{strings[-1]}")
            elif isinstance(arg, str) and ("UNICODE" in name or name.endswith("STRING")):
                strings.append(str(arg))
            elif name in ("BINPUT", "LONG_BINPUT", "PUT"):
                memo[int(arg)] = strings[-1] if strings else None
            elif name == "MEMOIZE":
                memo[len(memo)] = strings[-1] if strings else None
            elif name in ("BINGET", "LONG_BINGET", "GET") and isinstance(memo.get(int(arg)), str):
                strings.append(memo[int(arg)])
    return found


def unsafe_globals(path: str | os.PathLike, fmt: str) -> list[str]:
    if fmt == "torch-zip":
        try:
            if _utf8(path):
                found = torch.serialization.get_unsafe_globals_in_checkpoint(path)
            else:
                with open(path, "rb") as f:
                    found = torch.serialization.get_unsafe_globals_in_checkpoint(f)
        except Exception as error:  # noqa: BLE001 — a damaged archive is reported, not raised
            raise TensorFileError(f"The archive cannot be read: {_one_line(error)}") from None
        return sorted(found)
    if fmt == "torch-legacy":
        found: list[str] = []
        allowed = allowed_globals()
        try:
            with open(path, "rb") as f:
                # magic number, protocol version, system info, then the object itself
                pickle_globals(f, 4, found)
        except Exception:  # noqa: BLE001 — damaged; but what was seen so far may be unsafe
            if not _unsafe(found, allowed):
                raise TensorFileError(
                    "The pickle is damaged or truncated, or not a torch.save file."
                ) from None
        return _unsafe(found, allowed)
    return []


def _utf8(path) -> bool:
    try:
        os.fsdecode(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unsafe(found: list[str], allowed: set[str]) -> list[str]:
    return [g for g in dict.fromkeys(found) if g not in allowed and not _legacy_storage(g)]


def _legacy_storage(name: str) -> bool:
    module, _, attr = name.rpartition(".")
    return module == "torch" and attr.endswith("Storage")


# --- loading -------------------------------------------------------------------------------------


def load_file(path: str | os.PathLike, fmt: str) -> tuple[object, list[str]]:
    """(the loaded object, notes). Refuses unsafe pickles; never runs code from the file."""
    notes: list[str] = []
    if fmt == "torchscript":
        raise TensorFileError(
            "This is a TorchScript archive (torch.jit.save): a compiled program, not saved "
            "tensors; loading it means running its code, which tensorviz never does."
        )
    bad = unsafe_globals(path, fmt)
    if bad:
        raise UnsafeFileError(bad)
    try:
        if fmt == "torch-zip" and _utf8(path):
            obj = torch.load(path, map_location="cpu", weights_only=True, mmap=True)
            notes.append("Opened with mmap=True: tensor data is read from disk only when used.")
        elif fmt == "torch-zip":  # torch's zip reader takes only UTF-8 names; a stream works
            with open(path, "rb") as f:
                obj = torch.load(f, map_location="cpu", weights_only=True)
            notes.append("The file name is not UTF-8, so torch cannot mmap it: read whole.")
        elif fmt == "torch-legacy":
            obj = torch.load(path, map_location="cpu", weights_only=True)
            notes.append(
                "Legacy (non-zip) torch.save format: read whole into memory, mmap is not "
                "possible. Re-save it with torch.save to get the zip format."
            )
        elif fmt == "safetensors":
            obj = read_safetensors(path)
            notes.append("Memory-mapped: tensor data is read from disk only when used.")
        elif fmt == "npy":
            obj = numpy_tensor(np.load(path, allow_pickle=False), "The array", notes)
        else:
            obj = _npz_tensors(path, notes)
    except TensorFileError:
        raise
    except Exception as error:  # noqa: BLE001 — every failure becomes one sentence
        raise TensorFileError(_explain_load_error(error)) from None
    return obj, notes


NUMPY_KINDS = {"U": "text", "S": "bytes", "O": "Python objects", "V": "structured records",
               "M": "dates", "m": "time spans"}  # fmt: skip


def numpy_tensor(array: np.ndarray, what: str, notes: list[str]) -> torch.Tensor:
    """A tensor of a NumPy array; a foreign byte order is converted (a copy, with a note), a dtype
    torch cannot hold is one sentence."""
    if not array.dtype.isnative and array.dtype.kind in "biufc":
        order = "little" if array.dtype.byteorder == "<" else "big"
        array = array.astype(array.dtype.newbyteorder("="))
        notes.append(
            f"{what} is stored {order}-endian: "
            "converted to this machine's byte order (a copy, not mapped from the file)."
        )
    try:
        return torch.from_numpy(array)
    except TypeError:
        kind = NUMPY_KINDS.get(array.dtype.kind, f"dtype {array.dtype}")
        raise TensorFileError(
            f"{what} holds {kind} ({array.dtype.str}), which a torch tensor cannot hold."
        ) from None


def _npz_tensors(path, notes: list[str]) -> dict[str, torch.Tensor]:
    """Every array torch can hold; the others are listed in a note with the reason."""
    tensors, skipped = {}, []
    with np.load(path, allow_pickle=False) as archive:
        for key in archive.files:
            try:
                tensors[key] = numpy_tensor(archive[key], f"The array {key!r}", notes)
            except TensorFileError as refusal:
                skipped.append(str(refusal).removeprefix("The array ").rstrip("."))
            except ValueError as error:
                if "allow_pickle" not in str(error):
                    raise
                skipped.append(f"{key!r} holds Python objects (needs pickle, never loaded)")
    if skipped and not tensors:
        raise TensorFileError(f"No array of this .npz can be a tensor: {'; '.join(skipped)}.")
    if skipped:
        notes.append(f"Skipped {len(skipped)} array(s): {'; '.join(skipped)}.")
    return tensors


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _explain_load_error(error: BaseException) -> str:
    text = str(error)
    if "central directory" in text or "zip archive" in text or "failed reading" in text:
        return "The zip archive is damaged or truncated: torch could not read it."
    if "Weights only load failed" in text:
        return (
            "Refused: torch's weights-only loader found something that is not a tensor type; "
            "tensorviz never falls back to a full unpickle."
        )
    if "allow_pickle" in text or "Object arrays" in text:
        return "The NumPy file holds Python objects (needs pickle); tensorviz does not load them."
    if isinstance(error, EOFError | struct.error) or "truncated" in text or "EOF" in text:
        return "The file is truncated: it ends before its data does."
    return f"The file could not be read: {_one_line(error)}"


def is_memory_mapped(path: str | os.PathLike, fmt: str | None) -> bool:
    """Whether load_file leaves this file's tensor data mapped from disk."""
    return fmt == "safetensors" or (fmt == "torch-zip" and _utf8(path))


# --- saving --------------------------------------------------------------------------------------


def save_tensors(tensors: Mapping[str, torch.Tensor], path: str | os.PathLike) -> str:
    """Save a dict of tensors as .safetensors (by extension) or torch.save; returns the format."""
    tensors = {name: t.detach() for name, t in tensors.items()}
    if str(path).lower().endswith(".safetensors"):
        if problems := safetensors_problems(tensors):
            raise TensorFileError(f"safetensors refuses: {'; '.join(problems)}. {SAFETENSORS_FIX}")
        write_stream_atomically(path, lambda stream: write_safetensors(tensors, stream))
        return "safetensors"
    write_stream_atomically(path, lambda stream: torch.save(tensors, stream))
    return "torch-zip"


def made_safetensors_ready(tensors: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The fix safetensors needs: every tensor its own contiguous copy."""
    return {name: t.detach().clone().contiguous() for name, t in tensors.items()}
