#!/usr/bin/env python3
"""Writes a copy of a shipped sweep file with the model's dimension replaced, for the sweep benches.

Usage: bench/reduced_sweep.py SWEEP.json DIM OUT.json
The copy's "base" points back at the shipped base scenario; "set" (applied to the base before the
axes) gets /model/dim = DIM, and, for a DIM other than ResNet-18's 11,173,962, an empty
/model/profile (the ResNet-18 layer profile fixes d).
"""
import json
import os
import sys

RESNET18_PARAMS = 11173962


def main():
    src, dim, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(src) as f:
        sweep = json.load(f)
    sweep["base"] = os.path.join(os.path.dirname(os.path.abspath(src)), sweep["base"])
    if dim != RESNET18_PARAMS:
        sweep["set"]["/model/profile"] = ""
    sweep["set"]["/model/dim"] = dim
    sweep.pop("description", None)
    with open(dst, "w") as f:
        json.dump(sweep, f, indent=1)


if __name__ == "__main__":
    main()
