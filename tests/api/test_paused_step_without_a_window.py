"""Inspecting a paused step where no window can be seen (offscreen Qt): one line says so, the
loop stays paused until the viewer lets it go, and no Qt is loaded."""

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """\
    import sys
    import torch
    import tensorviz
    from tensorviz.core.watch.step_control import send

    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = tensorviz.watch(model, optimizer, log_dir=sys.argv[1])
    gate, written, said = run.step_gate, run.write_event, []

    def write_event(name, **fields):
        written(name, **fields)
        said.append((name, fields.get("step"), fields.get("reason")))
        if name == "paused":
            said.append(("inspected", run.inspect_paused(), gate.paused.step))  # stays paused
            send(run.folder, "continue")

    run.write_event = write_event
    send(run.folder, "run_to", 2)
    for step in range(1, 4):
        loss = model(torch.ones(3, 2)).sum()
        loss.backward()
        optimizer.step()
    run.close()
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
    assert lines[0].startswith("tensorviz: recording this run into")
    lines = lines[1:]
    assert len(lines) == 1 and "QT_QPA_PLATFORM=offscreen" in lines[0], ran.stderr
    assert "Step 2 stays paused" in lines[0]
    said, qt_loaded = ran.stdout.splitlines()
    assert said == str([("paused", 2, None), ("inspected", True, 2), ("resumed", 2, "continue"),
                        ("ended", 3, None)])  # fmt: skip
    assert qt_loaded == "False"


CLI_SCRIPT = textwrap.dedent(
    """\
    import torch
    from tensorviz.core.watch.inspectors import default_inspector
    from tensorviz.core.watch.recorder import current_run
    from tensorviz.core.watch.step_control import send

    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(1, 2)).sum().backward()
    optimizer.step()  # now `tensorviz watch` has found both
    run = current_run()
    gate, written = run.step_gate, run.write_event

    def write_event(name, **fields):
        written(name, **fields)
        if name == "paused":
            send(run.folder, "inspect")

    def inspector(gate):
        default_inspector()(gate)  # the entry point's: the API's window, or its one line
        send(run.folder, "continue")

    run.write_event, gate.inspector = write_event, inspector
    send(run.folder, "run_to", 3)
    for step in range(3):
        model(torch.ones(1, 2)).sum().backward()
        optimizer.step()
    print("went on", gate.pauses)
    """
)


def test_tensorviz_watch_scripts_inspect_through_the_apis_window(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(CLI_SCRIPT)
    environment = {
        k: v for k, v in os.environ.items() if k not in ("TENSORVIZ_QUIT_AFTER_READY", "DISPLAY")
    }
    environment.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), LANG="C.UTF-8")
    ran = subprocess.run(
        [sys.executable, "-m", "tensorviz", "watch", str(program), "--log-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120, env=environment, cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "went on 1"
    assert "Step 3 stays paused" in ran.stderr, ran.stderr
