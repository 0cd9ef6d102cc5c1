#!/usr/bin/python3
"""models/box_refiner.onnx on the lawn samples (never trained on): every die's true box moved
off on purpose, a quarter to a third of its side in a random direction and 0.75 to 1.33 times
as large, then one refiner step from there as vision/read.c takes it (a square of
pipeline.json's box_refiner crop_scale times the box's long side, bilinear, edges replicated,
resampled to the reader's crop). The refined centres must lie far nearer the dice's than the
moved ones, and the sizes too.

  tests/test_box_refiner.py SAMPLES_DIR   # samples/lawn: truth.csv beside the JPEGs

Exits 1 on a failed check; 77 (skipped) without python3-opencv or python3-numpy.
"""
import csv
import json
import pathlib
import sys

try:
    import cv2
    import numpy as np
except ImportError as missing:
    print(f"skipped: {missing.name} is not installed")
    sys.exit(77)

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models"
PIPELINE = json.loads((MODELS / "pipeline.json").read_text())
CROP, SCALE = PIPELINE["reader"]["crop"], PIPELINE["box_refiner"]["crop_scale"]
EVERY = 4  # every fourth sample, to stay quick


def square(image, cx, cy, side):
    """The square of `side` pixels centred on (cx, cy), resampled to CROP x CROP, RGB in 0..1,
    channels first (what the nets take)."""
    m = np.array([[CROP / side, 0, CROP / 2 - cx * CROP / side],
                  [0, CROP / side, CROP / 2 - cy * CROP / side]])
    patch = cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    return patch.transpose(2, 0, 1).astype(np.float32) / 255.0


def main():
    root = pathlib.Path(sys.argv[1])
    net = cv2.dnn.readNetFromONNX(str(MODELS / "box_refiner.onnx"))
    rng = np.random.default_rng(11)
    rows = list(csv.DictReader(open(root / "truth.csv", newline="")))
    files = sorted({r["file"] for r in rows})[::EVERY]
    before, after, size_before, size_after = [], [], [], []
    for name in files:
        image = cv2.cvtColor(cv2.imread(str(root / name)), cv2.COLOR_BGR2RGB)
        for r in (r for r in rows if r["file"] == name):
            x, y, w, h = (float(r[k]) for k in "xywh")
            side, cx, cy = max(w, h), x + w / 2, y + h / 2
            towards = rng.uniform(0, 2 * np.pi)
            off = rng.uniform(0.25, 0.33) * side
            mx, my = cx + off * np.cos(towards), cy + off * np.sin(towards)
            drawn = side * np.exp(rng.uniform(np.log(0.75), np.log(1.33)))
            net.setInput(square(image, mx, my, SCALE * drawn)[None])
            dx, dy, lw, lh = net.forward()[0]
            rx, ry = mx + dx * drawn, my + dy * drawn
            before.append(np.hypot(mx - cx, my - cy) / side)
            after.append(np.hypot(rx - cx, ry - cy) / side)
            size_before.append(abs(np.log(drawn / side)))
            size_after.append(abs(np.log(drawn * np.exp(max(lw, lh)) / side)))
    failures = []
    for what, got, bound in (("median centre error", np.median(after), 0.10),
                             ("90th percentile centre error", np.percentile(after, 90), 0.25),
                             ("median log size error", np.median(size_after), 0.12)):
        ok = got <= bound
        unit = "die sides" if "centre" in what else "(log of the side's ratio)"
        print(f"{'ok  ' if ok else 'FAIL'} {what} after one step: {got:.3f} {unit} "
              f"(bound {bound}; moved boxes: "
              f"{np.median(before) if 'centre' in what else np.median(size_before):.3f} median)")
        if not ok:
            failures.append(what)
    print(f"{len(after)} dice of {len(files)} samples")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
