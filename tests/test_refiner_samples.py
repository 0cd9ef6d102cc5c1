#!/usr/bin/python3
"""tools/train_box_refiner.py's samples, the crops the box refiner learns from: each die cut at a
box drawn off on purpose, and with --found each box the reader really found on a die
(load_set's found boxes), its target the die nearest the box's centre as (dx, dy, log w, log h)
in the box's long side, worked out here by hand. A false detection (no label) gives no crop.

  tests/test_refiner_samples.py

Exits 1 on a failed check; 77 (skipped) without python3-torch or python3-opencv
(tools/setup.sh --train installs them).
"""
import importlib
import math

import tool_checks
from tool_checks import check, finish

tr = tool_checks.train_reader()
refiner = importlib.import_module("train_box_refiner")
import numpy as np  # noqa: E402

IMAGE = np.zeros((480, 640, 3), np.uint8)
LEFT = (4, 100, 200, 40, 50, 1)  # value, x, y, w, h, top visible: centre (120, 225)
RIGHT = (2, 400, 100, 60, 60, 1)  # centre (430, 130)
FOUND = (110, 215, 30, 36, 4)  # a box the reader found on LEFT: centre (125, 233), long side 36
PIECE = (395, 150, 40, 30, 0)  # one on RIGHT's lower part: centre (415, 165), long side 40
FALSE = (300, 400, 20, 20)  # a false detection: no label

cuts = []
real_crop = tr.crop
tr.crop = lambda image, cx, cy, side, angle=0.0: cuts.append((cx, cy, side)) or (cx, cy, side)
scene = ("test/a.jpg", IMAGE, [LEFT, RIGHT], False, [FALSE, FOUND, PIECE])
crops, targets = refiner.samples([scene], None, drawn_boxes=False)
check(len(crops) == 2 and targets.shape == (2, 4),
      f"the two found boxes give a crop each, the false detection none ({len(crops)})")


def by_hand(cx, cy, long_side, die):
    _, x, y, w, h, _ = die
    return (x + w / 2 - cx) / long_side, (y + h / 2 - cy) / long_side, \
        math.log(w / long_side), math.log(h / long_side)


scale = tr.PIPELINE["box_refiner"]["crop_scale"]
for (cx, cy, side), target, box, die in zip(cuts, targets, (FOUND, PIECE), (LEFT, RIGHT)):
    x, y, w, h, _ = box
    long_side = max(w, h)
    check((cx, cy, side) == (x + w / 2, y + h / 2, long_side * scale),
          f"{box} cut at its centre, {scale} times its long side ({cx}, {cy}, {side})")
    check(np.allclose(target, by_hand(x + w / 2, y + h / 2, long_side, die), atol=1e-6),
          f"{box}'s target is the nearest die {die[1:5]}: {np.round(target, 3).tolist()}")

# Drawn boxes: one crop per die, the found boxes after them only when asked for.
cuts.clear()
crops, targets = refiner.samples([scene], np.random.default_rng(5))
check(len(crops) == 4, f"two dice and two found boxes give four crops ({len(crops)})")
cuts.clear()
crops, _ = refiner.samples([scene[:4] + ([],)], np.random.default_rng(5))
check(len(crops) == 2, f"without found boxes, one drawn crop per die ({len(crops)})")
tr.crop = real_crop
finish()
