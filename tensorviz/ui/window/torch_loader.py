"""Imports torch (≈3 s) off the GUI thread so the window paints at once and stays responsive.

The thread sends back a plain EnvironmentReport; it touches no widget. The window waits for it
(`wait()`) before closing, because an import cannot be interrupted halfway.
"""

from __future__ import annotations

import traceback

from PySide6.QtCore import QThread, Signal


def warm_lazy_imports() -> None:
    """torch imports sympy (≈1 s) on the first broadcast_shapes or meta-device call; pay that
    here, off the GUI thread, not on the first click in the Memory layout or Workbench."""
    import torch

    torch.broadcast_shapes((2, 1), (1, 3))
    torch.empty(2, 3, device="meta") @ torch.empty(3, 2, device="meta")


class TorchLoader(QThread):
    loaded = Signal(object)  # tensorviz.core.environment.EnvironmentReport
    failed = Signal(str)

    def run(self) -> None:
        try:
            import networkx  # noqa: F401  (warm the import for the areas that need it)
            import numpy  # noqa: F401
            import torch  # noqa: F401

            from tensorviz.core.environment import collect_environment

            report = collect_environment()
        except Exception as error:  # noqa: BLE001 — any import failure is shown to the user
            detail = traceback.format_exception_only(type(error), error)[-1].strip()
            self.failed.emit(self.tr("PyTorch could not be loaded: %1").replace("%1", detail))
            return
        self.loaded.emit(report)
        try:  # after the areas can be built: nothing waits for this, it only saves a later pause
            warm_lazy_imports()
        except Exception:  # noqa: BLE001 — a warm-up that fails costs only that pause
            pass
