"""tensorviz.show / breakpoint / graph in non-blocking and blocking mode: the workspace holds the
caller's very objects (same tensors, same storages), named as the caller wrote them."""

import pytest
import torch
from PySide6.QtCore import QTimer

import tensorviz
from tensorviz.api import viewer
from tensorviz.api.collected import FROM_CODE


def ready_window(qtbot):
    window = viewer.current_window()
    qtbot.waitUntil(window.is_ready, timeout=60_000)
    return window


def test_show_puts_the_callers_own_objects_under_their_names(api, qtbot):
    x = torch.arange(12.0).reshape(3, 4)
    model = torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.BatchNorm1d(2))
    loss = (x * 2).sum()
    names = tensorviz.show(x, x.T, loss=loss, model=model, block=False)
    workspace = api.api_workspace()
    assert names[:3] == ["x", "x_T", "loss"]
    assert workspace.tensor("x") is x
    assert workspace.tensor("loss") is loss
    x_t = workspace.tensor("x_T")
    assert x_t._is_view() and x_t.stride() == (1, 4)  # still a view of the caller's memory
    assert x_t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert workspace.sharing("x") == ["x", "x_T"]
    for dotted, tensor in [*model.named_parameters(), *model.named_buffers()]:
        name = "model_" + dotted.replace(".", "_")
        assert workspace.tensor(name) is tensor
        assert workspace.entry(name).provenance.params["dotted"] == f"model.{dotted}"
    entry = workspace.entry("x")
    assert entry.provenance.op == FROM_CODE
    assert entry.provenance.params["line"] > 0 and entry.provenance.params["call"] == "show"
    window = ready_window(qtbot)
    assert window.current_area() == "workbench"
    assert window.panel("workbench").selected == names[-1]
    assert "your own objects" in window.notice_bar.label.text()
    assert workspace.tensors() == {n: workspace.tensor(n) for n in names}  # no examples added


def test_a_write_in_the_app_reaches_the_callers_tensor(api, qtbot):
    x = torch.zeros(4)
    tensorviz.show(x, block=False)
    workspace = api.api_workspace()
    workspace.write_in_place("x", lambda: workspace.tensor("x").add_(1), "x.add_(1)")
    assert torch.equal(x, torch.ones(4))


def test_breakpoint_takes_every_tensor_and_module_the_line_sees(api, qtbot):
    def training_step():
        inputs = torch.randn(2, 3)
        layer = torch.nn.Linear(3, 1)
        kept = [inputs[0], inputs[1]]
        tensorviz.breakpoint(block=False)
        return inputs, layer, kept

    inputs, layer, kept = training_step()
    workspace = api.api_workspace()
    assert workspace.tensor("inputs") is inputs
    assert workspace.tensor("layer_weight") is layer.weight
    assert workspace.tensor("kept_0") is kept[0]
    assert workspace.tensor("kept_0").untyped_storage().data_ptr() == inputs.data_ptr()
    assert workspace.entry("inputs").provenance.params["function"] == "training_step"


def test_graph_opens_the_autograd_area_on_the_tensor(api, qtbot):
    w = torch.tensor([2.0], requires_grad=True)
    loss = (w**2 + 3 * w).sum()
    tensorviz.graph(loss, block=False)
    window = ready_window(qtbot)
    assert window.current_area() == "graph"
    panel = window.panel("graph")
    assert panel.source == ("tensor", "loss")
    assert panel.built.root is loss  # the caller's graph, as torch recorded it


def test_a_second_call_adds_to_the_same_window_and_updates_a_name(api, qtbot):
    first = torch.ones(2)
    tensorviz.show(loss=first, block=False)
    window = ready_window(qtbot)
    second = torch.zeros(3)
    tensorviz.show(loss=second, again=first, block=False)
    workspace = api.api_workspace()
    assert viewer.current_window() is window
    assert workspace.tensor("loss") is second
    assert workspace.tensor("again") is first  # an object already shown keeps its entry…
    assert workspace.names().count("again") == 1
    tensorviz.show(first, block=False)  # …and is not added twice
    assert len(workspace) == 2


def test_a_tensor_the_user_made_in_the_app_is_not_replaced(api, qtbot):
    tensorviz.show(x=torch.ones(1), block=False)
    workspace = api.api_workspace()
    workspace.rename("x", "x_kept")
    from tensorviz.core.tensors.workspace import Provenance

    workspace.add_tensor("x", torch.zeros(1), Provenance("zeros", "torch.zeros(1)"))
    mine = workspace.tensor("x")
    tensorviz.show(x=torch.full((1,), 7.0), block=False)
    assert workspace.tensor("x") is mine
    assert workspace.tensor("x2").item() == 7.0


