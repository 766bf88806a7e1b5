"""The step each arrow key makes on a grid of cells, as (row, column): for widgets whose cells the
keyboard walks (the Memory area's logical grid, the Workbench's gather/scatter picture)."""

from PySide6.QtCore import Qt

ARROW_STEPS = {
    Qt.Key.Key_Left: (0, -1),
    Qt.Key.Key_Right: (0, 1),
    Qt.Key.Key_Up: (-1, 0),
    Qt.Key.Key_Down: (1, 0),
}
