"""The Training core against plain torch loops written here, as a learner writes them."""

import math

import numpy as np
import pytest
import torch
from reference_loop import plain_loop, reference_data

from tensorviz.core.environment import collect_environment
from tensorviz.core.training.data import (
    TrainingConfig,
    TrainingConfigError,
    least_squares,
    load_xy,
    loss_surface,
    make_data,
)
from tensorviz.core.training.report import (
    describe_experiment,
    extend_ema,
    gradients_agree,
    save_parameters,
    write_history_csv,
)
from tensorviz.core.training.trainer import PHASES, Trainer


def test_data_is_made_in_the_reference_order():
    x, y = reference_data()
    data = make_data(TrainingConfig())
    assert torch.equal(data.x, x) and torch.equal(data.y, y)
    assert data.x.dtype == torch.float32 and data.x.shape == (100, 1)


def test_default_experiment_equals_plain_torch_loop_bit_for_bit():
    w, b, losses = plain_loop()
    trainer = Trainer(TrainingConfig())
    history = trainer.run()
    assert len(history) == 500 and trainer.finished and not trainer.stopped
    final = history[-1]
    assert (final.w, final.b, final.loss) == (w, b, losses[-1])
    assert [r.loss for r in history] == losses


def test_manual_and_sgd_without_momentum_agree():
    manual = Trainer(TrainingConfig(epochs=200)).run()[-1]
    sgd = Trainer(TrainingConfig(epochs=200, update_style="sgd")).run()[-1]
    assert sgd.w == pytest.approx(manual.w, rel=1e-6)
    assert sgd.b == pytest.approx(manual.b, rel=1e-6)
    assert sgd.loss == pytest.approx(manual.loss, rel=1e-6)


def test_sgd_momentum_and_adam_match_torch_optim():
    for style, options in (("sgd", {"momentum": 0.9, "weight_decay": 0.01}), ("adam", {})):
        config = TrainingConfig(epochs=50, update_style=style, **options)
        record = Trainer(config).run()[-1]
        x, y = reference_data()
        torch.manual_seed(42)
        w, b = torch.randn(1, requires_grad=True), torch.randn(1, requires_grad=True)
        make = torch.optim.SGD if style == "sgd" else torch.optim.Adam
        optimizer = make([w, b], lr=0.01, **options)
        for _ in range(50):
            optimizer.zero_grad()
            ((w * x + b - y) ** 2).mean().backward()
            optimizer.step()
        assert (record.w, record.b) == (w.item(), b.item())


def test_hand_derived_gradients_equal_autograd():
    for record in Trainer(TrainingConfig(epochs=100)).run():
        assert record.hand_grad_w == pytest.approx(record.grad_w, rel=1e-4, abs=1e-5)
        assert record.hand_grad_b == pytest.approx(record.grad_b, rel=1e-4, abs=1e-5)
        assert gradients_agree(record)
        assert record.grad_norm == pytest.approx(math.hypot(record.grad_w, record.grad_b))


def test_mini_batches_cover_every_sample_once_per_epoch():
    trainer = Trainer(TrainingConfig(epochs=3, batch_size=32))
    phases = []
    while (phase := trainer.step_phase()) is not None:
        phases.append(phase)
    assert [p.phase for p in phases[:5]] == list(PHASES)
    assert len(phases) == 3 * 4 * len(PHASES)  # 100 samples → batches of 32, 32, 32, 4
    assert all(gradients_agree(r) for r in trainer.history)


def test_step_phase_walks_forward_loss_backward_update_zero_grad():
    trainer = Trainer(TrainingConfig(epochs=2))
    records = [trainer.step_phase() for _ in PHASES]
    assert [r.phase for r in records] == list(PHASES)
    x, y = reference_data()
    torch.manual_seed(42)
    w, b = torch.randn(1, requires_grad=True), torch.randn(1, requires_grad=True)
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    assert records[1].values["loss"] == loss.item()
    assert records[2].values["w.grad"] == w.grad.item()
    assert records[3].values["w"] == pytest.approx(w.item() - 0.01 * w.grad.item())
    assert records[4].values == {"w.grad": 0.0, "b.grad": 0.0}
    assert trainer.epoch == 1 and trainer.step_epoch().epoch == 2 and trainer.finished


