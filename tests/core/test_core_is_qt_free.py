"""ARCHITECTURE rule 1: importing any tensorviz.core module pulls in no Qt and no ui code."""

import json
import subprocess
import sys

PROBE = """
import importlib, json, pkgutil, sys
import tensorviz.core as core
names = [m.name for m in pkgutil.walk_packages(core.__path__, "tensorviz.core.")]
for name in names:
    importlib.import_module(name)
banned = ("PySide6", "shiboken6", "pyqtgraph", "tensorviz.ui")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in banned or m.startswith("tensorviz.ui"))
print(json.dumps({"modules": names, "loaded": loaded}))
"""


def test_importing_every_core_module_loads_no_qt():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert "tensorviz.core.environment" in result["modules"]  # the walk really found modules
    assert result["loaded"] == []
