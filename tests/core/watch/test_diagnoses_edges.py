"""Diagnoses where runs are odd: a zero-initialised output layer, a script that stops at its
first NaN, frozen parameters, two optimizers (a GAN's), parameters that appear later, no
parameters at all — no false finding, no traceback."""

import math

import numpy as np
import torch
from recorded_loops import mlp, record_loop, regression_batches
from torch import nn

from tensorviz.core.watch.diagnoses import diagnose
from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file


def _kinds(folder):
    return {d.kind: d for d in diagnose(RunReader(folder).ranks[0])}


def test_a_zero_initialised_output_layer_is_no_explosion(tmp_path):
    model = mlp([16, 64, 64, 4], nn.ReLU)
    with torch.no_grad():
        model[4].weight.zero_()
        model[4].bias.zero_()
    record_loop(tmp_path, model, torch.optim.SGD(model.parameters(), lr=1e-3),
                regression_batches(16, 4), nn.functional.mse_loss, 30)  # fmt: skip
    assert "exploding_gradients" not in _kinds(tmp_path)


def test_a_script_that_stops_at_its_first_nan_still_exploded(tmp_path):
    model = mlp([16, 64, 64, 64, 4], nn.ReLU)
    batches = regression_batches(16, 4)
    state = {"nan": False}

    def stop_at_nan(step):
        if state["nan"]:
            raise ValueError("loss is nan")
        return batches(step)

    def loss(output, target):
        value = nn.functional.mse_loss(output, target)
        state["nan"] = not math.isfinite(float(value.detach()))
        return value

    saw = record_loop(tmp_path, model, torch.optim.SGD(model.parameters(), lr=10),
                      stop_at_nan, loss, 40)  # fmt: skip
    assert isinstance(saw.error, ValueError) and len(saw.losses) < 10
    found = _kinds(tmp_path)
    assert found["exploding_gradients"].step < found["non_finite"].step <= len(saw.losses)


def test_frozen_first_layer_is_not_vanishing(tmp_path):
    model = mlp([16, 64, 64, 64, 4], nn.ReLU)
    for parameter in model[0].parameters():
        parameter.requires_grad_(False)
    trainable = [p for p in model.parameters() if p.requires_grad]
    record_loop(tmp_path, model, torch.optim.Adam(trainable, lr=1e-3),
                regression_batches(16, 4), nn.functional.mse_loss, 20)  # fmt: skip
    series = RunReader(tmp_path).ranks[0]
    assert np.isnan(series.tables["grad_norm"].column("0.weight")).all()  # no grad: NaN
    assert _kinds(tmp_path) == {}


def _frames(folder, schema, rows):
    folder.mkdir(exist_ok=True)
    write_run_file(folder, name="synthetic", world_size=1)
    writer = RankStreamWriter(folder, 0)
    writer.write_schema(schema)
    for header, arrays in rows:
        writer.write_step(dict(header, schema=schema["schema"]),
                          {k: np.asarray(v, np.float32) for k, v in arrays.items()})  # fmt: skip
    return writer


def test_two_optimizers_are_judged_apart_with_their_own_steps(tmp_path):
    schema = {
        "schema": 0,
        "params": [
            {"name": "g.weight", "shape": [4, 4], "module": "g"},
            {"name": "d.weight", "shape": [4, 4], "module": "d"},
        ],
        "modules": [{"name": "g.act", "kind": "relu"}, {"name": "d.act", "kind": "relu"}],
    }
    rows = []
    for step in range(1, 16):
        for optimizer in (0, 1):  # generator step, then discriminator step
            dead = optimizer == 1 and step >= 3
            rows.append(({"step": step, "optimizer": optimizer, "loss": 1.0},
                         {"grad_norm": [0.1, 0.1], "weight_norm": [1, 1],
                          "act_fraction": [0.5, 1.0 if dead else 0.5]}))  # fmt: skip
    _frames(tmp_path, schema, rows).close()
    (dead,) = diagnose(RunReader(tmp_path).ranks[0])
    assert dead.kind == "dead_units" and dead.names == ("d.act",)
    assert dead.step == 3 and dead.row == 5  # the discriminator's step 3 is the 6th row


def test_a_parameter_appearing_later_is_judged_from_then(tmp_path):
    params = [{"name": f"{i}.weight", "shape": [8, 8], "module": str(i)} for i in range(3)]
    writer = _frames(tmp_path, {"schema": 0, "params": params[:2], "modules": []},
                     [({"step": s, "loss": 1.0}, {"grad_norm": [1, 1], "weight_norm": [1, 1]})
                      for s in range(1, 13)])  # fmt: skip
    reader = RunReader(tmp_path)
    assert diagnose(reader.ranks[0]) == []
    writer.write_schema({"schema": 1, "params": params, "modules": []})
    for step in range(13, 30):
        writer.write_step({"step": step, "schema": 1, "loss": 1.0},
                          {"grad_norm": np.array([1e-6, 1, 1], np.float32),
                           "weight_norm": np.ones(3, np.float32)})  # fmt: skip
    writer.close()
    reader.refresh()
    live = diagnose(reader.ranks[0])
    assert live == diagnose(RunReader(tmp_path).ranks[0])
    (vanishing,) = live
    assert vanishing.kind == "vanishing_gradients" and vanishing.step == 13
    assert vanishing.names == ("0.weight",)


def test_no_parameters_no_modules_no_steps(tmp_path):
    _frames(tmp_path / "a", {"schema": 0, "params": [], "modules": []},
            [({"step": 1, "loss": None}, {})]).close()  # fmt: skip
    assert diagnose(RunReader(tmp_path / "a").ranks[0]) == []
    _frames(tmp_path / "b", {"schema": 0, "params": [], "modules": []}, []).close()
    assert diagnose(RunReader(tmp_path / "b").ranks[0]) == []


def test_a_non_finite_gradient_of_the_second_optimizer_is_its_own_step(tmp_path):
    schema = {"schema": 0, "params": [{"name": "g.weight", "shape": [4, 4], "module": "g"},
                                      {"name": "d.weight", "shape": [4, 4], "module": "d"}],
              "modules": []}  # fmt: skip
    rows = []
    for step in range(1, 8):
        for optimizer in (0, 1):
            broken = optimizer == 1 and step >= 4
            header = {"step": step, "optimizer": optimizer, "loss": 1.0}
            if broken:
                header["non_finite"] = {"grad": {"1": 16}}
            rows.append((header, {"grad_norm": [0.1, np.nan if broken else 0.1],
                                  "weight_norm": [1, 1]}))  # fmt: skip
    _frames(tmp_path, schema, rows).close()
    (broken,) = diagnose(RunReader(tmp_path).ranks[0])
    assert broken.kind == "non_finite" and broken.names == ("d.weight",)
    assert broken.step == 4 and broken.row == 7
    assert "the gradient of d.weight" in broken.title
