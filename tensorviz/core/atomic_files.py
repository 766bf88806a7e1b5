"""Files are written atomically: into a temporary file beside the target, then moved over it
with os.replace, so a reader never sees a half-written file and a failure leaves the old one."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(path: str | os.PathLike, write: Callable[[str], None]) -> None:
    """Call write(temporary_path) — for writers that want a file name (torch.save, Qt) — then
    move the result over `path`."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    os.close(handle)
    try:
        write(temporary)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_stream_atomically(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Call write(binary_stream), flush it to disk, then move it over `path`."""

    def through_stream(temporary: str) -> None:
        with open(temporary, "wb") as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())

    write_atomically(path, through_stream)


def write_text_atomically(path: str | os.PathLike, text: str) -> None:
    write_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
