"""The network picture's geometry: tiles that never overlap, maps placed where the layout says,
and every weight drawn once between the two tiles it joins."""

import numpy as np
import torch

from tensorviz.core.training.network_picture import (
    EDGE_LEVELS,
    edge_segments,
    grid_points,
    mosaic,
    network_layout,
)


def test_tiles_form_columns_that_never_overlap():
    layout = network_layout(("x", "y", "xy"), (8, 4), outputs=1)
    assert layout.columns == (3, 8, 4, 1) and layout.tile == 32
    for origins in layout.origins:
        ys = np.sort(origins[:, 1])
        assert (np.diff(ys) >= layout.tile).all()  # no two tiles of a column overlap
        assert ys.min() >= 0 and ys.max() + layout.tile <= layout.height
    xs = [origins[0, 0] for origins in layout.origins]
    assert all(b - a > layout.tile for a, b in zip(xs, xs[1:], strict=False))
    assert xs[-1] + layout.tile == layout.width
    assert network_layout(("x",), (64,), 1).tile < layout.tile  # wide layers: smaller tiles


def test_the_grid_runs_x_fastest_so_a_reshape_is_y_by_x():
    grid = grid_points((-1.0, 1.0, 10.0, 20.0), 3, dims=2)
    assert torch.equal(grid[:3, 0], torch.tensor([-1.0, 0.0, 1.0]))
    assert torch.equal(grid[::3, 1], torch.tensor([10.0, 15.0, 20.0]))
    assert grid_points((-1.0, 1.0, 0.0, 1.0), 5, dims=1).shape == (5, 1)


def test_the_mosaic_holds_each_map_at_its_tile():
    layout = network_layout(("x", "y"), (3,), outputs=1)
    t = layout.tile
    maps = [np.full((count, t, t), float(c), dtype=np.float32) for c, count in enumerate((2, 3, 1))]
    maps[1][2] = np.arange(t * t, dtype=np.float32).reshape(t, t)
    image = mosaic(layout, maps)
    x, y = layout.origins[1][2].astype(int)
    assert np.array_equal(image[y : y + t, x : x + t], maps[1][2])
    x, y = layout.origins[2][0].astype(int)
    assert (image[y : y + t, x : x + t] == 2.0).all()  # the output tile
    assert np.isnan(image).sum() == image.size - 6 * t * t  # NaN between the tiles


def test_each_weight_is_one_segment_binned_by_sign_and_strength():
    layout = network_layout(("x", "y"), (3,), outputs=1)
    weights = [np.array([[0.8, -0.1], [0.5, -1.0], [0.0, 0.3]]), np.array([[-2.0, 0.2, 0.9]])]
    segments = edge_segments(layout, weights)
    assert sum(len(pairs) // 2 for pairs in segments.values()) == 9
    strongest = segments[(0, EDGE_LEVELS - 1)]  # -2.0 joins hidden neuron 1 to the output
    t = layout.tile
    assert np.array_equal(strongest[0], layout.origins[1][0] + [t, t / 2])
    assert np.array_equal(strongest[1], layout.origins[2][0] + [0, t / 2])
    capped = edge_segments(layout, weights, max_edges=2)
    assert sum(len(p) // 2 for p in capped.values()) == 2
    assert len(capped[(0, EDGE_LEVELS - 1)]) == 2 and len(capped[(0, 2)]) == 2  # -2.0, -1.0


def test_the_tile_under_a_point_is_found():
    from tensorviz.core.training.network_picture import tile_at

    layout = network_layout(("x", "y"), (3,), outputs=1)
    t = layout.tile
    x, y = layout.origins[1][2]
    assert tile_at(layout, x + t / 2, y + 1) == (1, 2)
    assert tile_at(layout, x - 1, y + 1) is None  # between the columns
