#!/usr/bin/env python3
"""Tiny files in the formats users drop, for tests/unit/data/parsers (src/data/parsers).

Writes tests/fixtures/parsers/ (all together well under 200 KB):
- idx/: MNIST-style IDX files, raw and .gz — train 6 images of 5 rows × 4 cols (non-square, so a rows/cols
  swap shows), test 3 images; pixel (n, y, x) = (37n + 11y + 3x) % 256, label n = (3n + 1) % 10.
- cifar10/: cifar-10-batches-bin/{data_batch_1.bin (3 records), data_batch_2.bin (2), test_batch.bin (2),
  batches.meta.txt, readme.html} and cifar-10-binary.tar.gz of that folder (Python tarfile, PAX format, plus a
  member with a 130-character name). Record = label byte + 3072 bytes CHW;
  stored pixel (n, c, y, x) = (29n + 85c + 7y + 3x) % 256 with n counted over train then test.
- cifar100/: cifar-100-binary/{train.bin (3 records), test.bin (2), fine_label_names.txt,
  coarse_label_names.txt} and cifar-100-binary.tar.gz (GNU format, long-name member). Record = coarse, fine, 3072.
- zip/: shapes.zip (class folders circle, square, triangle inside a wrapper folder "shapes/", a nested
  sub-folder, __MACOSX and dotfile junk, a readme), and bad zips: one-class, image-at-root, empty-class,
  no-images, bzip2-compressed, fake-png. PNGs come from a hand-written encoder (zlib + crc32, filter 0, RGBA).
- expected.json: what the parsers must return (shapes, labels, class names, SHA-256 of the HWC pixel arrays
  computed with numpy's transpose, and the RGBA pixels of every PNG), with a `_note`.

Run: python3 scripts/make-parser-fixtures.py
"""
import gzip
import hashlib
import io
import json
import os
import struct
import tarfile
import zipfile
import zlib

import numpy as np

ROOT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "parsers")
MTIME = 1_700_000_000  # fixed, so the files are byte-identical on every run


def write(path, data):
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=MTIME, filename="") as f:
        f.write(data)
    return buf.getvalue()


def sha(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


# ---------------------------------------------------------------- IDX
def idx_images(n0, count, rows, cols):
    n = np.arange(n0, n0 + count)[:, None, None]
    y = np.arange(rows)[None, :, None]
    x = np.arange(cols)[None, None, :]
    return ((37 * n + 11 * y + 3 * x) % 256).astype(np.uint8)


def idx_file_images(a):
    return struct.pack(">IIII", 2051, *a.shape) + a.tobytes()


def idx_file_labels(l):
    return struct.pack(">II", 2049, len(l)) + l.astype(np.uint8).tobytes()


def make_idx(expected):
    rows, cols = 5, 4
    tr = idx_images(0, 6, rows, cols)
    te = idx_images(6, 3, rows, cols)
    trl = (3 * np.arange(6) + 1) % 10
    tel = (3 * np.arange(6, 9) + 1) % 10
    files = {
        "train-images-idx3-ubyte": idx_file_images(tr),
        "train-labels-idx1-ubyte": idx_file_labels(trl),
        "t10k-images-idx3-ubyte": idx_file_images(te),
        "t10k-labels-idx1-ubyte": idx_file_labels(tel),
    }
    for name, data in files.items():
        write(f"idx/{name}", data)
        write(f"idx/{name}.gz", gz(data))
    expected["idx"] = {
        "shape": [rows, cols, 1],
        "train": {"count": 6, "labels": trl.tolist(), "sha256": sha(tr[..., None])},
        "test": {"count": 3, "labels": tel.tolist(), "sha256": sha(te[..., None])},
    }


# ---------------------------------------------------------------- CIFAR
def cifar_chw(n0, count):
    n = np.arange(n0, n0 + count)[:, None, None, None]
    c = np.arange(3)[None, :, None, None]
    y = np.arange(32)[None, None, :, None]
    x = np.arange(32)[None, None, None, :]
    return ((29 * n + 85 * c + 7 * y + 3 * x) % 256).astype(np.uint8)


def tar_gz(members, fmt):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as tf:
        dirs = sorted({m.rsplit("/", 1)[0] for m in members})
        for d in dirs:
            info = tarfile.TarInfo(d)
            info.type = tarfile.DIRTYPE
            info.mode = 0o755
            info.mtime = MTIME
            tf.addfile(info)
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = MTIME
            info.mode = 0o644
            tf.addfile(info, io.BytesIO(data))
    return gz(buf.getvalue())


CIFAR10_NAMES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]


