#!/usr/bin/env python3
"""Fits the framework constants of algorithms/framework.cc on the rows named in measured.json's
`framework_fit` and prints them; nothing else is fitted here (compute efficiency is fitted per
group by compare.py on its 1-worker row).

Each constant minimises the sum over its rows of log(predicted / measured)^2 (golden-section
search; one row: the value that meets it); the two interact (a ring step pays both), so they are
fitted in turn, three times. The values printed are what framework.cc ships; compare.py marks
these rows "fitted" and predicts every other row.

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


def predicted_seconds(binary, group, row, framework_sets, tmp, efficiency):
    sets = dict(group["set"], **framework_sets)
    sets["/workers"] = row["workers"]
    sets["/compute/efficiency"] = efficiency
    sets["/algorithms"] = [entry_of(group["scenario"], row["entry"])]
    out = os.path.join(tmp, f"fit_{row['id']}_{len(os.listdir(tmp))}")
    summary = compare.run(binary, group["scenario"], sets, out)
    return float(summary[row["entry"]]["mean_iter_time_s"])


def golden(f, lo, hi, steps=22):
    """The x in [lo, hi] minimising the unimodal f (golden-section search)."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def main():
    binary = sys.argv[1]
    with open(os.path.join(HERE, "measured.json")) as f:
        data = json.load(f)
    rows = {r["id"]: r for r in data["rows"]}
    groups = {g["id"]: g for g in data["groups"]}
    fit = data["framework_fit"]
    with tempfile.TemporaryDirectory() as tmp:
        eff = {}

        def error(key, sets):
            """Sum over the constant's rows of log(predicted / measured) squared."""
            total = 0.0
            for row_id in fit[key]["rows"]:
                row = rows[row_id]
                group = groups[row["group"]]
                if group["id"] not in eff:
                    eff[group["id"]] = compare.fit_efficiency(binary, group, rows, tmp)
                batch = compare.batch_of(group["scenario"], group["set"])
                measured = compare.measured_s_per_iter(row, batch)
                total += math.log(predicted_seconds(binary, group, row, sets, tmp,
                                                    eff[group["id"]]) / measured) ** 2
            return total

        latency, rate = 0.0, 1e12
        for sweep in range(3):
            latency = golden(lambda x: error("step_latency", {
                "/framework/step_latency": x, "/framework/host_rate": rate}), 0.0, 2e-3)
            # the rate on a log scale
            rate = math.exp(golden(lambda x: error("host_rate", {
                "/framework/step_latency": latency, "/framework/host_rate": math.exp(x)}),
                math.log(1e9), math.log(1e12)))
            print(f"round {sweep + 1}: step_latency {latency:.4e} s, host_rate {rate:.4e} bit/s",
                  flush=True)
        for key, value in (("step_latency", latency), ("host_rate", rate)):
            print(f"  {key}: {value:.4g} fitted on {', '.join(fit[key]['rows'])}")


if __name__ == "__main__":
    main()
