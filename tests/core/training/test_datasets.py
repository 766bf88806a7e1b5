"""The playground's data sets: their geometry, their seeds and their split."""

import numpy as np
import pytest
import torch

from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.datasets import GENERATORS, make_task_data, split_sizes
from tensorviz.core.training.network_choices import task_defaults

CLASSIFICATION = ("blobs", "circles", "xor", "spirals", "moons")
REGRESSION = ("sin", "abs", "step")


@pytest.mark.parametrize("task", CLASSIFICATION)
def test_classification_sets_are_balanced_points_in_the_plane(task):
    points, labels = GENERATORS[task](400, 0.1, np.random.default_rng(0))
    assert points.shape == (400, 2) and points.dtype == np.float64
    assert set(np.unique(labels)) == {0, 1}
    if task != "xor":  # xor's classes follow the sign of x·y of uniform points
        assert (labels == 1).sum() == 200
    assert np.abs(points).max() < 6.5


@pytest.mark.parametrize("task", CLASSIFICATION + REGRESSION)
def test_the_same_seed_gives_the_same_data_and_another_seed_other_data(task):
    first = GENERATORS[task](50, 0.2, np.random.default_rng(7))
    again = GENERATORS[task](50, 0.2, np.random.default_rng(7))
    other = GENERATORS[task](50, 0.2, np.random.default_rng(8))
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])


def test_without_noise_the_shapes_are_exact():
    rng = np.random.default_rng(1)
    points, labels = GENERATORS["circles"](300, 0.0, rng)
    radius = np.hypot(points[:, 0], points[:, 1])
    assert radius[labels == 1].max() <= 2.0 and radius[labels == 0].min() >= 3.5
    points, labels = GENERATORS["xor"](300, 0.0, rng)
    assert np.array_equal(labels == 1, points[:, 0] * points[:, 1] > 0)
    points, labels = GENERATORS["spirals"](300, 0.0, rng)
    assert np.hypot(points[:, 0], points[:, 1]).max() <= 5.0
    x, y = GENERATORS["sin"](100, 0.0, rng)
    assert x.shape == y.shape == (100, 1) and np.array_equal(y, np.sin(2 * x))
    x, y = GENERATORS["step"](100, 0.0, rng)
    assert np.array_equal(y, np.where(x < 0, -1.0, 1.0))


def test_the_split_is_disjoint_and_covers_every_sample():
    config = TrainingConfig(**task_defaults("moons"))
    data = make_task_data(config)
    assert len(data.train) == 350 and len(data.test) == 150
    assert sorted(np.concatenate([data.train, data.test]).tolist()) == list(range(500))
    assert torch.equal(data.x_train, torch.from_numpy(data.points[data.train]).float())
    assert data.y_train.shape == (350, 1) and data.y_train.dtype == torch.float32
    assert split_sizes(10, 0.0) == (10, 0) and split_sizes(2, 0.9) == (1, 1)


def test_cross_entropy_gets_class_indices():
    config = TrainingConfig(**{**task_defaults("xor"), "loss": "ce"})
    data = make_task_data(config)
    assert data.y_train.dtype == torch.int64 and data.y_train.shape == (350,)
    assert torch.equal(data.y_train, torch.from_numpy(data.targets[data.train]))


def test_the_file_task_reads_the_users_csv(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("x,y\n" + "".join(f"{i},{i * i}\n" for i in range(20)))
    config = TrainingConfig(**{**task_defaults("file"), "data_path": str(path)})
    data = make_task_data(config)
    assert data.n == 20 and data.source == "mine.csv"
    assert sorted(data.points[:, 0].tolist()) == [float(i) for i in range(20)]
    normalised = make_task_data(config.with_changes(normalise_x=True)).points
    assert abs(normalised.mean()) < 1e-12 and abs(normalised.std() - 1) < 1e-12


def test_an_unreadable_file_is_one_sentence(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("x,y\n1,2\nthree,4\n")
    config = TrainingConfig(**{**task_defaults("file"), "data_path": str(path)})
    with pytest.raises(TrainingConfigError, match="bad.csv line 3"):
        make_task_data(config)
