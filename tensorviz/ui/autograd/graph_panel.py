"""The Autograd graph area: pick a workspace tensor or a preset, see the graph autograd built,
click a node for its details, find nodes by name, and step through a recorded backward pass.

Extraction, layout, recording and stepping are core calls; this panel wires gestures to them
and hands the answers to the view and the details pane."""

from __future__ import annotations

import networkx as nx
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.autograd.backward_steps import StepThrough
from tensorviz.core.autograd.graph import AutogradGraph
from tensorviz.core.autograd.module_groups import (
    collapse_modules,
    module_levels,
    module_of_nodes,
)
from tensorviz.core.autograd.presets import BuiltGraph
from tensorviz.core.graph_layout.layered_layout import GraphLayout, layout_graph
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.autograd.backward_bar import BackwardBar
from tensorviz.ui.autograd.backward_stepping import BackwardStepping
from tensorviz.ui.autograd.backward_worker import BackwardWorker
from tensorviz.ui.autograd.details_pane import DetailsPane
from tensorviz.ui.autograd.graph_details import (
    intro_text,
    module_details,
    node_details,
)
from tensorviz.ui.autograd.graph_export import ask_export_path, export_view
from tensorviz.ui.autograd.graph_sources import GraphSources
from tensorviz.ui.autograd.graph_view import GraphView
from tensorviz.ui.autograd.layout_worker import LARGE_GRAPH_NODES, LayoutWorker
from tensorviz.ui.autograd.recorded_passes import RecordedPasses
from tensorviz.ui.widgets.retranslating import Retranslating


