"""The one-line explanation of every Workbench operation, shown above its parameters.

One place per message, keyed by the operation's name; each is marked N_ for the catalogue and
translated where it is shown (OpSpec.doc). A test holds every operation in operation_specs to a
line here.
"""

from __future__ import annotations

from tensorviz.core.translation import N_

OPERATION_DOCS: dict[str, str] = {
    # --- shape and views
    "view": N_("Same storage, new shape; needs a compatible (contiguous) layout."),
    "reshape": N_("A view when the layout allows, otherwise a copy."),
    "flatten": N_("Merges dims start_dim..end_dim into one: a view when they are contiguous."),
    "squeeze": N_("Removes dims of size 1 (all of them, or only dim): a view."),
    "unsqueeze": N_("Inserts a dim of size 1 at dim: a view, e.g. [3] → [1, 3] with dim=0."),
    "transpose": N_("Swaps two dims by swapping their strides: a non-contiguous view."),
    "permute": N_("Reorders all dims by reordering their strides: a view, e.g. (2, 0, 1)."),
    "t": N_("Transpose of a ≤2-D tensor."),
    "T": N_("Reverses all dims (x.mT or x.permute for ≥3-D is clearer)."),
    "contiguous": N_("Returns x itself when already contiguous, else a row-major copy."),
    "expand": N_("Stretches size-1 dims with stride 0: no memory is copied."),
    "broadcast_to": N_("expand by the broadcasting rule: a view, stride 0 where it stretches."),
    "repeat": N_("Tiles the data: a real copy (compare expand)."),
    "clone": N_("A copy with its own storage: writes to it never reach x."),
    "detach": N_("Shares storage but leaves the autograd graph."),
    "narrow": N_("length elements of dim from start on: a view, like x[:, start:start+length]."),
    # --- indexing
    "index": N_("Basic indexing (ints, slices, ..., None) gives a view; masks and lists copy."),
    "index_select": N_("Picks whole slices of dim by their indices: a copy, in the order given."),
    "gather": N_(
        "out[i][j] = x[index[i][j]][j] for dim=0 (x[i][index[i][j]] for dim=1): "
        "index picks one element per output position; out has index's shape."
    ),
    "scatter": N_(
        "A copy of x where out[index[i][j]][j] = value for dim=0 "
        "(out[i][index[i][j]] for dim=1): index says where each value is written."
    ),
    "one_hot": N_("One-hot labels: x must hold int64 class indices."),
    # --- join and split
    "cat": N_("Joins along an existing dim."),
    "stack": N_("Joins along a NEW dim."),
    "split": N_(
        "Pieces of split_size along dim (the last may be shorter), or the sizes listed: views."
    ),
    "chunk": N_("n roughly equal parts; the last may be smaller (or fewer parts)."),
    "unbind": N_("Removes dim and returns each slice along it: views."),
    # --- arithmetic
    "add": N_("Element-wise sum; shapes broadcast, dtypes promote."),
    "sub": N_("Element-wise difference; shapes broadcast, dtypes promote."),
    "mul": N_("Element-wise; @ is the matrix product."),
    "div": N_("Element-wise true division: integers give a float result."),
    "pow": N_("Element-wise power x ** other."),
    "relu": N_("max(x, 0) element-wise: negatives become 0."),
    "sigmoid": N_("1 / (1 + e^-x) element-wise: squashes into (0, 1)."),
    "tanh": N_("Hyperbolic tangent element-wise: squashes into (-1, 1)."),
    # --- matrix
    "matmul": N_("(…, M, K) @ (…, K, N) → (…, M, N), batch dims broadcast."),
    "mm": N_("2-D only: (M, K) @ (K, N)."),
    "bmm": N_("3-D only: (B, M, K) @ (B, K, N)."),
    # --- reductions
    "sum": N_("dim=0 collapses the rows."),
    "mean": N_("Needs a floating dtype."),
    "max": N_("With dim: (values, indices)."),
    "min": N_("With dim: (values, indices)."),
    "argmax": N_("The index of the largest element (along dim): an int64 tensor."),
    "std": N_("Standard deviation (Bessel-corrected, n − 1); needs a floating dtype."),
    # --- dtype and device
    "float": N_("A float32 copy (x itself when already float32)."),
    "long": N_("An int64 copy (x itself when already int64); floats are truncated toward 0."),
    "to_dtype": N_("Returns x itself when the dtype already matches."),
    "to_device": N_("A copy on another device (x itself when already there)."),
    # --- in place
    "add_": N_("Adds into x's own storage: every view of x sees the change."),
    "mul_": N_("Multiplies x's own storage in place: every view of x sees the change."),
    "zero_": N_("Fills x's storage with zeros in place."),
    "fill_": N_("Fills x's storage with one value in place."),
    "index_assign": N_("Writes through the index into x's storage (and every view of it)."),
    "scatter_": N_(
        "Writes value into x in place where index points: x[index[i][j]][j] = value for dim=0."
    ),
}
