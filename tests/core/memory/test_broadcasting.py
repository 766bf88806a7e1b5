"""The broadcasting explainer agrees with torch.broadcast_shapes and with torch's own error."""

import re

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorviz.core.memory.broadcasting import (
    EXAMPLES,
    ShapeSyntaxError,
    explain_broadcast,
    parse_shape,
)

small_shapes = st.lists(st.sampled_from([1, 1, 2, 3, 4]), min_size=0, max_size=4).map(tuple)


@settings(max_examples=300, deadline=None)
@given(st.lists(small_shapes, min_size=2, max_size=4))
def test_result_agrees_with_torch_broadcast_shapes(shapes):
    explained = explain_broadcast(shapes)
    try:
        expected = tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError:
        assert explained.result is None and explained.failing is not None
    else:
        assert explained.result == expected == explained.torch_result
        assert all(len(p) == len(expected) for p in explained.padded)


@settings(max_examples=300, deadline=None)
@given(small_shapes, small_shapes)
def test_failing_pair_names_the_dim_torch_names(a, b):
    explained = explain_broadcast([a, b])
    try:
        torch.zeros(a) + torch.zeros(b)
    except RuntimeError as error:
        match = re.search(r"tensor a \((\d+)\).*tensor b \((\d+)\).*dimension (\d+)", str(error))
        failing = explained.failing
        assert failing is not None
        assert (failing.sizes, failing.dim) == (
            (int(match[1]), int(match[2])),
            int(match[3]),
        )
        assert explained.torch_message == str(error).splitlines()[0]
    else:
        assert explained.failing is None and explained.torch_message == ""


def test_the_two_classic_examples():
    first = explain_broadcast(EXAMPLES["(3, 1, 5) with (2, 1)"])
    assert first.result == (3, 2, 5)
    assert first.padded == ((3, 1, 5), (1, 2, 1))
    assert [v.kind for v in first.verdicts] == ["stretched", "stretched", "stretched"]
    assert first.verdicts[0].padded == (False, True)
    silent = explain_broadcast(EXAMPLES["silent: [3, 1] with [4]"])
    assert silent.result == (3, 4) and "silent" in silent.summary()


def test_equal_dims_are_kept():
    explained = explain_broadcast([(2, 3), (2, 3)])
    assert [v.kind for v in explained.verdicts] == ["equal", "equal"]


@pytest.mark.parametrize(
    ("text", "shape"),
    [("(3, 1, 5)", (3, 1, 5)), ("[4]", (4,)), ("3 x 2", (3, 2)), ("()", ()), ("7,", (7,))],
)
def test_parse_shape(text, shape):
    assert parse_shape(text) == shape


def test_parse_shape_rejects_words():
    with pytest.raises(ShapeSyntaxError):
        parse_shape("(a, b)")
