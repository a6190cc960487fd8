#!/usr/bin/env python3
"""Reference numbers for the fused MLP step (src/engine/kernels/fused-mlp.ts, wasm/mlp-step.ts), in float64 numpy.

Run: python3 scripts/make-fused-fixtures.py  (writes tests/fixtures/fused-mlp.json)

Each case is a small MLP (ReLU hidden layers, linear output), weights and a batch of uint8 images drawn from
numpy's default_rng(seed) (images: half the pixels zero, as Fashion-MNIST), integer labels, a head width h (the
cross-entropy over the first h logits, as the trainer's 'seen' head) and an optimiser. Written by hand from the
definitions, independently of the TypeScript:
- x = image / 255; a_0 = x; z_l = a_l W_l + b_l; a_{l+1} = max(z_l, 0); logits = z_L;
- loss = mean_b [ log Σ_{j<h} exp z_bj − z_{b,y_b} ]; ∂loss/∂z_bj = (softmax_j − [j = y_b]) / B for j < h, 0 beyond;
- backward through ReLU with the derivative [z > 0];
- Adam (tfjs's form, with its ε outside the square root): m ← β1 m + (1−β1) g, v ← β2 v + (1−β2) g²,
  w ← w − lr · (m / (1−β1^t)) / (√(v / (1−β2^t)) + ε); SGD: w ← w − lr g.
`steps` steps are taken on the same batch; the file records the loss and the number right at step 1, the gradients
of step 1 and the weights after the last step.
"""
import json, os
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'fixtures', 'fused-mlp.json')

CASES = [
    # name, widths (input, hidden..., outputs), batch, head, optimiser, steps, seed
    ('odd widths, partial head, adam', [15, 7, 5, 3], 5, 2, 'adam', 3, 1),
    ('no hidden layer, sgd', [10, 6], 4, 6, 'sgd', 2, 2),
    ('wide blocks (16-column and 4-column tails), adam', [40, 36, 20, 9], 7, 9, 'adam', 4, 3),
]
LR, B1, B2, EPS = 0.01, 0.9, 0.999, 1e-7


def run(widths, batch, head, opt, steps, seed):
    rng = np.random.default_rng(seed)
    L = len(widths) - 1
    W = [rng.uniform(-0.5, 0.5, size=(widths[l], widths[l + 1])) for l in range(L)]
    b = [rng.uniform(-0.1, 0.1, size=widths[l + 1]) for l in range(L)]
    # float32 starting weights: what the fused step is given
    W = [w.astype(np.float32).astype(np.float64) for w in W]
    b = [v.astype(np.float32).astype(np.float64) for v in b]
    init = [a.copy() for pair in zip(W, b) for a in pair]
    pix = rng.integers(1, 256, size=(batch, widths[0]))
    mask = rng.random(size=(batch, widths[0])) < 0.5
    images = np.where(mask, 0, pix).astype(np.uint8)
    labels = rng.integers(0, head, size=batch)
    x = (images.astype(np.float32) / np.float32(255)).astype(np.float64)
    m = [np.zeros_like(a) for a in init]
    v = [np.zeros_like(a) for a in init]
    out = {}
    for t in range(1, steps + 1):
        acts, zs = [x], []
        for l in range(L):
            z = acts[-1] @ W[l] + b[l]
            zs.append(z)
            acts.append(np.maximum(z, 0))
        logits = zs[-1][:, :head]
        mx = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - mx)
        s = e.sum(axis=1, keepdims=True)
        loss = float(np.mean(np.log(s[:, 0]) - (logits[np.arange(batch), labels] - mx[:, 0])))
        correct = int(np.sum(np.argmax(logits, axis=1) == labels))
        dz = np.zeros_like(zs[-1])
        dz[:, :head] = e / s
        dz[np.arange(batch), labels] -= 1
        dz /= batch
        grads = [None] * (2 * L)
        for l in range(L - 1, -1, -1):
            grads[2 * l] = acts[l].T @ dz
            grads[2 * l + 1] = dz.sum(axis=0)
            if l > 0:
                dz = (dz @ W[l].T) * (zs[l - 1] > 0)
        if t == 1:
            out['loss'] = loss
            out['correct'] = correct
            out['gradients'] = [g.ravel().tolist() for g in grads]
        params = [a for pair in zip(W, b) for a in pair]
        for i, (p, g) in enumerate(zip(params, grads)):
            if opt == 'sgd':
                p -= LR * g
            else:
                m[i] = B1 * m[i] + (1 - B1) * g
                v[i] = B2 * v[i] + (1 - B2) * g * g
                p -= LR * (m[i] / (1 - B1 ** t)) / (np.sqrt(v[i] / (1 - B2 ** t)) + EPS)
    out['weightsAfter'] = [a.ravel().tolist() for pair in zip(W, b) for a in pair]
    return init, images, labels, out


cases = []
for name, widths, batch, head, opt, steps, seed in CASES:
    init, images, labels, out = run(widths, batch, head, opt, steps, seed)
    cases.append({
        'name': name, 'widths': widths, 'batch': batch, 'head': head, 'optimizer': opt, 'steps': steps,
        'lr': LR, 'beta1': B1, 'beta2': B2, 'epsilon': EPS,
        'weights': [a.ravel().tolist() for a in init],
        'images': images.ravel().tolist(), 'labels': labels.tolist(), **out,
    })
with open(OUT, 'w') as f:
    json.dump({'_note': 'Made by python3 scripts/make-fused-fixtures.py (numpy %s, float64); see its docstring.' % np.__version__, 'cases': cases}, f)
print(OUT, len(cases), 'cases')
