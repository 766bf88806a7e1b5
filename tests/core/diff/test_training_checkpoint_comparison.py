"""Two nanoGPT checkpoints of one run compared: the weights are listed before the optimizer's
moments, and each moment is named by its parameter as torch numbers them."""

import sys
from pathlib import Path

from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.report import comparison_json, pair_name, report_lines
from tensorviz.core.diff.sides import side_of_file

sys.path.insert(0, str(Path(__file__).parents[2]))
import training_checkpoints as checkpoints  # noqa: E402


def test_weights_sort_before_moments_named_by_parameter(tmp_path):
    checkpoints.nanogpt(tmp_path / "iter2.pt", iters=2)
    model, optimizer = checkpoints.nanogpt(tmp_path / "iter3.pt", iters=3)
    truth = checkpoints.parameter_names(model, optimizer)
    comparison = compare_sides(side_of_file(tmp_path / "iter2.pt"),
                               side_of_file(tmp_path / "iter3.pt"))  # fmt: skip
    rows = [line for line in report_lines(comparison) if line.startswith(("~ ", "= "))]
    moments = [i for i, line in enumerate(rows) if line[2:].startswith("optimizer.state.")]
    weights = [i for i, line in enumerate(rows) if line[2:].startswith("model.")]
    assert len(moments) == 3 * 40 and len(weights) == 41
    assert max(weights) < min(moments)  # even though the moments changed far more
    by_key = {pair.key: pair for pair in comparison.pairs}
    for index, name in truth.items():
        pair = by_key[f"optimizer.state.{index}.exp_avg_sq"]
        assert pair_name(pair) == f"optimizer.state.{index}.exp_avg_sq (of {name})"
    rows_json = {row["key"]: row for row in comparison_json(comparison)["tensors"]}
    assert rows_json["optimizer.state.13.exp_avg"]["a"]["parameter"] == truth[13]
    assert rows_json["model.transformer.wte.weight"]["a"]["parameter"] is None
