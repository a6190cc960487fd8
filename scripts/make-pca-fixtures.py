"""Reference values for src/core/features/pca.ts (the Data tab's 2-D feature map): numpy's eigh of the covariance.

Writes tests/fixtures/pca.json. Each case: rows X (n x d), the two top eigenvalues of np.cov(X, rowvar=False), their
share of the trace, the components (sign rule: each component's entry of largest magnitude positive) and the
centred rows' coordinates on them.
"""
import json
import numpy as np

rng = np.random.default_rng(27)


def case(name, x):
    x = np.asarray(x, dtype=np.float64)
    c = np.cov(x, rowvar=False)
    w, v = np.linalg.eigh(c)
    order = np.argsort(w)[::-1][:2]
    comps = v[:, order].T.copy()
    for p in comps:
        if p[np.argmax(np.abs(p))] < 0:
            p *= -1
    coords = (x - x.mean(axis=0)) @ comps.T
    return {
        "name": name,
        "n": int(x.shape[0]),
        "d": int(x.shape[1]),
        "x": [round(float(t), 12) for t in x.ravel()],
        "variances": [float(t) for t in w[order]],
        "explained": [float(t) for t in w[order] / np.trace(c)],
        "components": [[float(t) for t in p] for p in comps],
        "coords": [[float(a), float(b)] for a, b in coords],
    }


# anisotropic Gaussian, n > d
a = rng.normal(size=(60, 5)) * np.array([5.0, 3.0, 1.0, 0.5, 0.2])
# three classes in 100 dimensions, n < d (the features of a few images of a wide encoder)
centres = rng.normal(size=(3, 100)) * 3
b = np.concatenate([centres[k] + rng.normal(size=(14, 100)) for k in range(3)])
# non-negative ReLU-like features with a large common offset (centring matters)
c = np.maximum(0, rng.normal(loc=0.3, size=(80, 12)) @ rng.normal(size=(12, 12))) + 10.0

out = {
    "_note": "Made by scripts/make-pca-fixtures.py (numpy %s, default_rng(27)): np.linalg.eigh of np.cov(X, rowvar=False), the two largest eigenpairs, each component's largest-magnitude entry positive, coordinates of the centred rows." % np.__version__,
    "cases": [case("anisotropic 60x5", a), case("three classes 42x100", b), case("relu offset 80x12", c)],
}
with open("tests/fixtures/pca.json", "w") as f:
    json.dump(out, f)
print("wrote tests/fixtures/pca.json")
