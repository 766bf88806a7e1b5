"""The Workbench as a user drives it: forms → core → the identity card, errors and values."""

import pytest
import torch

from tensorviz.ui.workbench.action_forms import select_data


@pytest.fixture
def panel(open_panel):
    return open_panel()


def apply(panel, op, input_name, **params):
    form = panel.operate_form
    select_data(form.kind, op)
    form.set_input(input_name)
    form.params.set_values(params)
    form.button.click()


def create(panel, kind, name="", **params):
    form = panel.create_form
    select_data(form.kind, kind)
    form.params.set_values(params)
    form.result_name.setText(name)
    form.button.click()


def test_opens_on_the_default_workspace(panel):
    assert panel.workspace.names() == ["x", "x_t"]
    assert panel.selected == "x_t"
    assert panel.identity.verdict.text() == "view of x — shares storage"
    x = panel.workspace.tensor("x")
    assert panel.identity.value_labels["stride"].text() == str(x.transpose(0, 1).stride())


def test_apply_view_shows_identity_from_torch(panel):
    apply(panel, "view", "x", shape="6, 4")
    assert panel.selected == "x_view"
    direct = panel.workspace.tensor("x").view(6, 4)
    labels = panel.identity.value_labels
    assert labels["stride"].text() == str(direct.stride())
    assert labels["is_contiguous"].text() == str(direct.is_contiguous())
    assert labels["storage bytes"].text() == f"{direct.untyped_storage().nbytes():,}"
    assert panel.identity.verdict.text().startswith("view of x")
    assert panel.list_model.rowCount() == 3


def test_view_on_transpose_shows_torchs_error_and_changes_nothing(panel):
    names = panel.workspace.names()
    apply(panel, "view", "x_t", shape="-1")
    assert not panel.error_panel.isHidden()
    try:
        panel.workspace.tensor("x_t").view(-1)
    except RuntimeError as error:
        assert str(error) in panel.error_panel.explained.torch_message
    assert panel.workspace.names() == names
    apply(panel, "reshape", "x_t", shape="-1")  # the suggested fix works, as a copy
    assert panel.error_panel.isHidden()
    assert panel.identity.verdict.text() == "new storage — copy"


def test_create_from_literal_shows_inferred_dtype(panel):
    create(panel, "tensor", name="labels", data="[1, 2, 3]")
    assert panel.selected == "labels"
    assert panel.identity.value_labels["dtype"].text() == "int64"
    assert "int64" in panel.identity.notes.text()


def test_bad_parameter_is_explained_without_torch(panel):
    names = panel.workspace.names()
    create(panel, "zeros", shape="2, two")
    assert panel.error_panel.explained.kind == "bad_parameter"
    assert panel.workspace.names() == names


def test_in_place_write_refreshes_views_and_undo_restores(panel, qtbot):
    before = panel.workspace.tensor("x").clone()
    apply(panel, "zero_", "x_t")
    assert torch.count_nonzero(panel.workspace.tensor("x")) == 0
    assert panel.identity.verdict.text().startswith("in place")
    assert panel.values.model.index(0, 1).data() == "0"  # the table shows the new values
    panel.undo()
    assert torch.equal(panel.workspace.tensor("x"), before)
    assert panel.values.model.index(0, 1).data() != "0"


def test_split_adds_every_part_and_links_back_to_the_input(panel):
    apply(panel, "split", "x", split_size="[1, 2]", dim="1")
    parts = [n for n in panel.workspace.names() if n.startswith("x_split")]
    assert len(parts) == 2
    assert "x" in panel.identity.origin.text()
    panel.identity.tensor_link_activated.emit("x")
    assert panel.selected == "x"


def test_rename_duplicate_delete_and_undo(panel, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    panel.select("x")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("base", True))
    panel.rename_selected()
    assert panel.workspace.names() == ["base", "x_t"] and panel.selected == "base"
    panel.duplicate_selected()
    assert panel.selected == "base_copy"
    assert panel.workspace.sharing("base_copy") == ["base_copy"]
    panel.delete_selected()
    assert "base_copy" not in panel.workspace
    panel.undo()
    assert "base_copy" in panel.workspace