class GraphPanel(Retranslating, GraphSources, BackwardStepping, RecordedPasses, QWidget):
    status_message = Signal(str)
    graph_shown = Signal(str)  # the picker text of the graph now shown
    forward_op_selected = Signal(int, str)  # record serial, op id: the forward op of a node

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        # ("preset" | "tensor" | "script" | "forward", key)
        self.source: tuple[str, str] | None = None
        self.script_passes = []  # the last script run's own backward passes (RecordedPasses)
        self.built: BuiltGraph | None = None
        self.graph: AutogradGraph | None = None
        self.layout_result: GraphLayout | None = None
        self.stepper: StepThrough | None = None
        self.passes = 0
        self._retains = False  # the last Backward kept the graph (retain_graph)
        self.selected = ""
        self.matches: list[str] = []  # shown node ids
        self._zeroed = False  # the last step painting showed grads just zeroed
        self.shown = nx.DiGraph()  # the graph drawn: the full one or modules collapsed
        self.shown_as: dict[str, str] = {}  # node of the full graph → node drawn for it
        self.generation = 0  # bumped per graph shown; stale layouts are dropped
        self._what = ""
        self._forward_title = ""  # the model whose forward's graph is shown ("forward" source)
        self.worker = LayoutWorker(self)
        self.worker.layout_finished.connect(self._on_layout_finished)
        self.backward_worker = BackwardWorker(self)
        self.backward_worker.recorded.connect(self._on_backward_recorded)
        self._build()
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self._refill_picker()
        self.show_preset("square")

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        self.picker = QComboBox()
        self.picker.setMinimumContentsLength(10)
        self.picker.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.picker.activated.connect(self._on_picker_changed)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._on_search_changed)
        self.search.returnPressed.connect(self.focus_next_match)
        self.fit_button = QPushButton()
        self.fit_button.clicked.connect(lambda: self.view.fit())
        self.retain_graph = QCheckBox("retain_graph")  # the argument's name, as in code
        top = QHBoxLayout()
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        top.addWidget(self.title)
        top.addWidget(self.picker, 2)
        top.addWidget(self.search, 1)
        top.addWidget(self.fit_button)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self._on_export_clicked)
        top.addWidget(self.export_button)
        top.addWidget(self.retain_graph)

        self.bar = BackwardBar()
        self.bar.backward_button.clicked.connect(self.start_backward)
        self.bar.back_button.clicked.connect(self.step_back)
        self.bar.step_button.clicked.connect(self.step_forward)
        self.bar.end_button.clicked.connect(self.run_to_end)
        self.bar.zero_button.clicked.connect(self.zero_grad)

        self.view = GraphView()
        self.view.node_clicked.connect(self.select_node)
        self.view.items_created.connect(self._on_items_created)
        self.details = DetailsPane()
        self.group_modules = QCheckBox()
        self.group_modules.setEnabled(False)
        self.group_modules.toggled.connect(self._on_group_modules_toggled)
        self.group_level = QSpinBox()
        self.group_level.setRange(1, 1)
        self.group_level.setEnabled(False)
        self.group_level.valueChanged.connect(self._on_group_modules_toggled)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        grouping = QHBoxLayout()
        grouping.addWidget(self.group_modules)
        grouping.addWidget(self.group_level)
        grouping.addStretch(1)
        side_layout.addLayout(grouping)
        self.retain_grad = QCheckBox("root.retain_grad()")
        side_layout.addWidget(self.retain_grad)
        side_layout.addWidget(self.details, 1)
        self.details.setMinimumWidth(200)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([600, 260])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.bar)
        layout.addWidget(splitter, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.search.setPlaceholderText(self.tr("Find node…"))
        self.search.setToolTip(
            self.tr("Find nodes by name or op (x, w, Mul); Enter jumps to the next match")
        )
        self.fit_button.setText(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Show the whole graph"))
        self.retain_graph.setToolTip(self.tr("Keep saved tensors so another backward can run"))
        self.title.setText(self.tr("Graph of"))
        self.export_button.setText(self.tr("Export…"))
        self.export_button.setToolTip(self.tr("Save the graph as PNG, SVG or Graphviz DOT"))
        self.group_modules.setText(self.tr("group by nn.Module"))
        self.group_modules.setToolTip(
            self.tr(
                "Collapse what each module made into one node (any graph whose forward ran in "
                "the app — presets, the Script area, the Architecture area — or in your code "
                "inside `with tensorviz.tag_modules():`)"
            )
        )
        self.group_level.setPrefix(self.tr("level "))
        self.group_level.setToolTip(
            self.tr("1: the model's children; 2: their children (h.0 … h.11)")
        )
        self.retain_grad.setToolTip(self.tr("Keep .grad on the root, which is not a leaf"))
        self._refill_picker()

    # --- showing a graph -------------------------------------------------------------------------

    def _laying_out(self, count: int) -> str:
        return QCoreApplication.translate("GraphPanel", "Laying out %n nodes…", "", count)

    def _clear(self, render) -> None:
        self.generation += 1
        self.built = self.graph = self.layout_result = self.stepper = None
        self.group_modules.setEnabled(False)
        self.group_level.setEnabled(False)
        self.view.clear()
        self.details.show_text(render)
        self._update_step_controls()

    def _show(self, built: BuiltGraph, what: str, graph=None, record=None) -> None:
        """`graph` and `record`: a pass already recorded on that graph (the script's own)."""
        self.built = built
        self.graph = graph if graph is not None else built.extract()
        self.graph_freed = False
        self.layout_result = None
        self.stepper = StepThrough(record) if record is not None else None
        self.passes, self.selected = (1 if record is not None else 0), ""
        self.generation += 1
        self._what = what
        levels = module_levels(self.graph)
        self.group_modules.setEnabled(levels > 0)
        self.group_level.setRange(1, max(levels, 1))
        self.group_level.setEnabled(levels > 1)
        self._choose_shown_graph()
        count = self.shown.number_of_nodes()
        if count < LARGE_GRAPH_NODES:
            self._on_layout_finished(self.generation, layout_graph(self.shown))
            return
        self.view.clear()
        self.details.show_text(lambda: f"<p>{self._laying_out(count)}</p>")
        self._update_step_controls()
        self.status_message.emit(self._laying_out(count))
        self.worker.start(self.shown, self.generation)

    def _choose_shown_graph(self) -> None:
        """The full graph, or (when asked) one node per module at the chosen level."""
        if self.group_modules.isEnabled() and self.group_modules.isChecked():
            groups = module_of_nodes(self.graph, self.group_level.value())
            self.shown, self.shown_as = collapse_modules(self.graph.graph, groups)
        else:
            self.shown, self.shown_as = self.graph.graph, {n: n for n in self.graph.graph}

    def _on_group_modules_toggled(self) -> None:
        if self.graph is None or self.layout_result is None:
            return
        self._choose_shown_graph()
        self.selected = ""
        self.layout_result = layout_graph(self.shown)
        self.view.show_layout(self.shown, self.layout_result)
        self._on_search_changed(self.search.text())
        self._apply_step()

    def _on_layout_finished(self, generation: int, layout: GraphLayout) -> None:
        if generation != self.generation or self.graph is None:
            return  # a graph the user has already left
        built, what = self.built, self._what
        self.layout_result = layout
        self.view.show_layout(self.shown, self.layout_result)
        self._on_search_changed(self.search.text())
        graph = self.graph
        self.details.show_text(lambda: intro_text(graph.size_text(), what, built.notes))
        if self.stepper is not None:  # a pass recorded already: ready to step
            self._apply_step()
        self._update_step_controls()
        self.graph_shown.emit(self.picker.currentText())

    # --- nodes -----------------------------------------------------------------------------------

    def select_node(self, node: str) -> None:
        if self.graph is None:
            return
        for item in self.view.items_of(self.selected):
            item.set_state(selected_node=False)
        self.selected = node
        if not node:
            return
        for item in self.view.items_of(node):
            item.set_state(selected_node=True)
        if self.shown.nodes[node]["kind"] == "module":
            shown, full = self.shown, self.graph.graph
            self.details.show_text(lambda: module_details(shown, full, node))
            return
        forward = self.shown.nodes[node].get("forward")
        if forward is not None:
            self.forward_op_selected.emit(*forward)
        record = self.stepper.record if self.stepper else None
        visit = record.visit_of(node) if record else None
        seen = visit is not None and visit in self.stepper.seen()
        derivatives = record.derivatives.get(node) if record else None
        graph, root, ran = self.graph, self.built.root, record is not None
        self.details.show_text(
            lambda: node_details(graph, node, visit, seen, ran, root, derivatives)
        )

    def _on_items_created(self, nodes: list, edges: list) -> None:
        """Items the view just built for the bands in view get the state the others show."""
        matches = set(self.matches)
        for item in nodes:
            item.set_state(selected_node=item.node == self.selected, match=item.node in matches)
        if self.graph is not None and (self.stepper is not None or self._zeroed):
            self._apply_step(self._zeroed, (nodes, edges))

    def _on_search_changed(self, text: str) -> None:
        for node in self.matches:
            for item in self.view.items_of(node):
                item.set_state(match=False)
        found = self.graph.find(text) if self.graph else []
        self.matches = list(dict.fromkeys(self.shown_as[n] for n in found))
        for node in self.matches:
            for item in self.view.items_of(node):
                item.set_state(match=True)
        self._mark_overview()

    def _mark_overview(self) -> None:
        seen = self.stepper.seen() if self.stepper else []
        current = self.stepper.current() if self.stepper else None
        self.view.set_marks(
            {self.shown_as.get(v.node, v.node) for v in seen},
            self.matches,
            self.shown_as.get(current.node, current.node) if current else None,
        )

    def focus_next_match(self) -> None:
        if not self.matches:
            self.status_message.emit(
                self.tr("No node matches '%1'").replace("%1", self.search.text())
            )
            return
        position = self.matches.index(self.selected) + 1 if self.selected in self.matches else 0
        node = self.matches[position % len(self.matches)]
        self.select_node(node)
        self.view.focus_on(node)

    # --- export ----------------------------------------------------------------------------------

    def export_to(self, path: str) -> bool:
        if self.graph is None or self.layout_result is None:
            return False
        try:
            written = export_view(self.view, self.shown, path)
        except (OSError, ValueError) as error:
            self.status_message.emit(self.tr("Export failed: %1").replace("%1", str(error)))
            return False
        self.status_message.emit(self.tr("Saved %1").replace("%1", str(written)))
        return True

    def _on_export_clicked(self) -> None:
        if path := ask_export_path(self):
            self.export_to(path)

    # --- workspace -------------------------------------------------------------------------------

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        if self.source and self.source[0] == "tensor":
            name = self.source[1]
            if event.kind == "renamed" and event.old_name == name:
                self.source = ("tensor", event.names[0])
            elif event.kind == "removed" and name in event.names:
                self._refill_picker()
                self.show_preset("square")
                return
            elif name in event.names:
                self._refill_picker()
                self.show_tensor(name)
                return
        self._refill_picker()

    def shutdown(self) -> None:
        self._unsubscribe()
        self.worker.stop()
        self.backward_worker.stop()
