"""The validation cases and the simulators they run in: one entry per case, one per simulator.

A case is a traffic pattern on a topology. Every case runs at each point of its axes (workers n,
link bandwidth, message size; AXES unless the entry overrides one), and each point becomes one
`commsim net` spec with an `explicit` topology, so that commsim, SimGrid and ns-3 read the very
same nodes, links and routes. All links have LATENCY_S one-way latency.

Adding a case: append one _case(...) row to CASES (name, pattern, topology builder, about,
and the builder's keyword arguments).
Adding a simulator variant: append one entry to SIMULATORS.
"""

LATENCY_S = 50e-6
MTU_BITS = 1500 * 8

AXES = {
    "n": [8, 64],
    "bandwidth_bps": [1e9, 1e8],
    "message_bytes": [10_000, 100_000, 1_000_000, 44_700_000],
}


def _edges_spec(hosts, switches, server, edges, bandwidths):
    """A commsim net spec fragment: `explicit` topology from (a, b) edges and their bandwidths."""
    topo = {
        "name": "explicit",
        "switches": switches,
        "server": server,
        "edges": [v for e in edges for v in e],
        "latency": LATENCY_S,
    }
    if len(set(bandwidths)) == 1:
        topo["bandwidth"] = bandwidths[0]
    else:
        topo["bandwidth"] = max(bandwidths)
        topo["bandwidths"] = bandwidths
    return {"workers": hosts, "topology": topo}


def star(n, bw, with_server=True, worker_factors=None):
    """n workers (hosts 0..n-1) and, with_server, a server (host n), all on one switch.

    worker_factors: per-worker bandwidth multipliers, cycled over the workers (default all 1).
    """
    hosts = n + 1 if with_server else n
    switch = hosts
    factors = worker_factors or [1.0]
    edges = [(w, switch) for w in range(n)]
    bandwidths = [bw * factors[w % len(factors)] for w in range(n)]
    if with_server:
        edges.append((n, switch))
        bandwidths.append(bw)
    return _edges_spec(hosts, 1, n if with_server else -1, edges, bandwidths)


def straggler_star(n, bw, factor=0.1):
    """A star where worker 0's link runs at factor x the others' bandwidth."""
    return star(n, bw, worker_factors=[factor] + [1.0] * (n - 1))


