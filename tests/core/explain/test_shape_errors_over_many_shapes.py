"""Explained shape errors over many shapes: broadcasting against torch.broadcast_shapes, and
bmm refusals explained with or without the tensors. Each rule's claims are checked on real
triggers in test_every_explanation_is_true.py."""

import re

import pytest
import torch
from error_triggers import explain, shape_text
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "a_shape, b_shape", [((2, 3), (3, 4)), ((2, 2, 3), (2, 4, 5)), ((2, 2, 3), (3, 3, 5))]
)
def test_bmm_needs_matching_3d_batches(a_shape, b_shape):
    a, b = torch.randn(a_shape), torch.randn(b_shape)
    explained, _ = explain(lambda: torch.bmm(a, b), "bmm", [a, b])
    assert explained.kind == "matmul_shape" and "3-D" in explained.title
    explained_from_message, _ = explain(lambda: torch.bmm(a, b), "bmm")
    assert explained_from_message.kind == "matmul_shape"


shapes = st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4).map(tuple)


@settings(max_examples=150, deadline=None)
@given(shapes, shapes)
def test_broadcast_explanations_agree_with_torch(a_shape, b_shape):
    a, b = torch.zeros(a_shape), torch.zeros(b_shape)
    try:
        result = torch.broadcast_shapes(a_shape, b_shape)
    except RuntimeError:
        explained, error = explain(lambda: a + b, "add", [a, b])
        assert explained.kind == "broadcast"
        dim = re.search(r"dimension (\d+)", str(error))[1]
        assert f"dim {dim}" in explained.explanation
        return
    if tuple(result) != a_shape:  # in-place cannot grow a: torch refuses, we name the result
        explained, _ = explain(lambda: a.add_(b), "add_", [a, b])
        assert explained.kind == "broadcast"
        assert shape_text(result) in explained.explanation
