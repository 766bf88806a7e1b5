"""Inspecting a paused step where no window can be seen (offscreen Qt): one line says so, the
loop stays paused until the viewer lets it go, and no Qt is loaded."""

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """\
    import sys
    from pathlib import Path
    import torch
    from tensorviz.api.paused_window import inspect_paused_step
    from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file
    from tensorviz.core.watch.step_control import StepGate, send

    folder = Path(sys.argv[1])
    write_run_file(folder, name="headless", world_size=1)
    writer = RankStreamWriter(folder, 0)
    said = []

    def write_event(name, **fields):
        writer.write_event(name, **fields)
        said.append((name, fields.get("step"), fields.get("reason")))
        if name == "paused":
            send(folder, "inspect")

    def inspector(gate):
        inspect_paused_step(gate)
        said.append(("inspected", gate.paused.step, None))  # still paused after the line
        send(folder, "continue")

    gate = StepGate(folder, write_event, inspector=inspector, viewer_timeout=600)
    send(folder, "run_to", 2)
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    class Moment:
        def __init__(self, step, loss):
            self.step, self.loss, self.optimizer_index, self.optimizer = step, loss, 0, optimizer
            self.models, self.inputs, self.outputs = [model], None, None

    for step in range(1, 4):
        loss = model(torch.ones(3, 2)).sum()
        gate.before_backward(loss)
        loss.backward()
        gate.at_step(Moment(step, loss))
        optimizer.step()
    print(said)
    print("PySide6" in sys.modules)
    """
)


def test_offscreen_says_so_in_one_line_and_the_pause_goes_on(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(SCRIPT)
    environment = {
        k: v for k, v in os.environ.items() if k not in ("TENSORVIZ_QUIT_AFTER_READY", "DISPLAY")
    }
    environment.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), LANG="C.UTF-8")
    ran = subprocess.run(
        [sys.executable, str(program), str(tmp_path)], capture_output=True, text=True,
        timeout=120, env=environment,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    lines = [line for line in ran.stderr.splitlines() if line.startswith("tensorviz:")]
    assert len(lines) == 1 and "QT_QPA_PLATFORM=offscreen" in lines[0], ran.stderr
    assert "Step 2 stays paused" in lines[0]
    said, qt_loaded = ran.stdout.splitlines()
    assert said == str([("paused", 2, None), ("inspected", 2, None), ("resumed", 2, "continue")])
    assert qt_loaded == "False"
