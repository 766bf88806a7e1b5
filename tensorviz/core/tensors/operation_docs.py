"""The one-line explanation of every Workbench operation, shown above its parameters.

One place per message, keyed by the operation's name, so a translation (issue 18) replaces
this table and nothing else; a test holds every operation in operation_specs to a line here.
"""

from __future__ import annotations

OPERATION_DOCS: dict[str, str] = {
    # --- shape and views
    "view": "Same storage, new shape; needs a compatible (contiguous) layout.",
    "reshape": "A view when the layout allows, otherwise a copy.",
    "flatten": "Merges dims start_dim..end_dim into one: a view when they are contiguous.",
    "squeeze": "Removes dims of size 1 (all of them, or only dim): a view.",
    "unsqueeze": "Inserts a dim of size 1 at dim: a view, e.g. [3] → [1, 3] with dim=0.",
    "transpose": "Swaps two dims by swapping their strides: a non-contiguous view.",
    "permute": "Reorders all dims by reordering their strides: a view, e.g. (2, 0, 1).",
    "t": "Transpose of a ≤2-D tensor.",
    "T": "Reverses all dims (x.mT or x.permute for ≥3-D is clearer).",
    "contiguous": "Returns x itself when already contiguous, else a row-major copy.",
    "expand": "Stretches size-1 dims with stride 0: no memory is copied.",
    "broadcast_to": "expand by the broadcasting rule: a view, stride 0 where it stretches.",
    "repeat": "Tiles the data: a real copy (compare expand).",
    "clone": "A copy with its own storage: writes to it never reach x.",
    "detach": "Shares storage but leaves the autograd graph.",
    "narrow": "length elements of dim from start on: a view, like x[:, start:start+length].",
    # --- indexing
    "index": "Basic indexing (ints, slices, ..., None) gives a view; masks and lists copy.",
    "index_select": "Picks whole slices of dim by their indices: a copy, in the order given.",
    "gather": "out[i][j] = x[index[i][j]][j] for dim=0 (x[i][index[i][j]] for dim=1): "
    "index picks one element per output position; out has index's shape.",
    "scatter": "A copy of x where out[index[i][j]][j] = value for dim=0 "
    "(out[i][index[i][j]] for dim=1): index says where each value is written.",
    "one_hot": "One-hot labels: x must hold int64 class indices.",
    # --- join and split
    "cat": "Joins along an existing dim.",
    "stack": "Joins along a NEW dim.",
    "split": "Pieces of split_size along dim (the last may be shorter), or the sizes listed: "
    "views.",
    "chunk": "n roughly equal parts; the last may be smaller (or fewer parts).",
    "unbind": "Removes dim and returns each slice along it: views.",
    # --- arithmetic
    "add": "Element-wise sum; shapes broadcast, dtypes promote.",
    "sub": "Element-wise difference; shapes broadcast, dtypes promote.",
    "mul": "Element-wise; @ is the matrix product.",
    "div": "Element-wise true division: integers give a float result.",
    "pow": "Element-wise power x ** other.",
    "relu": "max(x, 0) element-wise: negatives become 0.",
    "sigmoid": "1 / (1 + e^-x) element-wise: squashes into (0, 1).",
    "tanh": "Hyperbolic tangent element-wise: squashes into (-1, 1).",
    # --- matrix
    "matmul": "(…, M, K) @ (…, K, N) → (…, M, N), batch dims broadcast.",
    "mm": "2-D only: (M, K) @ (K, N).",
    "bmm": "3-D only: (B, M, K) @ (B, K, N).",
    # --- reductions
    "sum": "dim=0 collapses the rows.",
    "mean": "Needs a floating dtype.",
    "max": "With dim: (values, indices).",
    "min": "With dim: (values, indices).",
    "argmax": "The index of the largest element (along dim): an int64 tensor.",
    "std": "Standard deviation (Bessel-corrected, n − 1); needs a floating dtype.",
    # --- dtype and device
    "float": "A float32 copy (x itself when already float32).",
    "long": "An int64 copy (x itself when already int64); floats are truncated toward 0.",
    "to_dtype": "Returns x itself when the dtype already matches.",
    "to_device": "A copy on another device (x itself when already there).",
    # --- in place
    "add_": "Adds into x's own storage: every view of x sees the change.",
    "mul_": "Multiplies x's own storage in place: every view of x sees the change.",
    "zero_": "Fills x's storage with zeros in place.",
    "fill_": "Fills x's storage with one value in place.",
    "index_assign": "Writes through the index into x's storage (and every view of it).",
    "scatter_": "Writes value into x in place where index points: x[index[i][j]][j] = value "
    "for dim=0.",
}
