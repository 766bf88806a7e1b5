"""Shared test set-up: Qt runs offscreen, and no test touches the developer's own settings."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt warns when XDG_RUNTIME_DIR is unset (root, CI); give it a private one.
if not os.environ.get("XDG_RUNTIME_DIR"):
    os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="tensorviz-xdg-")
