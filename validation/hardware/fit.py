#!/usr/bin/env python3
"""Fits the framework constants of algorithms/framework.cc on the rows named in measured.json's
`framework_fit` (one row per constant) and prints them; nothing else is fitted here (compute
efficiency is fitted per group by compare.py on its 1-worker row).

Each constant is found by bisection on its row (the predicted time per iteration grows with the
step latency, the codec call cost and 1 / host rate); constants that interact (the MPI step
latency and host rate) are fitted in turn until they settle. The values printed are what
framework.cc ships; compare.py then marks these rows "fitted" and predicts every other row.

Usage: fit.py COMMSIM_BINARY
"""
import json
import math
import os
import sys
import tempfile

import compare

HERE = os.path.dirname(os.path.abspath(__file__))


def entry_of(scenario, label):
    with open(os.path.join(HERE, scenario)) as f:
        return next(a for a in json.load(f)["algorithms"] if a.get("label") == label)


def predicted_seconds(binary, group, row, rows, framework_sets, tmp, efficiency):
    sets = dict(group["set"], **framework_sets)
    sets["/workers"] = row["workers"]
    sets["/compute/efficiency"] = efficiency
    sets["/algorithms"] = [entry_of(group["scenario"], row["entry"])]
    out = os.path.join(tmp, f"fit_{row['id']}_{len(os.listdir(tmp))}")
    summary = compare.run(binary, group["scenario"], sets, out)
    return float(summary[row["entry"]]["mean_iter_time_s"])


def bisect(f, target, lo, hi, log=False, steps=24):
    """The x in [lo, hi] where the increasing f(x) meets target (an end when it does not)."""
    for _ in range(steps):
        mid = math.sqrt(lo * hi) if log else (lo + hi) / 2
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi) if log else (lo + hi) / 2


def main():
    binary = sys.argv[1]
    with open(os.path.join(HERE, "measured.json")) as f:
        data = json.load(f)
    rows = {r["id"]: r for r in data["rows"]}
    groups = {g["id"]: g for g in data["groups"]}
    fit = data["framework_fit"]
    with tempfile.TemporaryDirectory() as tmp:
        eff = {}

        def seconds(key, sets):
            row = rows[fit[key]["row"]]
            group = groups[row["group"]]
            if group["id"] not in eff:
                eff[group["id"]] = compare.fit_efficiency(binary, group, rows, tmp)
            return predicted_seconds(binary, group, row, rows, sets, tmp, eff[group["id"]])

        def target(key):
            row = rows[fit[key]["row"]]
            group = groups[row["group"]]
            return compare.measured_s_per_iter(row, compare.batch_of(group["scenario"], group["set"]))

        latency, rate = 0.0, 0.0
        for sweep in range(4):
            latency = bisect(lambda x: seconds("step_latency", {
                "/framework/step_latency": x, "/framework/host_rate": rate}),
                target("step_latency"), 0.0, 5e-3)
            # f grows as the rate falls: bisect on 1 / rate.
            inverse = bisect(lambda x: seconds("host_rate", {
                "/framework/step_latency": latency, "/framework/host_rate": 1 / x}),
                target("host_rate"), 1e-12, 1e-8, log=True)
            rate = 1 / inverse
            print(f"round {sweep + 1}: step_latency {latency:.4e} s, host_rate {rate:.4e} bit/s",
                  flush=True)
        call = bisect(lambda x: seconds("codec_call", {
            "/framework/step_latency": latency, "/framework/host_rate": rate,
            "/framework/codec_call": x}), target("codec_call"), 0.0, 5e-3)
        print(f"codec_call {call:.4e} s")
        for key, value in (("step_latency", latency), ("host_rate", rate), ("codec_call", call)):
            print(f"  {key}: {value:.4g} fitted on {fit[key]['row']}")


if __name__ == "__main__":
    main()
