#!/usr/bin/env python3
"""Reference outputs of the tiny image encoders (tests/fixtures/clip-vision-tiny, dinov2-tiny and vit-tiny, made by
scripts/make-clip-vision-fixture.mjs), computed independently with numpy: the weights read from the ONNX files by a
minimal protobuf reader below, the graph and the preprocessing written again here from their description (the
image processor's fields in preprocessor_config.json; PIL's resampling filters with support scaling, separable, in
float64 without rounding between passes), the q8 graph's dynamic quantization emulated step by step
(DynamicQuantizeLinear's uint8 scale and zero point, round half to even; MatMulInteger in int32).

Writes tests/fixtures/clip-vision.json: for each model and each case of test images (made here, seeded), the images,
the pixel_values of the first image, and the outputs of every precision.

Usage: python3 scripts/make-clip-vision-fixtures.py
"""
import json
import math
import os

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIX = os.path.join(ROOT, "tests", "fixtures")


# ───────────────────────────── ONNX initializers (protobuf) ─────────────────────────────
def varint(b, i):
    x = 0
    s = 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return x, i


def fields(b):
    i = 0
    out = []
    while i < len(b):
        key, i = varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 2:
            n, i = varint(b, i)
            v = b[i : i + n]
            i += n
        elif w == 5:
            v = b[i : i + 4]
            i += 4
        elif w == 1:
            v = b[i : i + 8]
            i += 8
        else:
            raise ValueError(f"wire type {w}")
        out.append((f, v))
    return out


DTYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 7: np.int64, 10: np.float16}


def initializers(path):
    model = fields(open(path, "rb").read())
    graph = fields(next(v for f, v in model if f == 7))
    out = {}
    for f, v in graph:
        if f != 5:
            continue
        t = fields(v)
        dims = [x for g, x in t if g == 1]
        dtype = next(x for g, x in t if g == 2)
        name = next(x for g, x in t if g == 8).decode()
        raw = next(x for g, x in t if g == 9)
        out[name] = np.frombuffer(bytes(raw), dtype=DTYPES[dtype]).reshape(dims)
    return out


# ───────────────────────────── preprocessing ─────────────────────────────
def bicubic(x):
    a = -0.5
    x = abs(x)
    if x < 1:
        return ((a + 2) * x - (a + 3)) * x * x + 1
    if x < 2:
        return (((x - 5) * x + 8) * x - 4) * a
    return 0.0


def bilinear(x):
    x = abs(x)
    return 1 - x if x < 1 else 0.0


FILTERS = {3: (2.0, bicubic), 2: (1.0, bilinear)}


def coefficients(in_size, out_size, resample):
    """PIL's precompute_coeffs as a dense matrix [out_size, in_size]."""
    support0, f = FILTERS[resample]
    scale = in_size / out_size
    filterscale = max(scale, 1.0)
    support = support0 * filterscale
    m = np.zeros((out_size, in_size))
    for xx in range(out_size):
        center = (xx + 0.5) * scale
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size)
        w = np.array([f((x - center + 0.5) / filterscale) for x in range(xmin, xmax)])
        m[xx, xmin:xmax] = w / w.sum()
    return m


