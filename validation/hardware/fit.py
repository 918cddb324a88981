#!/usr/bin/env python3
"""Fits the framework constants of algorithms/framework.cc on the rows named in measured.json's
`framework_fit` and prints them; nothing else is fitted here (compute efficiency is fitted per
group by compare.py on its 1-worker row).

Each constant minimises the sum over its rows of log(predicted / measured)^2 (golden-section
search; one row: the value that meets it); they interact (a ring step pays the latency and the
staging, a GRACE run the latency and the call cost), so they are fitted in turn, three times. The values printed are what framework.cc ships; compare.py marks
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

        # Each constant's search range; the host rate on a log scale.
        ranges = {"step_latency": (0.0, 2e-3, False), "codec_call": (0.0, 2e-3, False),
                  "host_rate": (1e9, 1e12, True)}
        values = {"step_latency": 0.0, "codec_call": 0.0, "host_rate": 1e12}
        keys = [k for k in fit if k in ranges]
        for sweep in range(3):
            for key in keys:
                lo, hi, log = ranges[key]

                def trial(x, key=key, log=log):
                    sets = {f"/framework/{k}": v for k, v in values.items()}
                    sets[f"/framework/{key}"] = math.exp(x) if log else x
                    return error(key, sets)

                best = golden(trial, math.log(lo) if log else lo, math.log(hi) if log else hi)
                values[key] = math.exp(best) if log else best
            print(f"round {sweep + 1}: " + ", ".join(f"{k} {values[k]:.4e}" for k in keys),
                  flush=True)
        for key in keys:
            print(f"  {key}: {values[key]:.4g} fitted on {', '.join(fit[key]['rows'])}")


if __name__ == "__main__":
    main()
