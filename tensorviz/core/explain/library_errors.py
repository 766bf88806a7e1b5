"""Explanations for the NumPy and pandas errors a learner meets beside torch (the preliminaries of
*Dive into Deep Learning*: data preprocessing with pandas, NumPy arrays made from tensors), and
for Python's own errors whose cause is torch's way of working (`w.grad.zero_()` while .grad is
still None, in linear regression from scratch).
They are tried only for errors NumPy or pandas raised (error_origin.py), and each fix is theirs:
`a = a + 0.5` for an ndarray, `mean(numeric_only=True)` for a DataFrame, never `.to(dtype)`.

An explainer gets, besides the match on the message, `params["operation"]` (the user's
operation that failed, an ast node, when found), `params["source"]` (the text it is in) and
`params["receiver"]` (the object a failing method was called on, when it is a plain name).
"""

from __future__ import annotations

import ast
import re

from tensorviz.core.explain.rules import Rule, rule_into, sentences
from tensorviz.core.translation import _

NUMPY_RULES: list[Rule] = []
PANDAS_RULES: list[Rule] = []
PYTHON_RULES: list[Rule] = []  # Python's own errors where torch's way of working is the cause
_numpy_rule = rule_into(NUMPY_RULES, "numpy")
_pandas_rule = rule_into(PANDAS_RULES, "pandas")
_python_rule = rule_into(PYTHON_RULES, "python")

_OPERATORS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.MatMult: "@",
}  # fmt: skip


def _text(params, node: ast.AST) -> str:
    return ast.get_source_segment(params.get("source", ""), node) or ""


def _out_of_place(params) -> tuple[str, str] | None:
    """(`a = a + 0.5`, "a") for the augmented assignment `a += 0.5` that failed; else None."""
    node = params.get("operation")
    if not isinstance(node, ast.AugAssign) or type(node.op) not in _OPERATORS:
        return None
    target, value = _text(params, node.target), _text(params, node.value)
    if not target or not value:
        return None
    return f"{target} = {target} {_OPERATORS[type(node.op)]} {value}", target


@_numpy_rule(
    r"Cannot cast ufunc '(?P<ufunc>\w+)' output from dtype\('(?P<result>\w+)'\) to "
    r"dtype\('(?P<target>\w+)'\)"
)
def explain_numpy_inplace_cast(match, op, tensors, params):
    result, target = match["result"], match["target"]
    title = _("NumPy does not write a {result} result in place into an array of {target}").format(
        result=result, target=target
    )
    why = _(
        "An in-place operation (a += 0.5, or out=a) writes its result into the array's own "
        "memory, which holds {target}; the result is {result}, and NumPy does not cut it down to "
        "{target} without being asked (casting rule 'same_kind')."
    ).format(result=result, target=target)
    rewritten = _out_of_place(params)
    if rewritten is not None:
        code, name = rewritten
        fix = _(
            "make a new array instead: {code} (its dtype is {result}); or convert first: "
            "{name} = {name}.astype(np.{result})"
        ).format(code=code, result=result, name=name)
    else:
        fix = _(
            "write the result into a new array (no out=), or convert the target first: "
            "a = a.astype(np.{result})"
        ).format(result=result)
    return "numpy_inplace_cast", title, why, fix


def _shape_list(text: str) -> list[int]:
    return [int(size) for size in re.findall(r"-?\d+", text)]


def _as_list(sizes: list[int]) -> str:
    return "[" + ", ".join(map(str, sizes)) + "]"


@_numpy_rule(
    r"operands could not be broadcast together with shapes \((?P<a>[^)]*)\) \((?P<b>[^)]*)\)"
)
def explain_numpy_broadcast(match, op, tensors, params):
    a, b = _shape_list(match["a"]), _shape_list(match["b"])
    clash = next(
        (
            offset
            for offset in range(1, min(len(a), len(b)) + 1)
            if a[-offset] != b[-offset] and 1 not in (a[-offset], b[-offset])
        ),
        None,
    )
    title = _("NumPy cannot broadcast {a} with {b}").format(a=_as_list(a), b=_as_list(b))
    rule = _(
        "NumPy lines the shapes up from the right, as torch does: each pair of sizes must be "
        "equal, or one of them 1 (that one is stretched)."
    )
    here = ""
    if clash is not None:
        here = _(
            "Here dimension {dim} from the right has {size_a} against {size_b}, and neither is 1."
        ).format(dim=clash, size_a=a[-clash], size_b=b[-clash])
    fix = _(
        "make those sizes agree, or give the array that should be stretched a size-1 dimension "
        "there (arr[:, None], arr.reshape(-1, 1))"
    )
    return "numpy_broadcast", title, sentences(rule, here), fix


@_pandas_rule(r"Cannot perform reduction '(?P<op>\w+)' with string dtype")
def explain_pandas_text_reduction(match, op, tensors, params):
    reduction = match["op"]
    title = _("pandas cannot take the {op} of a column of text").format(op=reduction)
    why = _(
        "{op}() of a DataFrame reduces every column, and a column of text (strings, such as a "
        "street's name) has no {op}, so pandas refuses instead of leaving the column out."
    ).format(op=reduction)
    node, receiver = params.get("operation"), params.get("receiver")
    is_frame = type(receiver).__name__ == "DataFrame"
    method = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    written = _text(params, node.func.value) if method else ""
    if is_frame and written:
        fix = _(
            "take it over the numeric columns only: {name}.{op}(numeric_only=True); or turn the "
            "text into numbers first, e.g. {name} = pd.get_dummies({name}, dummy_na=True)"
        ).format(name=written, op=reduction)
    else:
        fix = _(
            "leave the text columns out (df.{op}(numeric_only=True) on a DataFrame), or turn "
            "the text into numbers first (pd.get_dummies, pd.to_numeric)"
        ).format(op=reduction)
    return "pandas_text_reduction", title, why, fix


@_python_rule(r"'NoneType' object has no attribute '(?P<attribute>\w+)'")
def explain_grad_is_none(match, op, tensors, params):
    """`w.grad.zero_()` before any backward(): Python's AttributeError, torch's .grad of None."""
    node = params.get("operation")
    if not (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "grad"
    ):
        return None  # some other None: Python's message says it all
    tensor = _text(params, node.value.value)
    attribute = match["attribute"]
    title = _("{tensor}.grad is None: no backward() has filled it yet").format(tensor=tensor)
    why = _(
        "Python says None has no {attribute}: a tensor's .grad stays None until a backward() "
        "reaches it, and {tensor} has had none yet (or it does not require grad, or the "
        "optimizer's zero_grad() set it back to None)."
    ).format(attribute=attribute, tensor=tensor)
    fix = _(
        "call loss.backward() before using {tensor}.grad; to clear it at the top of a loop, "
        "set it to None instead: {tensor}.grad = None (what optimizer.zero_grad() does)"
    ).format(tensor=tensor)
    return "grad_is_none", title, why, fix


LIBRARY_RULES = (*NUMPY_RULES, *PANDAS_RULES, *PYTHON_RULES)
