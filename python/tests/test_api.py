"""commsim.run, sweep, validate, list and compress: results as data, errors as ScenarioError."""

import json
import os
import signal
import threading

import numpy as np
import pytest

import commsim


def test_run_reads_the_run_folder(quick, tmp_path):
    r = commsim.run(quick, out=tmp_path / "run", set={"/iterations": 10}, progress=False)
    assert r.folder == str(tmp_path / "run")
    assert r.summary["name"].tolist() == [a["label"] for a in quick["algorithms"]]
    assert (r.summary["status"] == "ok").all()
    assert r.resolved["iterations"] == 10
    assert r.metrics["iteration"].max() == 10
    assert set(r.metrics["algorithm"]) == set(r.summary["name"])
    with open(os.path.join(r.folder, "summary.csv")) as f:
        assert len(f.read().splitlines()) == len(r.summary) + 1


def test_run_from_a_path_with_a_string_set(tmp_path):
    r = commsim.run(commsim.quickstart, out=tmp_path / "qs",
                    set={"/iterations": 5, "/network/topology/worker_bandwidth": "100Mbps"},
                    progress=False)
    assert r.resolved["iterations"] == 5
    assert r.resolved["network"]["topology"]["worker_bandwidth"] == 1e8


def test_progress_callback_reaches_the_total(quick, tmp_path):
    calls = []
    commsim.run(quick, out=tmp_path / "p", progress=lambda done, total: calls.append((done, total)))
    total = quick["iterations"] * len(quick["algorithms"])
    assert calls and calls[-1] == (total, total)
    assert all(t == total and 0 <= d <= total for d, t in calls)


def test_ctrl_c_stops_the_run_and_writes_nothing(quick, tmp_path):
    quick["iterations"] = 1_000_000
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            commsim.run(quick, out=tmp_path / "stopped", progress=False)
    finally:
        timer.cancel()
    assert not (tmp_path / "stopped").exists()


def test_validate_names_file_pointer_and_message(quick, tmp_path):
    quick["iterations"] = "many"
    with pytest.raises(commsim.ScenarioError) as e:
        commsim.validate(quick)
    assert e.value.file == "<dict>"
    assert e.value.pointer == "/iterations"
    assert "many" in e.value.message
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**quick, "iterations": 10, "wrokers": 3}))
    with pytest.raises(commsim.ScenarioError) as e:
        commsim.validate(str(path))
    assert e.value.file == str(path)
    assert e.value.pointer == "/wrokers"
    assert "workers" in e.value.message  # the did-you-mean


def test_bad_input_runs_nothing(quick, tmp_path):
    with pytest.raises(commsim.ScenarioError):
        commsim.run(quick, out=tmp_path / "never", set={"/workers": 0}, progress=False)
    assert not (tmp_path / "never").exists()


def test_validate_returns_notes_of_a_good_scenario(quick):
    assert isinstance(commsim.validate(quick), list)


def test_sweep_table(quick, tmp_path):
    base = tmp_path / "base.json"
    base.write_text(json.dumps(quick))
    doc = {"name": "iters", "base": str(base),
           "axes": [{"name": "iters", "pointer": "/iterations", "values": [4, 8]}]}
    s = commsim.sweep(doc, out=tmp_path / "sweep", progress=False)
    assert sorted(set(s.table["iters"])) == [4, 8]
    assert len(s.table) == 2 * len(quick["algorithms"])
    assert (s.table["status"] == "ok").all()
    assert s.resolved["axes"][0]["pointer"] == "/iterations"


def test_list_holds_every_kind_with_defaults():
    t = commsim.list()
    assert {"algorithm", "compressor", "topology", "model", "dataset", "partition"} <= set(t["kind"])
    top_k = t[(t["kind"] == "compressor") & (t["name"] == "top_k")].iloc[0]
    assert top_k["params"]["fraction"] == 0.01


def test_compress_top_k_bits_by_hand():
    x = np.arange(1.0, 101.0) * np.where(np.arange(100) % 2 == 0, 1, -1)
    r = commsim.compress({"name": "top_k", "k": 7}, x)
    assert r.bits == 7 * 7 + 7 * 32  # k ceil(log2 100) + 32k
    expected = np.where(np.arange(100) >= 93, x, 0.0)
    np.testing.assert_array_equal(r.decoded, expected)
    assert r.error == pytest.approx(np.sum(x[:93] ** 2) / np.sum(x ** 2))


def test_compress_unknown_name():
    with pytest.raises(commsim.ScenarioError) as e:
        commsim.compress("top_kk", np.ones(4))
    assert "top_k" in str(e.value)
