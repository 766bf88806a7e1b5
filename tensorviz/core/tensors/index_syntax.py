"""Reading the text of an index (`x[0, 1:3]`, `[0, 2]`, `x > 0`) into one Python expression node:
which brackets are the subscript's, refusing absurd length or nesting, and the one-sentence
messages every refusal of an index uses. Nothing is evaluated here."""

from __future__ import annotations

import ast
import warnings

from tensorviz.core.translation import _

MAX_INDEX_LENGTH = 500
# Deep nesting only comes from pasted junk; the limit keeps our recursive walk far from Python's.
_MAX_NESTING = 40
PLACEHOLDER = "_"


class IndexSyntaxError(ValueError):
    """One clear sentence for the learner, e.g. "'foo(1)' is not allowed in an index: use ..."."""


def parse_expression(source: str) -> ast.expr | str:
    """The parsed expression, or the parser's reason for refusing it."""
    try:
        # Odd input such as "1if" makes the parser warn on stderr; the learner sees our message.
        with warnings.catch_warnings(action="ignore", category=SyntaxWarning):
            return ast.parse(source, mode="eval").body
    except SyntaxError as error:
        return error.msg
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        # Null bytes, lone surrogates and absurd nesting surface as these, not SyntaxError.
        return str(error) or type(error).__name__


def bracket_contents(text: str, target_name: str) -> tuple[ast.expr, str]:
    """The index node and the source its positions refer to."""
    if not text:
        raise IndexSyntaxError(
            _("The index is empty: type something like {name}[0].").format(name=target_name)
        )
    whole = parse_expression(text)
    if isinstance(whole, ast.Subscript):
        indexed = whole.value
        if isinstance(indexed, ast.Name):
            if indexed.id != target_name:
                raise IndexSyntaxError(
                    _(
                        "'{text}' indexes '{other}', but this index is for '{name}': write "
                        "{name}[...]."
                    ).format(text=shorten(text), other=indexed.id, name=target_name)
                )
            return whole.slice, text
        if isinstance(indexed, ast.Subscript):
            raise IndexSyntaxError(
                _(
                    "'{text}' indexes twice: put every index in one pair of brackets, like "
                    "{name}[0, 1]."
                ).format(text=shorten(text), name=target_name)
            )
        raise not_allowed(ast.get_source_segment(text, indexed) or text, target_name)
    # Bare contents, read as Python reads what is between x[ and ]: "[0, 1]" is the list [0, 1]
    # (x[[0, 1]], advanced indexing), as in torch. Only when that is not valid ("[:, 0]") are
    # outer brackets taken for the subscript's own. Re-wrapping in a subscript lets the parser
    # accept slices; the result counts only when the whole source is one subscript of the
    # placeholder, which rules out brackets that close early ("0], [1" is not one pair).
    stripped = [text[1:-1]] if text.startswith("[") and text.endswith("]") else []
    reason = _("invalid syntax")
    for contents in [text, *stripped]:
        source = f"{PLACEHOLDER}[{contents}]"
        parsed = parse_expression(source)
        if isinstance(parsed, str):
            reason = parsed
        elif isinstance(parsed, ast.Subscript) and isinstance(parsed.value, ast.Name):
            return parsed.slice, source
        else:
            reason = _("the brackets do not pair up")
    raise IndexSyntaxError(
        _("'{text}' is not a valid index: {reason}").format(
            text=shorten(text), reason=sentence(reason)
        )
    )


def refuse_deep_nesting(root: ast.expr, text: str) -> None:
    pending = [(root, 1)]
    while pending:
        node, depth = pending.pop()
        if depth > _MAX_NESTING:
            raise IndexSyntaxError(
                _("'{text}' is nested too deeply to be an index.").format(text=shorten(text))
            )
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def sentence(reason: str) -> str:
    """First line of a reason from Python or torch, ending like a sentence."""
    line = reason.strip().splitlines()[0] if reason.strip() else _("unknown reason")
    return line if line.endswith((".", "?", "!", "。")) else line + "."


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def not_allowed(piece: str, target_name: str) -> IndexSyntaxError:
    return IndexSyntaxError(
        _(
            "'{piece}' is not allowed in an index: use integers, slices (a:b:c), ..., None, "
            "lists of integers or a comparison like {name} > 0."
        ).format(piece=shorten(piece), name=target_name)
    )
