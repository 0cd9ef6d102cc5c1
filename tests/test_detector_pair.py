#!/usr/bin/python3
"""tools/train_reader.py's DetectorPair, the two detectors read as one (models/dice_detector.onnx):
each cell's score and box against the rule written plainly here, and a pair's file read back in
its own form, joined from two pairs' halves.

  tests/test_detector_pair.py

Exits 1 on a failed check; 77 (skipped) without python3-torch, python3-onnx or python3-opencv
(tools/setup.sh --train installs them).
"""
import pathlib
import subprocess
import sys
import tempfile

import tool_checks
from tool_checks import TOOLS, check, finish

tr = tool_checks.train_reader("onnx")  # onnx: train_reader reads pair files with it
import cv2  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402


class Fixed(nn.Module):
    """A stand-in detector whose output is given: score, box w, box h per cell."""
    def __init__(self, out):
        super().__init__()
        self.out = torch.tensor(out, dtype=torch.float32).reshape(1, 3, 1, -1)

    def forward(self, x):
        return self.out


# Cells: lawn score, world score, and the two halves' boxes (w and h the same here).
CELLS = [
    (0.95, 0.9, 40.0, 30.0),  # the lawn half sure
    (0.05, 0.05, 40.0, 30.0),  # both weak
    (0.02, 0.9, 40.0, 30.0),  # the world half alone
    (0.3, 0.95, 40.0, 30.0),  # the lawn half weak where the world half is sure
    (0.55, 0.95, 40.0, 30.0),  # ... where the world half, gated, is about as sure
    (0.45, 0.2, 40.0, 30.0),  # the lawn half weak, the world half weaker
]


def plain_rule(lawn, world, lawn_box, world_box):
    """What a cell of the pair says, written plainly: the world half counts only where the lawn
    half does not (its score times one minus the lawn's); the cell takes the higher score, and
    the box of the half that scores it clearly higher (by 0.2 or more; nearer, either box)."""
    gated = world * (1 - lawn)
    score = max(lawn, gated)
    if lawn - gated >= 0.2:
        return score, [lawn_box]
    if gated - lawn >= 0.2:
        return score, [world_box]
    return score, [lawn_box, world_box]


lawn = Fixed([[c[0] for c in CELLS], [c[2] for c in CELLS], [c[2] for c in CELLS]])
world = Fixed([[c[1] for c in CELLS], [c[3] for c in CELLS], [c[3] for c in CELLS]])
out = tr.DetectorPair(lawn, world)(torch.zeros(1, 3, 8, 8)).detach().numpy()[0, :, 0]
for i, cell in enumerate(CELLS):
    score, boxes = plain_rule(*cell)
    # within 2% of the box chosen (the choice is a steep sigmoid, not a step), or between the two
    if len(boxes) == 1:
        box_ok = abs(out[1, i] - boxes[0]) <= 0.02 * boxes[0]
    else:
        box_ok = min(boxes) <= out[1, i] <= max(boxes)
    check(abs(out[0, i] - score) < 1e-6 and box_ok and out[1, i] == out[2, i],
          f"cell {cell}: score {out[0, i]:.3f} (rule {score:.3f}), box {out[1, i]:.2f} "
          f"(rule {boxes})")

# The same cells with the boxes weighted by the scores, as pairs joined before were: a lawn die
# scored 0.55 takes 44% of the world half's box.
blend = tr.DetectorPair(lawn, world, box_choice=0)(torch.zeros(1, 3, 8, 8)).detach().numpy()
check(abs(blend[0, 1, 0, 4] - (0.55 * 40 + 0.4275 * 30) / 0.9775) < 1e-3,
      f"boxes weighted by the scores: {blend[0, 1, 0, 4]:.2f}")

