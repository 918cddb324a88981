"""Runs one case point in one simulator and reads back its flows.

Every program is started with an argument list (never through a shell). A run's output is kept in
OUT/raw/<simulator>/<point>.txt with its wall time; a later invocation reuses it when the spec, the
arguments and the program are unchanged (delete the file, or pass --rerun, to measure again).
"""

import hashlib
import json
import os
import re
import subprocess
import time

FUTURE_KEYS = ("model", "protocol", "queue", "framing")  # commsim spec keys newer than `commsim net` v1


class RunError(Exception):
    pass


def spec_for(base_spec, sim):
    """The commsim spec of a simulator variant: the base spec with the variant's keys merged."""
    spec = json.loads(json.dumps(base_spec))
    spec.update(sim.get("spec", {}))
    # `workers` of the reference programs counts every host; commsim's explicit topology counts
    # the server apart (hosts = workers + 1 when it has a server).
    if spec.get("topology", {}).get("server", -1) >= 0:
        spec["workers"] -= 1
    return spec


def probe_commsim_keys(commsim, workdir):
    """The FUTURE_KEYS that `commsim net --resolved` accepts (each tried alone on a tiny spec)."""
    accepted = []
    values = {"model": "flow", "protocol": "tcp", "queue": "fifo", "framing": "ppp"}
    for key in FUTURE_KEYS:
        path = os.path.join(workdir, f"probe_{key}.json")
        with open(path, "w") as f:
            json.dump({"workers": 2, "pattern": "incast", key: values[key]}, f)
        result = subprocess.run([commsim, "net", path, "--resolved"], capture_output=True,
                                text=True)
        if result.returncode == 0:
            accepted.append(key)
    return accepted


def _command(sim, bins, commsim, spec_path):
    if sim["kind"] == "simgrid":
        return [os.path.join(bins, "simgrid_net"), spec_path] + sim["args"]
    if sim["kind"] == "ns3":
        return [os.path.join(bins, "ns3_net"), spec_path] + sim["args"]
    return [commsim, "net", spec_path]


def _fingerprint(command, spec_text):
    program = command[0]
    stat = os.stat(program)
    h = hashlib.sha1()
    h.update(json.dumps(command[1:]).encode())
    h.update(spec_text.encode())
    h.update(f"{os.path.realpath(program)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def run(sim_name, sim, base_spec, point_name, out_dir, bins, commsim, rerun, cached_only=False):
    """Returns (flows, wall_s, note). flows: list of (phase, src, dst, start_s, end_s); note:
    "" or a warning about the run (ns-3 dropped packets: the reference is not loss-free).
    cached_only: return None instead of running when there is no reusable earlier output."""
    spec = spec_for(base_spec, sim) if sim["kind"] == "commsim" else base_spec
    spec_dir = os.path.join(out_dir, "cases")
    os.makedirs(spec_dir, exist_ok=True)
    suffix = f".{sim_name}" if sim["kind"] == "commsim" else ""
    spec_path = os.path.join(spec_dir, f"{point_name}{suffix}.json")
    spec_text = json.dumps(spec, indent=1)
    with open(spec_path, "w") as f:
        f.write(spec_text + "\n")
    command = _command(sim, bins, commsim, spec_path)
    if not os.path.exists(command[0]):
        raise RunError(f"{command[0]} not found (build it first)")
    fingerprint = _fingerprint(command, spec_text)
    raw_dir = os.path.join(out_dir, "raw", sim_name)
    os.makedirs(raw_dir, exist_ok=True)
    raw_path = os.path.join(raw_dir, f"{point_name}.txt")
    if not rerun and os.path.exists(raw_path):
        with open(raw_path) as f:
            text = f.read()
        header = text.split("\n", 1)[0].split()
        if len(header) == 4 and header[:2] == ["#", "fingerprint"] and header[2] == fingerprint:
            return _parse(sim["kind"], text), float(header[3]), _note(text)
    if cached_only:
        return None
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    wall_s = time.monotonic() - start
    if result.returncode != 0:
        lines = (result.stderr.strip() or result.stdout.strip() or "no output").splitlines()
        raise RunError(f"exit {result.returncode}: {lines[-1][:200]}")
    text = f"# fingerprint {fingerprint} {wall_s:.4f}\n" + result.stdout
    with open(raw_path + ".tmp", "w") as f:
        f.write(text)
    os.replace(raw_path + ".tmp", raw_path)
    return _parse(sim["kind"], text), wall_s, _note(text)


def _note(text):
    drops = re.search(r"^# ns-3 .* drops (\d+)$", text, re.MULTILINE)
    return f"{drops.group(1)} packets dropped" if drops and drops.group(1) != "0" else ""


def _parse(kind, text):
    return _parse_commsim(text) if kind == "commsim" else _parse_flows(text)


def _parse_flows(text):
    """Lines `flow <id> <phase words> <src> <dst> <bytes> <start_s> <end_s>` (pattern_driver.h)."""
    flows = []
    for line in text.splitlines():
        t = line.split()
        if t and t[0] == "flow":
            flows.append((" ".join(t[2:-5]), int(t[-5]), int(t[-4]), float(t[-2]), float(t[-1])))
    if not flows:
        raise RunError("no flow lines in the output")
    return flows


def _parse_commsim(text):
    """The `# messages` table of `commsim net`: id phase src dst bits sent_s delivered_s."""
    flows = []
    section = None
    for line in text.splitlines():
        if line.startswith("#"):
            section = line[2:].split()[0] if len(line) > 2 else None
            continue
        t = line.split()
        if section != "messages" or not t or t[0] == "id":
            continue
        src, dst = int(t[-5][1:]), int(t[-4][1:])  # host names are h<id>
        flows.append((" ".join(t[1:-5]), src, dst, float(t[-2]), float(t[-1])))
    if not flows:
        raise RunError("no messages in the commsim report")
    return flows