def test_forgetting_zero_grad_accumulates_and_never_settles():
    w, b, losses = plain_loop(zero_grad=False)
    trainer = Trainer(TrainingConfig(forget_zero_grad=True))
    history = trainer.run()
    assert (history[-1].w, history[-1].b) == (w, b)
    assert [r.loss for r in history] == losses
    assert not gradients_agree(history[1])  # .grad holds two steps' gradients
    assert history[1].grad_w == pytest.approx(history[0].hand_grad_w + history[1].hand_grad_w)
    correct = Trainer(TrainingConfig()).run()
    assert abs(history[-1].grad_w) > 1000 * abs(correct[-1].grad_w)
    assert history[-1].loss > 10 * correct[-1].loss


def test_update_without_no_grad_surfaces_torchs_error_explained():
    trainer = Trainer(TrainingConfig(update_without_no_grad=True))
    assert trainer.step_epoch() is None and trainer.stopped
    w = torch.randn(1, requires_grad=True)
    with pytest.raises(RuntimeError) as raised:
        w -= 0.01 * torch.ones(1)
    assert trainer.error.torch_message == str(raised.value)
    assert trainer.error.kind == "inplace_leaf" and "no_grad" in trainer.error.fix


def test_least_squares_equals_numpy_lstsq():
    x, y = reference_data()
    design = np.hstack([x.double().numpy(), np.ones((100, 1))])
    (w, b), *_ = np.linalg.lstsq(design, y.double().numpy().ravel(), rcond=None)
    assert least_squares(x, y) == pytest.approx((w, b), rel=1e-10)


def test_loss_surface_equals_torch_mse_at_every_grid_point():
    x, y = reference_data()
    surface = loss_surface(x, y, (0.0, 4.0), (-1.0, 3.0), steps=7)
    for i, w in enumerate(surface.w_values):
        for j, b in enumerate(surface.b_values):
            expected = ((w * x.double() + b - y.double()) ** 2).mean().item()
            assert surface.loss[i, j] == pytest.approx(expected, rel=1e-9)


def test_experiment_description_brackets_start_truth_and_answer():
    info = describe_experiment(Trainer(TrainingConfig()))
    s = info.surface
    for w, b in (info.initial, info.least_squares, (info.true_w, info.true_b)):
        assert s.w_values[0] < w < s.w_values[-1] and s.b_values[0] < b < s.b_values[-1]


def test_normalised_x_keeps_the_true_line():
    data = make_data(TrainingConfig(normalise_x=True))
    raw = make_data(TrainingConfig())
    assert data.x.mean().abs() < 1e-5 and data.x.std() == pytest.approx(1, rel=1e-5)
    predicted = data.true_w * data.x + data.true_b
    assert torch.allclose(predicted, 2.5 * raw.x + 1.8, atol=1e-4)


def test_user_data_from_csv_and_pt(tmp_path):
    csv_path = tmp_path / "xy.csv"
    csv_path.write_text("x,y\n0,1\n1,3\n2,5\n3,7\n")
    x, y = load_xy(csv_path)
    assert x.ravel().tolist() == [0, 1, 2, 3] and y.ravel().tolist() == [1, 3, 5, 7]
    pt_path = tmp_path / "xy.pt"
    torch.save({"x": torch.arange(4.0), "y": torch.arange(4.0) * 2 + 1}, pt_path)
    trainer = Trainer(TrainingConfig(data_path=str(pt_path), epochs=5))
    assert trainer.least_squares == pytest.approx((2.0, 1.0))
    assert trainer.data.true_w is None
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2\n3,oops\n")
    with pytest.raises(TrainingConfigError, match="line 2"):
        load_xy(bad)


@pytest.mark.parametrize(
    "changes",
    [{"lr": 0}, {"epochs": 0}, {"update_style": "rmsprop"}, {"momentum": 0.9}, {"device": "gpu"}],
)
def test_bad_configuration_is_refused_with_one_line(changes):
    with pytest.raises(TrainingConfigError) as raised:
        TrainingConfig(**changes).validate()
    assert "\n" not in str(raised.value)


def test_exports_round_trip(tmp_path):
    trainer = Trainer(TrainingConfig(epochs=20))
    history = trainer.run()
    write_history_csv(tmp_path / "loss.csv", history)
    rows = (tmp_path / "loss.csv").read_text().splitlines()
    assert len(rows) == 21 and rows[0].startswith("epoch,loss,w,b")
    assert float(rows[-1].split(",")[1]) == history[-1].loss
    save_parameters(tmp_path / "p.pt", history[-1], trainer.config)
    saved = torch.load(tmp_path / "p.pt", weights_only=True)
    assert torch.equal(saved["w"], trainer.w.detach()) and torch.equal(saved["b"], trainer.b)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loss.csv", "p.pt"]  # no temp files