# Files: a pair exported either way is read back in its own form, and --join takes the lawn
# half of its first file and the world half of its second.
torch.manual_seed(5)
shape = (1, 3, tr.DET_SIDE, tr.DET_SIDE)
with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    halves = [tr.Detector().eval() for _ in range(4)]
    # The halves as lawn halves (even) score low, so that the world halves' scores and boxes
    # show; and no two of their tensors are the same (the export would share them).
    for i, net in enumerate(halves):
        with torch.no_grad():
            net.head.bias.normal_(0, 1)
            net.head.bias[0] = -3.0 if i % 2 == 0 else 2.0
            for norm in (m for m in net.modules() if isinstance(m, nn.BatchNorm2d)):
                norm.weight.uniform_(0.5, 1.5)
                norm.bias.normal_(0, 0.1)
                norm.running_mean.normal_(0, 0.1)
                norm.running_var.uniform_(0.5, 1.5)
    files = {"single": (halves[0], tmp / "single.onnx"),
             "chooses": (tr.DetectorPair(halves[0], halves[1]), tmp / "chooses.onnx"),
             "weighs": (tr.DetectorPair(halves[2], halves[3], box_choice=0), tmp / "weighs.onnx"),
             "sharper": (tr.DetectorPair(halves[1], halves[2], box_choice=80), tmp / "sharp.onnx")}
    for net, path in files.values():
        tr.export(net, shape, path)
    read = {name: tr.exported_pair(path) for name, (_, path) in files.items()}
    check(read["single"] is None, "one detector's file is no pair")
    check(read["chooses"] is not None and read["chooses"].box_choice == tr.BOX_CHOICE_SHARPNESS,
          "a pair that chooses its boxes is read as one")
    check(read["weighs"] is not None and read["weighs"].box_choice == 0,
          "a pair that weighs its boxes is read as one")
    check(read["sharper"] is not None and read["sharper"].box_choice == 80,
          "a pair that chooses its boxes more sharply is read so")
    for name, (_, path) in files.items():
        tr.load_detector(path)  # asserts that the net read computes what the file does

    subprocess.run([sys.executable, str(TOOLS / "train_reader.py"), "--join",
                    str(files["chooses"][1]), str(files["weighs"][1]), "--out", str(tmp / "j")],
                   check=True, stdout=subprocess.DEVNULL)
    probe = np.random.default_rng(7).uniform(0, 1, shape).astype(np.float32)
    joined = cv2.dnn.readNetFromONNX(str(tmp / "j" / "dice_detector.onnx"))
    joined.setInput(probe)
    expected = tr.DetectorPair(halves[0], halves[3])(torch.from_numpy(probe)).detach().numpy()
    error = np.abs(joined.forward() - expected).max()
    check(error < 1e-4, f"--join: the first file's lawn half and the second's world half "
                        f"(differ by {error:.1e})")

    # A world half widened (--detector-width) computes what it did, without the copies'
    # noise; a pair with one is exported and read back in its own form.
    probe_t = torch.from_numpy(probe)
    wide = tr.widen_detector(halves[3], 1.5, np.random.default_rng(2), noise=0.0)
    error = (wide(probe_t) - halves[3](probe_t)).abs().max().item()
    check(wide.s2[0].out_channels == 24 and error < 1e-4,
          f"a half widened 1.5 times: 24 channels first, maps as before (differ by {error:.1e})")
    tr.export(tr.DetectorPair(halves[0], tr.widen_detector(halves[3], 1.5,
                                                           np.random.default_rng(2))),
              shape, tmp / "wide.onnx")
    read_back = tr.load_detector(tmp / "wide.onnx")  # asserts it computes what the file does
    check(read_back.second.s2[0].out_channels == 24 and read_back.first.s2[0].out_channels == 16,
          "a pair with a widened world half is read back with its widths")

    # A world half from random weights (--fresh-world-half) beside a lawn half read from a file:
    # in training, the world half's BatchNorms learn and the lawn half's stay as the file has
    # them, so that the lawn half computes what it did.
    pair = tr.fresh_world_half(tr.load_detector(tmp / "chooses.onnx"), 1.5)
    lawn_before = pair.first(probe_t).detach()
    tr.train_mode(pair)
    learning = [[m.training for m in half.modules() if isinstance(m, nn.BatchNorm2d)]
                for half in (pair.first, pair.second)]
    check(not any(learning[0]) and all(learning[1]),
          "in training, the fresh half's BatchNorms learn, the lawn half's do not")
    batch = np.random.default_rng(9).uniform(0, 1, (2,) + shape[1:]).astype(np.float32)
    pair(torch.from_numpy(batch))  # a training pass: learning BatchNorms take its statistics
    pair.eval()
    error = (pair.first(probe_t) - lawn_before).abs().max().item()
    check(pair.second.s2[0].out_channels == 24 and error < 1e-6,
          f"a fresh world half beside a lawn half from a file: the lawn half computes what it "
          f"did after a training pass (differs by {error:.1e})")

finish()
