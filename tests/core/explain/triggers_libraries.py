"""Claim checks for the errors of the book's preliminaries that are not torch's — pandas in data
preprocessing, NumPy arrays beside tensors — and the torch error that follows them (a tensor
from a DataFrame's object array). Each is raised by the real library, as the book's learner
meets it (*Dive into Deep Learning*, 2.1-2.3), explained as the app explains it, and its fix run.

The explanations must say whose error it is and give that library's fix, never torch's."""

import io

import numpy as np
import pandas as pd
import torch
from claim_checks import Case, elsewhere, fix_runs, in_english, raised, said, say, trigger

from tensorviz.core.explain.errors import UNKNOWN_TITLE, explain_error
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.translation import _

HOUSE_TINY = "NumRooms,Alley,Price\nNA,Pave,127500\n2,NA,106000\n4,NA,178100\nNA,NA,140000\n"


def _house_tiny():
    """The book's 2.2 data set, read as the book reads it (pd.read_csv)."""
    data = pd.read_csv(io.StringIO(HOUSE_TINY))
    return data.iloc[:, 0:2], data.iloc[:, 2]


def _not_torchs(case: Case) -> None:
    """What an explanation of another library's error never says."""
    text = say(case)
    assert case.explained.said_by != "torch"
    assert ".to(" not in text and _(UNKNOWN_TITLE) not in text


@trigger("pandas_text_reduction")
def book_fills_missing_values_with_the_mean():
    inputs, _outputs = _house_tiny()
    error = raised(lambda: inputs.fillna(inputs.mean()))  # the book's own line
    case = Case(explain_error(error), str(error))
    assert case.explained.said_by == "pandas"
    _not_torchs(case)
    assert said("pandas", "pandas") in case.explained.title
    means = fix_runs(case, "inputs.mean(numeric_only=True)", {"inputs": inputs})
    assert means["NumRooms"] == 3.0 and "Alley" not in means  # only the numeric columns
    assert inputs.fillna(means)["NumRooms"].tolist() == [3.0, 2.0, 4.0, 3.0]
    scope = {"inputs": inputs, "pd": pd}
    made = fix_runs(case, "inputs = pd.get_dummies(inputs, dummy_na=True)", scope)
    numeric = made["inputs"]
    assert numeric.fillna(numeric.mean())["NumRooms"].tolist() == [3.0, 2.0, 4.0, 3.0]
    raised(lambda: inputs["Alley"].astype(str).mean())  # "a column of text has no mean"
    return case


@trigger("numpy_object_array")
def book_makes_a_tensor_from_dataframe_values():
    inputs, _outputs = _house_tiny()
    inputs = pd.get_dummies(inputs.fillna(inputs.mean(numeric_only=True)), dummy_na=True)
    assert inputs.values.dtype == object  # "what DataFrame.values gives" for such a frame
    error = raised(lambda: torch.tensor(inputs.values))
    case = Case(explain_error(error), str(error), set(), {torch.float32})
    assert case.explained.said_by == "torch"  # torch.tensor refused it: torch's error
    x = fix_runs(case, "torch.tensor(df.to_numpy(dtype=float))", {"df": inputs})
    assert x.shape == (4, 3) and x.dtype == torch.float64
    y = fix_runs(case, "torch.tensor(arr.astype(np.float32))", {"arr": inputs.values, "np": np})
    assert y.dtype == torch.float32 and torch.equal(y, x.float())
    return case


@trigger("numpy_inplace_cast")
def learner_adds_a_half_to_an_integer_array():
    def learner():
        a = np.arange(3)
        a += 0.5

    error = raised(learner)
    case = Case(explain_error(error), str(error), set(), {torch.float64, torch.int64})
    assert case.explained.said_by == "numpy"
    _not_torchs(case)
    assert "a = a + 0.5" in case.explained.fix  # the very line, written out of place
    made = fix_runs(case, "a = a + 0.5", {"a": np.arange(3)})
    assert made["a"].dtype == np.float64 and made["a"].tolist() == [0.5, 1.5, 2.5]
    converted = fix_runs(case, "a = a.astype(np.float64)", {"a": np.arange(3), "np": np})
    converted["a"] += 0.5  # then the in-place add is allowed
    assert converted["a"].tolist() == [0.5, 1.5, 2.5]
    return case


