"""Metrics of a run, errors against the references, and the printed tables and CSV.

Per case point, simulator and phase group (up = worker -> server flows, down = server -> worker
flows, ring = all ring steps):
  first_s  earliest delivery of a flow of the group, from the start of the round (t = 0);
  last_s   latest delivery of a flow of the group;
  round_s  latest delivery of any flow of the point (the round time).
Errors are (value - reference) / reference in percent, reference = SimGrid or ns-3.
"""

import csv
import os


def phase_group(phase):
    return "ring" if phase.startswith("step") else phase


def metrics(flows):
    """{group: (first_s, last_s, round_s, flow count)} for one run."""
    round_s = max(f[4] for f in flows)
    groups = {}
    for phase, _, _, _, end in flows:
        g = groups.setdefault(phase_group(phase), [float("inf"), 0.0, 0])
        g[0] = min(g[0], end)
        g[1] = max(g[1], end)
        g[2] += 1
    return {name: (g[0], g[1], round_s, g[2]) for name, g in groups.items()}


def error_pct(value, reference):
    if reference is None or value is None or reference <= 0:
        return None
    return 100.0 * (value - reference) / reference


def rows_for_point(point, results, ns3_refs):
    """Table rows of one case point.

    results: {sim: (metrics, wall_s, note) or a str saying why it did not run}."""
    sg = results.get("simgrid")
    ns3_name = next((n for n in ns3_refs if isinstance(results.get(n), tuple)), None)
    ns3 = results.get(ns3_name) if ns3_name else None
    rows = []
    for sim, res in results.items():
        if not isinstance(res, tuple):
            rows.append(dict(point, sim=sim, phase="", status=res))
            continue
        m, wall_s, note = res
        for group, (first, last, round_s, count) in sorted(m.items(), key=_group_order):
            row = dict(point, sim=sim, phase=group, flows=count, first_s=first, last_s=last,
                       round_s=round_s, wall_s=wall_s, status="ok", ns3_ref=ns3_name or "",
                       note=note)
            for ref_name, ref in (("sg", sg), ("ns3", ns3)):
                ref_m = ref[0].get(group) if isinstance(ref, tuple) else None
                for i, key in enumerate(("first", "last", "round")):
                    row[f"err_{ref_name}_{key}"] = error_pct(
                        row[f"{key}_s"], ref_m[i] if ref_m else None)
            rows.append(row)
    return rows


def _group_order(item):
    return {"up": 0, "down": 1, "ring": 2}.get(item[0], 3)


def _pct(v):
    return "     -" if v is None else f"{v:+6.2f}" if abs(v) < 100 else f"{v:+6.1f}"


def _triple(row, ref):
    return "/".join(_pct(row.get(f"err_{ref}_{k}")) for k in ("first", "last", "round"))


def _size(nbytes):
    for unit, scale in (("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{nbytes / scale:g}{unit}"
    return f"{nbytes}B"


def _rate(bps):
    return f"{bps / 1e9:g}G" if bps >= 1e9 else f"{bps / 1e6:g}M"


def format_table(rows):
    head = (f"{'case':<10} {'n':>3} {'bw':>4} {'msg':>7} {'phase':<5} {'simulator':<16} "
            f"{'first_s':>10} {'last_s':>10} {'round_s':>10}  "
            f"{'vs SimGrid % first/last/round':<29}  {'vs ns-3 % first/last/round':<29} "
            f"{'wall_s':>8}")
    out = [head, "-" * len(head)]
    previous = None
    for r in rows:
        key = (r["case"], r["n"], r["bandwidth_bps"], r["message_bytes"])
        if previous is not None and key != previous:
            out.append("")
        previous = key
        lead = (f"{r['case']:<10} {r['n']:>3} {_rate(r['bandwidth_bps']):>4} "
                f"{_size(r['message_bytes']):>7} {r['phase']:<5} {r['sim']:<16} ")
        if r["status"] != "ok":
            out.append(lead + r["status"])
            continue
        out.append(lead + f"{r['first_s']:>10.6g} {r['last_s']:>10.6g} {r['round_s']:>10.6g}  "
                   f"{_triple(r, 'sg'):<29}  {_triple(r, 'ns3'):<29} {r['wall_s']:>8.3f}"
                   + (f"  {r['note']}" if r.get("note") else ""))
    return "\n".join(out)


def _worst(values):
    values = [v for v in values if v is not None]
    return max(values, key=abs) if values else None


def format_summary(rows, large_bytes=1_000_000):
    """Per case and simulator: the largest error (signed) over the points, split by message size."""
    cols = [("round vs SG", "sg", "round"), ("round vs ns-3", "ns3", "round"),
            ("first vs ns-3", "ns3", "first"), ("last vs ns-3", "ns3", "last")]
    lead = " " * 28
    out = [lead + " ".join(f"{name:^15}" for name, _, _ in cols),
           f"{'case':<10} {'simulator':<16} " + " ".join(f"{'>=1MB':>7} {'<1MB':>7}" for _ in cols)]
    out.append("-" * len(out[1]))
    keys = []
    for r in rows:
        if r["status"] == "ok" and (r["case"], r["sim"]) not in keys:
            keys.append((r["case"], r["sim"]))
    for case, sim in keys:
        mine = [r for r in rows if r["case"] == case and r["sim"] == sim and r["status"] == "ok"]
        cells = []
        for _, ref, key in cols:
            for big in (True, False):
                sel = [r for r in mine if (r["message_bytes"] >= large_bytes) == big]
                cells.append(f"{_pct(_worst(r.get(f'err_{ref}_{key}') for r in sel)):>7}")
        out.append(f"{case:<10} {sim:<16} " + " ".join(cells))
    return "\n".join(out)


def format_wall(rows):
    """Total wall time per simulator, and each simulator's slowest point."""
    per_sim = {}
    seen = set()
    for r in rows:
        key = (r["sim"], r["case"], r["n"], r["bandwidth_bps"], r["message_bytes"])
        if r["status"] != "ok" or key in seen:
            continue
        seen.add(key)
        total, worst = per_sim.get(r["sim"], (0.0, None))
        if worst is None or r["wall_s"] > worst["wall_s"]:
            worst = r
        per_sim[r["sim"]] = (total + r["wall_s"], worst)
    out = [f"{'simulator':<16} {'runs wall_s':>12}  slowest point"]
    for sim, (total, w) in per_sim.items():
        out.append(f"{sim:<16} {total:>12.2f}  {w['wall_s']:.3f} s: {w['case']} n={w['n']} "
                   f"{_rate(w['bandwidth_bps'])}bps {_size(w['message_bytes'])}")
    return "\n".join(out)


CSV_FIELDS = ["case", "n", "bandwidth_bps", "message_bytes", "phase", "sim", "status", "flows",
              "first_s", "last_s", "round_s", "err_sg_first", "err_sg_last", "err_sg_round",
              "ns3_ref", "err_ns3_first", "err_ns3_last", "err_ns3_round", "wall_s", "note"]


def write_csv(rows, path):
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in CSV_FIELDS})
    os.replace(path + ".tmp", path)
