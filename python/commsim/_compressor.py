"""Compressors written in Python: the class a user writes, and the adaptor the simulator calls.

The simulator (python/python_compressor.h) calls adaptor.encode(x, seed) and
adaptor.decode(payload, d); the adaptor calls the user's class and checks what it returns, so
that a mistake in it is an exception naming it (which a run records as the entry's status
"error", with the message) and never a wrong number of bits charged.
"""

import inspect
import math
import operator

import numpy as np

from . import _commsim


def _positional_parameters(method):
    """How many positional parameters `method` (a bound method) takes."""
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = inspect.signature(method).parameters.values()
    if any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in params):
        return math.inf
    return sum(1 for p in params if p.kind in kinds)


class _Adaptor:
    """One instance of the user's class as the simulator uses it."""

    def __init__(self, name, cls, kwargs):
        self.name = name
        self.obj = cls(**kwargs)
        self.wants_rng = _positional_parameters(self.obj.encode) >= 2
        self._decode_takes_d = _positional_parameters(self.obj.decode) >= 2
        self.error_factor = float(getattr(self.obj, "error_factor", math.inf))

    def encode(self, x, seed):
        if self.wants_rng:
            out = self.obj.encode(x, np.random.default_rng(seed))
        else:
            out = self.obj.encode(x)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError(f"{self.name}.encode must return (payload, bits), got {type(out).__name__}")
        payload, bits = out
        if isinstance(payload, np.ndarray):
            payload = np.ascontiguousarray(payload)
        view = memoryview(payload).cast("B")
        bits = operator.index(bits)
        if bits < 0 or view.nbytes != (bits + 7) // 8:
            raise ValueError(
                f"{self.name}.encode reported {bits} bits with a payload of {view.nbytes} bytes: "
                f"a payload of b bits must hold exactly ceil(b/8) bytes")
        return view, bits

    def decode(self, payload, d):
        y = self.obj.decode(payload, d) if self._decode_takes_d else self.obj.decode(payload)
        y = np.ascontiguousarray(y, dtype=np.float64)
        if y.shape != (d,):
            raise ValueError(f"{self.name}.decode returned shape {y.shape}, expected ({d},)")
        return y


def register_compressor(name, cls, help=None):
    """Makes the class `cls` the compressor `name` in every scenario from now on (docs/python.md).

    cls(**params) builds it, with the scenario's values of the keys `cls.params` lists (a dict of
    defaults: bool, int, float or str). Its encode(x) or encode(x, rng) returns (payload, bits):
    bytes, bytearray or a NumPy array holding exactly ceil(bits/8) bytes; decode(payload) or
    decode(payload, d) returns the d decoded values. Optional attributes: unbiased (bool, default
    False), error_factor (a number C with E||Q(x) - x||^2 <= C ||x||^2; default infinity).
    Registering a name again replaces the class; a built-in compressor's name is refused.
    """
    if not isinstance(name, str) or not name:
        raise TypeError("register_compressor: the name must be a non-empty str")
    for method in ("encode", "decode"):
        if not callable(getattr(cls, method, None)):
            raise TypeError(f"register_compressor: {cls!r} has no {method} method")
    params = getattr(cls, "params", {})
    if not isinstance(params, dict):
        raise TypeError(f"register_compressor: {cls.__name__}.params must be a dict of defaults")
    text = help if help is not None else (inspect.getdoc(cls) or cls.__name__).split("\n")[0]
    _commsim.register_compressor(name, f"(Python) {text}", list(params.items()),
                                 bool(getattr(cls, "unbiased", False)))
    _commsim._factories[name] = lambda **kwargs: _Adaptor(name, cls, kwargs)