def test_invalid_rename_is_explained(panel, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    panel.select("x")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("x_t", True))
    panel.rename_selected()
    assert "already exists" in panel.error_panel.explained.explanation
    assert panel.workspace.names() == ["x", "x_t"]


def test_numpy_write_crosses_over_only_when_shared(panel):
    create(
        panel,
        "from NumPy",
        name="a",
        shape="2, 2",
        fill="arange",
        mode="from_numpy (shares memory)",
    )
    assert not panel.identity.numpy_box.isHidden()
    panel.identity.numpy_index.setText("0, 0")
    panel.identity.numpy_value.setText("42")
    panel.identity._on_numpy_write_clicked()
    assert panel.workspace.tensor("a")[0, 0].item() == 42


def test_values_follow_a_click_in_the_list(panel, qtbot):
    row = panel.list_model.row_of("x")
    with qtbot.waitSignal(panel.values.statistics_ready, timeout=10_000) as signal:
        panel.list_view.setCurrentIndex(panel.list_model.index(row))  # as a click does
    assert panel.selected == "x"
    assert signal.args[0].shape == tuple(panel.workspace.tensor("x").shape)


def test_create_makes_the_new_tensor_current_in_the_list(panel):
    create(panel, "zeros", name="z", shape="2")
    current = panel.list_view.currentIndex()
    assert panel.list_model.name_at(current.row()) == "z" == panel.selected


@pytest.mark.parametrize("seed", ["--5", "²", "1.5", "-1", "99999999999"])
def test_bad_seed_is_explained_not_a_crash(panel, seed):
    panel.create_form.seed.setText(seed)
    names = panel.workspace.names()
    create(panel, "rand", shape="2")
    assert "seed" in panel.error_panel.explained.explanation
    assert panel.workspace.names() == names


def test_failed_rename_keeps_the_selection(panel, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    panel.select("x")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("x_t", True))
    panel.rename_selected()
    assert panel.selected == "x"


def test_undo_of_a_rename_refreshes_the_card(panel, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    panel.select("x")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("base", True))
    panel.rename_selected()
    assert panel.identity.name.text() == "base"
    panel.undo()
    assert panel.selected == "x" and panel.identity.name.text() == "x"


def test_history_lists_the_steps_and_clicking_one_selects_it(panel):
    apply(panel, "reshape", "x_t", shape="-1")
    steps = [panel.history.steps.item(i).text() for i in range(panel.history.steps.count())]
    assert steps[0].startswith("x = torch.arange(24)")
    assert steps[1] == "x_t = x.transpose(0, 1)"
    assert steps[2] == "x_t_reshape = x_t.reshape(-1)"
    panel.history.steps.itemClicked.emit(panel.history.steps.item(0))
    assert panel.selected == "x"


def test_list_marks_every_tensor_an_in_place_write_reached(panel):
    apply(panel, "fill_", "x_t", value="5")
    for row in range(panel.list_model.rowCount()):
        assert "changed in place" in panel.list_model.index(row).data()


def test_undo_reports_what_it_undid(panel, qtbot):
    apply(panel, "clone", "x")
    with qtbot.waitSignal(panel.status_message) as signal:
        panel.undo()
    assert signal.args == ["Undid x_clone = x.clone()"]


@pytest.mark.parametrize("dtype", [torch.float8_e4m3fn, torch.uint16])
def test_selecting_a_tensor_of_a_dtype_with_few_kernels_shows_it_whole(panel, dtype):
    from tensorviz.core.tensors.workspace import Provenance

    panel.workspace.add_tensor("odd", torch.ones(2, 3).to(dtype), Provenance("load", "loaded"))
    panel.select("odd")
    assert "odd" in panel.values.summary_label.text()
    assert str(dtype).removeprefix("torch.") in panel.values.summary_label.text()


def test_code_of_two_statements_shows_as_two_lines(panel):
    create(panel, "from NumPy", name="y")  # arr = np.…, then y = torch.tensor(arr)
    entry = panel.workspace.entry("y")
    lines = entry.provenance.statement("y").splitlines()
    assert len(lines) == 2
    assert panel.identity.code.text() == "<code>" + "<br>".join(lines) + "</code>"
