#!/usr/bin/env python3
"""The overhead of a compressor written in Python: a NumPy top-k (commsim.examples.TopK, 1% kept)
at d = 11.2M (ResNet-18's 11,173,962 parameters) encoded and decoded through commsim (the
simulator's call through the GIL: finite check, zero-copy view, payload copy into the message,
decode into the simulator's vector) against the same encode and decode called in plain NumPy.
Prints the median of each and their ratio (target: at most 1.5x); asserts nothing.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_compressor_bench.py [--repeats N]
"""

import argparse
import statistics
import time

import numpy as np

import commsim
from commsim.examples import TopK

D = 11_173_962


def median_seconds(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    x = np.random.default_rng(1).standard_normal(D)
    commsim.register_compressor("bench_top_k", TopK)
    spec = {"name": "bench_top_k", "fraction": 0.01}
    top_k = TopK(fraction=0.01)

    def plain():
        payload, _ = top_k.encode(x)
        return top_k.decode(payload.tobytes(), D)

    def through_commsim():
        return commsim.compress(spec, x).decoded

    np.testing.assert_array_equal(plain(), through_commsim())
    numpy_s = median_seconds(plain, args.repeats)
    commsim_s = median_seconds(through_commsim, args.repeats)
    print(f"d = {D:,}, top-k 1%, median of {args.repeats}")
    print(f"  plain NumPy encode + decode      {numpy_s * 1e3:9.1f} ms")
    print(f"  through commsim (compress)       {commsim_s * 1e3:9.1f} ms")
    print(f"  ratio                            {commsim_s / numpy_s:9.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
