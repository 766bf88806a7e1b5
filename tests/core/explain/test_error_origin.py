"""Whose error it is, told by the code that raised it: torch's kernels called from the user's line,
torch's own Python, NumPy, pandas, Python's builtins, the user's own raise — and never by a word
of the message (a user's message full of torch's words is still the user's)."""

import numpy as np
import pandas as pd
import pytest
import torch

from tensorviz.core.explain.error_origin import error_origin
from tensorviz.core.explain.errors import explain_error
from tensorviz.core.script.run import ScriptRun


def raised(action) -> BaseException:
    with pytest.raises(Exception) as caught:
        action()
    return caught.value


def whose(action) -> str | None:
    found = error_origin(raised(action))
    return found.library if found is not None else None


def test_torch_kernels_called_from_the_users_line_are_torchs():
    a, b = torch.ones(2, 3), torch.ones(2, 3)
    assert whose(lambda: a @ b) == "torch"  # an operator on tensors
    assert whose(lambda: torch.matmul(a, b)) == "torch"  # a function of torch's module
    assert whose(lambda: a.view(5)) == "torch"  # a method of a tensor
    assert whose(lambda: bool(a > 0)) == "torch"  # a builtin handing over to the tensor
    assert whose(lambda: torch.nn.Linear(4, 2)(a)) == "torch"  # torch's own Python frames


def test_numpys_and_pandas_errors_are_theirs():
    x = np.ones(3)
    assert whose(lambda: x + np.ones(4)) == "numpy"  # a plain ValueError, raised in NumPy's C
    assert whose(lambda: np.linalg.inv(np.zeros((2, 2)))) == "numpy"
    frame = pd.DataFrame({"text": ["a", "b"]})
    assert whose(lambda: frame.mean()) == "pandas"
    assert whose(lambda: frame["missing"]) == "pandas"


def test_pythons_own_errors_are_pythons():
    assert whose(lambda: int("three")) == "python"
    assert whose(lambda: [1, 2][5]) == "python"
    grad = torch.ones(2).grad  # None: x.grad.zero_() before any backward
    assert whose(lambda: grad.zero_()) == "python"


def test_the_users_own_raise_is_the_users_whatever_it_says():
    def check():
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")

    assert whose(check) == "user"
    explained = explain_error(raised(check))
    assert explained.kind == "not_torch" and explained.rule == ""  # torch's rule was not asked
    assert "torch refused" not in explained.title and "[2, 3]" not in explained.explanation


def test_an_error_without_a_traceback_gets_no_verdict():
    assert error_origin(RuntimeError("built, never raised")) is None


def test_in_a_script_numpy_and_pandas_errors_are_explained_as_theirs():
    numpy_run = ScriptRun("a = np.arange(3)\na += 0.5\n", {}).run()
    explained = numpy_run.failure.explained
    assert explained.rule == "numpy_inplace_cast" and explained.said_by == "numpy"
    assert "a = a + 0.5" in explained.fix and ".to(" not in explained.fix
    assert "NumPy says: Cannot cast ufunc 'add'" in explained.text()
    assert "torch says" not in explained.text()
    source = (
        "import pandas as pd\n"
        "data = pd.DataFrame({'NumRooms': [None, 2.0, 4.0], 'Alley': ['Pave', None, None]})\n"
        "inputs = data.iloc[:, 0:2]\n"
        "inputs = inputs.fillna(inputs.mean())\n"
    )
    pandas_run = ScriptRun(source, {}).run()
    explained = pandas_run.failure.explained
    assert pandas_run.failure.line == 4 and explained.said_by == "pandas"
    assert "inputs.mean(numeric_only=True)" in explained.fix
    own = ScriptRun("x = torch.ones(2)\nraise RuntimeError('expected scalar type Float')\n", {})
    failure = own.run().failure
    assert failure.explained.kind == "not_torch" and not failure.torch_error
