"""The errors of reading and writing tensor files; str() of each is one sentence for the user."""

from __future__ import annotations


class TensorFileError(Exception):
    """A file we cannot or will not read; str() is one sentence for the user."""


class UnsafeFileError(TensorFileError):
    """Kept for callers of the old reader: nothing raises it since files are read without running
    them (calls are listed in FileInspection.calls instead of refusing the file)."""

    def __init__(self, globals_: list[str]) -> None:
        self.unsafe_globals = globals_
        which = "which is not a tensor type" if len(globals_) == 1 else "which are not tensor types"
        super().__init__(
            f"Refused: the file's pickle would import {', '.join(globals_)}, {which}"
            " — loading it could run code hidden in the file (for example a shell command), so "
            "tensorviz does not load it."
        )