def test_ema_keeps_up_with_values():
    assert extend_ema(None, [4.0, 2.0], 0.5) == [4.0, 3.0]
    assert extend_ema(3.0, [1.0], 0.5) == [2.0]


def test_device_list_mirrors_torch():
    devices = collect_environment().devices
    assert devices[0] == "cpu"
    assert sum(d.startswith("cuda") for d in devices) == (
        torch.cuda.device_count() if torch.cuda.is_available() else 0
    )
    mps = getattr(torch.backends, "mps", None)
    assert ("mps" in devices) == bool(mps and mps.is_available())


@pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA device here")
def test_cuda_run_matches_cpu_to_float_tolerance():
    cpu = Trainer(TrainingConfig(epochs=100)).run()[-1]
    trainer = Trainer(TrainingConfig(epochs=100, device="cuda:0"))
    cuda = trainer.run()[-1]
    assert trainer.w.device.type == "cuda" and trainer.w.is_leaf
    assert (cuda.w, cuda.b) == pytest.approx((cpu.w, cpu.b), rel=1e-4)


@pytest.mark.skipif(
    not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()),
    reason="torch reports MPS unavailable here",
)
def test_mps_run_matches_cpu_to_float_tolerance():
    cpu = Trainer(TrainingConfig(epochs=100)).run()[-1]
    mps = Trainer(TrainingConfig(epochs=100, device="mps")).run()[-1]
    assert (mps.w, mps.b) == pytest.approx((cpu.w, cpu.b), rel=1e-4)


# --- regressions: interruption, bad files, degenerate data -------------------


def test_an_epoch_stopped_part_way_continues_to_the_same_result():
    config = TrainingConfig(epochs=3, batch_size=7)
    expected = Trainer(config).run()
    trainer = Trainer(config)
    asked = []

    def stop_every_fifth_question():
        asked.append(1)
        return len(asked) % 5 == 0

    while not trainer.finished:
        trainer.step_epoch(stop_every_fifth_question)
        done, total = trainer.batch_progress
        assert total == 15 and 0 <= done <= total
    assert [(r.w, r.b, r.loss) for r in trainer.history] == [(r.w, r.b, r.loss) for r in expected]


def test_a_stop_request_is_honoured_between_mini_batches():
    trainer = Trainer(TrainingConfig(n=2000, batch_size=1, epochs=1))
    assert trainer.step_epoch(lambda: trainer.batch_progress[0] >= 10) is None
    assert trainer.batch_progress == (10, 2000) and trainer.epoch == 0


def test_an_epoch_of_too_many_mini_batches_is_refused_in_one_line():
    with pytest.raises(TrainingConfigError, match="batch size of at least 10") as raised:
        Trainer(TrainingConfig(n=1_000_000, batch_size=1))
    assert "\n" not in str(raised.value)


def _bad_files(tmp_path):
    (tmp_path / "random.pt").write_bytes(np.random.default_rng(0).bytes(4096))
    torch.save({"x": torch.ones(3), "y": "hi"}, tmp_path / "ystr.pt")
    (tmp_path / "huge.csv").write_text("1e200,1\n2e200,3\n")
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00\x81" * 50)
    torch.save({"x": torch.ones(3, dtype=torch.complex64), "y": torch.ones(3)}, tmp_path / "c.pt")
    return ["random.pt", "ystr.pt", "huge.csv", "binary.csv", "c.pt"]


def test_bad_data_files_are_refused_in_one_sentence(tmp_path):
    for name in _bad_files(tmp_path):
        with pytest.raises(TrainingConfigError) as raised:
            Trainer(TrainingConfig(data_path=str(tmp_path / name)))
        message = str(raised.value)
        assert "\n" not in message and name in message and len(message) < 200, message
    with pytest.raises(TrainingConfigError, match="float32"):
        make_data(TrainingConfig(data_path=str(tmp_path / "huge.csv")))


def test_constant_x_has_a_finite_least_squares_answer_and_a_note(tmp_path):
    path = tmp_path / "constx.csv"
    path.write_text("x,y\n1,2\n1,2\n1,2\n")
    trainer = Trainer(TrainingConfig(data_path=str(path)))
    design = torch.tensor([[1.0, 1.0]] * 3, dtype=torch.float64)
    expected = (torch.linalg.pinv(design) @ torch.full((3,), 2.0, dtype=torch.float64)).tolist()
    assert trainer.least_squares == pytest.approx(expected)
    info = describe_experiment(trainer)
    assert "x is constant" in info.note and "not identifiable" in info.note
    assert np.isfinite(info.surface.loss).all()
    assert describe_experiment(Trainer(TrainingConfig())).note == ""