@trigger("numpy_broadcast")
def adding_arrays_of_different_lengths():
    x, y = np.ones(3), np.ones(4)
    error = raised(lambda: x + y)
    case = Case(explain_error(error), str(error), {(3,), (4,)})
    assert case.explained.said_by == "numpy"
    _not_torchs(case)
    column = fix_runs(case, "arr[:, None]", {"arr": x})
    assert (column + y).shape == (3, 4)  # "a size-1 dimension there" is stretched
    return case


@trigger("numpy_broadcast")
def dividing_rows_by_their_sums_without_keepdims():
    a = np.arange(20.0).reshape(5, 4)
    error = raised(lambda: a / a.sum(axis=1))  # the book's 2.3 normalisation, done in NumPy
    case = Case(explain_error(error), str(error), {(5, 4), (5,)})
    if in_english():  # the dimension it names is the one NumPy compared first and refused
        assert "dimension 1 from the right has 4 against 5" in case.explained.explanation
    assert (a / a.sum(axis=1, keepdims=True)).shape == (5, 4)
    return case


# --- errors that are nobody's rule: said to be theirs, their message as it is ------------------


def _plain(error) -> Case:
    case = Case(explain_error(error), str(error))
    assert case.explained.kind == "not_torch" and case.explained.torch_message == str(error)
    assert case.explained.fix == ""  # no fix the app could stand behind
    return case


@elsewhere("not_torch")
def a_learners_own_raise():
    def check(x):
        if x.dtype != torch.float32:
            raise RuntimeError(f"expected scalar type Float for x, got {x.dtype}")

    case = _plain(raised(lambda: check(torch.ones(2, dtype=torch.int64))))
    assert case.explained.said_by == "user"
    assert said("Your code raised RuntimeError", "你的代码") in case.explained.title
    result = ScriptRun("raise RuntimeError('my own check failed: the dtype of x')\n", {}).run()
    assert result.failure.explained.kind == "not_torch"
    assert not result.failure.torch_error  # shown as Python shows it: the traceback alone
    return case


@elsewhere("not_torch")
def numpy_error_no_rule_knows():
    case = _plain(raised(lambda: np.linalg.inv(np.zeros((2, 2)))))
    assert case.explained.said_by == "numpy" and "LinAlgError" in case.explained.title
    return case


@elsewhere("not_torch")
def pandas_column_that_is_not_there():
    inputs, _outputs = _house_tiny()
    case = _plain(raised(lambda: inputs["Prices"]))
    assert case.explained.said_by == "pandas" and "KeyError" in case.explained.title
    assert "Prices" not in inputs.columns  # pandas is right: there is no such column
    return case


@trigger("grad_is_none")
def zeroing_a_grad_before_the_first_backward():
    """Linear regression from scratch, with the zeroing moved to the top of the loop."""
    w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
    x, y = torch.randn(10, 2), torch.randn(10, 1)
    error = raised(lambda: w.grad.zero_())
    case = Case(explain_error(error), str(error), {(2, 1)})
    assert case.explained.said_by == "python" and "w.grad" in case.explained.title
    assert w.grad is None  # "stays None until a backward() reaches it"
    loss = ((x @ w - y) ** 2).mean()
    fix_runs(case, "loss.backward()", {"loss": loss})
    assert w.grad is not None and w.grad.shape == w.shape  # filled by the backward, as said
    fix_runs(case, "w.grad = None", {"w": w})
    assert w.grad is None
    ((x @ w - y) ** 2).mean().backward()  # the next backward fills it afresh
    optimizer = torch.optim.SGD([w], lr=0.03)
    optimizer.zero_grad()  # "what optimizer.zero_grad() does"
    assert w.grad is None
    return case
