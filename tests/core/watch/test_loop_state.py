"""Where a watched loop stands, as the step control bar reads it: from the events of every rank
and the last step frame's header, read from the file's tail only."""

import numpy as np

from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.loop_state import LoopFollower, LoopState, last_step_in, loop_state
from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file


def test_the_loop_state_a_viewer_reads_from_the_events(tmp_path):
    write_run_file(tmp_path, name="state", world_size=2)
    ranks = [RankStreamWriter(tmp_path, rank) for rank in (0, 1)]

    follower = LoopFollower(tmp_path)

    def state():
        by_follower = follower.refresh()
        assert by_follower == loop_state(RunReader(tmp_path).ranks)
        return by_follower

    assert state() == LoopState("waiting")
    for writer in ranks:
        writer.write_event("started")
        writer.write_event("paused", step=7, optimizer=0)
    assert state() == LoopState("paused", 7)
    ranks[0].write_event("resumed", step=7, reason="continue")
    assert state() == LoopState("paused", 7)  # rank 1 is still held
    ranks[1].write_event("resumed", step=7, reason="continue")
    assert state() == LoopState("running", 7)
    ranks[0].write_schema({"schema": 0, "params": [], "modules": []})
    for step in (8, 9):
        ranks[0].write_step({"step": step, "schema": 0}, {})
    assert state() == LoopState("running", 9)
    ranks[0].write_event("ended", status="interrupted", step=9)
    assert state() == LoopState("running", 9)  # rank 1 goes on
    ranks[1].write_event("ended", status="interrupted", step=9)
    assert state() == LoopState("ended", 9, "interrupted")
    for writer in ranks:
        writer.close()


def test_the_last_step_is_read_from_the_tail_whatever_the_frames_hold(tmp_path, monkeypatch):
    path = tmp_path / rf.STEPS_FILE
    numbers = np.frombuffer(b"TV" * 20_000, dtype=np.float32)  # b"TV" all through the numbers
    frames = [rf.encode_frame(rf.Frame({"kind": "step", "step": s}, {"grad_norm": numbers}))
              for s in (1, 2, 3)]  # fmt: skip
    monkeypatch.setattr("tensorviz.core.watch.loop_state.TAIL_START", 1024)  # frames are bigger
    path.write_bytes(frames[0] + frames[1])
    assert last_step_in(path, path.stat().st_size) == 2
    path.write_bytes(frames[0] + frames[1] + frames[2][:5000])  # step 3 half written
    assert last_step_in(path, path.stat().st_size) == 2
    path.write_bytes(b"")
    assert last_step_in(path, 0) is None
