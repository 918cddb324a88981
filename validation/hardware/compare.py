#!/usr/bin/env python3
"""Runs commsim on the validation scenarios and prints measured vs predicted for every row of
measured.json (ratio = predicted / measured), then the orderings (each compressor against the
uncompressed entry at the same worker count: faster or slower, measured and predicted).

Compute is fitted once per group where the group names a row (`fit_efficiency_on`, a 1-worker
row): the scenario is run at efficiency 1 with one worker, and the efficiency that makes its
compute time equal the measured time per iteration is used for every row of the group. That row
is marked "fitted"; every other row is a prediction.

With --check-orderings the exit status is 1 when an ordering is wrong (the ctest
hardware_validation_orderings runs the GRACE ResNet-20 group so).

Usage: compare.py COMMSIM_BINARY [--only GROUP,...] [--keep DIR] [--check-orderings]
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, scenario, sets, out):
    args = [binary, "run", os.path.join(HERE, scenario), "--out", out, "--no-plots", "-q"]
    for pointer, value in sets.items():
        args += ["--set", f"{pointer}={json.dumps(value)}"]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.csv")) as f:
        return {r["name"]: r for r in csv.DictReader(f)}


def batch_of(scenario, sets):
    if "/batch" in sets:
        return sets["/batch"]
    with open(os.path.join(HERE, scenario)) as f:
        return json.load(f)["batch"]


def to_metric(metric, s_per_iter, workers, batch):
    return s_per_iter if metric == "s_per_iter" else workers * batch / s_per_iter


def measured_s_per_iter(row, batch):
    if row["metric"] == "s_per_iter":
        return row["measured"]
    return row["workers"] * batch / row["measured"]


def fit_efficiency(binary, group, rows, tmp):
    """The efficiency at which the 1-worker row's predicted time per iteration is the measured
    one: compute time scales as 1 / efficiency, so a few fixed-point steps settle it (a
    framework's cycle adds a little on top of the compute). A group whose 1-worker row ran
    without the framework (`fit_on`: "compute") matches the compute time alone; `fit_set`
    overrides what one worker cannot run (a hierarchical all-reduce's groups)."""
    row = rows[group["fit_efficiency_on"]]
    target = measured_s_per_iter(row, batch_of(group["scenario"], group["set"]))
    efficiency = 1.0
    for step in range(4):
        sets = dict(group["set"], **group.get("fit_set", {}),
                    **{"/workers": 1, "/compute/efficiency": efficiency})
        summary = run(binary, group["scenario"], sets, os.path.join(tmp, f"{group['id']}_fit{step}"))
        compute_s = float(summary[row["entry"]]["mean_compute_time_s"])
        iter_s = float(summary[row["entry"]]["mean_iter_time_s"])
        rest = 0.0 if group.get("fit_on") == "compute" else iter_s - compute_s
        # compute' = target - rest: the rest does not depend on the efficiency
        efficiency *= compute_s / (target - rest)
    return efficiency


def predict_group(binary, group, rows, tmp):
    sets = dict(group["set"])
    if group.get("fit_efficiency_on"):
        sets["/compute/efficiency"] = fit_efficiency(binary, group, rows, tmp)
    batch = batch_of(group["scenario"], sets)
    out = {}
    mine = [r for r in rows.values() if r["group"] == group["id"]]
    for workers in sorted({r["workers"] for r in mine}):
        point = dict(sets, **(group.get("fit_set", {}) if workers == 1 else {}),
                     **{"/workers": workers})
        summary = run(binary, group["scenario"], point, os.path.join(tmp, f"{group['id']}_{workers}"))
        for r in mine:
            if r["workers"] == workers:
                s = float(summary[r["entry"]]["mean_iter_time_s"])
                out[r["id"]] = to_metric(r["metric"], s, workers, batch)
    return out, sets.get("/compute/efficiency")


def main():
    binary = sys.argv[1]
    only = None
    keep = None
    if "--only" in sys.argv:
        only = set(sys.argv[sys.argv.index("--only") + 1].split(","))
    if "--keep" in sys.argv:
        keep = sys.argv[sys.argv.index("--keep") + 1]
    with open(os.path.join(HERE, "measured.json")) as f:
        data = json.load(f)
    rows = {r["id"]: r for r in data["rows"]}
    predicted, fitted = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = keep or tmp
        for g in data["groups"]:
            if only and g["id"] not in only:
                continue
            p, eff = predict_group(binary, g, rows, tmp)
            predicted.update(p)
            if eff is not None:
                fitted[g["id"]] = (eff, g["fit_efficiency_on"])
    print("| row | source | metric | measured | predicted | ratio | within 15% |")
    print("|---|---|---|---|---|---|---|")
    fit_rows = {v[1] for v in fitted.values()}
    for constant in data.get("framework_fit", {}).values():
        fit_rows.update(constant["rows"])
    within = total = 0
    for r in data["rows"]:
        if r["id"] not in predicted:
            continue
        p = predicted[r["id"]]
        ratio = p / r["measured"]
        tag = "fitted" if r["id"] in fit_rows else ("yes" if abs(ratio - 1) <= 0.15 else "NO")
        if r["id"] not in fit_rows:
            total += 1
            within += tag == "yes"
        print(f"| {r['id']} | {r['source']} | {r['metric']} | {r['measured']:.4g} | {p:.4g} "
              f"| {ratio:.2f} | {tag} |")
    print(f"\npredicted rows within 15%: {within} of {total}")
    print("\nfitted: compute efficiency per group (fraction of V100 fp32 peak)")
    for g, (eff, row) in fitted.items():
        print(f"  {g}: {eff:.4f} on row {row}")
    print("fitted: framework constants (algorithms/framework.cc, fit.py)")
    for key, constant in data.get("framework_fit", {}).items():
        print(f"  {key}: on rows {', '.join(constant['rows'])}")
    right, total = print_orderings(data["rows"], predicted)
    if "--check-orderings" in sys.argv and right != total:
        sys.exit(1)


def print_orderings(all_rows, predicted):
    """Compressor vs the uncompressed entry of the same group and worker count."""
    def speed(r, value):  # larger is faster
        return value if r["metric"] == "images_per_s" else 1 / value
    base = {(r["group"], r["workers"]): r for r in all_rows
            if r["entry"] in ("none", "none_mpi") and r["id"] in predicted}
    print("\n| row | vs | measured | predicted | ordering |")
    print("|---|---|---|---|---|")
    right = total = 0
    for r in all_rows:
        b = base.get((r["group"], r["workers"]))
        if r["id"] not in predicted or b is None or b is r or r["entry"].startswith("none"):
            continue
        m = speed(r, r["measured"]) / speed(b, b["measured"])
        p = speed(r, predicted[r["id"]]) / speed(b, predicted[b["id"]])
        ok = (m > 1) == (p > 1)
        total += 1
        right += ok
        print(f"| {r['id']} | {b['id']} | {m:.2f}x | {p:.2f}x | {'right' if ok else 'WRONG'} |")
    print(f"\norderings right: {right} of {total}")
    return right, total


if __name__ == "__main__":
    main()
