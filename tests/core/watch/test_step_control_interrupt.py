"""Ctrl+C in the terminal while the loop is paused stops the script with KeyboardInterrupt, as it
would have unpaused: SIGINT sent to a real training script held at a step."""

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.step_control import send

SCRIPT = textwrap.dedent(
    """\
    import sys
    import torch
    import tensorviz

    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = tensorviz.watch(model, optimizer, log_dir=sys.argv[1])
    written = run.write_event

    def write_event(name, **fields):
        written(name, **fields)
        print(name, fields.get("step"), flush=True)

    run.write_event = write_event
    print(run.folder, flush=True)
    sys.stdin.readline()  # the test has sent its command
    x = torch.randn(8, 3)
    for step in range(1, 1000):
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print("finished", flush=True)
    """
)


def test_ctrl_c_while_paused_ends_the_script_with_keyboard_interrupt(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(SCRIPT)
    child = subprocess.Popen(
        [sys.executable, str(program), str(tmp_path)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )  # fmt: skip
    try:
        folder = Path(child.stdout.readline().strip())
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
    said = [(e["event"], e.get("step"), e.get("reason"), e.get("status")) for e in events]
    assert said == [
        ("started", None, None, None),
        ("paused", 4, None, None),
        ("resumed", 4, "interrupted", None),
        ("ended", 4, None, "interrupted"),
    ]
    assert json.loads((folder / "control.json").read_text())["step"] == 4
