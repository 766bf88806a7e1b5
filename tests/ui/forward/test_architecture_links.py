"""Where the Architecture area starts in the window: the Script area's "Architecture of
model(x)" on the run's own model and input, the Workbench for a parameter of that model, and the
Autograd graph of a script's model grouped by its modules."""

from tensorviz.core.autograd.module_groups import module_of_nodes

SCRIPT = """\
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(5, 3)
loss = model(x).pow(2).mean()
"""
TIMEOUT = 60_000


def _run(qtbot, window):
    script = window.panel("script")
    window.show_area("script")
    script.editor.setPlainText(SCRIPT)
    with qtbot.waitSignal(script.run_finished, timeout=TIMEOUT):
        script.run_script()
    return script


def test_script_offers_the_architecture_of_the_model_it_called(qtbot, window):
    script = _run(qtbot, window)
    assert script.architecture_button.isEnabled()
    (action,) = script.architecture_menu.actions()
    assert action.text() == "Architecture of model(x)"
    action.trigger()
    assert window.current_area() == "architecture"
    panel = window.panel("architecture")
    qtbot.waitUntil(lambda: panel.current is not None, timeout=TIMEOUT)
    record = panel.current.architecture.record
    assert record.title == "model(x)" and panel.picker.currentText() == "script: model(x)"
    namespace_model = script.model_calls[0].module
    assert [n for n, _ in namespace_model.named_modules()] == list(record.modules)
    assert record.calls["c0"].inputs[0][1].shape == (5, 3)  # the script's own x


def test_workbench_offers_it_for_a_parameter_of_the_model(qtbot, window):
    _run(qtbot, window)
    workbench = window.panel("workbench")
    window.show_area("workbench")
    workbench.select("model_0_weight")
    assert workbench.architecture_button.isVisible()
    assert workbench.architecture_button.text() == "Architecture of model(x)"
    workbench.select("x")
    assert not workbench.architecture_button.isVisible()
    workbench.select("model_2_bias")
    workbench.architecture_button.click()
    assert window.current_area() == "architecture"


def test_a_scripts_backward_graph_groups_by_its_modules(qtbot, window):
    _run(qtbot, window)
    graph = window.panel("graph")
    graph.show_tensor("loss")
    qtbot.waitUntil(lambda: graph.layout_result is not None, timeout=TIMEOUT)
    assert graph.group_modules.isEnabled()
    groups = {name for name, _ in module_of_nodes(graph.graph).values()}
    assert groups == {"0", "1", "2"}
