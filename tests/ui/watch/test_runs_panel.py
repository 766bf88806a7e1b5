"""The Runs area follows a run folder: the heatmap's colours are the log of torch's own
gradient norms, a growing run shows its new steps, an ended run says how it ended, damage is
one sentence with the intact steps kept, a folder that is no run changes nothing, and a
diagnosis clicked selects its step and layer."""

from types import SimpleNamespace

import numpy as np
import torch
from conftest import TIMEOUT, follow

from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.example_run import deep_sigmoid_mlp, record_training
from tensorviz.core.watch.heatmap_bins import level_index
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file


def test_heatmap_colours_are_the_log_of_torchs_gradient_norms(panel, qtbot, recorded):
    folder, norms = recorded
    follow(panel, qtbot, folder, 30)
    heatmap = panel.heatmap
    assert heatmap.names == list(norms)
    expected = np.log10(np.array([norms[n] for n in heatmap.names]))  # rows × steps
    np.testing.assert_allclose(heatmap.levels, (expected.min(), expected.max()), rtol=1e-5)
    heatmap.image.render()
    picture = heatmap.image.qimage
    assert (picture.width(), picture.height()) == (30, len(norms))
    lut = heatmap.image.lut
    for row in range(len(norms)):
        for step in range(30):
            index = level_index(expected[row, step], heatmap.levels, len(lut))
            painted = picture.pixelColor(step, row)
            nearest = np.abs(lut[:, :3].astype(int) - painted.getRgb()[:3]).sum(axis=1).argmin()
            assert abs(int(nearest) - index) <= 1, (row, step)
    # the first layer's gradients vanish: its colour is far below the last layer's
    first, last = heatmap.names.index("0.weight"), heatmap.names.index("8.weight")
    assert expected[first].max() < expected[last].min()


def test_the_value_under_the_mouse_names_the_parameter_step_and_norm(panel, qtbot, recorded):
    folder, norms = recorded
    follow(panel, qtbot, folder, 30)
    name, first, last, value = panel.heatmap.value_at(5.2, 2.5)  # step 5, third row
    assert name == list(norms)[2] and first == last == 5
    assert value == np.float32(norms[name][4])
    assert name in panel.heatmap.describe((name, first, last, value))
    panel.heatmap.layer_selected.emit(name)
    assert panel.selected == [name] and panel.ratio_plot.names == [name]


def _writer(folder, model):
    folder.mkdir()
    write_run_file(folder, name=folder.name, world_size=1)
    writer = RankStreamWriter(folder, 0)
    params = [{"name": n, "shape": list(p.shape), "module": n.rsplit(".", 1)[0]}
              for n, p in model.named_parameters()]  # fmt: skip
    writer.write_schema({"schema": 0, "params": params, "modules": []})
    return writer


