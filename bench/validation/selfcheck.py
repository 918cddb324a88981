#!/usr/bin/env python3
"""Checks the reference programs against hand-computed closed forms before they serve as a reference.

Each check runs one small case (1 Gbps links, 50 us latency) and compares delivery times with a
formula written out here, so a unit slip (SimGrid takes bytes/s), a wrong route, a missing header
byte or a broken sharing rule shows up before the table is trusted. Also checks that bad input
gets a clear error. Usage: selfcheck.py [--bin DIR]. Exit code 1 if a check fails.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
B = 1e9       # bit/s
L = 50e-6     # s, one link
MB = 1_000_000
WIRE = 1502   # bytes of a full UDP or TCP packet on a point-to-point link (1500 + 2 PPP)


def spec(topology, pattern, message_bytes):
    s = dict(topology)
    s.update(pattern=pattern, message=8 * message_bytes, mtu=cases.MTU_BITS)
    return s


def run(program, spec_dict, args, tmp):
    path = os.path.join(tmp, "case.json")
    with open(path, "w") as f:
        json.dump(spec_dict, f)
    r = subprocess.run([program, path] + args, capture_output=True, text=True)
    flows = {}
    for line in r.stdout.splitlines():
        t = line.split()
        if t and t[0] == "flow":
            flows[(int(t[-5]), int(t[-4]))] = float(t[-1])
    return r.returncode, flows, r.stderr


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default=os.path.join(ROOT, "build-validation"))
    args = p.parse_args(argv)
    sg = os.path.join(args.bin, "simgrid_net")
    ns3 = os.path.join(args.bin, "ns3_net")
    udp_m = 680 * 1472  # whole datagrams: no short last packet
    n2, n4, n8 = cases.star(2, B), cases.star(4, B), cases.tree(8, B)
    checks = [
        # (what, program, spec, args, {(src, dst): expected end_s}, relative tolerance)
        ("SimGrid incast: 2 flows share the server link: 2M/B + 2L", sg,
         spec(n2, "incast", MB), [], {(0, 2): 2 * 8 * MB / B + 2 * L, (1, 2): 2 * 8 * MB / B + 2 * L},
         1e-9),
        ("SimGrid multicast: one copy, M/B + 2L at every worker", sg,
         spec(n4, "broadcast", MB), [], {(4, w): 8 * MB / B + 2 * L for w in range(4)}, 1e-9),
        ("SimGrid ring through a switch: 2(n-1)(2L + chunk/B)", sg,
         spec(cases.star(3, B, with_server=False), "ring_allreduce", MB), [],
         {(2, 0): 4 * (2 * L + 333_333 * 8 / B)}, 1e-9),
        ("SimGrid max-min: straggler at B/10 keeps B/10, the other gets 0.9B", sg,
         spec(cases.straggler_star(2, B), "incast", MB), [],
         {(0, 2): 8 * MB / (0.1 * B) + 2 * L, (1, 2): 8 * MB / (0.9 * B) + 2 * L}, 1e-9),
        # A flow takes bandwidth only once its route latency has passed: the 2 local flows (2
        # hops) have the server link to themselves (B/2 each) until the remote ones (4 hops)
        # start at 4L, then get what the remote flows leave: B - 6 x B/24 = 3B/4.
        ("SimGrid two-level max-min: 6 remote flows share a B/4 core link, 2 local get 3B/8", sg,
         spec(n8, "incast", MB), [],
         {(0, 8): 4 * L + (8 * MB - 2 * L * B / 2) / (3 * B / 8),
          (7, 8): 8 * MB / (B / 24) + 4 * L}, 1e-9),
        ("ns-3 UDP incast, fair queues: (2k + 1) packets of 1502 B + 2L", ns3,
         spec(n2, "incast", udp_m), ["--transport", "udp"],
         {(1, 2): (2 * 680 + 1) * WIRE * 8 / B + 2 * L}, 1e-9),
        ("ns-3 UDP incast, FIFO queues: same round", ns3,
         spec(n2, "incast", udp_m), ["--transport", "udp", "--queue", "fifo"],
         {(1, 2): (2 * 680 + 1) * WIRE * 8 / B + 2 * L}, 1e-9),
        ("ns-3 UDP multicast: (k + 1) packets + 2L at every worker", ns3,
         spec(n4, "broadcast", udp_m), ["--transport", "udp"],
         {(4, w): (680 + 1) * WIRE * 8 / B + 2 * L for w in range(4)}, 1e-9),
        ("ns-3 TCP incast: 2M/B x 1502/1448 (headers) + 2L, within 0.5%", ns3,
         spec(n2, "incast", MB), [], {(1, 2): 2 * 8 * MB / B * WIRE / 1448 + 2 * L}, 5e-3),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, program, spec_dict, extra, expected, tol in checks:
            rc, flows, err = run(program, spec_dict, extra, tmp)
            bad = [f"{k}: got {flows.get(k)}, expected {v:.9g}" for k, v in expected.items()
                   if k not in flows or abs(flows[k] - v) > tol * v]
            if rc != 0 or bad:
                failures += 1
                print(f"FAIL {what}: exit {rc} {err.strip()[:200]} {'; '.join(bad)}")
        bad_case = spec(n2, "incast", MB)
        del bad_case["message"]
        for program in (sg, ns3):
            rc, _, err = run(program, bad_case, [], tmp)
            if rc != 1 or not err.strip().endswith("case.json: /message: missing"):
                failures += 1
                print(f"FAIL {os.path.basename(program)} on a case without /message: exit {rc}, "
                      f"stderr {err.strip()[:200]!r}")
        rc, _, err = run(ns3, spec(n4, "broadcast", MB), [], tmp)
        if rc != 1 or "TCP cannot multicast" not in err:
            failures += 1
            print(f"FAIL ns3_net TCP multicast is refused: exit {rc}, stderr {err.strip()[:200]!r}")
    total = len(checks) + 3
    print(f"selfcheck: {total - failures} of {total} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
