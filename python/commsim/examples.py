"""Compressors written in NumPy, as examples of the class commsim.register_compressor takes."""

import numpy as np


class TopK:
    """top_k in NumPy: the k largest magnitudes, with the wire format and bits of the C++ top_k.

    k = `k` when k > 0 (at most d), else max(1, round(fraction * d)); ties go to the lower index.
    Payload: the k indices in increasing order as ceil(log2 d)-bit fields, then the k values as
    fp32: k ceil(log2 d) + 32k bits, packed least significant bit first.
    """

    params = {"k": 0, "fraction": 0.01}
    unbiased = False

    def __init__(self, k=0, fraction=0.01):
        self.k = k
        self.fraction = fraction

    def kept(self, d):
        if self.k > 0:
            return min(self.k, d)
        return min(max(int(np.floor(self.fraction * d + 0.5)), 1), d)

    def select(self, x):
        """The indices of the k largest |x|, increasing (ties: the lower index)."""
        d = x.size
        k = self.kept(d)
        a = np.abs(x)
        t = np.partition(a, d - k)[d - k]
        above = np.flatnonzero(a > t)
        ties = np.flatnonzero(a == t)[: k - above.size]
        return np.sort(np.concatenate([above, ties]))

    def encode(self, x):
        d = x.size
        idx = self.select(x)
        width = int(d - 1).bit_length()
        index_bits = ((idx[:, None] >> np.arange(width)) & 1).astype(np.uint8).ravel()
        values = x[idx].astype(np.float32)
        value_bits = np.unpackbits(values.view(np.uint8), bitorder="little")
        bits = np.concatenate([index_bits, value_bits])
        return np.packbits(bits, bitorder="little"), bits.size

    def decode(self, payload, d):
        k = self.kept(d)
        width = int(d - 1).bit_length()
        bits = np.unpackbits(np.frombuffer(payload, np.uint8), bitorder="little",
                             count=k * (width + 32))
        index_bits = bits[: k * width].reshape(k, width).astype(np.int64)
        idx = index_bits @ (np.int64(1) << np.arange(width, dtype=np.int64))
        values = np.packbits(bits[k * width:], bitorder="little").view(np.float32)
        out = np.zeros(d)
        out[idx] = values
        return out