def make_cifar10(expected):
    sizes = {"data_batch_1.bin": 3, "data_batch_2.bin": 2, "test_batch.bin": 2}
    n0 = 0
    members = {}
    parts = {"train": ([], []), "test": ([], [])}
    for name, count in sizes.items():
        chw = cifar_chw(n0, count)
        labels = (3 * np.arange(n0, n0 + count) + 1) % 10
        rec = np.concatenate([labels.astype(np.uint8)[:, None], chw.reshape(count, -1)], axis=1)
        members[f"cifar-10-batches-bin/{name}"] = rec.tobytes()
        split = "test" if name.startswith("test") else "train"
        parts[split][0].append(chw)
        parts[split][1].append(labels)
        n0 += count
    # the real batches.meta.txt ends with blank lines
    members["cifar-10-batches-bin/batches.meta.txt"] = ("\n".join(CIFAR10_NAMES) + "\n\n").encode()
    members["cifar-10-batches-bin/readme.html"] = b"<p>tiny CIFAR-10 fixture</p>\n"
    members["cifar-10-batches-bin/" + "long-" * 25 + "name.html"] = b"long name member\n"
    for name, data in members.items():
        if "long-" not in name:
            write(f"cifar10/{name}", data)
    write("cifar10/cifar-10-binary.tar.gz", tar_gz(members, tarfile.PAX_FORMAT))
    exp = {"shape": [32, 32, 3], "classNames": CIFAR10_NAMES, "longMember": "cifar-10-batches-bin/" + "long-" * 25 + "name.html"}
    for split, (chws, labels) in parts.items():
        chw = np.concatenate(chws)
        exp[split] = {
            "count": int(chw.shape[0]),
            "labels": np.concatenate(labels).tolist(),
            "sha256": sha(chw.transpose(0, 2, 3, 1)),  # CHW -> HWC
            "firstIndex": {"train": 0, "test": 5}[split],
        }
    expected["cifar10"] = exp


def make_cifar100(expected):
    fine_names = [f"fine_{k:02d}" for k in range(100)]
    coarse_names = [f"coarse_{k:02d}" for k in range(20)]
    n0 = 0
    members = {}
    exp = {"shape": [32, 32, 3], "classNames": fine_names, "coarseClassNames": coarse_names}
    for name, count in (("train.bin", 3), ("test.bin", 2)):
        chw = cifar_chw(n0, count)
        idx = np.arange(n0, n0 + count)
        fine = (idx * 41 + 7) % 100
        coarse = fine // 5
        rec = np.concatenate([coarse.astype(np.uint8)[:, None], fine.astype(np.uint8)[:, None], chw.reshape(count, -1)], axis=1)
        members[f"cifar-100-binary/{name}"] = rec.tobytes()
        split = name.split(".")[0]
        exp[split] = {
            "count": count,
            "labels": fine.tolist(),
            "coarseLabels": coarse.tolist(),
            "sha256": sha(chw.transpose(0, 2, 3, 1)),
            "firstIndex": n0,
        }
        n0 += count
    members["cifar-100-binary/fine_label_names.txt"] = ("\n".join(fine_names) + "\n").encode()
    members["cifar-100-binary/coarse_label_names.txt"] = ("\n".join(coarse_names) + "\n").encode()
    members["cifar-100-binary/" + "very-long-" * 12 + "readme.txt"] = b"long name member\n"
    for name, data in members.items():
        if "very-long-" not in name:
            write(f"cifar100/{name}", data)
    write("cifar100/cifar-100-binary.tar.gz", tar_gz(members, tarfile.GNU_FORMAT))
    expected["cifar100"] = exp


