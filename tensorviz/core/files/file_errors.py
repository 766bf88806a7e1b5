"""The errors of reading and writing tensor files; str() of each is one sentence for the user."""

from __future__ import annotations

from tensorviz.core.translation import _, ngettext


class TensorFileError(Exception):
    """A file we cannot or will not read; str() is one sentence for the user."""


class UnsafeFileError(TensorFileError):
    """Kept for callers of the old reader: nothing raises it since files are read without running
    them (calls are listed in FileInspection.calls instead of refusing the file)."""

    def __init__(self, globals_: list[str]) -> None:
        self.unsafe_globals = globals_
        sentence = ngettext(
            "Refused: the file's pickle would import {names}, which is not a tensor type — "
            "loading it could run code hidden in the file (for example a shell command), so "
            "tensorviz does not load it.",
            "Refused: the file's pickle would import {names}, which are not tensor types — "
            "loading it could run code hidden in the file (for example a shell command), so "
            "tensorviz does not load it.",
            len(globals_),
        )
        super().__init__(sentence.format(names=", ".join(globals_)))


def zip_directory_damaged() -> str:
    """Said by the format check and by torch's zip reader (pickle_files)."""
    return _("The zip archive is damaged or truncated: its directory cannot be read.")
