"""Ctrl+C in the terminal while the loop is paused stops the script with KeyboardInterrupt, as it
would have unpaused: SIGINT sent to a real training script held at a step."""

import json
import os
import signal
import subprocess
import sys
import textwrap

from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.step_control import send

SCRIPT = textwrap.dedent(
    """\
    import sys
    from pathlib import Path
    import torch
    from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file
    from tensorviz.core.watch.step_control import StepGate

    folder = Path(sys.argv[1])
    write_run_file(folder, name="interrupted", world_size=1)
    writer = RankStreamWriter(folder, 0)

    def write_event(name, **fields):
        writer.write_event(name, **fields)
        print(name, fields.get("step"), flush=True)

    gate = StepGate(folder, write_event, viewer_timeout=600)
    print("ready", flush=True)
    sys.stdin.readline()  # the test has sent its command
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 3)

    class Moment:
        def __init__(self, step, loss):
            self.step, self.loss, self.optimizer_index = step, loss, 0
            self.optimizer, self.models, self.inputs, self.outputs = optimizer, [model], x, None

    for step in range(1, 1000):
        loss = model(x).pow(2).mean()
        gate.before_backward(loss)
        loss.backward()
        gate.at_step(Moment(step, loss))
        optimizer.step()
        optimizer.zero_grad()
    print("finished", flush=True)
    """
)


def test_ctrl_c_while_paused_ends_the_script_with_keyboard_interrupt(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(SCRIPT)
    folder = tmp_path / "run"
    folder.mkdir()
    child = subprocess.Popen(
        [sys.executable, str(program), str(folder)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )  # fmt: skip
    try:
        assert child.stdout.readline() == "ready\n"
        send(folder, "run_to", 4)
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline() == "paused 4\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    # (Python ends on an uncaught KeyboardInterrupt by SIGINT, as a shell expects)
    assert child.returncode == -signal.SIGINT and "KeyboardInterrupt" in err, err
    assert "finished" not in out
    events = RunReader(folder).ranks[0].events
    assert [(e["event"], e["step"]) for e in events] == [("paused", 4), ("resumed", 4)]
    assert events[-1]["reason"] == "interrupted"
    assert json.loads((folder / "control.json").read_text())["step"] == 4
