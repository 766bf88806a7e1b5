"""Index expressions are parsed without eval, and the keys they produce index exactly as torch does.

The oracle is torch itself: these tests eval their own constant strings (never user input) and
compare values, shapes, strides and storage sharing with indexing by the parsed key.
"""

import builtins
import math

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tensorviz.core.tensors.index_expressions import (
    MAX_INDEX_LENGTH,
    IndexSyntaxError,
    ParsedIndex,
    parse_index,
)

X = torch.arange(24).reshape(2, 3, 4)
F = torch.linspace(-3.0, 3.0, 24).reshape(2, 3, 4)
M = X % 3 == 0
TENSORS = {"x": X, "f": F, "m": M}


def shares_storage(result: torch.Tensor, base: torch.Tensor) -> bool:
    return result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()


def assert_same_indexing(actual: torch.Tensor, expected: torch.Tensor, base: torch.Tensor):
    assert actual.shape == expected.shape
    assert actual.dtype == expected.dtype
    assert torch.equal(actual, expected)
    assert actual.stride() == expected.stride()
    assert shares_storage(actual, base) == shares_storage(expected, base)


BASIC = [
    "x[0, 1]",
    "x[:, 0:112]",
    "x[..., 0]",
    "x[::2, 1:]",
    "x[None, :, 0]",
    "x[-1]",
    "x[+1]",
    "x[- -1]",
    "x[0, 0, 0]",
    "x[()]",
    "x[:]",
    "x[0:0]",
    "x[None]",
    "x[..., None]",
    "x[1:, ..., ::3]",
    "x[-2:, -1]",
    "x[:, -100:100:2]",
    "f[1, ::2]",
    "f[..., 1:3]",
]
ADVANCED = [
    "x[x > 0]",
    "x[(x > 2) & (x < 10)]",
    "x[(x < 2) | (x >= 20)]",
    "x[~(x == 5)]",
    "x[x != 3]",
    "x[3 <= x]",
    "x[x % 2 == 0]",
    "x[x // 3 == 1]",
    "x[x / 2 > 3.5]",
    "x[x ** 2 > 10]",
    "x[x * 2 - 1 >= 7]",
    "x[-x < -20]",
    "x[f > 0]",
    "x[m]",
    "x[m & (x > 10)]",
    "f[f > 0]",
    "f[(f > -1.5) & (f < 0.5)]",
    "f[f * 2 - 1 >= 0.25]",
    "f[f <= -2.5e0]",
    "f[x % 2 == 0]",
    "x[[1, 0]]",
    "x[:, [0, 2]]",
    "x[[0, -1]]",
    "x[[1]]",
    "x[[]]",
    "x[[0, 1], 1]",
    "x[1, [0, 2], [3, 1]]",
    "x[[[0, 1], [1, 0]], 0]",
    "x[..., [3, 3, 0]]",
    "x[None, [1, 0]]",
    "x[[True, False]]",
    "x[0, [True, False, True]]",
    "x[True]",
    "x[False]",
    "x[None, True]",
    "x[0, True]",
]


@pytest.mark.parametrize("expression", BASIC + ADVANCED)
def test_key_indexes_exactly_like_python(expression):
    name = expression.split("[", 1)[0]
    base = TENSORS[name]
    expected = eval(expression, {}, dict(TENSORS))  # the test's own constant string: the oracle
    parsed = parse_index(expression, name, TENSORS)
    actual = base[parsed.key()]
    assert_same_indexing(actual, expected, base)
    # makes_copy is decided from the key's kinds; torch must agree.
    assert parsed.makes_copy == (not shares_storage(actual, base))
    assert parsed.makes_copy == (expression in ADVANCED)


@pytest.mark.parametrize(
    "chain, explicit",
    [
        ("0 < x < 5", "(0 < x) & (x < 5)"),
        ("-1 <= f < 1 != f", "(-1 <= f) & (f < 1) & (1 != f)"),
        ("0 < 1 < x", "x > 1"),
    ],
)
def test_comparison_chains_mean_and(chain, explicit):
    # Python itself would call bool() on a tensor here; we give the chain its written meaning.
    base = TENSORS["x"]
    expected = base[eval(explicit, {}, dict(TENSORS))]
    parsed = parse_index(chain, "x", TENSORS)
    assert_same_indexing(base[parsed.key()], expected, base)
    assert parsed.makes_copy


def test_nested_list_becomes_one_long_tensor():
    # torch 2.13 still reads a lone nested list as a tuple (deprecated, with a warning); we use
    # the meaning torch announced, which is x[torch.tensor(nested)].
    parsed = parse_index("x[[[0, 1], [1, 0]]]", "x", TENSORS)
    assert isinstance(parsed.key(), torch.Tensor) and parsed.key().dtype == torch.long
    expected = X[torch.tensor([[0, 1], [1, 0]])]
    assert_same_indexing(X[parsed.key()], expected, X)
    assert parsed.makes_copy and parsed.text == "[[0, 1], [1, 0]]"


