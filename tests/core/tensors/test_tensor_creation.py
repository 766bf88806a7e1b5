import numpy as np
import pytest
import torch

from tensorviz.core.tensors.creation import (
    CREATIONS,
    CREATIONS_BY_NAME,
    LEGACY_TRAP,
    CreationOptions,
    create,
)
from tensorviz.core.tensors.op_params import ParamError


def make(kind, options=None, tensors=None, **params):
    return create(CREATIONS_BY_NAME[kind], params, options or CreationOptions(), tensors or {})


@pytest.mark.parametrize(
    "kind, params, direct",
    [
        ("zeros", {"shape": "2, 3"}, lambda: torch.zeros(2, 3)),
        ("ones", {"shape": "4"}, lambda: torch.ones(4)),
        ("full", {"size": "2, 2", "fill_value": "7"}, lambda: torch.full((2, 2), 7)),
        ("eye", {"n": "3"}, lambda: torch.eye(3)),
        ("arange", {"start": "0", "end": "10", "step": "3"}, lambda: torch.arange(0, 10, 3)),
        ("arange", {"start": "0.5", "end": "2", "step": "0.5"}, lambda: torch.arange(0.5, 2, 0.5)),
        ("linspace", {"start": "0", "end": "1", "steps": "5"}, lambda: torch.linspace(0, 1, 5)),
        ("tensor", {"data": "[[1, 2], [3, 4]]"}, lambda: torch.tensor([[1, 2], [3, 4]])),
        ("tensor", {"data": "[1.5, 2]"}, lambda: torch.tensor([1.5, 2])),
        ("tensor", {"data": "3"}, lambda: torch.tensor(3)),
        ("tensor", {"data": "[True, False]"}, lambda: torch.tensor([True, False])),
        ("arange(24).reshape(2, 3, 4)", {}, lambda: torch.arange(24).reshape(2, 3, 4)),
        ("scalar torch.tensor(3)", {}, lambda: torch.tensor(3)),
    ],
)
def test_deterministic_creations_equal_torch(kind, params, direct):
    created = make(kind, **params)
    expected = direct()
    assert created.tensor.dtype == expected.dtype
    assert created.tensor.shape == expected.shape
    assert torch.equal(created.tensor, expected)


@pytest.mark.parametrize(
    "kind, params, direct",
    [
        ("rand", {"shape": "3, 2"}, lambda: torch.rand(3, 2)),
        ("randn", {"shape": "5"}, lambda: torch.randn(5)),
        (
            "randint",
            {"low": "0", "high": "10", "size": "2, 3"},
            lambda: torch.randint(0, 10, (2, 3)),
        ),
        ("image [1, 28, 28]", {}, lambda: torch.rand(1, 28, 28)),
        ("batch [64, 3, 32, 32]", {}, lambda: torch.randn(64, 3, 32, 32)),
        ("text [8, 16, 32]", {}, lambda: torch.randn(8, 16, 32)),
        ("weights randn(256, 128) * 0.01", {}, lambda: torch.randn(256, 128) * 0.01),
        ("labels randint(0, 10, (32,))", {}, lambda: torch.randint(0, 10, (32,))),
    ],
)
def test_seeded_random_creations_are_reproducible_like_torch(kind, params, direct):
    created = make(kind, CreationOptions(seed=42), **params)
    torch.manual_seed(42)
    expected = direct()
    assert created.tensor.dtype == expected.dtype
    assert torch.equal(created.tensor, expected)
    assert created.code.startswith("torch.manual_seed(42)")


def test_like_creations_copy_shape_dtype_device():
    source = torch.ones(2, 5, dtype=torch.float64)
    for fn in ("zeros", "ones", "rand", "randn"):
        created = make(f"{fn}_like", tensors={"s": source}, source="s")
        assert created.tensor.shape == source.shape and created.tensor.dtype == torch.float64
        assert "torch." + fn + "_like(s" in created.code


def test_options_are_applied():
    options = CreationOptions(dtype=torch.float64, requires_grad=True)
    created = make("zeros", options, shape="2")
    assert created.tensor.dtype == torch.float64 and created.tensor.requires_grad
    assert "dtype=torch.float64" in created.code and "requires_grad=True" in created.code


def test_dtype_inference_is_explained():
    assert "int64" in make("tensor", data="[1, 2]").notes[0]
    assert "float32" in make("tensor", data="[1.0, 2]").notes[0]


def test_legacy_constructor_is_flagged_as_a_trap():
    created = make("Tensor (legacy)", n="3")
    assert created.tensor.shape == torch.Tensor(3).shape
    assert created.tensor.dtype == torch.Tensor(3).dtype
    assert created.notes == (LEGACY_TRAP,)


def test_from_numpy_shares_and_tensor_copies():
    shared = make("from NumPy", shape="2, 3", fill="arange", mode="from_numpy (shares memory)")
    copied = make("from NumPy", shape="2, 3", fill="arange", mode="tensor (copies)")
    assert shared.tensor.dtype == torch.float64  # NumPy's default float leaks in
    shared.numpy_array[0, 0] = 99
    copied.numpy_array[0, 0] = 99
    assert shared.tensor[0, 0].item() == 99
    assert copied.tensor[0, 0].item() == 0
    shared.tensor[1, 1] = -5
    assert shared.numpy_array[1, 1] == -5
    assert np.shares_memory(shared.numpy_array, shared.tensor.numpy())


@pytest.mark.parametrize(
    "kind, params",
    [
        ("zeros", {"shape": "2, x"}),
        ("zeros", {"shape": "-2, 3"}),
        ("eye", {"n": "2.5"}),
        ("tensor", {"data": "__import__('os')"}),
        ("tensor", {"data": "[1, 2"}),
        ("zeros_like", {"source": "nope"}),
        ("full", {"size": "2", "fill_value": "'a'"}),
    ],
)
def test_bad_parameters_are_refused_before_torch(kind, params):
    with pytest.raises(ParamError):
        make(kind, **params)


def test_every_creation_runs_with_its_defaults():
    source = torch.ones(2, 2)
    for spec in CREATIONS:
        params = {p.name: p.default for p in spec.params}
        if "source" in params:
            params["source"] = "s"
        created = create(spec, params, CreationOptions(seed=0), {"s": source})
        assert isinstance(created.tensor, torch.Tensor) and created.code
