#!/usr/bin/env python3
"""tests/fixtures/pytorch-init.json: what PyTorch's default initialisation draws, for tests/unit/engine/init.test.ts.

Run with Debian's python3-torch: /usr/bin/python3 scripts/peer/make-init-fixture.py

For every weight tensor of two networks the engine builds (the default MLP 784-256-128-6 and a small CNN on 7×7×3
images, filters 4, 8, dense 12, 5 outputs), we build the same layer in torch (nn.Linear / nn.Conv2d, torch's own
reset_parameters: kaiming_uniform_(a=√5) for the weight, U(±1/√fan_in) for the bias) and record
- bound: the half-width torch's code uses, computed by torch's own helpers (init._calculate_fan_in_and_fan_out,
  init.calculate_gain('leaky_relu', √5)) — the exact number the engine's 'pytorch' scheme must use;
- the empirical variance and max |value| over `draws` fresh initialisations (seeds 0..draws−1), to compare the
  engine's draws with torch's draws as distributions (not just with the formula).
"""
import json
import math
import os

import torch
from torch import nn
from torch.nn import init

DRAWS = 20


def stats(make):
    vals_w, vals_b = [], []
    for seed in range(DRAWS):
        torch.manual_seed(seed)
        m = make()
        vals_w.append(m.weight.detach().flatten())
        vals_b.append(m.bias.detach().flatten())
    w = torch.cat(vals_w).double()
    b = torch.cat(vals_b).double()
    fan_in, _ = init._calculate_fan_in_and_fan_out(m.weight)
    gain = init.calculate_gain('leaky_relu', math.sqrt(5))
    w_bound = math.sqrt(3.0) * gain / math.sqrt(fan_in)
    b_bound = 1 / math.sqrt(fan_in)
    return {
        'fanIn': fan_in,
        'weight': {'bound': w_bound, 'variance': float(w.var()), 'mean': float(w.mean()), 'maxAbs': float(w.abs().max()), 'n': w.numel()},
        'bias': {'bound': b_bound, 'variance': float(b.var()), 'mean': float(b.mean()), 'maxAbs': float(b.abs().max()), 'n': b.numel()},
    }


def main():
    mlp = [('hidden1', 784, 256), ('hidden2', 256, 128), ('output', 128, 6)]
    out = {
        'note': 'Made by scripts/peer/make-init-fixture.py with torch ' + torch.__version__ + f': {DRAWS} initialisations per layer (torch.manual_seed 0..{DRAWS - 1}); bound from torch.nn.init helpers.',
        'draws': DRAWS,
        'mlp': {'inputShape': [28, 28, 1], 'hidden': [256, 128], 'outputs': 6, 'layers': []},
        'cnn': {'inputShape': [7, 7, 3], 'filters': [4, 8], 'dense': 12, 'outputs': 5, 'layers': []},
    }
    for name, i, o in mlp:
        out['mlp']['layers'].append({'name': name, **stats(lambda i=i, o=o: nn.Linear(i, o))})
    # CNN: conv 3×3 3→4, 4→8; 7 → 4 → 2 after two 'same' pools: dense 2·2·8 = 32 → 12 → 5
    for name, make in [
        ('conv1', lambda: nn.Conv2d(3, 4, 3, padding=1)),
        ('conv2', lambda: nn.Conv2d(4, 8, 3, padding=1)),
        ('dense', lambda: nn.Linear(32, 12)),
        ('output', lambda: nn.Linear(12, 5)),
    ]:
        out['cnn']['layers'].append({'name': name, **stats(make)})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'fixtures', 'pytorch-init.json')
    with open(path, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print('wrote', os.path.normpath(path))


if __name__ == '__main__':
    main()
