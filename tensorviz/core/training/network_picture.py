"""The geometry of the playground's network picture: one column of tiles per layer (the input
features, each hidden layer, the outputs), every tile a small map of what that neuron computes
over the input plane, and the weights as segments between the tiles, binned by sign and strength
so the view draws a handful of curves rather than one item per weight.

Coordinates are pixels of one mosaic image with y pointing up: the view places the mosaic at
(0, 0) and draws the segments in the same coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

EDGE_LEVELS = 5  # line widths, from the faintest weight to the strongest
MAX_EDGES = 2500  # beyond this many weights only the strongest are drawn


@dataclass(frozen=True)
class NetworkLayout:
    columns: tuple[int, ...]  # tiles per column: features, hidden layers…, outputs
    tile: int  # a tile's side in pixels (and the neuron grid's samples per side)
    width: int
    height: int
    origins: tuple[np.ndarray, ...]  # per column: (tiles, 2) lower-left corner of each tile

    @property
    def weights(self) -> int:
        return sum(a * b for a, b in zip(self.columns, self.columns[1:], strict=False))


def tile_size(most_units: int) -> int:
    """Smaller tiles for wider layers, so a 64-unit layer still fits a screen-high column."""
    for limit, size in ((4, 40), (8, 32), (16, 20), (32, 12)):
        if most_units <= limit:
            return size
    return 8


def network_layout(
    features: tuple[str, ...], hidden_layers: tuple[int, ...], outputs: int
) -> NetworkLayout:
    columns = (len(features), *hidden_layers, outputs)
    tile = tile_size(max(columns))
    row_gap, column_gap = max(2, tile // 4), 3 * tile
    height = max(columns) * (tile + row_gap) - row_gap
    origins = []
    for index, count in enumerate(columns):
        column_height = count * (tile + row_gap) - row_gap
        top = height - (height - column_height) / 2
        rows = np.arange(count)
        x = np.full(count, index * (tile + column_gap), dtype=np.float64)
        y = top - rows * (tile + row_gap) - tile  # the first neuron at the top
        origins.append(np.stack([x, y], axis=1))
    width = len(columns) * (tile + column_gap) - column_gap
    return NetworkLayout(columns, tile, int(width), int(height), tuple(origins))


def grid_points(plane: tuple[float, float, float, float], size: int, dims: int) -> torch.Tensor:
    """Raw input coordinates covering the plane: (size², 2) with x varying fastest (so a reshape
    to (size, size) gives [y index, x index]), or (size, 1) along x for 1-D tasks."""
    x0, x1, y0, y1 = plane
    xs = torch.linspace(x0, x1, size, dtype=torch.float32)
    if dims == 1:
        return xs[:, None]
    ys = torch.linspace(y0, y1, size, dtype=torch.float32)
    grid_y, grid_x = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([grid_x.reshape(-1), grid_y.reshape(-1)], dim=1)


def mosaic(layout: NetworkLayout, maps: list[np.ndarray]) -> np.ndarray:
    """One float32 image (height, width) [y, x] holding every tile's map; NaN between tiles.
    maps: per column (tiles, g, g), or (tiles, g) for a 1-D task (shown as vertical bands)."""
    image = np.full((layout.height, layout.width), np.nan, dtype=np.float32)
    t = layout.tile
    for origins, column in zip(layout.origins, maps, strict=True):
        for (x, y), tile_map in zip(origins.astype(int), column, strict=True):
            image[y : y + t, x : x + t] = tile_map if tile_map.ndim == 2 else tile_map[None, :]
    return image


def edge_segments(
    layout: NetworkLayout, weights: list[np.ndarray], max_edges: int = MAX_EDGES
) -> dict[tuple[int, int], np.ndarray]:
    """(sign, level) → segment end points (2m, 2), consecutive rows a pair: sign 1 for positive
    weights, 0 for negative; level 0 … EDGE_LEVELS-1 by |w| over the largest |w| of the whole
    network. Only the max_edges strongest weights are kept."""
    t = layout.tile
    starts, ends, values = [], [], []
    for index, weight in enumerate(weights):
        sources, targets = layout.origins[index], layout.origins[index + 1]
        out_units, in_units = weight.shape
        start = sources + [t, t / 2]  # the right edge's middle of each source tile
        end = targets + [0, t / 2]
        starts.append(np.repeat(start[None, :, :], out_units, axis=0).reshape(-1, 2))
        ends.append(np.repeat(end[:, None, :], in_units, axis=1).reshape(-1, 2))
        values.append(weight.reshape(-1))
    if not values:
        return {}
    start, end = np.concatenate(starts), np.concatenate(ends)
    value = np.concatenate(values).astype(np.float64)
    magnitude = np.abs(value)
    finite = np.isfinite(magnitude)
    magnitude = np.where(finite, magnitude, 0.0)
    keep = np.flatnonzero(finite)
    if len(keep) > max_edges:
        keep = keep[np.argpartition(-magnitude[keep], max_edges - 1)[:max_edges]]
    largest = float(magnitude[keep].max()) if len(keep) else 0.0
    if largest <= 0:
        return {}
    level = np.minimum((magnitude / largest * EDGE_LEVELS).astype(int), EDGE_LEVELS - 1)
    sign = (value > 0).astype(int)
    segments: dict[tuple[int, int], np.ndarray] = {}
    for s in (0, 1):
        for lv in range(EDGE_LEVELS):
            chosen = keep[(sign[keep] == s) & (level[keep] == lv)]
            pairs = np.empty((2 * len(chosen), 2))
            pairs[0::2], pairs[1::2] = start[chosen], end[chosen]
            segments[(s, lv)] = pairs
    return segments


def tile_at(layout: NetworkLayout, x: float, y: float) -> tuple[int, int] | None:
    """(column, tile) under the point (x, y) of the picture, or None between tiles."""
    t = layout.tile
    for column, origins in enumerate(layout.origins):
        inside = (
            (origins[:, 0] <= x) & (x < origins[:, 0] + t) & (origins[:, 1] <= y)
            & (y < origins[:, 1] + t)
        )  # fmt: skip
        hits = np.flatnonzero(inside)
        if len(hits):
            return column, int(hits[0])
    return None
