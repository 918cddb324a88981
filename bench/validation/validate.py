#!/usr/bin/env python3
"""Runs the validation cases in commsim, SimGrid and ns-3 and prints the error table.

Usage (from anywhere; paths default to the repository's build/ and build-validation/):
  validate.py [--cases incast,ring] [--n 8] [--messages 1000000] [--bandwidths 1e9]
              [--sims simgrid,ns3-tcp-fq,commsim-pkt] [--quick] [--full] [--jobs 2]
Writes OUT/validation.csv, OUT/table.txt and the spec of every run under OUT/cases/ (OUT defaults
to results/validation/). Exit code 1 if a run failed, 2 on bad arguments.
"""

import argparse
import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402
import report  # noqa: E402
import runners  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", help="comma-separated case names (default: all)")
    p.add_argument("--n", help="comma-separated worker counts (default: 8,64)")
    p.add_argument("--messages", help="comma-separated message sizes in bytes")
    p.add_argument("--bandwidths", help="comma-separated link bandwidths in bit/s")
    p.add_argument("--sims", help="comma-separated simulators (default: " +
                   ",".join(cases.DEFAULT_SIMS) + " and the commsim variants the binary takes)")
    p.add_argument("--quick", action="store_true", help="n = 8 and messages <= 1 MB only")
    p.add_argument("--full", action="store_true", help="no ns-3 budget: run every ns-3 point")
    p.add_argument("--ns3-budget-mb", type=float, default=1000,
                   help="skip ns-3 points that move more payload than this (default 1000 MB)")
    p.add_argument("--commsim-keys", choices=["auto", "all", "today"], default="auto",
                   help="which commsim variants with newer spec keys (" +
                   ", ".join(runners.FUTURE_KEYS) + ") to run: the ones the binary accepts "
                   "(auto), all, or none (today)")
    p.add_argument("--commsim", default=os.path.join(ROOT, "build", "bin", "commsim"))
    p.add_argument("--bin", default=os.path.join(ROOT, "build-validation"),
                   help="folder of simgrid_net and ns3_net")
    p.add_argument("--out", default=os.path.join(ROOT, "results", "validation"))
    p.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    p.add_argument("--rerun", action="store_true", help="ignore the outputs of earlier runs")
    p.add_argument("--summary-only", action="store_true", help="print only the summary tables")
    return p.parse_args(argv)


def _usage_error(message):
    print(f"validate.py: {message}", file=sys.stderr)
    sys.exit(2)


def _list(text, convert, what):
    try:
        return [convert(v) for v in text.split(",") if v]
    except ValueError:
        _usage_error(f"{what}: expected a comma-separated list of numbers, got {text!r}")


def choose_sims(args):
    if args.sims:
        names = [s for s in args.sims.split(",") if s]
        unknown = [s for s in names if s not in cases.SIMULATORS]
        if unknown:
            _usage_error(f"--sims: unknown {', '.join(unknown)}; "
                     f"known: {', '.join(cases.SIMULATORS)}")
    else:
        names = list(cases.DEFAULT_SIMS) + [n for n, s in cases.SIMULATORS.items()
                                            if s["kind"] == "commsim"]
    if args.commsim_keys == "all":
        return names, []
    accepted = [] if args.commsim_keys == "today" else runners.probe_commsim_keys(
        args.commsim, _workdir(args))
    keep, dropped = [], []
    for n in names:
        needs = set(cases.SIMULATORS[n].get("spec", {})) & set(runners.FUTURE_KEYS)
        (keep if needs <= set(accepted) else dropped).append(n)
    return keep, dropped


def _workdir(args):
    os.makedirs(args.out, exist_ok=True)
    return args.out