def test_blocking_show_returns_when_the_window_is_closed(api, qtbot):
    x = torch.arange(3)
    closer = QTimer()

    def close_when_ready():
        window = viewer.current_window()
        if window is not None and window.is_ready():
            closer.stop()
            window.close()

    closer.timeout.connect(close_when_ready)
    closer.start(20)
    names = tensorviz.show(x, block=True)
    assert names == ["x"]
    assert viewer.current_window() is None
    y = torch.ones(2)
    tensorviz.show(y, block=False)  # a new window on the first window's workspace
    workspace = api.api_workspace()
    assert workspace.tensor("x") is x and workspace.tensor("y") is y
    assert ready_window(qtbot).context.workspace is workspace


def test_meta_tensors_stay_where_they_are_with_a_note(api, qtbot):
    big = torch.empty(4096, 4096, device="meta")
    tensorviz.show(big, block=False)
    entry = api.api_workspace().entry("big")
    assert entry.tensor is big and entry.tensor.device.type == "meta"
    assert "no values" in entry.notes[0]
    window = ready_window(qtbot)
    assert "meta" in window.panel("workbench").values.summary_label.text()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_gpu_tensors_stay_on_the_gpu(api, qtbot):
    x = torch.arange(6.0, device="cuda").reshape(2, 3)
    tensorviz.show(x, block=False)
    entry = api.api_workspace().entry("x")
    assert entry.tensor is x and x.device.type == "cuda"
    assert "copies to the CPU only what it draws" in entry.notes[0]
    window = ready_window(qtbot)
    model = window.panel("workbench").values.model
    assert model.rowCount() == 2 and x.device.type == "cuda"


def test_without_a_display_one_line_says_what_to_do(api, monkeypatch, capsys):
    monkeypatch.delenv("QT_QPA_PLATFORM")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert tensorviz.show(torch.ones(1), block=False) is None
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert "DISPLAY is not set" in lines[0] and "tensorviz.save_session(" in lines[0]
    assert viewer.current_window() is None and api.api_workspace() is None


def test_in_ipython_with_a_qt_loop_the_call_does_not_block(api, monkeypatch, qtbot):
    class Shell:
        active_eventloop = "qt"

    class FakeIPython:
        @staticmethod
        def get_ipython():
            return Shell()

    monkeypatch.setitem(__import__("sys").modules, "IPython", FakeIPython)
    tensorviz.show(x=torch.ones(1))  # returns at once: no event loop of ours runs
    assert viewer.current_window().isVisible()


def test_ipython_without_a_gui_loop_gets_qt_switched_on(api, monkeypatch, qtbot):
    asked = []

    class Shell:
        active_eventloop = None

        def enable_gui(self, name):
            asked.append(name)

    class FakeIPython:
        @staticmethod
        def get_ipython():
            return Shell()

    monkeypatch.setitem(__import__("sys").modules, "IPython", FakeIPython)
    assert viewer.notebook_has_qt_loop()
    assert asked == ["qt"]


def test_architecture_records_the_callers_model_on_its_inputs(api, qtbot, capsys):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    x = torch.randn(5, 4)
    names = tensorviz.architecture(model, x, block=False)
    workspace = api.api_workspace()
    assert workspace.tensor("x") is x and workspace.tensor("model_0_weight") is model[0].weight
    assert "x" in names
    err = capsys.readouterr().err
    assert "model(x)" in err and "Architecture" in err
    window = ready_window(qtbot)
    assert window.current_area() == "architecture"
    panel = window.panel("architecture")
    qtbot.waitUntil(lambda: panel.current is not None, timeout=60_000)
    assert panel.picker.currentText().endswith("model(x)")
    record = panel.current.architecture.record
    assert record.error is None
    called = {call.module: call for call in record.calls.values()}
    assert {"0", "1", "2"} <= set(called)  # every module of the caller's model ran
    assert [tuple(info.shape) for _name, info in called["0"].outputs] == [(5, 3)]
    with torch.no_grad():  # the forward the area ran is the caller's model on the caller's x
        assert torch.equal(panel.current.outputs.detach(), model(x))


def test_architecture_is_asked_for_a_model_first(api):
    with pytest.raises(TypeError, match=r"tensorviz.architecture\(model, x\)"):
        tensorviz.architecture(torch.ones(2), block=False)
    assert viewer.current_window() is None


def test_showing_a_module_says_how_to_see_its_architecture(api, qtbot, capsys):
    model = torch.nn.Linear(2, 2)
    tensorviz.show(model=model, block=False)
    hint = [line for line in capsys.readouterr().err.splitlines() if "is an nn.Module" in line]
    assert hint == [
        "tensorviz: model is an nn.Module: its parameters are in the Workbench; "
        "tensorviz.architecture(model, x) draws its layers in the Architecture area, run on an "
        "input x of yours"
    ]
    window = ready_window(qtbot)
    assert "tensorviz.architecture(model, x)" in window.notice_bar.label.text()
    assert window.current_area() == "workbench"  # nothing is drawn without an input
