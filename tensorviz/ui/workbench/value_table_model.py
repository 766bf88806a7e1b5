"""A table model that reads a tensor's values lazily, one cell at a time (ARCHITECTURE rule 3).

The shown 2-D slice is turned into a CPU numpy array once per `set_tensor` — a view of the
tensor's memory whenever numpy can share it — so a 4096 x 4096 tensor opens at once and each
painted cell costs one numpy index.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy
import torch
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from tensorviz.core.tensors.summary import default_table_dims, slice_2d
from tensorviz.ui.workbench.text_arguments import arg

AnyIndex = QModelIndex | QPersistentModelIndex
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def slice_as_numpy(view: torch.Tensor) -> numpy.ndarray:
    """The slice's values as numpy, sharing memory for CPU tensors of numpy-known dtypes."""
    view = view.detach().resolve_conj().resolve_neg()
    if view.dtype == torch.bfloat16:  # numpy has no bfloat16; only this slice is converted
        view = view.to(torch.float32)
    view = view.cpu()
    try:
        return view.numpy()
    except (TypeError, RuntimeError):  # float8, unsigned 16/32/64 on old torch, quantized, ...
        return view.to(torch.complex128 if view.is_complex() else torch.float64).numpy()


def format_cell(value: numpy.generic) -> str:
    if isinstance(value, numpy.bool_):
        return "True" if value else "False"
    if isinstance(value, numpy.integer):
        return str(int(value))
    if isinstance(value, numpy.complexfloating):
        return f"{value.real:.4g}{value.imag:+.4g}j"
    return f"{float(value):.4g}"


class TensorTableModel(QAbstractTableModel):
    """Rows and columns are two dims of the tensor; every other dim is held at a fixed index."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._name = "x"
        self._shape: tuple[int, ...] = ()
        self._row_dim: int | None = None
        self._col_dim: int | None = None
        self._fixed: dict[int, int] = {}
        self._values = numpy.zeros((0, 0))

    # -- what is shown -------------------------------------------------------------------------

    def set_tensor(
        self,
        tensor: torch.Tensor | None,
        row_dim: int | None = None,
        col_dim: int | None = None,
        fixed: Mapping[int, int] | None = None,
        name: str = "x",
    ) -> None:
        """Show `tensor`'s dims (row_dim, col_dim) with each other dim d at index fixed[d].

        With both dims None, a tensor with dims shows its last two (or its only one).
        """
        self.beginResetModel()
        if tensor is None:
            self._shape, self._row_dim, self._col_dim, self._fixed = (), None, None, {}
            self._values = numpy.zeros((0, 0))
        else:
            if row_dim is None and col_dim is None:
                row_dim, col_dim = default_table_dims(tensor.dim())
            shown = (row_dim, col_dim)
            self._fixed = {dim: index for dim, index in (fixed or {}).items() if dim not in shown}
            self._shape = tuple(tensor.shape)
            self._row_dim, self._col_dim = row_dim, col_dim
            self._values = self._as_table(slice_as_numpy(slice_2d(tensor, *shown, self._fixed)))
        self._name = name or "x"
        self.endResetModel()

    def _as_table(self, values: numpy.ndarray) -> numpy.ndarray:
        if values.ndim == 2:
            return values
        if values.ndim == 0:
            return values.reshape(1, 1)
        return values[None, :] if self._row_dim is None else values[:, None]

    def values(self) -> numpy.ndarray:
        """The shown slice as a 2-D numpy array (rows x columns); read-only by convention."""
        return self._values

    def shown_dims(self) -> tuple[int | None, int | None]:
        """(row dim, column dim) of the original tensor; None where the table has no such dim."""
        return self._row_dim, self._col_dim

    def source_index(self, row: int, column: int) -> tuple[int, ...]:
        """Where cell (row, column) lives in the original tensor."""
        index = [self._fixed.get(dim, 0) for dim in range(len(self._shape))]
        if self._row_dim is not None:
            index[self._row_dim] = row
        if self._col_dim is not None:
            index[self._col_dim] = column
        return tuple(index)

    def slice_expression(self) -> str:
        """The slice in Python's indexing syntax, e.g. 'x[1, :, :]'."""
        if not self._shape:
            return self._name
        parts = [
            ":" if dim in (self._row_dim, self._col_dim) else str(self._fixed.get(dim, 0))
            for dim in range(len(self._shape))
        ]
        return f"{self._name}[{', '.join(parts)}]"

    # -- QAbstractTableModel -------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 — Qt's signature
        return 0 if parent.isValid() else self._values.shape[0]

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._values.shape[1]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return format_cell(self._values[row, column])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return NUMBER_ALIGNMENT
        return None

    def _tooltip(self, row: int, column: int) -> str:
        value = self._values[row, column]
        if not self._shape:
            return f"{self._name} = {value!s}"
        where = ", ".join(map(str, self.source_index(row, column)))
        return f"{self.slice_expression()} → {self._name}[{where}] = {value!s}"

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        dim = self._row_dim if orientation == Qt.Orientation.Vertical else self._col_dim
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if dim is None else str(section)
        if role == Qt.ItemDataRole.ToolTipRole and dim is not None:
            return arg(self.tr("dim %1, index %2"), dim, section)
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
