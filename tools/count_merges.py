#!/usr/bin/python3
"""Count the dice an exported detector takes for one with another at the first look.

A die is merged when no sure peak (score 0.5 or more) lies within half its side of its centre,
but its centre lies inside the box of a peak that does: mostly a die half behind another, whose
score is only a shoulder of the front die's peak. This is the detector alone, at the first look
of vision/detect.c (the photo shrunk to the canvas, local maxima over 3x3 cells, one peak per
SAME_DIE); the second look and the step back are left out, so that detectors can be compared
on the scale where they merge. `yardzee eval` counts the whole reader's ("missed, inside another
die's box").

  tools/count_merges.py models/dice_detector.onnx samples/lawn /tmp/behind1 [--list]

--list names every scene with a merged die (folder/file and how many), the form a training
script can weigh. Needs python3-opencv and python3-numpy (tools/setup.sh).
"""
import argparse
import collections
import csv
import math
import pathlib
import sys

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from train_reader import BOX_UNIT, DET_SIDE, PIPELINE, STRIDE  # noqa: E402

ALIGN = PIPELINE["detector"]["align"]
DOUBT_SCORE = 0.25  # vision/tuning.c's doubt_score and die_score
DIE_SCORE = 0.5
SAME_DIE = 0.35  # vision/detect.c


def first_look_peaks(net, image):
    """[(score, cx, cy, w, h)] in photo pixels, strongest first, one per die."""
    h, w = image.shape[:2]
    scale = DET_SIDE / max(w, h)
    sw, sh = round(w * scale), round(h * scale)
    canvas = np.zeros(((sh + ALIGN - 1) // ALIGN * ALIGN, (sw + ALIGN - 1) // ALIGN * ALIGN, 3),
                      np.uint8)
    canvas[:sh, :sw] = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    net.setInput(canvas.transpose(2, 0, 1)[None].astype(np.float32) / 255.0)
    heat, width, height = net.forward()[0]
    peaks = []
    for y in range((sh + STRIDE - 1) // STRIDE):
        for x in range((sw + STRIDE - 1) // STRIDE):
            score = heat[y, x]
            if score >= DOUBT_SCORE and score >= heat[max(0, y - 1):y + 2, max(0, x - 1):x + 2].max():
                peaks.append((float(score), (x + 0.5) * STRIDE / scale, (y + 0.5) * STRIDE / scale,
                              width[y, x] * BOX_UNIT / scale, height[y, x] * BOX_UNIT / scale))
    kept = []
    for p in sorted(peaks, reverse=True):
        if all(math.hypot(p[1] - k[1], p[2] - k[2]) >= SAME_DIE * min(max(p[3:]), max(k[3:]))
               for k in kept):
            kept.append(p)
    return kept


def merged_dice(peaks, dice):
    """How many of dice [(x, y, w, h)] have no sure peak near their centre but lie in one's box."""
    sure = [p for p in peaks if p[0] >= DIE_SCORE]
    merged = 0
    for x, y, w, h in dice:
        cx, cy = x + w / 2, y + h / 2
        if any(math.hypot(cx - p[1], cy - p[2]) < 0.5 * max(w, h) for p in sure):
            continue
        merged += any(abs(cx - p[1]) < p[3] / 2 and abs(cy - p[2]) < p[4] / 2 for p in sure)
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("detector", type=pathlib.Path)
    parser.add_argument("folders", type=pathlib.Path, nargs="+", help="render folders (truth.csv)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    net = cv2.dnn.readNetFromONNX(str(args.detector))
    for folder in args.folders:
        boxes = collections.defaultdict(list)
        with open(folder / "truth.csv", newline="") as f:
            for row in csv.DictReader(f):
                boxes[row["file"]].append(tuple(float(row[k]) for k in "xywh"))
        scenes = dice = 0
        for name, truth in sorted(boxes.items()):
            image = cv2.imread(str(folder / name))
            if image is None:
                sys.exit(f"{folder / name}: cannot read")
            merged = merged_dice(first_look_peaks(net, cv2.cvtColor(image, cv2.COLOR_BGR2RGB)),
                                 truth)
            scenes += merged > 0
            dice += merged
            if merged and args.list:
                print(f"{folder.name}/{name} {merged}")
        print(f"{folder}: {len(boxes)} scenes, {scenes} with merged dice, {dice} merged dice",
              flush=True)


if __name__ == "__main__":
    main()