def tree(n, bw, with_server=True, racks=4, core_factor=0.25):
    """Two levels: racks top-of-rack switches, each with n/racks workers, under one core switch.

    Rack r holds workers r*n/racks .. (r+1)*n/racks - 1; the server (host n) sits in rack 0, so
    the other racks reach it through their core link. Host links run at bw, rack-core links at
    core_factor x bw: an oversubscribed core (a rack of n/racks hosts shares one slow uplink).
    """
    hosts = n + 1 if with_server else n
    per_rack = n // racks
    tor = [hosts + r for r in range(racks)]
    core = hosts + racks
    edges = [(w, tor[w // per_rack]) for w in range(n)]
    bandwidths = [bw] * n
    if with_server:
        edges.append((n, tor[0]))
        bandwidths.append(bw)
    for r in range(racks):
        edges.append((tor[r], core))
        bandwidths.append(bw * core_factor)
    return _edges_spec(hosts, racks + 1, n if with_server else -1, edges, bandwidths)


def _case(name, pattern, topology, about, **args):
    """One CASES entry: the case's name, a commsim traffic pattern, the topology builder and what
    the case is about; keyword `args` (key "args", only when given) go to the builder after
    (n, bandwidth)."""
    entry = dict(name=name, pattern=pattern, topology=topology)
    if args:
        entry["args"] = args
    entry["about"] = about
    return entry


CASES = [
    _case("incast", "incast", star, "n workers -> server through one switch"),
    _case("downlink", "downlink", star, "server -> n workers, one unicast copy each"),
    _case("multicast", "broadcast", star, "server -> n workers, one copy replicated at the switch"),
    _case("ps_round", "ps_round", star, "incast, then unicast downlink"),
    _case("ring", "ring_allreduce", star, "ring all-reduce through one switch: 2(n-1) steps of M/n",
          with_server=False),
    _case("hetero", "ps_round", star, "PS round, worker links at B, B/2, B/4, B/8 (cycled)",
          worker_factors=[1.0, 0.5, 0.25, 0.125]),
    _case("straggler", "ps_round", straggler_star, "PS round, worker 0's link at B/10"),
    _case("tree_ps", "ps_round", tree,
          "PS round on 4 racks, server in rack 0, rack-core links at B/4"),
    _case("tree_ring", "ring_allreduce", tree, "ring all-reduce on 4 racks, rack-core links at B/4",
          with_server=False),
]

# kind: simgrid | ns3 | commsim. args: extra program arguments. spec: keys merged into the
# commsim spec. tcp: the variant cannot multicast. Keys that today's `commsim net` does not know
# (model, protocol, queue: the network models and protocols of the network-fidelity issue) are
# templates: validate.py probes the binary and skips the variants it would reject
# (--commsim-keys decides). Rename them here if the final spec spells them differently.
SIMULATORS = {
    "simgrid": dict(kind="simgrid", args=[],
                    about="SimGrid 3.32 CM02 flow model, no correction factors"),
    "ns3-tcp-fq": dict(kind="ns3", args=["--transport", "tcp", "--queue", "fq"], tcp=True,
                       about="ns-3.37 TCP NewReno, persistent connections, fair queueing"),
    "ns3-tcp-fifo": dict(kind="ns3", args=["--transport", "tcp", "--queue", "fifo"], tcp=True,
                         about="ns-3.37 TCP NewReno, persistent connections, FIFO queues"),
    "ns3-tcp-syn": dict(kind="ns3", args=["--transport", "tcp", "--connect-on-use"], tcp=True,
                        about="ns-3.37 TCP NewReno, handshake inside the round, fair queueing"),
    "ns3-udp-fq": dict(kind="ns3", args=["--transport", "udp", "--queue", "fq"],
                       about="ns-3.37 UDP paced at the NIC rate, fair queueing"),
    "ns3-udp-fifo": dict(kind="ns3", args=["--transport", "udp", "--queue", "fifo"],
                         about="ns-3.37 UDP paced at the NIC rate, FIFO queues"),
    "commsim-msg": dict(kind="commsim", spec={"mtu": 0},
                        about="commsim, whole messages (mtu 0)"),
    "commsim-pkt": dict(kind="commsim", spec={"mtu": MTU_BITS},
                        about="commsim, 1500-byte packets (fair queueing since models exist)"),
    "commsim-pkt-fifo": dict(kind="commsim",
                             spec={"model": "packet", "mtu": MTU_BITS, "queue": "fifo"},
                             about="commsim, 1500-byte packets, FIFO links"),
    "commsim-flow": dict(kind="commsim", spec={"model": "flow"},
                         about="commsim flow model (max-min)"),
    "commsim-pkt-tcp": dict(kind="commsim", spec={"model": "packet", "mtu": MTU_BITS,
                                                  "protocol": "tcp", "framing": "ppp"},
                            about="commsim packets with TCP/IP headers and PPP framing"),
    "commsim-flow-tcp": dict(kind="commsim", spec={"model": "flow", "protocol": "tcp",
                                                   "framing": "ppp"},
                             about="commsim flow model with TCP/IP and PPP header efficiency"),
}

# What runs without --sims: every SimGrid/ns-3 entry here plus every commsim variant the binary
# accepts.
DEFAULT_SIMS = ["simgrid", "ns3-tcp-fq", "ns3-udp-fq"]
# The "vs ns-3" reference: the first of these that ran the case (TCP cannot multicast).
NS3_REFERENCES = ["ns3-tcp-fq", "ns3-udp-fq"]
