#!/usr/bin/env python3
"""Fixtures for src/core/similarity (cosine.ts, validate.ts, parse-upload.ts): docs/science.md §1 (EDGE) and §6.

Writes tests/fixtures/similarity/:
  emb_*.npy       one 5×8 embedding table saved by numpy in many dtypes / orders / format versions
  matrix_*.npy    its cosine similarity matrix
  *.json, *.csv, *.tsv, *.txt   the same numbers as text (floats written with repr, so they round-trip exactly)
  expected.json   classes, the embeddings, and cosine matrices computed by numpy, with a _note saying how

Run: python3 scripts/make-similarity-fixtures.py   (numpy only; deterministic)
"""
import io
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "fixtures", "similarity")

CLASSES = ["cat", "dog", "aquarium_fish", "maple tree", "tiger"]


def cosine(E, dtype=np.float64):
    """numpy reference: L2-normalise rows, then all dot products, in `dtype` arithmetic."""
    E = np.asarray(E, dtype=dtype)
    U = E / np.linalg.norm(E, axis=1, keepdims=True)
    return U @ U.T


def save_npy(name, arr, version=None):
    path = os.path.join(OUT, name)
    if version is None:
        np.save(path, arr)
    else:
        with open(path, "wb") as fh:
            np.lib.format.write_array(fh, arr, version=version)
    # self-check: numpy reads back what we meant
    back = np.load(path)
    assert back.dtype == arr.dtype and back.shape == arr.shape and np.array_equal(back, arr), name


def write(name, text):
    with open(os.path.join(OUT, name), "w", newline="") as fh:
        fh.write(text)


def rows_json(A):
    return [[float(x) if A.dtype.kind == "f" else int(x) for x in row] for row in A]


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(20240607)
    # Correlated rows so the similarities are not all near 0: a shared direction plus noise.
    base = rng.normal(size=8)
    E = 0.6 * base + rng.normal(size=(5, 8))
    E[1] = 0.8 * E[0] + 0.3 * rng.normal(size=8)  # dog close to cat
    E64 = E.astype(np.float64)
    E32 = E64.astype(np.float32)
    E16 = E64.astype(np.float16)
    Ei4 = np.round(E64 * 100).astype(np.int32)
    Ei8 = np.round(E64 * 100).astype(np.int64)
    S = cosine(E64)
    # exact symmetry / unit diagonal in the saved matrix, as any sane exporter produces
    S = (S + S.T) / 2
    np.fill_diagonal(S, 1.0)

    # .npy variants
    save_npy("emb_f64.npy", E64)
    save_npy("emb_f32.npy", E32)
    save_npy("emb_f16.npy", E16)
    save_npy("emb_i4.npy", Ei4)
    save_npy("emb_i8.npy", Ei8)
    save_npy("emb_f64_be.npy", E64.astype(">f8"))
    save_npy("emb_f32_be.npy", E32.astype(">f4"))
    F = np.asfortranarray(E64)
    assert F.flags.f_contiguous and not F.flags.c_contiguous
    save_npy("emb_f64_fortran.npy", F)
    save_npy("emb_f32_fortran.npy", np.asfortranarray(E32))
    save_npy("emb_f64_v2.npy", E64, version=(2, 0))
    save_npy("emb_f64_v3.npy", E64, version=(3, 0))
    save_npy("matrix_f64.npy", S)
    save_npy("matrix_f32.npy", S.astype(np.float32))
    save_npy("matrix_f64_fortran.npy", np.asfortranarray(S))
    save_npy("emb_1d.npy", E64[0])  # wrong shape, for an error test
    save_npy("emb_3d.npy", E64.reshape(5, 2, 4))
    save_npy("emb_complex.npy", E64.astype(np.complex128))
    save_npy("emb_bool.npy", E64 > 0)
    save_npy("emb_transposed.npy", np.ascontiguousarray(E64.T))  # 8×5: one column per class

    # Text versions (repr floats round-trip exactly)
    r = lambda x: repr(float(x))  # noqa: E731
    write("emb_bare.json", json.dumps(rows_json(E64)))
    write("emb_named.json", json.dumps({c: rows_json(E64)[i] for i, c in enumerate(CLASSES)}, indent=1))
    write("emb_obj.json", json.dumps({"embeddings": rows_json(E64), "classes": CLASSES}))
    write("matrix_obj.json", json.dumps({"matrix": rows_json(S), "classes": CLASSES}, indent=1))
    write("matrix_bare.json", json.dumps(rows_json(S)))
    write("emb.csv", "\n".join(",".join(r(x) for x in row) for row in E64) + "\n")
    write(
        "emb_named.csv",
        "class," + ",".join(f"d{k}" for k in range(8)) + "\r\n"
        + "".join(f'"{c}",' + ",".join(r(x) for x in row) + "\r\n" for c, row in zip(CLASSES, E64)),
    )
    # pandas DataFrame(E, index=CLASSES).to_csv(): empty corner, column labels 0..7
    write(
        "emb_pandas.csv",
        "," + ",".join(str(k) for k in range(8)) + "\n"
        + "".join(f"{c}," + ",".join(r(x) for x in row) + "\n" for c, row in zip(CLASSES, E64)),
    )
    write("emb.tsv", "\n".join("\t".join(r(x) for x in row) for row in E64) + "\n")
    write(
        "matrix_named.csv",
        "," + ",".join(CLASSES) + "\n"
        + "".join(f"{c}," + ",".join(r(x) for x in row) + "\n" for c, row in zip(CLASSES, S)),
    )
    write("matrix.tsv", "\n".join("\t".join(r(x) for x in row) for row in S) + "\n")
    buf = io.StringIO()
    np.savetxt(buf, S, fmt="%.18e", header="cosine similarity, " + " ".join(c.replace(" ", "_") for c in CLASSES))
    write("matrix_savetxt.txt", buf.getvalue())  # np.savetxt's default: space-separated, '# ' header comment

    expected = {
        "_note": (
            "Made by scripts/make-similarity-fixtures.py with numpy " + np.__version__ + ". "
            "embeddings = a seeded 5x8 float64 table (default_rng(20240607)); every file here holds it "
            "(or its cosine matrix) in another format. cosine(E) = (E / np.linalg.norm(E, axis=1, keepdims=True)) "
            "@ (same).T. cosine_f64: float64 arithmetic on the float64 table; cosine_f32_numpy: float32 "
            "arithmetic on the float32 table (compare at 1e-6); cosine_f32_as_f64 / cosine_f16_as_f64 / cosine_int: "
            "float64 arithmetic on the float32 / float16 / int32 (round(100*E)) values, which is what the "
            "TypeScript code does (compare at 1e-12). matrix = cosine_f64 symmetrised with unit diagonal, as saved "
            "in matrix_*.npy, matrix_*.json, matrix_*.csv, matrix.tsv and matrix_savetxt.txt."
        ),
        "classes": CLASSES,
        "embeddings": rows_json(E64),
        "cosine_f64": cosine(E64).tolist(),
        "cosine_f32_numpy": cosine(E32, np.float32).astype(np.float64).tolist(),
        "cosine_f32_as_f64": cosine(E32.astype(np.float64)).tolist(),
        "cosine_f16_as_f64": cosine(E16.astype(np.float64)).tolist(),
        "cosine_int": cosine(Ei4.astype(np.float64)).tolist(),
        "matrix": S.tolist(),
        "matrix_f32_as_f64": S.astype(np.float32).astype(np.float64).tolist(),
    }
    with open(os.path.join(OUT, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1)
        fh.write("\n")
    print("wrote", sorted(os.listdir(OUT)))


if __name__ == "__main__":
    main()
