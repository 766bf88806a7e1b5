"""`import tensorviz` (and the integrations package) never imports Lightning or transformers:
only `tensorviz.integrations.lightning_callback` / `.transformers_callback` do. (Lightning brings
transformers along when both are installed: torchmetrics' text metrics import it.)"""

import subprocess
import sys

FRAMEWORKS = ("lightning", "pytorch_lightning", "transformers", "accelerate")


def _modules_after(code: str) -> set[str]:
    completed = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return {name.split(".")[0] for name in completed.stdout.split()}


def test_import_tensorviz_needs_no_framework():
    loaded = _modules_after("import tensorviz, tensorviz.integrations")
    assert loaded.isdisjoint(FRAMEWORKS)