# ---------------------------------------------------------------- PNG + zip
def png(rgba):
    """Minimal PNG encoder: 8-bit RGBA (colour type 6), every row with filter 0, one IDAT."""
    h, w, _ = rgba.shape

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def image(seed, h=5, w=6):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)
    a[..., 3] = 255
    a[0, 0, 3] = 0  # one transparent pixel: background handling shows
    return a


def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            if name.endswith("/"):
                info.external_attr = 0o40755 << 16 | 0x10
            z.writestr(info, data)
    return buf.getvalue()


def make_zips(expected):
    imgs = {
        "shapes/circle/c1.png": image(1),
        "shapes/circle/c2.png": image(2),
        "shapes/square/s1.png": image(3),
        "shapes/triangle/sub/t1.png": image(4),
        "shapes/triangle/t0.png": image(5),
    }
    entries = [("shapes/", b""), ("shapes/circle/", b""), ("shapes/square/", b""), ("shapes/triangle/", b"")]
    entries += [(k, png(v)) for k, v in imgs.items()]
    entries += [
        ("shapes/readme.txt", b"three classes\n"),
        ("shapes/.DS_Store", b"\x00\x00\x00\x01Bud1"),
        ("__MACOSX/shapes/circle/._c1.png", b"\x00\x05\x16\x07junk"),
        ("shapes/square/Thumbs.db", b"junk"),
    ]
    write("zip/shapes.zip", zip_bytes(entries))
    expected["zip"] = {
        "classNames": ["circle", "square", "triangle"],
        # grouped by class, sorted by path inside a class
        "paths": [
            "shapes/circle/c1.png",
            "shapes/circle/c2.png",
            "shapes/square/s1.png",
            "shapes/triangle/sub/t1.png",
            "shapes/triangle/t0.png",
        ],
        "labels": [0, 0, 1, 2, 2],
        "skipped": ["shapes/readme.txt"],
        "rgba": {k: {"width": int(v.shape[1]), "height": int(v.shape[0]), "data": v.reshape(-1).tolist()} for k, v in imgs.items()},
    }
    one = image(9)
    write("zip/one-class.zip", zip_bytes([("cats/a.png", png(one)), ("cats/b.png", png(image(10)))]))
    write("zip/image-at-root.zip", zip_bytes([("cats/a.png", png(one)), ("dogs/b.png", png(one)), ("stray.png", png(one))]))
    write("zip/empty-class.zip", zip_bytes([("cats/a.png", png(one)), ("dogs/b.png", png(one)), ("birds/", b"")]))
    write("zip/no-images.zip", zip_bytes([("notes/a.txt", b"a"), ("notes/b.csv", b"1,2")]))
    write("zip/bzip2.zip", zip_bytes([("cats/a.png", png(one)), ("dogs/b.png", png(one))], zipfile.ZIP_BZIP2))
    write("zip/fake-png.zip", zip_bytes([("cats/a.png", png(one)), ("dogs/b.png", b"this is not a png")]))


def main():
    expected = {
        "_note": (
            "Generated by scripts/make-parser-fixtures.py (numpy " + np.__version__ + "); tiny IDX, CIFAR-10/100 "
            "binary and image-folder zip fixtures for src/data/parsers. sha256 = SHA-256 of the N×H×W×C uint8 "
            "array (CIFAR: numpy transpose(0,2,3,1) of the stored CHW records). Regenerate rather than edit."
        )
    }
    make_idx(expected)
    make_cifar10(expected)
    make_cifar100(expected)
    make_zips(expected)
    with open(os.path.join(ROOT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(ROOT) for f in fs)
    print(f"wrote {os.path.normpath(ROOT)}: {total} bytes in all")


if __name__ == "__main__":
    main()
