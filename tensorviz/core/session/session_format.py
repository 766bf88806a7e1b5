"""The session file's fixed words: member names, version, limits and the device names it may
contain (docs/session_format.md describes the whole format). No torch here: the window's menus
read it before torch has loaded; the dtypes are in session_dtypes.py."""

from __future__ import annotations

import re

FORMAT = "tensorviz-session"
FORMAT_VERSION = 1
SUFFIX = ".tvsession"
MANIFEST = "manifest.json"
SHARD = "storages-{index:05d}.safetensors"
SHARD_PATTERN = re.compile(r"storages-\d{5}\.safetensors")
SHARD_BYTES = 128 * 2**20  # storages are grouped into members of about this size (progress, memory)
MANIFEST_MAX_BYTES = 64 * 2**20
TEXT_MAX_CHARS = 4 * 2**20  # the script text


DEVICE_PATTERN = re.compile(r"(cpu|meta|mps|cuda(:\d{1,3})?|xpu(:\d{1,3})?)")


class SessionFileError(ValueError):
    """A session file that cannot be opened; the message is one sentence for the user."""


class SessionCancelledError(Exception):
    """The user cancelled while a session was being written or read."""