def preprocess(img, cfg):
    """img uint8 [h, w, c] → pixel_values float32 [3, H, W] as preprocessor_config.json says."""
    x = img.astype(np.float64)
    if x.shape[2] == 1:
        x = np.repeat(x, 3, axis=2)
    h, w = x.shape[:2]
    if isinstance(cfg["size"], int):  # the legacy form (ViTFeatureExtractor): a square of that side, no crop
        rh, rw = cfg["size"], cfg["size"]
    else:
        s = cfg["size"]["shortest_edge"]
        rh, rw = (s, (s * w) // h) if h <= w else ((s * h) // w, s)
    if (rh, rw) != (h, w):
        x = np.einsum("yh,hwc->ywc", coefficients(h, rh, cfg["resample"]), x)
        x = np.einsum("xw,ywc->yxc", coefficients(w, rw, cfg["resample"]), x)
    if cfg.get("do_center_crop", False):
        ch, cw = cfg["crop_size"]["height"], cfg["crop_size"]["width"]
        top, left = (rh - ch) // 2, (rw - cw) // 2
        x = x[top : top + ch, left : left + cw]
    # ViTImageProcessor's default rescale is 1/255 when the file does not say
    x = (x * cfg.get("rescale_factor", 1 / 255) - np.array(cfg["image_mean"])) / np.array(cfg["image_std"])
    return x.transpose(2, 0, 1).astype(np.float32)


# ───────────────────────────── the graph ─────────────────────────────
def dq_matmul(a, wq, wscale):
    """onnxruntime's dynamic quantization: DynamicQuantizeLinear(a) → MatMulInteger with int8 weights → rescale."""
    a = a.astype(np.float32)
    lo = min(0.0, float(a.min()))
    hi = max(0.0, float(a.max()))
    scale = np.float32((hi - lo) / 255)
    zp = int(np.clip(np.rint(-lo / scale), 0, 255)) if scale > 0 else 0
    q = np.clip(np.rint(a / scale) + zp, 0, 255).astype(np.int32) if scale > 0 else np.zeros(a.shape, np.int32)
    acc = (q - zp) @ wq.astype(np.int32)
    return acc.astype(np.float32) * (scale * np.float32(wscale))


def matmuls(W, names, kind):
    """The graph's MatMuls by weight name: float64 (fp32; fp16 = the float16 weights) or q8's emulated dynamic quantization."""
    if kind == "q8":
        return {k: (lambda a, k=k: dq_matmul(a, W[k + "_q"], W[k + "_scale"])) for k in names}
    ws = {k: (W[k + "_h"].astype(np.float64) if kind == "fp16" else W[k].astype(np.float64)) for k in names}
    return {k: (lambda a, k=k: a.astype(np.float64) @ ws[k]) for k in names}


def forward(pixel_values, W, patch, kind):
    """The fixture's graph (scripts/make-clip-vision-fixture.mjs header) in float64 (fp32, fp16) or emulated q8."""
    n = pixel_values.shape[0]
    g = 32 // patch
    p = pixel_values.reshape(n, 3, g, patch, g, patch).transpose(0, 2, 4, 1, 3, 5).reshape(n, g * g, 3 * patch * patch)
    names = ["w_patch", "w1"] + (["w_proj"] if ("w_proj" in W or "w_proj_q" in W or "w_proj_h" in W) else [])
    mm = matmuls(W, names, kind)
    x = mm["w_patch"](p) + W["pos_emb"].astype(np.float64)
    h = np.tanh(mm["w1"](x) + W["b1"].astype(np.float64))
    pooled = h.mean(axis=1)
    if "w_proj" in names:
        return {"image_embeds": mm["w_proj"](pooled), "last_hidden_state": h}
    return {"pooler_output": pooled, "last_hidden_state": h}


def forward_vit(pixel_values, W, kind):
    """The ViT fixture's graph (scripts/make-clip-vision-fixture.mjs vitEncoder): [CLS] + 196 patch tokens, tanh layer,
    final LayerNorm (eps 1e-12), the pooler on [CLS]; float64 (fp32, fp16) or emulated q8."""
    n = pixel_values.shape[0]
    p = pixel_values.reshape(n, 3, 14, 16, 14, 16).transpose(0, 2, 4, 1, 3, 5).reshape(n, 196, 768)
    mm = matmuls(W, ["w_patch", "w1", "w_pool"], kind)
    x = mm["w_patch"](p) + W["pos_emb"].astype(np.float64)
    cls = x.mean(axis=1, keepdims=True) + W["cls_emb"].astype(np.float64)
    h = np.tanh(mm["w1"](np.concatenate([cls, x], axis=1)) + W["b1"].astype(np.float64))
    mu = h.mean(axis=-1, keepdims=True)
    var = ((h - mu) ** 2).mean(axis=-1, keepdims=True)
    last = (h - mu) / np.sqrt(var + 1e-12) * W["ln_gamma"].astype(np.float64) + W["ln_beta"].astype(np.float64)
    pooler = np.tanh(mm["w_pool"](last[:, 0]) + W["b_pool"].astype(np.float64))
    return {"last_hidden_state[:, 0]": last[:, 0], "pooler_output": pooler}


# ───────────────────────────── test images ─────────────────────────────
def cases():
    rng = np.random.default_rng(20240613)
    yy, xx = np.mgrid[0:28, 0:28]
    ring = (np.hypot(yy - 13.5, xx - 13.5) < 9).astype(np.float64) * 200 + 20
    grey = np.stack(
        [
            ring,
            (xx * 9) % 256,
            rng.integers(0, 256, (28, 28)),
        ]
    ).astype(np.uint8)[..., None]
    rgb = rng.integers(0, 256, (2, 20, 30, 3)).astype(np.uint8)
    big = rng.integers(0, 256, (1, 48, 40, 1)).astype(np.uint8)
    return [("grey 28x28", grey), ("rgb 20x30", rgb), ("grey 48x40", big)]


def r(x, digits=8):
    return [float(f"{v:.{digits}g}") for v in np.asarray(x, dtype=np.float64).ravel()]


def main():
    out = {
        "_note": (
            "Reference outputs of tests/fixtures/clip-vision-tiny, dinov2-tiny and vit-tiny, made by "
            "scripts/make-clip-vision-fixtures.py with numpy: weights read from the ONNX files, the graph and the "
            "preprocessing (PIL's bicubic with support scaling, float64, then centre crop and normalisation) "
            "written independently of src/engine/clip/image-preprocess.ts; fp16 = the float16 weights in float64; "
            "q8 = onnxruntime's dynamic quantization emulated (per-batch activation scale). Images are uint8, "
            "row-major [height, width, channels]; pixel_values [3, H, W] of each case's first image (CLIP fixture), the "
            "first 2,000 values of the ViT fixture's (224 x 224, bilinear, mean/std 0.5: google/vit-base-patch16-224-in21k's "
            "preprocessor_config.json); the ViT's feature is last_hidden_state[:, 0]."
        ),
        "cases": [{"name": label, "shape": list(imgs.shape[1:]), "images": [im.ravel().tolist() for im in imgs]} for label, imgs in cases()],
        "models": {},
    }
    for name, patch, files, feature in [
        ("clip-vision-tiny", 16, {"fp32": "vision_model.onnx", "q8": "vision_model_quantized.onnx", "fp16": "vision_model_fp16.onnx"}, "image_embeds"),
        ("dinov2-tiny", 8, {"fp32": "model.onnx", "q8": "model_quantized.onnx"}, "pooler_output"),
        ("vit-tiny", 16, {"fp32": "model.onnx", "q8": "model_quantized.onnx", "fp16": "model_fp16.onnx"}, "last_hidden_state[:, 0]"),
    ]:
        folder = os.path.join(FIX, name)
        cfg = json.load(open(os.path.join(folder, "preprocessor_config.json")))
        weights = {k: initializers(os.path.join(folder, "onnx", f)) for k, f in files.items()}
        results = []
        for label, imgs in cases():
            pv = np.stack([preprocess(im, cfg) for im in imgs])
            run = (lambda W, k: forward_vit(pv, W, k)) if name == "vit-tiny" else (lambda W, k: forward(pv, W, patch, k))
            outputs = {k: r(run(W, k)[feature]) for k, W in weights.items()}
            # the preprocessing is checked value by value on the CLIP and ViT fixtures; the other's outputs check it whole
            results.append(
                {
                    "case": label,
                    **({"pixel_values": r(pv[0], 7)} if name == "clip-vision-tiny" else {}),
                    **({"pixel_values_head": r(pv[0].ravel()[:2000], 7)} if name == "vit-tiny" else {}),
                    "outputs": outputs,
                }
            )
        out["models"][name] = {"feature": feature, "dim": int(len(results[0]["outputs"]["fp32"]) // len(cases()[0][1])), "results": results}
    path = os.path.join(FIX, "clip-vision.json")
    with open(path, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))
        fh.write("\n")
    print(f"[make-clip-vision-fixtures] wrote {os.path.relpath(path, ROOT)} ({os.path.getsize(path) // 1024} KB)")


if __name__ == "__main__":
    main()
