"""A compressor written in Python: roundtrip, bits, determinism across runs and jobs, errors as
the entry's status, and a NumPy top_k against the C++ top_k as the oracle."""

import filecmp
import math

import numpy as np
import pytest

import commsim
from commsim.examples import TopK


class RandK:
    """k uniformly random coordinates, from the rng the simulator hands encode; fp64 values."""

    params = {"k": 3}

    def __init__(self, k):
        self.k = k

    def encode(self, x, rng):
        idx = np.sort(rng.choice(x.size, self.k, replace=False)).astype(np.uint32)
        return idx.tobytes() + x[idx].tobytes(), 96 * self.k

    def decode(self, payload, d):
        idx = np.frombuffer(payload[: 4 * self.k], np.uint32)
        out = np.zeros(d)
        out[idx] = np.frombuffer(payload[4 * self.k:], np.float64)
        return out


class Boom:
    def encode(self, x):
        raise ValueError("boom at encode")

    def decode(self, payload):
        return None


class Liar:
    def encode(self, x):
        return b"\x00" * 2, 100  # 100 bits need 13 bytes

    def decode(self, payload, d):
        return np.zeros(d)


@pytest.fixture(autouse=True, scope="module")
def registered():
    commsim.register_compressor("py_top_k", TopK)
    commsim.register_compressor("py_rand_k", RandK)
    commsim.register_compressor("py_boom", Boom)
    commsim.register_compressor("py_liar", Liar)


def entries(quick, *uplinks):
    quick["algorithms"] = [{"name": "memsgd", "label": label, "uplink": uplink}
                           for label, uplink in uplinks]
    return quick


def test_roundtrip_and_bits_by_hand():
    x = np.linspace(-1.0, 1.0, 1000) ** 3
    r = commsim.compress({"name": "py_top_k", "fraction": 0.02}, x)
    k = 20
    assert r.bits == k * math.ceil(math.log2(1000)) + 32 * k
    kept = np.argsort(-np.abs(x), kind="stable")[:k]
    expected = np.zeros_like(x)
    expected[kept] = x[kept].astype(np.float32)
    np.testing.assert_array_equal(r.decoded, expected)
    r = commsim.compress({"name": "py_rand_k", "k": 5}, x)
    assert r.bits == 5 * 96
    assert np.count_nonzero(r.decoded) == 5
    np.testing.assert_array_equal(r.decoded[r.decoded != 0], x[r.decoded != 0])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_numpy_top_k_equals_the_cpp_top_k(seed):
    x = np.random.default_rng(seed).standard_normal(5000)
    x[:50] = 3.0  # ties: the lower indices win
    for spec in ({"fraction": 0.01}, {"k": 37}):
        py = commsim.compress({"name": "py_top_k", **spec}, x)
        cpp = commsim.compress({"name": "top_k", **spec}, x)
        assert py.bits == cpp.bits
        np.testing.assert_array_equal(py.decoded, cpp.decoded)


def test_runs_give_the_cpp_top_k_iterates_and_bits(quick, tmp_path):
    doc = entries(quick, ("py", {"name": "py_top_k", "fraction": 0.05}),
                  ("cpp", {"name": "top_k", "fraction": 0.05}))
    r = commsim.run(doc, out=tmp_path / "r", progress=False)
    assert (r.summary["status"] == "ok").all()
    m = r.metrics.drop(columns=["algorithm"])
    py = m[r.metrics["algorithm"] == "py"].reset_index(drop=True)
    cpp = m[r.metrics["algorithm"] == "cpp"].reset_index(drop=True)
    assert len(py) > 1
    assert py.equals(cpp)


def test_byte_identical_across_runs_and_jobs(quick, tmp_path):
    doc = entries(quick, ("top", {"name": "py_top_k", "fraction": 0.05}),
                  ("rand", {"name": "py_rand_k", "k": 40}),
                  ("top2", {"name": "py_top_k", "k": 10}))
    folders = [commsim.run(doc, out=tmp_path / name, jobs=jobs, threads=threads,
                           progress=False).folder
               for name, jobs, threads in (("a", 1, 1), ("b", 1, 1), ("c", 3, 2))]
    for f in ("metrics.csv", "summary.csv", "summary.json", "scenario.resolved.json"):
        for other in folders[1:]:
            assert filecmp.cmp(f"{folders[0]}/{f}", f"{other}/{f}", shallow=False), f


def test_an_exception_is_the_entry_error_and_the_others_run_on(quick, tmp_path):
    doc = entries(quick, ("boom", {"name": "py_boom"}), ("ok", {"name": "py_top_k"}),
                  ("liar", {"name": "py_liar"}))
    r = commsim.run(doc, out=tmp_path / "e", progress=False)
    status = dict(zip(r.summary["name"], r.summary["status"]))
    message = dict(zip(r.summary["name"], r.summary["message"]))
    assert status == {"boom": "error", "ok": "ok", "liar": "error"}
    assert "ValueError: boom at encode" in message["boom"]
    assert "100 bits with a payload of 2 bytes" in message["liar"]


def test_params_are_scenario_keys(quick):
    doc = entries(quick, ("x", {"name": "py_top_k", "fractoin": 0.5}))
    with pytest.raises(commsim.ScenarioError) as e:
        commsim.validate(doc)
    assert e.value.pointer == "/algorithms/0/uplink/fractoin"


def test_a_built_in_name_is_refused():
    with pytest.raises(ValueError, match="built-in"):
        commsim.register_compressor("top_k", TopK)
