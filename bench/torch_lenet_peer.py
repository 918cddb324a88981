#!/usr/bin/env python3
"""LeNet-5 in PyTorch on the CPU: the peer that commsim's LeNet-5 training step and evaluation are
compared with (bench/lenet_peer_compare.sh prints the ratio).

The same network as models/lenet5.h (conv 5x5 6 pad 2, ReLU, max-pool 2, conv 5x5 16, ReLU,
max-pool 2, fc 120, ReLU, fc 84, ReLU, fc 10, softmax cross-entropy), on random 1x28x28 inputs
(the cost does not depend on the values). One training step = forward, loss, backward (autograd)
on a batch; evaluation = forward only (no_grad) on batches of 64. Float32 (PyTorch's usual) and
float64 (commsim's precision). One thread by default (torch.set_num_threads).
A measurement, never a test; not needed by the build or the tests.

Needs PyTorch (Debian: apt-get install python3-torch).
Usage: bench/torch_lenet_peer.py [--batch B] [--seconds S] [--threads T]
Prints one line per case: name, ms per call.
"""
import argparse
import sys
import time

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    sys.exit("torch_lenet_peer.py needs PyTorch: apt-get install python3-torch")


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.flatten(1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def per_call(f, seconds):
    f()
    calls, start = 0, time.perf_counter()
    while True:
        f()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    for dtype, name in ((torch.float32, "float32"), (torch.float64, "float64")):
        net = LeNet5().to(dtype)
        x = torch.randn(a.batch, 1, 28, 28, dtype=dtype)
        y = torch.randint(0, 10, (a.batch,))

        def step():
            net.zero_grad(set_to_none=True)
            F.cross_entropy(net(x), y).backward()

        xe = torch.randn(64, 1, 28, 28, dtype=dtype)

        def evaluate():
            with torch.no_grad():
                net(xe).argmax(1)

        print(f"torch {name} train batch {a.batch}: {per_call(step, a.seconds) * 1e3:.3f} ms")
        print(f"torch {name} eval batch 64: {per_call(evaluate, a.seconds) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
