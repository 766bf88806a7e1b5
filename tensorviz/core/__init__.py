"""Pure torch + numpy + networkx logic. Never imports PySide6, pyqtgraph or tensorviz.ui.

Modules here are imported lazily by the UI (after the window is on screen) and directly by the
CLI; keep this file free of heavy imports so `import tensorviz.core` stays cheap.
"""
