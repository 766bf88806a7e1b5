"""Trigger a real torch error and explain it: shared by the error-explanation test files."""

import pytest

from tensorviz.core.explain.errors import ExplainedError, explain_error


def raised(action) -> BaseException:
    with pytest.raises(Exception) as caught:
        action()
    return caught.value


def explain(action, op=None, tensors=(), params=None) -> tuple[ExplainedError, BaseException]:
    error = raised(action)
    explained = explain_error(error, op, tensors, params)
    assert explained.torch_message == str(error)
    return explained, error


def shape_text(shape) -> str:
    return str(list(shape))