def _train_steps(writer, model, first, count):
    """Real SGD steps of `model`, each written as the recorder writes it."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(first, first + count):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 4)).pow(2).mean()
        loss.backward()
        grads = [p.grad for p in model.parameters()]
        grad_norm = torch.stack(torch._foreach_norm(grads)).numpy()
        writer.write_step({"step": step, "schema": 0, "loss": float(loss.detach())},
                          {"grad_norm": grad_norm})  # fmt: skip
        optimizer.step()


def test_a_growing_run_shows_its_new_steps_and_then_that_it_finished(panel, qtbot, tmp_path):
    model = deep_sigmoid_mlp(depth=3, width=4)
    writer = _writer(tmp_path / "live", model)
    _train_steps(writer, model, 1, 2)
    follow(panel, qtbot, tmp_path / "live", 2)
    assert panel.state.kind == "live" and "live" in panel.status.text()
    _train_steps(writer, model, 3, 5)
    qtbot.waitUntil(lambda: panel.current_rank().rows == 7, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: panel.heatmap.rank.grad_bins.steps == 7, timeout=TIMEOUT)
    writer.write_event("ended", status="finished", step=7)
    qtbot.waitUntil(lambda: panel.state is not None and panel.state.kind == "finished",
                    timeout=TIMEOUT)  # fmt: skip
    assert "finished · 7 steps" in panel.status.text()
    writer.close()


def test_a_run_that_raised_says_where_it_stopped(panel, qtbot, tmp_path):
    folder = tmp_path / "raised"
    record_training(folder, deep_sigmoid_mlp(depth=3, width=4), steps=20, raise_at=12)
    follow(panel, qtbot, folder, 11)
    qtbot.waitUntil(lambda: panel.state.kind == "error", timeout=TIMEOUT)
    text = panel.status.text()
    assert "stopped at step 11 with" in text and "the loss became NaN at step 12" in text


def test_a_damaged_folder_shows_its_sentence_and_the_intact_steps(panel, qtbot, recorded):
    folder, norms = recorded
    steps = folder / "rank0" / rf.STEPS_FILE
    data = bytearray(steps.read_bytes())
    data[len(data) // 30 * 4 + 30] ^= 0xFF  # inside the fifth frame
    steps.write_bytes(bytes(data))
    follow(panel, qtbot, folder, 29)
    assert 5 not in panel.current_rank().steps and 30 in panel.current_rank().steps
    qtbot.waitUntil(lambda: panel.problems.isVisible(), timeout=TIMEOUT)
    assert "damaged" in panel.problems.text() and "\n" not in panel.problems.text()


def test_a_folder_that_is_no_run_is_one_sentence_and_changes_nothing(panel, qtbot, recorded,
                                                                     tmp_path):  # fmt: skip
    folder, _norms = recorded
    follow(panel, qtbot, folder, 30)
    elsewhere = tmp_path / "holiday photos"
    elsewhere.mkdir()
    assert not panel.open_run(elsewhere)
    assert panel.folder == folder.resolve() and panel.current_rank().rows == 30
    assert panel.problems.isVisible() and "no run folder" in panel.problems.text()
    assert str(elsewhere) in panel.problems.text() and "\n" not in panel.problems.text()
    assert panel.follower.is_following()


def test_clicking_a_diagnosis_selects_its_step_and_layer(panel, qtbot, recorded):
    folder, norms = recorded
    follow(panel, qtbot, folder, 30)
    diagnosis = SimpleNamespace(
        kind="vanishing_gradients", step=20, row=19, names=["2.weight", "0.weight"],
        title="Vanishing gradients", detail="layers 0–2 from step 20", remedy="ReLU",
    )  # fmt: skip
    panel.run.diagnoses = [diagnosis]
    panel.redraw()
    assert panel.banner.isVisible() and len(panel.banner.links) == 1
    assert "Vanishing gradients" in panel.banner.links[0].text()
    panel.banner.links[0].linkActivated.emit("0")
    assert panel.selected == ["2.weight"]
    assert panel.heatmap.step_line.isVisible() and panel.heatmap.step_line.value() == 20
    row = panel.heatmap.names.index("2.weight")
    assert panel.heatmap.row_box.rect().top() == row
    x_range, y_range = panel.heatmap.plot.vb.viewRange()
    assert x_range[0] <= 20 <= x_range[1] and y_range[0] <= row <= y_range[1]


def test_comparing_overlays_a_second_runs_loss(panel, qtbot, recorded, tmp_path):
    folder, _norms = recorded
    other = tmp_path / "other"
    record_training(other, deep_sigmoid_mlp(depth=3, width=4), steps=12)
    follow(panel, qtbot, folder, 30)
    assert panel.compare_with(other)

    def compared_points():
        x, _y = panel.loss_plot.compare_curve.getOriginalDataset()
        return 0 if x is None else len(x)

    qtbot.waitUntil(lambda: compared_points() == 12, timeout=TIMEOUT)
    assert "other" in panel.loss_plot.box.title.text()
    panel.clear_comparison()
    assert compared_points() == 0


def test_step_controls_go_into_the_toolbar(panel):
    from PySide6.QtWidgets import QPushButton

    first, second = QPushButton("a"), QPushButton("b")
    panel.set_step_controls(first)
    panel.set_step_controls(second)
    assert panel.step_controls.count() == 1 and panel.step_controls.itemAt(0).widget() is second


def test_the_runs_own_diagnoses_show_and_jump_to_their_layer(panel, qtbot, recorded):
    folder, norms = recorded
    follow(panel, qtbot, folder, 30)
    qtbot.waitUntil(lambda: bool(panel.banner.links), timeout=TIMEOUT)
    kinds = [d.kind for d in panel.banner.diagnoses]
    assert "vanishing_gradients" in kinds
    index = kinds.index("vanishing_gradients")
    diagnosis = panel.banner.diagnoses[index]
    panel.banner.choose(index)
    assert panel.selected[0] in diagnosis.names
    assert panel.heatmap.step_line.value() == diagnosis.row + 1
    assert panel.banner.chosen.isVisible() and diagnosis.remedy in panel.banner.chosen.text()


def test_ranks_are_chosen_side_by_side_in_the_loss(panel, qtbot, tmp_path):
    folder = tmp_path / "ddp"
    folder.mkdir()
    write_run_file(folder, name="ddp", world_size=2)
    models = [deep_sigmoid_mlp(depth=3, width=4, seed=rank) for rank in range(2)]
    for rank, model in enumerate(models):
        writer = RankStreamWriter(folder, rank)
        params = [{"name": n} for n, _ in model.named_parameters()]
        writer.write_schema({"schema": 0, "params": params, "modules": []})
        _train_steps(writer, model, 1, 3 + rank)
        writer.write_event("ended", status="finished", step=3 + rank)
        writer.close()
    assert panel.open_run(folder)
    qtbot.waitUntil(lambda: len(panel.run.ranks) == 2 and panel.run.ranks[1].rows == 4,
                    timeout=TIMEOUT)  # fmt: skip
    panel.redraw()
    assert panel.rank_choice.isVisible() and panel.rank_choice.count() == 2
    assert set(panel.loss_plot.curves) == {0, 1}
    panel.rank_choice.setCurrentIndex(1)
    assert panel.rank == 1 and panel.heatmap.rank is panel.run.ranks[1]
    assert panel.heatmap.rank.grad_bins.steps == 4 and "2 ranks" in panel.status.text()
