"""A real little training loop watched by tensorviz.watch, run in a thread, and what the tests
see of it: the step gate's events (waited for, never slept on) and the parameters."""

from __future__ import annotations

import threading

import torch

import tensorviz
from tensorviz.core.watch.step_control import send

WAIT_S = 60.0  # the most a test waits for the loop to get somewhere (never slept)


def make_training(seed: int = 0):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(16, 4)
    y = x.sum(dim=1, keepdim=True)
    return model, optimizer, x, y


def reference_parameters(updates: int) -> dict[str, torch.Tensor]:
    """The parameters after `updates` optimizer steps of the same loop, run without any gate."""
    model, optimizer, x, y = make_training()
    for _ in range(updates):
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return {n: p.detach().clone() for n, p in model.named_parameters()}


class GatedLoop:
    """The loop in a thread, watched by tensorviz.watch (whose StepGate holds it): `events` is
    what the gate wrote to the run, `seen[step]` the loop's own gradients and loss just before
    that step's optimizer.step()."""

    def __init__(self, log_dir, steps: int, viewer_timeout: float = 600.0, after_forward=None):
        self.model, self.optimizer, self.x, self.y = make_training()
        self.run = tensorviz.watch(self.model, self.optimizer, log_dir=log_dir)
        self.folder = self.run.folder
        self.events: list[dict] = []
        self.changed = threading.Condition()
        self.gate = self.run.step_gate
        self.gate.viewer_timeout = viewer_timeout  # only the vanishing test lets it go
        written = self.run.write_event

        def write_event(name: str, **fields) -> None:  # what the gate writes, seen here too
            written(name, **fields)
            with self.changed:
                self.events.append({"event": name, **fields})
                self.changed.notify_all()

        self.run.write_event = write_event
        self.polls = 0
        looked = self.gate.poll

        def counted_poll() -> bool:  # (the paused wait calls self.poll: counted here)
            still = looked()
            with self.changed:
                self.polls += 1
                self.changed.notify_all()
            return still

        self.gate.poll = counted_poll
        self.steps = steps
        self.after_forward = after_forward  # after_forward(loop, step): the test acts mid-step
        self.seen: dict[int, dict] = {}
        self.stopping = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._train, name="gated-loop")

    def _train(self) -> None:
        try:
            for step in range(1, self.steps + 1):
                if self.stopping:
                    break
                outputs = self.model(self.x)
                loss = torch.nn.functional.mse_loss(outputs, self.y)
                if self.after_forward is not None:
                    self.after_forward(self, step)
                loss.backward()
                grads = {n: p.grad.clone() for n, p in self.model.named_parameters()}
                self.seen[step] = {"grads": grads, "loss": loss, "outputs": outputs}
                self.optimizer.step()  # the gate holds the loop in here while paused
                self.optimizer.zero_grad()
        except BaseException as error:  # noqa: BLE001 — the test reads it
            self.error = error
        finally:
            with self.changed:
                self.events.append({"event": "loop_ended"})
                self.changed.notify_all()

    def start(self) -> GatedLoop:
        self.thread.start()
        return self

    def wait_for(self, predicate) -> dict:
        """The first event (from the start) that `predicate` accepts, waited for."""
        with self.changed:
            found = self.changed.wait_for(
                lambda: next(
                    (e for e in self.events if predicate(e) or e["event"] == "loop_ended"), None
                ),
                timeout=WAIT_S,
            )
        if found and found["event"] == "loop_ended" and not predicate(found):
            found = None
        assert found, f"waited {WAIT_S} s; events: {self.events}"
        return found

    def wait_polls(self, count: int) -> None:
        """`count` more looks of the paused loop at the channel."""
        with self.changed:
            target = self.polls + count
            assert self.changed.wait_for(lambda: self.polls >= target, timeout=WAIT_S)

    def wait_paused(self, step: int) -> dict:
        return self.wait_for(lambda e: e["event"] == "paused" and e["step"] == step)

    def wait_ended(self) -> None:
        self.wait_for(lambda e: e["event"] == "loop_ended")
        self.thread.join(WAIT_S)
        assert not self.thread.is_alive()

    def parameters(self) -> dict[str, torch.Tensor]:
        return {n: p.detach().clone() for n, p in self.model.named_parameters()}

    def close(self) -> None:
        """Never leave the thread running: let a held loop go, then join it."""
        if self.thread.is_alive():
            self.stopping = True
            send(self.folder, "continue")
            self.thread.join(WAIT_S)
        self.run.close()