@pytest.mark.parametrize("written", ["[0, 1]", "[True, False]"])
def test_a_bracketed_list_means_what_it_means_in_python(written):
    parsed = parse_index(written, "x", TENSORS)
    python_key = eval(written)  # noqa: S307 — a literal list, as the test itself wrote it
    assert parsed.key() == python_key and parsed.makes_copy
    assert X[parsed.key()].shape == X[python_key].shape
    assert parsed.text == repr(python_key)


def test_flat_list_stays_a_list():
    parsed = parse_index("x[[0, -1]]", "x", TENSORS)
    assert parsed.key() == [0, -1]


@pytest.mark.parametrize(
    "written",
    ["x[0, 1:3, ..., None]", "0, 1:3, ..., None", "[0, 1:3, ..., None]", " x [ 0 ,1:3,...,None ] "],
)
def test_whole_expression_bare_and_bracketed_contents_agree(written):
    parsed = parse_index(written, "x", TENSORS)
    assert parsed.key() == parsed.meta_key == (0, slice(1, 3, None), Ellipsis, None)
    assert (parsed.text, parsed.makes_copy, parsed.mask_bytes) == ("0, 1:3, ..., None", False, 0)


@pytest.mark.parametrize(
    "written, text",
    [
        ("x[(x > 2)&(x<10)]", "(x > 2) & (x < 10)"),
        ("x[[0,2]]", "[0, 2]"),
        ("[[0,2]]", "[[0, 2]]"),  # a list of lists, as x[[[0, 2]]] in Python
        ("[0], [1]", "[0], [1]"),
        ("x[::2,1:]", "::2, 1:"),
        ("x[-1]", "-1"),
        ("()", "()"),
    ],
)
def test_text_is_normalised_contents(written, text):
    assert parse_index(written, "x", TENSORS).text == text


def test_bounds_are_left_to_torch():
    parsed = parse_index("x[5, 0:99]", "x", TENSORS)
    with pytest.raises(IndexError):
        X[parsed.key()]


REJECTED = [
    "__import__('os').system('x')",
    "x.__class__",
    "(lambda: 1)()",
    "y[0]",
    "0.5",
    "'a'",
    "[i for i in range(3)]",
    "1:2:0",
    "x[0][1]",
    "open('f')",
    "x.T[0]",
    "x[m[0]]",
    "x[len(x)]",
    "x[{0: 1}]",
    "x[{0}]",
    "x[(0, 1), 2]",
    "x[*m]",
    "x[(n := 1)]",
    "x[0 if x else 1]",
    "x[z > 0]",
    "x[x]",
    "x[-x]",
    "x[1 + 1]",
    "x[1 < 2]",
    "x[x > 0 and x < 5]",
    "x[not x > 0]",
    "x[x > 2 & x < 10]",
    "x[x in [1]]",
    "x[x is None]",
    "x[x > 'a']",
    "x[x > 1j]",
    "x[x ** -1 > 0]",
    "x[x // 0 == 1]",
    "x[x > 2 ** 999]",
    "x[x > 10 ** 30]",
    "x[[0, True]]",
    "x[[[0], [1, 2]]]",
    "x[b'a']",
    "x[f'{x}']",
    "x[0,,1]",
    "x[0",
    "",
    "   ",
    "\x00",
    "\ud800",
    "x[" + "~" * 100 + "m]",
    "0" * (MAX_INDEX_LENGTH + 1),
]


@pytest.mark.parametrize("text", REJECTED)
def test_unsupported_input_is_refused_with_index_syntax_error(text):
    # torch refuses some arithmetic only on real values (x // 0), so only when the key is computed
    with pytest.raises(IndexSyntaxError) as refused:
        parse_index(text, "x", TENSORS).key()
    message = str(refused.value)
    assert message and "\n" not in message and "Traceback" not in message


@pytest.mark.parametrize(
    "text, words",
    [
        ("open('f')", ["'open('f')'", "not allowed", "x > 0"]),
        ("x.__class__", ["'x.__class__'"]),
        ("y[0]", ["'y'", "'x'"]),
        ("1:2:0", ["slice step cannot be zero"]),
        ("0.5", ["integers", "got 0.5"]),
        ("x[-1.5]", ["got -1.5"]),
        ("x[0", ["not a valid index"]),
        ("x[x > 2 & x < 10]", ["parentheses"]),
        ("x[x > 0 and x < 5]", ["&"]),
        ("x[z > 0]", ["'z'"]),
        ("0" * (MAX_INDEX_LENGTH + 1), ["too long"]),
    ],
)
def test_refusals_name_the_offending_piece(text, words):
    with pytest.raises(IndexSyntaxError) as refused:
        parse_index(text, "x", TENSORS)
    for word in words:
        assert word.lower() in str(refused.value).lower()


