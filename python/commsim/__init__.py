"""commsim from Python (docs/python.md): run scenarios and sweeps, read their results as pandas
DataFrames, and plug in compressors written in NumPy.

    import commsim
    r = commsim.run("scenarios/quickstart.json", out="results/qs", set={"/iterations": 50})
    r.summary        # summary.csv as a DataFrame (one row per algorithm entry)
    r.metrics        # metrics.csv as a DataFrame (one row per entry and recorded iteration)
"""

import collections
import contextlib
import json
import os

import pandas as pd

from . import _commsim
from ._compressor import register_compressor

__all__ = ["run", "sweep", "validate", "list", "compress", "register_compressor",
           "ScenarioError", "RunResult", "SweepResult", "CompressResult", "home", "quickstart"]

# The source tree the module was built from: shipped scenarios and data sets ($COMMSIM_HOME wins).
home = os.environ.get("COMMSIM_HOME", _commsim.home)
quickstart = os.path.join(home, "scenarios", "quickstart.json")
os.environ.setdefault("COMMSIM_DATA_DIR", os.path.join(home, "data"))

_DICT = "<dict>"


class ScenarioError(ValueError):
    """Bad input: `file` (a path, or "<dict>"), `pointer` (a JSON pointer, or None) and `message`
    of the first problem; `problems` holds every line of the text."""

    def __init__(self, text, origin):
        super().__init__(text)
        self.problems = text.splitlines() or [text]
        self.file, self.pointer, self.message = _split_problem(self.problems[0], origin)


def _split_problem(line, origin):
    """(file, pointer, message) of one problem line "FILE: /pointer: message"."""
    file = None
    rest = line
    if origin and line.startswith(origin + ":"):
        file, rest = origin, line[len(origin) + 1:].lstrip()
    elif ": " in line:
        file, rest = line.split(": ", 1)
    if rest.startswith("/"):
        pointer, _, message = rest.partition(": ")
        return file, pointer, message
    return file, None, rest


@contextlib.contextmanager
def _errors(origin):
    try:
        yield
    except _commsim.UserError as e:
        raise ScenarioError(str(e), origin) from None


def _source(document, default=None):
    """(file, JSON text) of a path or a dict."""
    if document is None:
        document = default
    if isinstance(document, dict):
        return "", json.dumps(document)
    if isinstance(document, (str, os.PathLike)):
        return os.fspath(document), ""
    raise TypeError(f"expected a path or a dict, got {type(document).__name__}")


def _sets(values):
    """--set assignments "/pointer=value" of a {pointer: value} dict (values as JSON)."""
    return [f"{pointer}={json.dumps(value)}" for pointer, value in (values or {}).items()]


def _progress(progress, unit):
    """A callable(done, total) or None: `progress` itself, or a tqdm bar when it is True and tqdm
    is installed."""
    if callable(progress):
        return progress
    if not progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    bar = None

    def update(done, total):
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, unit=unit, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()
    return update


def _read_csv(path):
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


class RunResult:
    """A run folder: `folder`, `summary` and `metrics` (DataFrames), `resolved` (the scenario as
    run, a dict)."""

    def __init__(self, folder):
        self.folder = os.path.abspath(folder)
        self.summary = _read_csv(os.path.join(self.folder, "summary.csv"))
        self.metrics = _read_csv(os.path.join(self.folder, "metrics.csv"))
        with open(os.path.join(self.folder, "scenario.resolved.json")) as f:
            self.resolved = json.load(f)

    def __repr__(self):
        return f"RunResult({self.folder!r}, {len(self.summary)} entries)"


class SweepResult:
    """A sweep folder: `folder`, `table` (sweep.csv as a DataFrame), `resolved` (a dict)."""

    def __init__(self, folder):
        self.folder = os.path.abspath(folder)
        self.table = _read_csv(os.path.join(self.folder, "sweep.csv"))
        with open(os.path.join(self.folder, "sweep.resolved.json")) as f:
            self.resolved = json.load(f)

    def __repr__(self):
        return f"SweepResult({self.folder!r}, {len(self.table)} rows)"


def run(scenario=None, out=None, set=None, jobs=0, threads=1, progress=True):
    """Runs a scenario (a path or a dict; default the quickstart) as `commsim run` does, into
    `out` (default results/<name>), with `set` = {"/json/pointer": value} applied. jobs: entries
    in parallel (0: one per core), threads: threads in each entry; results do not depend on
    either. progress: True (a tqdm bar when tqdm is installed), False, or a callable(done, total)
    in iterations. Ctrl-C stops the run (KeyboardInterrupt, nothing written). Raises
    ScenarioError on bad input. An entry that fails has status "error" and a message."""
    file, text = _source(scenario, quickstart)
    with _errors(file or _DICT):
        folder = _commsim.run(file, text, _sets(set), os.fspath(out or ""), jobs, threads,
                              _progress(progress, "it"))
    return RunResult(folder)


def sweep(sweep, out=None, jobs=0, threads=1, keep_runs=False, restart=False, progress=True):
    """Runs a sweep (a path or a dict) as `commsim sweep` does, into `out` (default
    results/<name>); points stored by an earlier call are not run again. progress counts points.
    Ctrl-C starts no new point and raises KeyboardInterrupt; calling again resumes."""
    file, text = _source(sweep)
    with _errors(file or _DICT):
        folder = _commsim.sweep(file, text, os.fspath(out or ""), jobs, threads, keep_runs,
                                restart, _progress(progress, "point"))
    return SweepResult(folder)


def validate(scenario, set=None):
    """Checks a scenario or sweep (a path or a dict) without running it; returns its notes.
    Raises ScenarioError naming the file, the JSON pointer and the problem."""
    file, text = _source(scenario)
    with _errors(file or _DICT):
        return _commsim.validate(file, text, _sets(set))


def list():
    """The registries as a DataFrame: kind, name, help and params (a dict of defaults)."""
    rows = []
    for kind, entries in json.loads(_commsim.list()).items():
        for e in entries:
            rows.append({"kind": kind, "name": e["name"], "help": e["help"],
                         "params": e["params"]})
    return pd.DataFrame(rows, columns=["kind", "name", "help", "params"])


CompressResult = collections.namedtuple("CompressResult", ["bits", "decoded", "error"])
CompressResult.__doc__ = """bits: the payload's bits; decoded: Q(x); error: ||Q(x) - x||^2 / ||x||^2."""


def compress(compressor, vector, seed=1):
    """Encodes and decodes `vector` with a compressor (a name or a dict {"name": ..., params}) as
    `commsim compress` does; returns CompressResult(bits, decoded, error)."""
    spec = json.dumps(compressor) if isinstance(compressor, dict) else str(compressor)
    with _errors("--compressor"):
        bits, decoded, error = _commsim.compress(spec, vector, seed)
    return CompressResult(bits, decoded, error)
