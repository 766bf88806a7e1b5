"""The playground's pictures turned into what the views draw, off the GUI thread: colours (RGBA
bytes), and the network painted whole — tiles, weights and, for 1-D tasks, each neuron's curve
(network_painting). It runs in the worker thread, so the GUI thread only hands finished arrays
to pyqtgraph.

Colours follow TensorFlow Playground: orange for negative values and class 0, blue for positive
values and class 1, and in between the plots' background (white in the light theme, the dark
background in the dark one, so no white box lights up a dark window).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from tensorviz.core.training.network_picture import edge_segments, mosaic
from tensorviz.core.training.network_pictures import NetworkPictures
from tensorviz.core.training.playground_report import PlaygroundInfo
from tensorviz.ui.training.network_painting import paint_network
from tensorviz.ui.widgets.theme import current_theme

ORANGE = np.array([245, 147, 34], dtype=np.float64)  # negative, class 0
BLUE = np.array([8, 119, 189], dtype=np.float64)  # positive, class 1
WHITE = np.array([255, 255, 255], dtype=np.float64)
PALE = 0.45  # the boundary behind the points is this much paler than the neuron tiles


def _diverging(pale: float, neutral: np.ndarray = WHITE) -> np.ndarray:
    """257 RGBA colours, each packed in one uint32: 256 from orange (-1) through `neutral` (0)
    to blue (+1), then a transparent one for NaN; `pale` mixes them toward the neutral."""
    t = np.linspace(-1.0, 1.0, 256)[:, None]
    rgb = np.where(t < 0, neutral + (ORANGE - neutral) * -t, neutral + (BLUE - neutral) * t)
    rgb = rgb + (neutral - rgb) * pale
    lut = np.zeros((257, 4), dtype=np.uint8)
    lut[:256, :3] = np.round(rgb).astype(np.uint8)
    lut[:256, 3] = 255
    return lut.view(np.uint32).reshape(-1)


@cache
def colour_tables(background: str) -> tuple[np.ndarray, np.ndarray]:
    """(tiles, boundary) colour tables whose neutral is the plots' background `background`."""
    neutral = np.array([int(background[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)
    return _diverging(0.0, neutral), _diverging(PALE, neutral)


def theme_colour_tables() -> tuple[np.ndarray, np.ndarray]:
    """The tables of the theme in force (read by the pictures' thread as it makes a frame)."""
    return colour_tables(current_theme().colours["plot_background"])


def coloured(values: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """values in [-1, 1] (clipped; NaN is transparent) as RGBA bytes of the same shape + (4,).
    One uint32 lookup a pixel: this runs for every frame."""
    scaled = np.asarray(values, dtype=np.float32) * np.float32(127.5) + np.float32(128.0)
    np.clip(scaled, 0.0, 255.0, out=scaled)  # NaN stays NaN
    with np.errstate(invalid="ignore"):  # NaN casts to garbage, overwritten next
        index = scaled.astype(np.int16)
    index[np.isnan(scaled)] = 256
    return lut[index].view(np.uint8).reshape(*index.shape, 4)


@dataclass(frozen=True)
class PictureFrame:
    """One refresh of the live pictures, ready to draw."""

    epoch: int
    boundary: np.ndarray | None  # (G, G, 4) RGBA [y, x] for 2-D tasks
    curve: np.ndarray | None  # (G,) predicted y along the x grid, for 1-D tasks
    network: np.ndarray  # (h, w, 4) RGBA: the tiles, their weights and curves (network_painting)
    grad_norms: tuple[float, ...]
    state: dict  # the state_dict as NumPy arrays (for the graph and the saved parameters)


class FrameMaker:
    """Makes PictureFrames for one experiment; the input features' tiles never change."""

    def __init__(self, info: PlaygroundInfo) -> None:
        self.info = info
        features = info.feature_maps
        scale = np.abs(features).reshape(len(features), -1).max(axis=1)
        self._features = features / np.where(scale > 0, scale, 1.0).reshape(
            -1, *[1] * (features.ndim - 1)
        )
        self._classification = info.kind == "classification"
        self._y_scale = float(np.abs(info.targets).max()) or 1.0

    def _output_values(self, scores: np.ndarray) -> np.ndarray:
        """Scores shown on the diverging scale: probabilities 0…1 → -1…1, values by |y|max."""
        if self._classification:
            return 2.0 * scores - 1.0
        return scores / self._y_scale

    def make(self, pictures: NetworkPictures) -> PictureFrame:
        info, layout = self.info, self.info.layout
        columns = [
            self._features,
            *(np.clip(n, -1.0, 1.0) for n in pictures.neurons),
            self._output_values(pictures.output),
        ]
        tile_colours, boundary_colours = theme_colour_tables()
        tiles = coloured(mosaic(layout, columns), tile_colours)
        two_d = info.dims == 2
        network = paint_network(
            layout,
            tiles,
            edge_segments(layout, list(pictures.weights)),
            None if two_d else self._tile_curves(columns),
            (ORANGE, BLUE),
        )
        boundary = (
            coloured(self._output_values(pictures.score), boundary_colours) if two_d else None
        )
        return PictureFrame(
            epoch=pictures.epoch,
            boundary=boundary,
            curve=None if two_d else pictures.score,
            network=network,
            grad_norms=pictures.grad_norms,
            state=pictures.state,
        )

    def _tile_curves(self, columns: list[np.ndarray]) -> np.ndarray:
        """Each 1-D tile's values as a line across it (bottom: -1, top: +1), NaN between."""
        t = self.info.layout.tile
        pieces = []
        for origins, column in zip(self.info.layout.origins, columns, strict=True):
            for (x, y), values in zip(origins, column, strict=True):
                xs = x + np.linspace(0.5, t - 0.5, len(values))
                ys = y + 1 + (np.clip(values, -1.0, 1.0) + 1.0) / 2.0 * (t - 2)
                pieces += [np.stack([xs, ys], axis=1), np.full((1, 2), np.nan)]
        return np.concatenate(pieces) if pieces else np.empty((0, 2))