def points(args):
    """(case, n, bandwidth_bps, message_bytes) for every selected point, in table order."""
    axes = dict(cases.AXES)
    if args.quick:
        axes["n"] = [8]
        axes["message_bytes"] = [m for m in axes["message_bytes"] if m <= 1_000_000]
    if args.n:
        axes["n"] = _list(args.n, int, "--n")
        if any(n < 4 or n % 4 for n in axes["n"]):
            _usage_error(f"--n: expected multiples of 4 (the trees have 4 racks), got {args.n}")
    if args.messages:
        axes["message_bytes"] = _list(args.messages, int, "--messages")
        if any(m < 1 for m in axes["message_bytes"]):
            _usage_error(f"--messages: expected sizes >= 1 byte, got {args.messages}")
    if args.bandwidths:
        axes["bandwidth_bps"] = _list(args.bandwidths, float, "--bandwidths")
        if any(not b > 0 for b in axes["bandwidth_bps"]):
            _usage_error(f"--bandwidths: expected bit/s > 0, got {args.bandwidths}")
    names = [c["name"] for c in cases.CASES]
    chosen = args.cases.split(",") if args.cases else names
    unknown = [c for c in chosen if c not in names]
    if unknown:
        _usage_error(f"--cases: unknown {', '.join(unknown)}; known: {', '.join(names)}")
    out = []
    for case in cases.CASES:
        if case["name"] not in chosen:
            continue
        case_axes = dict(axes, **case.get("axes", {}))
        for n in case_axes["n"]:
            for bw in case_axes["bandwidth_bps"]:
                for m in case_axes["message_bytes"]:
                    out.append((case, n, bw, m))
    return out


def payload_bytes(pattern, n, message_bytes):
    """Bytes the pattern hands to the network (the ns-3 cost driver)."""
    per_round = {"incast": n, "downlink": n, "broadcast": 1, "ps_round": 2 * n,
                 "ps_round_multicast": n + 1, "ring_allreduce": 2 * (n - 1)}
    return per_round[pattern] * message_bytes


def run_point(args, sims, case, n, bw, message_bytes):
    spec = dict(case["topology"](n, bw, **case.get("args", {})))
    spec.update(pattern=case["pattern"], message=8 * message_bytes, mtu=cases.MTU_BITS)
    name = f"{case['name']}-n{n}-{bw:g}bps-{message_bytes}B"
    point = dict(case=case["name"], n=n, bandwidth_bps=bw, message_bytes=message_bytes)
    results = {}
    budget = None if args.full else args.ns3_budget_mb * 1e6
    multicast = case["pattern"] in ("broadcast", "ps_round_multicast")
    for sim_name in sims:
        sim = cases.SIMULATORS[sim_name]
        if sim.get("tcp") and multicast:
            results[sim_name] = "n/a: TCP cannot multicast"
            continue
        over_budget = sim["kind"] == "ns3" and budget is not None and payload_bytes(
            case["pattern"], n, message_bytes) > budget
        try:
            # Over the budget, an earlier (--full) output is still shown if there is one.
            got = runners.run(sim_name, sim, spec, name, args.out, args.bin, args.commsim,
                              args.rerun and not over_budget, cached_only=over_budget)
            if got is None:
                results[sim_name] = "skipped: over the ns-3 budget (--full runs it)"
                continue
            flows, wall_s, note = got
            results[sim_name] = (report.metrics(flows), wall_s, note)
        except runners.RunError as e:
            results[sim_name] = f"FAILED: {e}"
    return report.rows_for_point(point, results, cases.NS3_REFERENCES)


def main(argv):
    args = parse_args(argv)
    todo = points(args)
    sims, dropped = choose_sims(args)
    if dropped:
        print(f"# not run (this commsim does not take their spec keys): {', '.join(dropped)}")
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_point, args, sims, *p) for p in todo]
        rows = []
        for i, f in enumerate(futures):
            rows.extend(f.result())
            print(f"\r# {i + 1}/{len(todo)} points", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    summary = ("Largest error per case (signed %, over n, bandwidth and message size)\n" +
               report.format_summary(rows) + "\n\nWall time\n" + report.format_wall(rows))
    full = report.format_table(rows) + "\n\n" + summary
    print(summary if args.summary_only else full)
    with open(os.path.join(_workdir(args), "table.txt"), "w") as f:
        f.write(full + "\n")
    report.write_csv(rows, os.path.join(args.out, "validation.csv"))
    failed = [r for r in rows if r["status"].startswith("FAILED")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