def test_index_syntax_error_is_a_value_error():
    assert issubclass(IndexSyntaxError, ValueError)


def test_parsing_never_evaluates_source(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("eval/exec must not be used")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    assert parse_index("x[(x > 2) & (x < 10), [0, 1]]", "x", TENSORS).makes_copy
    with pytest.raises(IndexSyntaxError):
        parse_index("__import__('os').system('true')", "x", TENSORS)


def test_mask_on_a_tensor_that_requires_grad_builds_no_graph():
    weights = torch.linspace(-1, 1, 6, requires_grad=True)
    parsed = parse_index("w[w * 2 > 0]", "w", {"w": weights})
    assert parsed.key().grad_fn is None and parsed.key().dtype == torch.bool


@st.composite
def basic_indexing(draw):
    """A random tensor up to 4-d and a random basic index for it, with its written form."""
    shape = draw(st.lists(st.integers(0, 5), max_size=4))
    base = torch.arange(math.prod(shape)).reshape(shape)
    items, written = [], []

    def index_dimension(size):
        if draw(st.booleans()):
            items.append(None)
            written.append("None")
        if size > 0 and draw(st.booleans()):
            index = draw(st.integers(-size, size - 1))
            items.append(index)
            written.append(str(index))
            return
        bound = st.none() | st.integers(-size - 2, size + 2)
        start, stop, step = draw(bound), draw(bound), draw(st.none() | st.integers(1, 4))
        items.append(slice(start, stop, step))
        parts = ["" if part is None else str(part) for part in (start, stop, step)]
        written.append(":".join(parts if step is not None else parts[:2]))

    # Leading dimensions are indexed; an optional ... stands for a middle run; after it, every
    # trailing dimension must be indexed, or the items would line up with the wrong ones.
    leading = draw(st.integers(0, len(shape)))
    use_ellipsis = draw(st.booleans())
    trailing_from = draw(st.integers(leading, len(shape))) if use_ellipsis else len(shape)
    for size in shape[:leading]:
        index_dimension(size)
    if use_ellipsis:
        items.append(Ellipsis)
        written.append("...")
    for size in shape[trailing_from:]:
        index_dimension(size)
    if draw(st.booleans()):
        items.append(None)
        written.append("None")
    return base, tuple(items), ", ".join(written)


@settings(max_examples=300, deadline=None)
@given(basic_indexing(), st.booleans())
def test_random_basic_indices_match_torch_and_are_views(case, whole_expression):
    base, key, contents = case
    contents = contents or "()"
    text = f"t[{contents}]" if whole_expression else contents
    parsed = parse_index(text, "t", {"t": base})
    expected = base[key]
    actual = base[parsed.key()]
    assert_same_indexing(actual, expected, base)
    assert not parsed.makes_copy
    assert actual._is_view() and shares_storage(actual, base)


COMPARISON_OPS = ["<", "<=", ">", ">=", "==", "!="]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(COMPARISON_OPS),
    st.sampled_from(["x", "x % 3", "x * 2 - 1", "f", "f * f", "-f", "x // 4"]),
    st.integers(-5, 30) | st.floats(-5, 30, allow_nan=False).map(lambda v: round(v, 2)),
    st.sampled_from(["&", "|"]),
    st.sampled_from(COMPARISON_OPS),
    st.integers(-5, 30),
    st.booleans(),
)
def test_random_masks_match_torch(left_op, value, number, join, right_op, other, negate):
    written = f"({value} {left_op} {number}) {join} ({other} {right_op} x)"
    written = f"~({written})" if negate else written
    expected = X[eval(written, {}, dict(TENSORS))]  # the test's own generated string: the oracle
    parsed = parse_index(f"x[{written}]", "x", TENSORS)
    assert_same_indexing(X[parsed.key()], expected, X)
    assert parsed.makes_copy


INDEX_ALPHABET = "xfmy[](){}:,.;-+*/%<>=!&|~^@ 0123456789eNTFruon'\"_\n\t#"


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80) | st.text(alphabet=INDEX_ALPHABET, max_size=40))
def test_any_text_gives_a_parsed_index_or_index_syntax_error(text):
    try:
        parsed = parse_index(text, "x", TENSORS)
    except IndexSyntaxError as refused:
        assert str(refused)
        return
    assert isinstance(parsed, ParsedIndex) and isinstance(parsed.text, str)
