#!/usr/bin/env python3
"""The SGD and DORE iterations of bench/ps_sim_bench, written in NumPy: the peer that commsim's
simulation speed is compared with (bench/peer_compare.sh prints the ratio).

Same problem as ps_sim_bench: the synthetic quadratic (per-worker gradient lambda * (x - c_w)),
n workers, float64 state, values on the wire rounded to fp32 as commsim sends them. Left out, and
so free here: the network, the event engine, bit streams (encoding, decoding) and the driver's
checks. DORE uses block_ternary with p = inf and b = 256 both ways, alpha = 0.1, beta = eta = 0.5.
A measurement, never a test; not needed by the build or the tests.

Needs NumPy (Debian: apt-get install python3-numpy).
Usage: bench/numpy_peer.py [--dim D] [--workers N] [--iterations K] [--algorithms sgd,dore]
Prints one line per algorithm: name, wall s/iter, CPU s/iter (the process's CPU time, user and
system, as ps_sim_bench counts its own: bench/bench_timing.h).
"""
import argparse
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("numpy_peer.py needs NumPy: apt-get install python3-numpy")

BLOCK = 256


def process_cpu():
    return time.process_time()


class Problem:
    """lambda_j geometric in [1, 100]; worker w's centre c + h * r shifted by w d / n."""

    def __init__(self, dim, workers, rng):
        self.lam = np.geomspace(1.0, 100.0, dim)
        self.center = rng.standard_normal(dim)
        self.shared = rng.standard_normal(dim)
        self.shifts = [dim * w // workers for w in range(workers)]

    def gradient(self, w, x, out):
        o = self.shifts[w]
        d = x.size
        # out = lam * (x - c - h r_{(j + o) mod d}), h = 1, written in two contiguous runs.
        np.subtract(x[: d - o], self.center[: d - o], out=out[: d - o])
        out[: d - o] -= self.shared[o:]
        np.subtract(x[d - o:], self.center[d - o:], out=out[d - o:])
        out[d - o:] -= self.shared[:o]
        out *= self.lam


def block_ternary(v, rng, padded):
    """Q(v) with p = inf, blocks of 256: norm_B (fp32) * sign(v_j) * Bernoulli(|v_j| / norm_B)."""
    d = v.size
    padded[:d] = v
    blocks = padded.reshape(-1, BLOCK)
    norms = np.abs(blocks).max(axis=1).astype(np.float32).astype(np.float64)
    safe = np.where(norms > 0, norms, 1.0)
    keep = rng.random(blocks.shape) < np.abs(blocks) / safe[:, None]
    q = np.where(keep, np.copysign(norms[:, None], blocks), 0.0)
    return q.reshape(-1)[:d]


def sgd(problem, x, workers, iterations, step, rng):
    d = x.size
    g = np.empty(d)
    mean = np.empty(d)
    replica = x.astype(np.float32).astype(np.float64)
    for _ in range(iterations):
        mean[:] = 0.0
        for w in range(workers):
            problem.gradient(w, replica, g)
            mean += g.astype(np.float32)  # the fp32 values on the wire
        x -= step * (mean / workers)
        replica = x.astype(np.float32).astype(np.float64)  # the model sent down, fp32


def dore(problem, x, workers, iterations, step, rng, alpha=0.1, beta=0.5, eta=0.5):
    d = x.size
    padded = np.zeros(-(-d // BLOCK) * BLOCK)
    g = np.empty(d)
    xhat = x.copy()
    h_workers = [np.zeros(d) for _ in range(workers)]
    h = np.zeros(d)
    e = np.zeros(d)
    mean = np.empty(d)
    for _ in range(iterations):
        mean[:] = 0.0
        for w in range(workers):
            problem.gradient(w, xhat, g)
            delta_hat = block_ternary(g - h_workers[w], rng, padded)
            h_workers[w] += alpha * delta_hat
            mean += delta_hat
        mean /= workers
        x[:] = xhat - step * (h + mean)
        h += alpha * mean
        q = x - xhat + eta * e
        q_hat = block_ternary(q, rng, padded)
        e = q - q_hat
        xhat += beta * q_hat  # every worker's x^ (one copy, as commsim keeps it)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", type=int, default=11173962)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--algorithms", default="sgd,dore")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    problem = Problem(args.dim, args.workers, rng)
    runs = {"sgd": sgd, "dore": dore}
    for name in args.algorithms.split(","):
        if name not in runs:
            sys.exit(f"numpy_peer.py: no NumPy peer for {name!r} (have: sgd, dore)")
        run = runs[name]
        run(problem, np.zeros(args.dim), args.workers, 1, 0.01, rng)  # warm-up
        wall, cpu = time.perf_counter(), process_cpu()
        run(problem, np.zeros(args.dim), args.workers, args.iterations, 0.01, rng)
        wall, cpu = time.perf_counter() - wall, process_cpu() - cpu
        print(f"{name} {wall / args.iterations:.4f} {cpu / args.iterations:.4f}")


if __name__ == "__main__":
    main()
