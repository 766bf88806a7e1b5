"""Which element each index picks (gather) or writes (scatter), for the Workbench's picture.

The positions come from torch itself, not from a formula of ours: gathering a tensor that holds
each element's own flat position, with the user's real index, yields the position every
result element reads; scatter writes exactly where gather with the same index reads, and
scattering index positions shows which write survives where two land on one element.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.tensors.op_params import ParamError, ParamSpec, parse_param
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.core.translation import N_, _

MAX_SIDE = 12  # rows or columns a grid of the picture can show legibly
PICTURED_OPS = ("gather", "scatter")

# One place per message, each translated as a whole where it is used (the formulas are code).
FORMULAS = {
    ("gather", 0): "out[i][j] = x[index[i][j]][j]",
    ("gather", 1): "out[i][j] = x[i][index[i][j]]",
    ("scatter", 0): "out[index[i][j]][j] = value",
    ("scatter", 1): "out[i][index[i][j]] = value",
    ("gather", "1-D"): "out[i] = x[index[i]]",
    ("scatter", "1-D"): "out[index[i]] = value",
}
GATHER_READS = N_(
    "Each index element picks one element of x along dim {dim}: out has index's shape."
)
SCATTER_WRITES = N_(
    "Each index element says where value is written along dim {dim}; the rest is x."
)
SAME_TARGET = N_(
    "{count} index elements write the same element of out: one write wins (torch says which "
    "only on the CPU; on a GPU the order is not defined)."
)
GATHER_LINK = "index{at} = {k}  →  out{at} = x{source} = {value}"
SCATTER_LINK = "index{at} = {k}  →  out{result} = {value}"
REPLACED = N_("{link} (replaced by another write)")
NOW_DIFFERENT = N_("x or index changed since: the picture shows them as they are now.")


class NoPictureError(ValueError):
    """Why there is no picture (the message says it in one sentence)."""


@dataclass(frozen=True)
class IndexLink:
    index_cell: tuple[int, int]  # (row, column) in the index grid
    source_cell: tuple[int, int]  # the element of x it reads (gather) or overwrites (scatter)
    result_cell: tuple[int, int]  # the element of out it gives (gather) or writes (scatter)
    survives: bool = True  # scatter: this write is the one out keeps


@dataclass(frozen=True)
class IndexPicture:
    op: str
    dim: int  # 0 (rows) or 1 (columns) of the 2-D grids
    source: np.ndarray  # x, as a 2-D grid (a vector is one row)
    index: np.ndarray
    result: np.ndarray
    links: tuple[IndexLink, ...]
    formula: str
    notes: tuple[str, ...] = ()
    shapes: tuple[tuple[int, ...], ...] = ()  # the real shapes of x, index and out

    def links_of_index(self, cell: tuple[int, int]) -> list[IndexLink]:
        return [link for link in self.links if link.index_cell == cell]

    def links_of_result(self, cell: tuple[int, int]) -> list[IndexLink]:
        return [link for link in self.links if link.result_cell == cell]

    def links_of_source(self, cell: tuple[int, int]) -> list[IndexLink]:
        return [link for link in self.links if link.source_cell == cell]


def _grid(tensor: torch.Tensor) -> torch.Tensor:
    return tensor.reshape(1, -1) if tensor.dim() == 1 else tensor


def _cell(flat: int, columns: int) -> tuple[int, int]:
    return divmod(int(flat), columns)


def index_picture(op: str, x: torch.Tensor, dim: int, index: torch.Tensor, value=1) -> IndexPicture:
    """The picture of `x.gather(dim, index)` or `x.scatter(dim, index, value)`; raises
    NoPictureError (and torch's own error for an index torch refuses)."""
    if op not in PICTURED_OPS:
        raise NoPictureError(_("{op} has no index picture.").format(op=op))
    if x.device.type == "meta" or index.device.type == "meta":
        raise NoPictureError(_("A meta tensor has no values to picture."))
    if not 1 <= x.dim() <= 2 or index.dim() != x.dim():
        raise NoPictureError(_("The picture shows 1-D and 2-D tensors; index x[k] first."))
    if max(*x.shape, *index.shape) > MAX_SIDE:
        raise NoPictureError(
            _("The picture shows up to {count} elements a side.").format(count=MAX_SIDE)
        )
    dim = dim % x.dim()
    positions = torch.arange(x.numel(), device=x.device).reshape(x.shape)
    addressed = positions.gather(dim, index)  # the flat element of x each index element names
    result = x.gather(dim, index) if op == "gather" else x.scatter(dim, index, value)
    grid_dim = dim if x.dim() == 2 else 1
    columns = _grid(x).shape[1]
    index_columns = _grid(index).shape[1]
    flat_addressed = _grid(addressed).flatten().tolist()
    notes: list[str] = []
    if op == "gather":
        links = tuple(
            IndexLink(_cell(i, index_columns), _cell(a, columns), _cell(i, index_columns))
            for i, a in enumerate(flat_addressed)
        )
    else:
        writer = torch.full_like(positions, -1).scatter(
            dim, index, torch.arange(index.numel(), device=x.device).reshape(index.shape)
        )  # per element of out: which index element's write it keeps (-1: none)
        kept = _grid(writer).flatten().tolist()
        links = tuple(
            IndexLink(_cell(i, index_columns), _cell(a, columns), _cell(a, columns), kept[a] == i)
            for i, a in enumerate(flat_addressed)
        )
        counts = np.bincount(np.asarray(flat_addressed), minlength=x.numel())
        if counts.max(initial=0) > 1:
            notes.append(_(SAME_TARGET).format(count=int(counts.max())))
    template = GATHER_READS if op == "gather" else SCATTER_WRITES
    text = _(template).format(dim=dim)
    return IndexPicture(
        op,
        grid_dim,
        _grid(x).detach().cpu().numpy(),
        _grid(index).cpu().numpy(),
        _grid(result).detach().cpu().numpy(),
        links,
        FORMULAS[(op, grid_dim if x.dim() == 2 else "1-D")],
        (text, *notes),
        (tuple(x.shape), tuple(index.shape), tuple(result.shape)),
    )


def _at(picture: IndexPicture, cell: tuple[int, int]) -> str:
    """x[r][c] for a matrix, x[c] for a vector (drawn as one row)."""
    return f"[{cell[1]}]" if len(picture.shapes[0]) == 1 else f"[{cell[0]}][{cell[1]}]"


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def describe_links(picture: IndexPicture, links: list[IndexLink]) -> str:
    """One line for the element a learner points at: what its index says and where it goes."""
    parts = []
    for link in links[:3]:
        k = _number(picture.index[link.index_cell].item())
        value = _number(picture.result[link.result_cell].item())
        if picture.op == "gather":
            text = GATHER_LINK.format(
                at=_at(picture, link.index_cell), k=k, source=_at(picture, link.source_cell),
                value=value,
            )  # fmt: skip
        else:
            text = SCATTER_LINK.format(
                at=_at(picture, link.index_cell), k=k, result=_at(picture, link.result_cell),
                value=value,
            )  # fmt: skip
            if not link.survives:
                text = _(REPLACED).format(link=text)
        parts.append(text)
    return ";  ".join(parts) + (" …" if len(links) > 3 else "")


def picture_of_entry(workspace: Workspace, name: str) -> IndexPicture | None:
    """The picture of a workspace tensor the Workbench made with gather or scatter (None for
    anything else); NoPictureError says why when it cannot be drawn."""
    if name not in workspace:
        return None
    entry = workspace.entry(name)
    provenance = entry.provenance
    if provenance.op not in PICTURED_OPS:
        return None
    source, index_name = provenance.inputs[0], provenance.params.get("index", "").strip()
    if source not in workspace or index_name not in workspace:
        raise NoPictureError(
            _("{source} or {index} is no longer in the workspace.").format(
                source=source, index=index_name
            )
        )
    try:
        dim = parse_param(ParamSpec("dim", "int"), provenance.params.get("dim", "0"))
        value = parse_param(ParamSpec("value", "number", "1"), provenance.params.get("value", ""))
    except ParamError:
        return None
    x, index = workspace.tensor(source), workspace.tensor(index_name)
    try:
        picture = index_picture(provenance.op, x, dim, index, value)
    except RuntimeError as error:  # the index changed into one torch refuses
        raise NoPictureError(str(error).splitlines()[0]) from None
    if picture.result.shape != _grid(entry.tensor).shape or not np.array_equal(
        picture.result, _grid(entry.tensor).detach().cpu().numpy()
    ):
        notes = (*picture.notes, _(NOW_DIFFERENT))
        picture = IndexPicture(**{**picture.__dict__, "notes": notes})
    return picture
