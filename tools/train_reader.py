#!/usr/bin/python3
"""Train the two small nets `yardzee read` uses and export them to models/*.onnx.

  models/dice_detector.onnx  - a CenterNet-style fully convolutional net: the photo shrunk to a
                               320 px long side (top-left of a 320x320 canvas, zeros elsewhere)
                               in, per 4x4 cell a die-centre score and the die's box size out.
  models/top_reader.onnx     - a crop of 64x64 around one die in, 7 probabilities out:
                               0 = "no readable top face here" (an occluded top, lawn, half a
                               die), 1..6 = the value of the TOP face. The side faces show pips
                               too; the net learns from the labels which face counts.

Training data: scenes rendered by the same renderer as samples/lawn but from other seeds
(samples/lawn is the evaluation set and is never read here), and the two real photo sets in
../shared/data (webcam dice on a desk; trays of small dice of every colour), whose labels are
turned into whole-die boxes (load_set). Held out for validation: every 7th render by number
(t2_006, t2_013, ...) and every 4th photo of each shared set by name; tools/eval_shared.sh
measures the C reader on those same shared photos.

  R="nice -n 5 /usr/bin/python3 tools/render_scenes.py --long-side 640"   # ~4-8 s a scene
  $R --out /tmp/yz-train  --count 165 --seed 1000
  $R --out /tmp/yz-train2 --count 126 --seed 7000  --prefix t2_
  $R --out /tmp/yz-train3 --count 475 --seed 9000  --prefix t3_
  $R --out /tmp/yz-train4 --count 327 --seed 11000 --prefix t4_
  $R --out /tmp/yz-train5 --count 400 --seed 13000 --prefix t5_
  $R --out /tmp/yz-train6 --count 300 --seed 15000 --prefix t6_
  RENDERS="/tmp/yz-train /tmp/yz-train2 /tmp/yz-train3 /tmp/yz-train4 /tmp/yz-train5 /tmp/yz-train6"
  SETS="$RENDERS ../shared/data/matteop65-webcam ../shared/data/byler-d6"
  /usr/bin/python3 tools/train_reader.py $SETS --only detector --det-epochs 24 --threads 1 &
  /usr/bin/python3 tools/train_reader.py $SETS --only reader --reader-epochs 36 --threads 1 &
  wait
  # then weigh them as the C reads: held-out renders and shared photos, and threshold sweeps
  tools/sweep_thresholds.sh $RENDERS

The committed models came from exactly these commands (1793 renders and 510 photos: 1923 to
train, 380 held out). Each run seeds torch and numpy the same way, so it repeats with the same
torch build. Without --only both nets are trained in one run. Half the time a scene of small
dice is shown to the detector as vision/detect.c's second look shows it (second_look). The
sizes both sides share are in models/pipeline.json. The refusal thresholds are chosen with
`yardzee eval` on the held-out renders (tools/sweep_thresholds.sh); what else was tried, and
what it gave, is in tools/READER_HISTORY.md.
Fine-tuning (--init-from models --max-lr 3e-4) starts each net from its committed ONNX file
instead of from random weights (load_exported), so a session on two cores can teach the nets a
wider world without the hours of renders they first learned from. The world renders
(render_scenes.py --world, tools/render/README.md), scenes of lawn clutter without dice
(--clutter-only) with the reader's false detections on them as "no die"
(tools/mine_negatives.sh), and epanemu-dice's train split go in beside plain renders, given twice
so that the lawn is not forgotten. With --found the readers also learn each real die at the
boxes the reader found it at (mine_negatives.sh's found.csv; load_set), not only at its true box
moved by a drawn error (detector_error). What it gave is in tools/READER_HISTORY.md.

The committed models/top_reader.onnx began as the one those commands made, fine-tuned (issue
24's tenth try, READER_HISTORY.md's r1) on the lawn, world and --one-behind-another renders and
the three real sets, the lawn folders and the webcam and byler-d6 photos keeping its readings
(keep_readings); $LAWN and $WORLD as in train_top_face.py, /tmp/clutter, /tmp/clutter3,
/tmp/behind1 and /tmp/behind2 as in train_die_or_not.py, $SHARED its three sets, and
YZ_NEGATIVES its folder of the shared sets' mined false detections:

  mkdir /tmp/before; for f in models/*; do git show f623e79:$f >/tmp/before/${f#models/}; done
  /usr/bin/python3 tools/train_reader.py $LAWN $WORLD /tmp/clutter /tmp/clutter3 /tmp/behind1 \
      /tmp/behind2 $SHARED --only reader --init-from /tmp/before --max-lr 5e-4 --reader-epochs 8 \
      --colour-turn 0.3 --keep-sets plain,t3,t4,t5,plc,matteop65-webcam,byler-d6   # 16 minutes

That one (1e080a5's, in /tmp/r1) was then fine-tuned again (issue 24's fourteenth try,
READER_HISTORY.md's rc) on 1517 `--world` renders, 80 `--sun-glare` lawn renders and the
clutter, plain and real sets, each render folder with its mined false detections
(tools/mine_negatives.sh) and one pasted picture per masked render; the folders are drawn by
tools/render/README.md's world6, clutter6, plain6, w7, w8 and glare9 commands:

  mkdir /tmp/r1; for f in models/*; do git show 1e080a5:$f >/tmp/r1/${f#models/}; done
  export YZ_NEGATIVES=/tmp/negatives; tools/mine_negatives.sh $SHARED   # and each render folder
  /usr/bin/python3 tools/train_reader.py /tmp/world6 /tmp/w7 /tmp/w8 /tmp/glare9 /tmp/clutter6 \
      /tmp/plain6 $SHARED --only reader --init-from /tmp/r1 --max-lr 5e-4 --reader-epochs 8 \
      --colour-turn 0.3 --keep-sets plain6,glare9,matteop65-webcam,byler-d6 --paste 1 \
      --threads 1   # 33 minutes

The committed models/dice_detector.onnx is two detectors in one file (DetectorPair): the one the
commands above trained, which learned the lawn, and beside it that one fine-tuned on the world
renders (READER_HISTORY.md's ft10, its command there), which scores only where the first sees
no die. With the lawn detector in /tmp/lawn.onnx (`git show c97d710:models/dice_detector.onnx`)
and the fine-tuned one in /tmp/ft10:

  /usr/bin/python3 tools/train_reader.py --join /tmp/lawn.onnx /tmp/ft10/dice_detector.onnx \
      --box-choice 0

(--box-choice 0: each cell's box the two halves' boxes weighted by their scores, as the pair was
joined; pairs are now joined with each cell's box taken from the half that scores it higher,
READER_HISTORY.md's twenty-third try.) --join takes the lawn half of a pair named as LAWN and
the world half of one named as WORLD. --init-from a folder holding such a pair fine-tunes it as
one, its first half as it was: the second learns through the pair's output, so where the lawn
detector sees no die.

models/second_detector.onnx is the committed pair with its world half taught longer and freer
(READER_HISTORY.md's thirty-third try): the world renders no longer held at the committed maps
(only the lawn folders and the webcam and byler-d6 photos are keep-sets), at twice the learning
rate, for 12 epochs. vision/pipeline.c asks it only about a photo the committed pair leaves
refused. The render folders are tools/render_sets.py's, drawn into /tmp, and epanemu-dice's
training part unstretched by tools/unstretch_set.py:

  S=../shared/data; /usr/bin/python3 tools/render_sets.py world6 w13 w15 pl13 gl13 pl14 ob14 \
      gl14 cl14
  /usr/bin/python3 tools/train_reader.py $S/matteop65-webcam $S/byler-d6 $S/byler-d6 \
      /tmp/unstretched/epanemu-dice /tmp/unstretched/epanemu-dice /tmp/world6 /tmp/w13 \
      /tmp/w15 /tmp/pl13 /tmp/gl13 /tmp/pl14 /tmp/ob14 /tmp/gl14 /tmp/cl14 --only detector \
      --init-from models --max-lr 1e-3 --det-epochs 12 --colour-turn 0.3 \
      --keep-sets pl13,gl13,pl14,ob14,gl14,cl14,matteop65-webcam,byler-d6 --keep-weight 2 \
      --threads 2 --out /tmp/second   # 12 minutes
  cp /tmp/second/dice_detector.onnx models/second_detector.onnx

The committed file is that net fine-tuned once more (READER_HISTORY.md's seventy-first try) on
nine 300-scene world test sets already read (wt82, wt83, wt99-wt105: 1024 px, drawn as the test
sets are), world2 and pl71 (all tools/render_sets.py's), and the three shared sets, epanemu-dice's
dev quarter left out; YZ_NEGATIVES holds the shared sets' mined false detections
(mine_negatives.sh):

  mkdir /tmp/init && cp models/* /tmp/init
  cp models/second_detector.onnx /tmp/init/dice_detector.onnx   # the net to fine-tune
  /usr/bin/python3 tools/train_reader.py /tmp/wt82 /tmp/wt83 /tmp/wt99 /tmp/wt100 /tmp/wt101 \
      /tmp/wt102 /tmp/wt103 /tmp/wt104 /tmp/wt105 /tmp/world2 /tmp/pl71 $S/matteop65-webcam \
      $S/byler-d6 $S/epanemu-dice --dev-quarter --only detector --init-from /tmp/init \
      --max-lr 5e-4 --det-epochs 4 --colour-turn 0.3 --keep-sets pl71,matteop65-webcam,byler-d6 \
      --keep-weight 2 --threads 2 --out /tmp/second2   # 9 minutes
  cp /tmp/second2/dice_detector.onnx models/second_detector.onnx

Needs python3-torch, python3-opencv, python3-numpy (Debian packages; tools/setup.sh --train),
and python3-onnx for --init-from.
"""
import argparse
import csv
import collections
import copy
import json
import os
import pathlib
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import paste_dice as pd

# What the nets are trained with and vision/ reads them with: models/pipeline.json, the one
# place these numbers are written (vision/geometry.c reads it when it loads the nets).
PIPELINE = json.loads((pathlib.Path(__file__).resolve().parent.parent / "models" /
                       "pipeline.json").read_text())
DET_SIDE = PIPELINE["detector"]["canvas_side"]  # detector canvas
STRIDE = PIPELINE["detector"]["stride"]  # detector output cell
BOX_UNIT = PIPELINE["detector"]["box_unit"]  # the detector's box sizes are in these pixels
DET_TYPICAL_DIE = PIPELINE["second_look"]["typical_die"]  # the second look's die (zoom_window)
ZOOM_MARGIN = PIPELINE["second_look"]["margin"]
# Training only, different on purpose: photos whose dice the second look enlarges this much get
# a second-look sample. The committed detector was trained with 1.5; vision/ looks again from
# 1.3 (zoom_worth in vision/tuning.c). The window's dice are at DET_TYPICAL_DIE either way.
TRAINED_ZOOM_WORTH = PIPELINE["second_look"]["trained_zoom_worth"]
CROP = PIPELINE["reader"]["crop"]  # reader crop
CROP_SCALE = PIPELINE["reader"]["crop_scale"]  # crop side / die box long side


# Shared real-photo sets (../shared/data) whose boxes cover only the pips of the top face, not
# the whole die (see that folder's README).
PIP_BOX_SETS = {"matteop65-webcam"}
PIP_BOX_TO_DIE = 1.5  # a 4, 5 or 6's pip box long side -> the die's side, read off the photos


def held_out(name, index, shared):
    """The validation split, stable while a set grows: every 7th render by number, every 4th
    photo of a shared set in sorted order (tools/eval_shared.sh reports on the same photos)."""
    if shared:
        return index % 4 == 3
    return int(name.split("_")[-1].split(".")[0]) % 7 == 6


def read_splits(root):
    """{file: split} of a set's own splits.csv (train, valid, test); empty without one."""
    if not (root / "splits.csv").exists():
        return {}
    with open(root / "splits.csv", newline="") as f:
        return {row["file"]: row["split"] for row in csv.DictReader(f)}


def dev_quarter_of(split):
    """The photos --dev-quarter leaves out of training and validation, of a read_splits: every
    4th of the "train" split by name, a dev set of real photos no net learns from."""
    return set(sorted(name for name, part in split.items() if part == "train")[3::4])


def dev_quarter(root):
    """dev_quarter_of a set's splits.csv (tools/dev_quarter.py writes it as an eval folder);
    empty for a set without one."""
    return dev_quarter_of(read_splits(root))


def is_shared_set(root):
    """Whether root is a shared photo set (labels.csv and images/), not a render folder."""
    return (root / "labels.csv").exists()


FOUND_OVERLAP = 0.5  # a found box's IoU with a true die's box for it to be that die's (load_set)
PIECE_OVERLAP = 0.3  # below it (and above 0), a found box holds a piece of a die: no top to read


def box_overlap(a, b):
    """Intersection over union of two (x, y, w, h) boxes."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    shared = max(w, 0.0) * max(h, 0.0)
    return shared / (a[2] * a[3] + b[2] * b[3] - shared)


def found_dice(rows, dice):
    """found.csv's boxes (tools/mine_negatives.sh: where the reader found dice) as (x, y, w, h,
    label) crops for the readers: a box overlapping a true die by FOUND_OVERLAP or more is read
    as that die (its value, 0 where its top is hidden); one overlapping dice less than
    PIECE_OVERLAP holds a piece of a die (a side face, a corner) with no whole top to read, 0;
    a box between the two, or on no die, is left out: neither label tells it truly."""
    out = []
    for box in rows:
        overlap, die = max(((box_overlap(box, d[1:5]), d) for d in dice), default=(0.0, None))
        if overlap >= FOUND_OVERLAP:
            out.append((*box, die[0] if die[5] else 0))
        elif 0 < overlap < PIECE_OVERLAP:
            out.append((*box, 0))
    return out


def mined_file(root, kind=""):
    """tools/mine_negatives.sh's output for a set: DIR/negatives.csv (DIR/found.csv with kind
    "found") for a render folder, $YZ_NEGATIVES/<set>.csv (<set>.found.csv) for a shared set,
    kept outside ../shared/data."""
    if is_shared_set(root) and os.environ.get("YZ_NEGATIVES"):
        suffix = f".{kind}.csv" if kind else ".csv"
        return pathlib.Path(os.environ["YZ_NEGATIVES"]) / f"{root.name}{suffix}"
    return root / f"{kind or 'negatives'}.csv"


def read_mined(path, reported_repeat=1):
    """{file: [(x, y, w, h)]} of a mined file, rows with reported = 1 listed reported_repeat
    times; empty where there is none."""
    boxes = collections.defaultdict(list)
    if path.exists():
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                box = tuple(float(row[k]) for k in "xywh")
                repeat = reported_repeat if row.get("reported") == "1" else 1
                boxes[row["file"]].extend([box] * repeat)
    return boxes


def load_set(root, reported_repeat=1, leave_dev_quarter=False, found=False):
    """[(name, RGB image, [(value, x, y, w, h, top_visible)], held_out, [false detections
    (x, y, w, h)])] of one set: a render
    folder (truth.csv beside the JPEGs, whole-die boxes; every picture of scenes.csv, so that
    the scenes of --clutter-only, with no die, teach what is not a die) or a shared photo set
    (labels.csv and images/; a set with its own splits.csv trains on its "train" split only).
    The false detections come from tools/mine_negatives.sh: DIR/negatives.csv for a render
    folder, $YZ_NEGATIVES/<set>.csv for a shared set; those the reader reported as dice with
    the true count given (column reported = 1) are listed reported_repeat times. With
    leave_dev_quarter, the set's dev_quarter_of its splits is left out. With found, the dice the
    reader found there (found_dice) follow the false detections as (x, y, w, h, label): for the
    readers only, which read every such box as its label and a false detection as 0."""
    shared = is_shared_set(root)
    rows = collections.defaultdict(list)
    with open(root / ("labels.csv" if shared else "truth.csv"), newline="") as f:
        for row in csv.DictReader(f):
            rows[row["file"]].append(row)
    if not shared and (root / "scenes.csv").exists():
        with open(root / "scenes.csv", newline="") as f:
            for row in csv.DictReader(f):
                rows.setdefault(row["file"], [])
    split = read_splits(root)
    without = dev_quarter_of(split) if leave_dev_quarter else set()
    negatives = read_mined(mined_file(root), reported_repeat)
    found_boxes = read_mined(mined_file(root, "found")) if found else {}
    scenes = []
    for index, name in enumerate(sorted(rows)):
        if name in without:
            continue
        image = cv2.imread(str(root / ("images" if shared else "") / name))  # EXIF applied
        if image is None:
            continue
        image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
        dice = [(int(r["value"]), float(r["x"]), float(r["y"]), float(r["w"]), float(r["h"]),
                 r.get("top_visible", "1") == "1") for r in rows[name]]
        if root.name in PIP_BOX_SETS:
            dice = whole_die_boxes(dice)
        out = split[name] != "train" if split else held_out(name, index, shared)
        mined = negatives[name] + found_dice(found_boxes.get(name, []), dice)
        scenes.append((f"{root.name}/{name}", image, dice, out, mined))
    return scenes


def add_found_argument(parser):
    """--found, for the readers' training scripts."""
    parser.add_argument("--found", action="store_true",
                        help="also teach each die at the boxes the reader found it at "
                             "(tools/mine_negatives.sh's found.csv; load_set's found)")


def add_dev_quarter_argument(parser):
    """--dev-quarter, for every training script that reads the shared sets through load_split."""
    parser.add_argument("--dev-quarter", action="store_true",
                        help="leave each split set's dev_quarter (every 4th photo of its train "
                             "split) out, to be read as a dev set of real photos "
                             "(tools/dev_quarter.py)")


def crop_net_arguments(doc, train_help, epochs, max_lr):
    """The command line the nets that start from the whole-die reader's layers share
    (train_die_or_not.py, train_box_refiner.py): the folders, --out, --epochs, --max-lr,
    --threads, --init-from and --dev-quarter."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("train", type=pathlib.Path, nargs="+", help=train_help)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("models"))
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--max-lr", type=float, default=max_lr)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--init-from", type=pathlib.Path, default=pathlib.Path("models"),
                        help="the folder whose top_reader.onnx gives the starting features")
    add_dev_quarter_argument(parser)
    return parser


def seeded(threads, seed=1):
    """Seeds torch and numpy as every training script does, so that a run repeats with the same
    torch build, and sets torch's threads; numpy's generator."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    return np.random.default_rng(seed)


def load_split(roots, reported_repeat=1, leave_dev_quarter=False, found=False):
    """load_set of every root (its leave_dev_quarter and found as load_set's), split into
    (training scenes, held-out scenes)."""
    scenes = [scene for root in roots
              for scene in load_set(root, reported_repeat, leave_dev_quarter, found)]
    train = [scene for scene in scenes if not scene[3]]
    val = [scene for scene in scenes if scene[3]]
    print(f"{len(train)} training scenes, {len(val)} validation scenes", flush=True)
    return train, val


def whole_die_boxes(dice):
    """Pip boxes -> whole-die squares around the top face's centre. The dice in one photo are
    one size: the side comes from the photo's 4s, 5s and 6s (whose pips span the face), else
    from its largest box."""
    spans = [max(w, h) for v, x, y, w, h, _ in dice if v >= 4] or [max(max(d[3], d[4]) for d in dice)]
    side = PIP_BOX_TO_DIE * float(np.median(spans))
    return [(v, x + w / 2 - side / 2, y + h / 2 - side / 2, side, side, top)
            for v, x, y, w, h, top in dice]


# ---- detector --------------------------------------------------------------------------------

def block(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


def pointwise(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


DETECTOR_CHANNELS = (16, 24, 40, 64)  # a Detector of width 1, as the committed halves are


class Detector(nn.Module):
    def __init__(self, width=1.0):
        super().__init__()
        c2, c4, c8, c16 = (round(c * width) for c in DETECTOR_CHANNELS)
        self.s2 = block(3, c2, 2)                                   # 1/2
        self.s4 = nn.Sequential(block(c2, c4, 2), block(c4, c4))    # 1/4
        self.s8 = nn.Sequential(block(c4, c8, 2), block(c8, c8))    # 1/8
        self.s16 = nn.Sequential(block(c8, c16, 2), block(c16, c16))  # 1/16: context of a die or two
        self.up8 = nn.Sequential(pointwise(c16 + c8, c8), block(c8, c8))
        self.up4 = nn.Sequential(pointwise(c8 + c4, c4), block(c4, c4))
        self.head = nn.Conv2d(c4, 3, 1)
        with torch.no_grad():  # CenterNet's prior: almost every cell is no die's centre
            self.head.bias[0] = -2.19

    def forward(self, x):
        a4 = self.s4(self.s2(x))
        a8 = self.s8(a4)
        a16 = self.s16(a8)
        u8 = self.up8(torch.cat([F.interpolate(a16, scale_factor=2.0, mode="nearest"), a8], 1))
        u4 = self.up4(torch.cat([F.interpolate(u8, scale_factor=2.0, mode="nearest"), a4], 1))
        out = self.head(u4)
        # channel 0: centre score 0..1; 1, 2: box w, h in canvas pixels / BOX_UNIT
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)


# A Detector's convolutions, counted once on import, before any training run seeds torch.
DETECTOR_CONVS = sum(isinstance(m, nn.Conv2d) for m in Detector().modules())


# How sharply a gated pair's cell takes its box from the half that scores it higher: at a score
# lead of 0.1 the leader's box weighs 0.88, at 0.2 0.98. Boxes weighted by the scores alone let a
# weak lawn die (half hidden, glaring) take part of the world half's box, and a box moved a pixel
# can leave its die unsure (tools/READER_HISTORY.md, the twenty-third try).
BOX_CHOICE_SHARPNESS = 20.0


class DetectorPair(nn.Module):
    """Two detectors read as one (tools/READER_HISTORY.md's gated pair): the first, the lawn
    detector, has the say wherever it sees a die; the second, fine-tuned on a wider world,
    scores only where the first does not (its score times one minus the first's), so the two
    never make two peaks on one die. A cell's centre score is the higher of the two, its box the
    box of the half that scores it higher (box_choice; 0: the boxes weighted by the scores, as
    pairs joined before the twenty-third try were), so the lawn dice keep the first's boxes to
    the pixel. Written with the operations OpenCV 4.6's ONNX reader has (no Where), so that a
    pair exports and loads like one detector: max(a, b) = (a + b + |a - b|) / 2."""
    def __init__(self, first=None, second=None, box_choice=BOX_CHOICE_SHARPNESS):
        super().__init__()
        self.first, self.second = first or Detector(), second or Detector()
        self.box_choice = box_choice

    def forward(self, x):
        a, b = self.first(x), self.second(x)
        sa = a[:, :1]
        sb = b[:, :1] * (1 - sa)
        score = (sa + sb + torch.abs(sa - sb)) / 2
        if self.box_choice:
            first_share = torch.sigmoid(self.box_choice * (sa - sb))
            size = first_share * a[:, 1:] + (1 - first_share) * b[:, 1:]
        else:
            size = (sa * a[:, 1:] + sb * b[:, 1:]) / (sa + sb + 1e-6)
        return torch.cat([score, size], 1)


def exported_pair(path):
    """The exported detector at path as an untrained DetectorPair of its form, or None when it
    holds one Detector: a pair has twice a Detector's convolutions, and when it chooses its boxes
    a third sigmoid, of the score lead times box_choice."""
    import onnx  # as in load_exported
    from onnx import numpy_helper
    graph = onnx.load(str(path)).graph
    if sum(node.op_type == "Conv" for node in graph.node) != 2 * DETECTOR_CONVS:
        return None
    sigmoids = [node for node in graph.node if node.op_type == "Sigmoid"]
    # The world half's width (--detector-width), from its first convolution's channels.
    convs = [node for node in graph.node if node.op_type == "Conv"]
    weights = {t.name: t.dims for t in graph.initializer}
    second = Detector(weights[convs[DETECTOR_CONVS].input[1]][0] / DETECTOR_CHANNELS[0])
    if len(sigmoids) == 2:
        return DetectorPair(second=second, box_choice=0)
    made_by = {out: node for node in graph.node for out in node.output}
    constants = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    constants.update({node.output[0]: numpy_helper.to_array(node.attribute[0].t)
                      for node in graph.node if node.op_type == "Constant"})
    lead_times_choice = made_by[sigmoids[-1].input[0]]
    return DetectorPair(second=second,
                        box_choice=next(float(constants[name]) for name in
                                        lead_times_choice.input if name in constants))


def fresh_world_half(pair, width):
    """pair (read from a file, so its BatchNorms frozen: load_exported) with a world half of
    random weights, width wide (--fresh-world-half), whose BatchNorms learn as a net's trained
    from scratch do while the lawn half's stay as the file has them."""
    pair.second = Detector(width)
    pair.frozen_norms, pair.first.frozen_norms = False, True
    return pair


def load_detector(path):
    """The exported detector at path: a Detector, or a DetectorPair when the file holds two."""
    return load_exported(exported_pair(path) or Detector(), path, (1, 3, DET_SIDE, DET_SIDE))


def jitter_colour(image, rng):
    image = image.astype(np.float32)
    image = image * rng.uniform(0.75, 1.25) + rng.uniform(-20, 20)
    grey = image.mean(axis=2, keepdims=True)
    image = grey + (image - grey) * rng.uniform(0.7, 1.3)
    image = image * rng.uniform(0.92, 1.08, size=3)
    return np.clip(image, 0, 255)


def turn_colours(image, rng):
    """The photo's colours turned about the grey axis by a random angle (a wooden die on grass
    becomes a green die on purple ground, a red one a blue one), or now and then made grey:
    what a die is does not depend on its colour, and the renders and photos hold few dice of
    most colours. Brightness, and so every pip's contrast, is kept."""
    grey = image.mean(axis=2, keepdims=True)
    if rng.random() < 0.2:
        return np.repeat(grey, 3, axis=2)
    angle = rng.uniform(0.15, 1.85) * np.pi
    axis = np.ones(3) / np.sqrt(3)
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = (np.cos(angle) * np.eye(3) + np.sin(angle) * cross +
            (1 - np.cos(angle)) * np.outer(axis, axis))
    return np.clip(image @ turn.T.astype(np.float32), 0, 255)


def turn_colours_sometimes(image, rng, share):
    """turn_colours in this share of the images (no draw from rng when the share is 0)."""
    return turn_colours(image, rng) if share and rng.random() < share else image


def second_look(image, dice):
    """What vision/detect.c's zoom_window shows the detector of a photo of small dice, from
    the true boxes: (the part of the photo around the dice, the dice in it, the scale), or None
    when it would enlarge them less than TRAINED_ZOOM_WORTH times."""
    if not dice:
        return None
    h, w = image.shape[:2]
    die = sorted(max(d[3], d[4]) for d in dice)[len(dice) // 2]
    x0, x1 = min(d[1] for d in dice), max(d[1] + d[3] for d in dice)
    y0, y1 = min(d[2] for d in dice), max(d[2] + d[4] for d in dice)
    zoom = min(DET_TYPICAL_DIE / die, DET_SIDE / (max(x1 - x0, y1 - y0) + 2 * ZOOM_MARGIN * die))
    if zoom < TRAINED_ZOOM_WORTH * DET_SIDE / max(w, h):
        return None
    vw, vh = int(min(w, DET_SIDE / zoom)), int(min(h, DET_SIDE / zoom))
    left = min(max(round((x0 + x1) / 2 - vw / 2), 0), w - vw)
    top = min(max(round((y0 + y1) / 2 - vh / 2), 0), h - vh)
    return (image[top:top + vh, left:left + vw],
            [(v, x - left, y - top, bw, bh, t) for v, x, y, bw, bh, t in dice], zoom)


def detector_sample(image, dice, rng, augment, scale=None, colour_turn=0.0):
    """The canvas the detector sees (the photo shrunk to DET_SIDE, or by `scale`) and its
    targets; with augment, colours turned (turn_colours) in this share of samples."""
    h, w = image.shape[:2]
    scale = scale or DET_SIDE / max(w, h)
    if augment:
        scale *= rng.uniform(0.8, 1.2)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    ox = oy = 0
    if augment and (nw > DET_SIDE or nh > DET_SIDE):
        ox = rng.integers(0, max(nw - DET_SIDE, 0) + 1)
        oy = rng.integers(0, max(nh - DET_SIDE, 0) + 1)
    canvas = np.zeros((DET_SIDE, DET_SIDE, 3), np.float32)
    part = small[oy:oy + DET_SIDE, ox:ox + DET_SIDE]
    flip = augment and rng.random() < 0.5
    if flip:
        part = part[:, ::-1]
    if augment:
        part = jitter_colour(part, rng)
        part = turn_colours_sometimes(part, rng, colour_turn)
    canvas[:part.shape[0], :part.shape[1]] = part
    cells = DET_SIDE // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    size = np.zeros((2, cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells]
    for value, x, y, bw, bh, top in dice:
        cx, cy = (x + bw / 2) * scale - ox, (y + bh / 2) * scale - oy
        if flip:
            cx = part.shape[1] - cx
        if not (0 <= cx < part.shape[1] and 0 <= cy < part.shape[0]):
            continue
        gx, gy = cx / STRIDE - 0.5, cy / STRIDE - 0.5
        sigma = max(0.5, max(bw, bh) * scale / STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma ** 2)))
        ix, iy = int(round(gx)), int(round(gy))
        ix, iy = min(max(ix, 0), cells - 1), min(max(iy, 0), cells - 1)
        heat[iy, ix] = 1.0
        size[:, iy, ix] = (bw * scale / BOX_UNIT, bh * scale / BOX_UNIT)
        mask[iy, ix] = 1
    x = torch.from_numpy(canvas.transpose(2, 0, 1).copy() / 255.0)
    return x, torch.from_numpy(heat), torch.from_numpy(size), torch.from_numpy(mask)


def focal_loss(pred, heat, labelled=None):
    """CenterNet's focal loss; `labelled` (one flag a sample) leaves the others' maps out."""
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    if labelled is not None:
        pos, neg = (t * labelled[:, None, None].float() for t in (pos, neg))
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred ** 2 * (1 - heat) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def keep_loss(out, kept):
    """How far the net's maps are from `kept`, another detector's on the same canvases: its
    centre scores where either sees something, and its box sizes weighted by its centre score."""
    seen = ((out[:, 0] > 0.1) | (kept[:, 0] > 0.1)).float()
    heat = (((out[:, 0] - kept[:, 0]) ** 2) * seen).sum() / (kept[:, 0] > 0.5).sum().clamp(min=1)
    weight = kept[:, :1]
    size = (torch.abs(out[:, 1:] - kept[:, 1:]) * weight).sum() / weight.sum().clamp(min=1)
    return heat + size


def paste_sources(train, masks):
    """The indices into train of the renders pasted_scene can take dice from: drawn with --masks
    (masks: paste_dice.load_masks) and showing at least one die's top."""
    return [i for i, scene in enumerate(train) if scene[0] in (masks or {})
            and any(die[5] for die in scene[2])]


def pasted_scene(train, masks, sources, rng):
    """A training picture made by tools/paste_dice.py: the dice of a random render of sources
    (indices into train whose dice masks are known) pasted onto a procedural ground or onto
    another training picture, its own dice kept; decoys filled from either."""
    source = train[sources[rng.integers(len(sources))]]

    def ground():
        if rng.random() < 0.5:
            h, w = (480, 640) if rng.random() < 0.5 else (640, 480)
            return pd.procedural_ground(h, w, rng), []
        other = train[rng.integers(len(train))]
        return other[1], other[2]

    background, background_dice = ground()
    return pd.composite(background, background_dice, source[1], source[2], masks[source[0]],
                        rng, ground()[0])


def read_right(photos_csv):
    """The photos a `yardzee eval --photos` file says were read entirely right, none wrong-sure."""
    with open(photos_csv, newline="") as f:
        return {row["file"] for row in csv.DictReader(f)
                if row["status"] == "ok" and row["wrong_ok"] == "0"}


def detector_roles(train, keep_sets, keep_where_right):
    """(learns its labels, keeps the teacher's maps) for each training scene. A keep-set's scenes
    do both. keep_where_right maps a folder name to the photos the teacher's reader reads right
    there (read_right): those keep the teacher's maps alone, since labels of dice the teacher
    misses would pull against its maps; the folder's other photos learn their labels alone."""
    roles = []
    for name, *_ in train:
        folder, file = name.split("/")[0], name.split("/")[-1]
        if folder in keep_where_right:
            right = file in keep_where_right[folder]
            roles.append((not right, right))
        else:
            roles.append((True, folder in keep_sets))
    return roles


def train_detector(train, val, epochs, rng, net=None, max_lr=3e-3, colour_turn=0.0,
                   teacher=None, keep_sets=(), keep_weight=1.0, paste=0.0, masks=None,
                   keep_where_right=None):
    """With a teacher, the scenes of keep_sets (folder names) also pull the net towards what the
    teacher (the committed detector, or --teacher's) sees there (keep_loss): a fine-tune on a
    wider world keeps what it did on the lawn, box sizes included, which vision/'s rules build
    on; keep_where_right as in detector_roles. With paste, that share of the samples is a
    pasted_scene (masks: paste_dice.load_masks)."""
    net = net or Detector()
    roles = detector_roles(train, keep_sets, keep_where_right or {})
    sources = paste_sources(train, masks)
    if paste:
        print(f"pasting the dice of {len(sources)} renders into {paste:.0%} of the samples",
              flush=True)
    opt = torch.optim.Adam(net.parameters(), 2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr, total_steps=epochs * ((len(train) + 3) // 4))
    for epoch in range(epochs):
        train_mode(net)
        order = rng.permutation(len(train))
        total = 0.0
        for start in range(0, len(order), 4):
            batch, labelled, keep = [], [], []
            for i in order[start:start + 4]:
                labelled.append(roles[i][0])
                keep.append(roles[i][1])
                image, dice = train[i][1], train[i][2]
                if paste and sources and rng.random() < paste:
                    image, dice = pasted_scene(train, masks, sources, rng)
                    labelled[-1] = True
                closer = second_look(image, dice) if rng.random() < 0.5 else None
                batch.append(detector_sample(*closer[:2], rng, True, closer[2], colour_turn)
                             if closer else
                             detector_sample(image, dice, rng, True, colour_turn=colour_turn))
            x, heat, size, mask = (torch.stack(t) for t in zip(*batch))
            out = net(x.float())
            labelled = torch.tensor(labelled)
            mask = mask * labelled[:, None, None]
            loss = focal_loss(out[:, 0], heat, labelled)
            loss = loss + 0.5 * (F.l1_loss(out[:, 1:], size, reduction="none") * mask[:, None]).sum() / mask.sum().clamp(min=1)
            if teacher is not None and any(keep):
                kept = torch.tensor(keep)
                with torch.no_grad():
                    taught = teacher(x[kept].float())
                loss = loss + keep_weight * keep_loss(out[kept], taught)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(batch)
        print(f"detector epoch {epoch}: loss {total / len(train):.3f}", flush=True)
    net.eval()
    return net


# ---- top reader ------------------------------------------------------------------------------

READER_CHANNELS = (16, 32, 48, 64, 96)  # a Reader of width 1, as the committed one is


class Reader(nn.Module):
    def __init__(self, width=1.0):
        super().__init__()
        c1, c2, c3, c4, c5 = (round(c * width) for c in READER_CHANNELS)
        self.features = nn.Sequential(block(3, c1), nn.MaxPool2d(2),     # 32
                                      block(c1, c2), nn.MaxPool2d(2),    # 16
                                      block(c2, c3), block(c3, c3), nn.MaxPool2d(2),  # 8
                                      block(c3, c4), block(c4, c4), nn.MaxPool2d(2),  # 4
                                      block(c4, c5))
        self.classify = nn.Linear(c5 * 4 * 4, 7)

    def forward(self, x):
        return self.classify(torch.flatten(self.features(x), 1))


def exported_reader_width(path):
    """The width of the Reader exported at path: its first convolution's channels over 16."""
    import onnx  # as in load_exported
    model = onnx.load(str(path))
    tensors = {t.name: t for t in model.graph.initializer}
    first = next(n for n in model.graph.node if n.op_type == "Conv")
    return tensors[first.input[1]].dims[0] / READER_CHANNELS[0]


def widen_layer(old, new, inputs, rng, noise):
    """Net2Net's widening of one layer, old -> new (a block or pointwise: its convolution and
    BatchNorm), which reads `inputs` (the narrow channel each wide input channel copies): each
    new output channel copies one of old's, and reads each copied input's share divided among
    its copies; the copies get a little noise (`noise` times the layer's weights' spread), so
    that training can tell them apart. Returns the narrow channel each output copies."""
    (old_conv, old_norm), (new_conv, new_norm) = old[:2], new[:2]
    extra = new_conv.out_channels - old_conv.out_channels
    outputs = torch.cat([torch.arange(old_conv.out_channels),
                         torch.from_numpy(rng.integers(0, old_conv.out_channels, extra))])
    copies = torch.bincount(inputs)[inputs]
    weight = old_conv.weight[outputs][:, inputs] / copies[None, :, None, None]
    weight[old_conv.out_channels:] += noise * old_conv.weight.std() * torch.randn_like(
        weight[old_conv.out_channels:])
    new_conv.weight.copy_(weight)
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(new_norm, name).copy_(getattr(old_norm, name)[outputs])
    return outputs


def widen_detector(narrow, width, rng, noise=0.01):
    """A Detector `width` wide that computes what `narrow` does, to fine-tune with more room
    (Net2Net's widening, widen_layer); a layer reading a concatenation reads each part's
    copies."""
    wide = Detector(width)
    with torch.no_grad():
        def widen(old, new, inputs):
            return widen_layer(old, new, inputs, rng, noise)

        m2 = widen(narrow.s2, wide.s2, torch.arange(3))
        m4 = widen(narrow.s4[1], wide.s4[1], widen(narrow.s4[0], wide.s4[0], m2))
        m8 = widen(narrow.s8[1], wide.s8[1], widen(narrow.s8[0], wide.s8[0], m4))
        m16 = widen(narrow.s16[1], wide.s16[1], widen(narrow.s16[0], wide.s16[0], m8))
        n16, n8 = narrow.s16[1][0].out_channels, narrow.s8[1][0].out_channels
        u8 = widen(narrow.up8[0], wide.up8[0], torch.cat([m16, m8 + n16]))
        u8 = widen(narrow.up8[1], wide.up8[1], u8)
        u4 = widen(narrow.up4[0], wide.up4[0], torch.cat([u8, m4 + n8]))
        u4 = widen(narrow.up4[1], wide.up4[1], u4)
        copies = torch.bincount(u4)[u4]
        wide.head.weight.copy_(narrow.head.weight[:, u4] / copies[None, :, None, None])
        wide.head.bias.copy_(narrow.head.bias)
    wide.frozen_norms = getattr(narrow, "frozen_norms", False)
    wide.eval()
    probe = torch.from_numpy(np.random.default_rng(3).uniform(0, 1, (2, 3, 96, 128)).astype(
        np.float32))
    error = (wide(probe) - narrow(probe)).abs().max().item()
    assert error < 0.05, f"the widened detector differs from the narrow one by {error}"  # the noise
    print(f"detector widened {width}x: its maps differ from the narrow one's by {error:.1e}",
          flush=True)
    return wide


def widen_reader(narrow, width, rng, noise=0.01):
    """A Reader `width` wide that computes what `narrow` (started from an exported file,
    load_exported) does, to fine-tune with more room (Net2Net's widening, widen_layer)."""
    wide = Reader(width)
    inputs = torch.arange(3)  # which narrow channel each wide input channel copies
    with torch.no_grad():
        for old, new in zip(narrow.features, wide.features):
            if not isinstance(old, nn.Sequential):  # a pooling
                continue
            inputs = widen_layer(old, new, inputs, rng, noise)
        # The features are flattened channel by channel, 4x4 cells each.
        cells = narrow.classify.in_features // narrow.features[-1][0].out_channels
        columns = (inputs[:, None] * cells + torch.arange(cells)).reshape(-1)
        copies = torch.bincount(inputs)[inputs].repeat_interleave(cells)
        wide.classify.weight.copy_(narrow.classify.weight[:, columns] / copies)
        wide.classify.bias.copy_(narrow.classify.bias)
    wide.frozen_norms = getattr(narrow, "frozen_norms", False)
    wide.eval()
    probe = torch.from_numpy(np.random.default_rng(3).uniform(0, 1, (8, 3, CROP, CROP)).astype(
        np.float32))
    error = (torch.softmax(wide(probe), 1) - torch.softmax(narrow(probe), 1)).abs().max().item()
    assert error < 1e-3, f"the widened reader differs from the narrow one by {error}"
    print(f"reader widened {width}x: its readings differ from the narrow one's by {error:.1e}",
          flush=True)
    return wide


class ReaderExport(nn.Module):
    def __init__(self, reader):
        super().__init__()
        self.reader = reader

    def forward(self, x):
        return torch.softmax(self.reader(x), 1)


def crop_matrix(cx, cy, side, angle=0.0, squash=None):
    """The 2x3 map from photo pixels to crop pixels of crop(); squash (factor, direction in
    radians) then shrinks the crop along that direction about its centre."""
    m = cv2.getRotationMatrix2D((cx, cy), angle, CROP / side)
    m[:, 2] += (CROP / 2 - cx, CROP / 2 - cy)
    if squash is not None:
        factor, direction = squash
        u = np.array([np.cos(direction), np.sin(direction)])
        s = np.eye(2) - (1 - factor) * np.outer(u, u)
        centre = np.array([CROP / 2, CROP / 2])
        m = np.hstack([s @ m[:, :2], (s @ (m[:, 2] - centre) + centre)[:, None]])
    return m


def crop(image, cx, cy, side, angle=0.0, squash=None):
    """The square of `side` pixels around (cx, cy), resampled to CROP x CROP the way
    yz_cv_warp_quad does it (bilinear, edges replicated); angle (degrees) and squash
    (crop_matrix) only to augment."""
    return cv2.warpAffine(image, crop_matrix(cx, cy, side, angle, squash), (CROP, CROP),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


SQUASH_LEAST = 0.65  # draw_squash's strongest squash: a 4:3 frame stretched to a square is 0.75


def draw_squash(rng, share):
    """In this share of crops, a die seen squashed along any direction (a factor from
    SQUASH_LEAST to 1): phone lenses stretch dice towards the frame's corners, a camera turned
    about its axis foreshortens them sideways, and some photos are stored stretched (all of
    epanemu-dice's). The renders foreshorten tops only downwards, and the committed whole-die
    reader read byler-d6's dice squashed to 3/4 sideways far worse than upright
    (READER_HISTORY.md, forty-sixth try). None elsewhere."""
    if share <= 0 or rng.random() >= share:
        return None
    return rng.uniform(SQUASH_LEAST, 1.0), rng.uniform(0, np.pi)


NO_ERROR = (0.0, 0.0, 1.0, 0.0)  # detector_error's (jx, jy, k, angle) for a perfect box


def detector_error(side, rng):
    """How the detector errs on a die of this side, for the nets that read its crops: a shift
    of the centre (jx, jy, pixels), a scale of the crop (k) and a turn (degrees), drawn in that
    order."""
    jx, jy = rng.normal(0, 0.06, 2) * side
    k = rng.uniform(0.8, 1.25)
    return jx, jy, k, rng.uniform(-8, 8)


SIDE_FACES = "side faces"  # reader_samples' folder for its side-face crops: never a keep-set


def reader_samples(scenes, rng, augment, side_faces=0, squash=0.0):
    """Crops, their labels, the set (folder) each came from, and each die's crop again without
    its squash (draw_squash, in this share of the dice's crops; None where it has none, and for
    the negatives); with side_faces, that many side_face_negative crops a scene beside them,
    their folder SIDE_FACES."""
    xs, ys, folders, unsquashed = [], [], [], {}
    for name, image, dice, negatives in scenes:
        for _ in range(side_faces):
            patch = side_face_negative(image, dice, rng)
            if patch is not None:
                xs.append(patch)
                ys.append(0)
                folders.append(SIDE_FACES)
        made = len(xs)
        # What the reader took for a die (mine_negatives.sh): no die, or with --found the die
        # it found there, its label beside its box.
        for x, y, bw, bh, *label in negatives:
            side = max(bw, bh)
            jx, jy, k, angle = detector_error(side, rng) if augment else NO_ERROR
            xs.append(crop(image, x + bw / 2 + jx, y + bh / 2 + jy, side * CROP_SCALE * k, angle))
            ys.append(label[0] if label else 0)
        for value, x, y, bw, bh, top in dice:
            side = max(bw, bh)
            cx, cy = x + bw / 2, y + bh / 2
            jx, jy, k, angle = detector_error(side, rng) if augment else NO_ERROR
            squashed = draw_squash(rng, squash) if augment else None
            cut = (cx + jx, cy + jy, side * CROP_SCALE * k, angle)
            xs.append(crop(image, *cut, squashed))
            ys.append(value if top else 0)
            if squashed:
                unsquashed[len(xs) - 1] = crop(image, *cut)
        # Negatives: half a die off, and lawn well away from every die.
        for _ in range(2):
            patch = half_die_negative(image, dice, rng)
            if patch is not None:
                xs.append(patch)
                ys.append(0)
        for _ in range(3):
            patch = lawn_negative(image, dice, rng)
            if patch is not None:
                xs.append(patch)
                ys.append(0)
        folders += [name.split("/")[0]] * (len(xs) - made)
    return xs, ys, folders, [unsquashed.get(k) for k in range(len(xs))]


def near_a_die_centre(cx, cy, dice):
    """Whether (cx, cy) lies within a third of a die's box of that die's centre: a crop cut
    there would show that die's top, so it cannot stand for "no top"."""
    return any(abs(cx - (d[1] + d[3] / 2)) < d[3] / 3 and abs(cy - (d[2] + d[4] / 2)) < d[4] / 3
               for d in dice)


def half_die_negative(image, dice, rng):
    """A crop centred half a die off one die, or None when that is near another die's centre
    (a crowded table): no readable top face there."""
    if not dice:
        return None
    value, x, y, bw, bh, top = dice[rng.integers(len(dice))]
    side = max(bw, bh)
    angle = rng.uniform(0, 2 * np.pi)
    off = rng.uniform(0.55, 0.8) * side
    cx, cy = x + bw / 2 + off * np.cos(angle), y + bh / 2 + off * np.sin(angle)
    if near_a_die_centre(cx, cy, dice):
        return None
    return crop(image, cx, cy, side * CROP_SCALE)


def below_centre(side, rng, near, far):
    """An offset (dx, dy, pixels) from a die's centre towards the side faces the camera sees:
    near to far of its side, within 35 degrees of straight down (image rows grow downwards, and
    in an upright photo the side faces lie below the top)."""
    towards = np.pi / 2 + rng.uniform(-0.6, 0.6)
    off = rng.uniform(near, far) * side
    return off * np.cos(towards), off * np.sin(towards)


def side_face_negative(image, dice, rng):
    """A crop centred on a die's side face, or None when that is near another die's centre: 0.4
    to 0.7 of the die's side below its centre (within 35 degrees of straight down: in an upright
    photo the side faces the camera sees lie below the top), cut 1 to 1.25 times as large as the
    die's crop. A peak the detector puts there is no die, but the side face shows pips: the
    committed reader read such crops of the world dev renders surely as another value than the
    die's top in 4 to 6 dice in a hundred (READER_HISTORY.md, forty-first try)."""
    if not dice:
        return None
    value, x, y, bw, bh, top = dice[rng.integers(len(dice))]
    side = max(bw, bh)
    dx, dy = below_centre(side, rng, 0.4, 0.7)
    cx, cy = x + bw / 2 + dx, y + bh / 2 + dy
    if near_a_die_centre(cx, cy, dice):
        return None
    return crop(image, cx, cy, side * CROP_SCALE * rng.uniform(1.0, 1.25))


def lawn_negative(image, dice, rng):
    """A crop of lawn the size of the photo's typical die, well away from every die, or None
    when 20 tries found no such place."""
    typical = float(np.median([max(d[3], d[4]) for d in dice])) if dice else 50
    h, w = image.shape[:2]
    for _try in range(20):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if all(abs(cx - (d[1] + d[3] / 2)) > d[3] or abs(cy - (d[2] + d[4] / 2)) > d[4] for d in dice):
            return crop(image, cx, cy, typical * CROP_SCALE * rng.uniform(0.8, 1.3))
    return None


def augment_crop(patch, rng, colour_turn=0.0, unturned=False):
    """A reader's crop as photos vary it; colours turned (turn_colours) in this share of crops.
    With unturned, (that crop, the same crop with its colours as they were): what a teacher
    reads for a kept crop (train_reader's batch), since the committed readers read a die in
    turned colours far worse than as shot (READER_HISTORY.md, forty-seventh try), and taught
    their reading of it a reader would learn to be as blind to colour."""
    if rng.random() < 0.5:
        patch = patch[:, ::-1]  # a mirrored die is still a die; 2, 3 and 6 mirror to themselves
    if rng.random() < 0.3:
        patch = cv2.GaussianBlur(np.ascontiguousarray(patch), (0, 0), rng.uniform(0.3, 1.0))
    patch = jitter_colour(patch, rng)
    turned = turn_colours_sometimes(patch, rng, colour_turn)
    noise = rng.normal(0, rng.uniform(0, 5), patch.shape)
    out = np.clip(turned + noise, 0, 255)
    return (out, np.clip(patch + noise, 0, 255)) if unturned else out


def augment_batch(crops, rng, colour_turn, twins):
    """A batch of augment_crop's crops as a tensor, and with twins a tensor of their unturned
    twins (None without, or with no colour turn, where a crop is its own twin)."""
    if twins and colour_turn > 0:
        return tuple(map(to_tensor, zip(*(augment_crop(c, rng, colour_turn, True) for c in crops))))
    return to_tensor([augment_crop(c, rng, colour_turn) for c in crops]), None


def to_tensor(patches):
    return torch.from_numpy(np.stack([np.ascontiguousarray(p).transpose(2, 0, 1) for p in patches]).astype(np.float32) / 255.0)


def run_exported(net, patches, batch=256):
    """An exported net (cv2.dnn) over any number of patches, `batch` at a time: its outputs
    stacked in their order."""
    out = []
    for start in range(0, len(patches), batch):
        net.setInput(to_tensor(patches[start:start + batch]).numpy())
        out.append(net.forward().copy())
    return np.concatenate(out)


def keep_readings(out, taught):
    """How far a reader's readings (logits) are from `taught`, another reader's probabilities for
    the same crops (their KL divergence)."""
    return F.kl_div(F.log_softmax(out, 1), taught, reduction="batchmean")


def taught_target(x, y, keep, teacher, teacher_x=None):
    """A reader's batch target: labels y, and where `keep` (a numpy mask) is set the teacher's
    readings of those crops of x (or of teacher_x: the same dice unsquashed or in their colours
    unturned, so that a squashed die is read as the teacher reads it upright and a die in turned
    colours as it reads it as shot), for reading_loss."""
    if teacher is None or not keep.any():
        return y, None, None
    keep = torch.from_numpy(keep)
    with torch.no_grad():
        return y, keep, torch.softmax(teacher((x if teacher_x is None else teacher_x)[keep]), 1)


def reading_loss(out, target, keep_weight):
    """Cross-entropy with the labels, plus keep_readings where taught_target kept a teacher's."""
    y, keep, taught = target
    loss = F.cross_entropy(out, y)
    return loss if keep is None else loss + keep_weight * keep_readings(out[keep], taught)


def train_reader(train, val, epochs, rng, net=None, max_lr=3e-3, colour_turn=0.0,
                 teacher=None, keep_sets=(), keep_weight=1.0, side_faces=0, squash=0.0):
    """With a teacher, the crops of keep_sets (folder names) also pull the net towards the
    teacher's readings of them (keep_readings): a fine-tune on a wider world keeps what the
    committed reader read on the lawn and the real photos, sureness included, which
    vision/read.c's combining of the two readers builds on. squash: the share of dice shown
    squashed (draw_squash); a kept die squashed is taught the teacher's reading of it upright."""
    net = net or Reader()
    opt = torch.optim.Adam(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = None
    vx, vy, _, _ = reader_samples(val, np.random.default_rng(7), False)
    vx = to_tensor(vx)
    vy = torch.tensor(vy)
    for epoch in range(epochs):
        xs, ys, folders, plain = reader_samples(train, rng, True, side_faces, squash)
        kept = np.isin(folders, list(keep_sets))
        if sched is None:
            steps_per_epoch = (len(xs) + 31) // 32
            # a little slack: the number of lawn negatives varies from epoch to epoch
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr, total_steps=int(epochs * steps_per_epoch * 1.1) + 10)

        def batch(idx):
            teach = teacher is not None and kept[idx].any()
            crops = (xs[i] for i in idx)
            if teach and squash > 0:  # the teacher reads each crop as cut: not squashed, and
                # without augment_crop's changes
                x = augment_batch(crops, rng, colour_turn, False)[0]
                teacher_x = to_tensor([xs[i] if plain[i] is None else plain[i] for i in idx])
            else:  # the teacher, if any, reads each kept crop with its colours unturned
                x, teacher_x = augment_batch(crops, rng, colour_turn, teach)
            return x, taught_target(x, torch.tensor([ys[i] for i in idx]), kept[idx], teacher,
                                    teacher_x)

        loss = train_epoch(net, opt, sched, len(xs), rng,
                           lambda out, target: reading_loss(out, target, keep_weight), batch)
        net.eval()
        with torch.no_grad():
            p = torch.softmax(net(vx), 1)
        acc = (p.argmax(1) == vy).float().mean().item()
        print(f"reader epoch {epoch}: loss {loss:.3f}  val acc {acc:.3f} ({len(vy)} crops)",
              flush=True)
    return net


def train_epoch(net, opt, sched, n, rng, loss_of, batch):
    """One pass over n samples in a random order, 32 at a time (batch(indices) -> inputs,
    targets); returns the mean loss."""
    train_mode(net)
    order = rng.permutation(n)
    total = 0.0
    for start in range(0, n, 32):
        idx = order[start:start + 32]
        x, y = batch(idx)
        loss = loss_of(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item() * len(idx)
    return total / n


def train_mode(net):
    """net.train(), but a net, or a part of one, started from an exported file keeps its
    BatchNorms as they are (load_exported): their statistics were folded into the convolutions."""
    net.train()
    for part in net.modules():
        if getattr(part, "frozen_norms", False):
            for module in part.modules():
                if isinstance(module, nn.BatchNorm2d):
                    module.eval()


def layers_and_norms(net):
    """net's convolutions and linear layers in order, and {layer: the BatchNorm right after it}."""
    layers, norm_of = [], {}
    for module in net.modules():
        if isinstance(module, (nn.Conv2d, nn.Linear)):
            layers.append(module)
        elif isinstance(module, nn.BatchNorm2d):
            norm_of[layers[-1]] = module
    return layers, norm_of


def load_exported(net, path, shape, softmax=False):
    """Starts net from its committed ONNX file, to fine-tune it (--init-from). The export folded
    each BatchNorm into the convolution before it, so each convolution takes the folded weight
    and bias, its BatchNorm becomes an identity that training leaves in eval mode, and the net
    computes exactly what the file does (checked here; softmax: the file ends in one, as the
    readers' exports do)."""
    import onnx  # Debian's python3-onnx; only fine-tuning needs it
    from onnx import numpy_helper
    model = onnx.load(str(path))
    tensors = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    nodes = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    layers, norm_of = layers_and_norms(net)
    assert len(layers) == len(nodes), f"{path}: {len(nodes)} layers, the net has {len(layers)}"
    with torch.no_grad():
        for layer, node in zip(layers, nodes):
            weight = torch.from_numpy(tensors[node.input[1]].copy())
            bias = torch.from_numpy(tensors[node.input[2]].copy())
            assert weight.shape == layer.weight.shape, f"{path}: {node.name} is {weight.shape}"
            layer.weight.copy_(weight)
            norm = norm_of.get(layer)
            if norm is None:
                layer.bias.copy_(bias)
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    net.frozen_norms = True
    net.eval()
    probe = np.random.default_rng(3).uniform(0, 1, shape).astype(np.float32)
    check = cv2.dnn.readNetFromONNX(str(path))
    check.setInput(probe)
    got = net(torch.from_numpy(probe))
    if softmax:
        got = torch.softmax(got, 1)
    error = np.abs(got.detach().numpy() - check.forward()).max()
    assert error < 1e-3, f"{path}: the loaded net differs from the file by {error}"
    print(f"{path}: started from it (matches to {error:.1e})", flush=True)
    return net


def predict(net, crops):
    """The net's outputs for a tensor of crops, in eval mode, 256 at a time."""
    net.eval()
    with torch.no_grad():
        return torch.cat([net(crops[i:i + 256]) for i in range(0, len(crops), 256)])


def revive_norms(net, crops):
    """Gives a net started from an exported file (load_exported) live BatchNorms again, without
    changing what it computes: each BatchNorm takes the mean and variance of its convolution's
    outputs over `crops` (a tensor of the training crops, as the net reads them) as its running
    statistics, and a scale and shift that undo them, so that in eval mode it reads exactly as
    the file does and in training it renormalises each batch as a net trained from scratch does
    (--live-norms; READER_HISTORY.md's twenty-first try)."""
    outputs, hooks = {}, []
    pairs = layers_and_norms(net)[1].items()
    for conv, _ in pairs:
        hooks.append(conv.register_forward_hook(
            lambda module, _inputs, out: outputs.setdefault(module, []).append(out.detach())))
    before = predict(net, crops)
    for hook in hooks:
        hook.remove()
    with torch.no_grad():
        for conv, norm in pairs:
            out = torch.cat(outputs[conv]).transpose(0, 1).flatten(1)
            mean, var = out.mean(1), out.var(1)
            gain = norm.weight / torch.sqrt(norm.running_var + norm.eps)  # what eval mode does
            norm.bias.add_((mean - norm.running_mean) * gain)
            norm.weight.copy_(gain * torch.sqrt(var + norm.eps))
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
    after = predict(net, crops)
    error = (after - before).abs().max().item()
    assert error < 1e-2, f"reviving the BatchNorms changed the net's outputs by {error}"
    net.frozen_norms = False
    print(f"{len(pairs)} BatchNorms live again (outputs unchanged to {error:.1e})", flush=True)
    return net


def export(net, shape, path):
    net.eval()
    torch.onnx.export(net, torch.zeros(shape), str(path), opset_version=11,
                      input_names=["image"], output_names=["out"], do_constant_folding=True)
    check = cv2.dnn.readNetFromONNX(str(path))
    check.setInput(np.zeros(shape, np.float32))
    net.eval()
    ref = net(torch.zeros(shape)).detach().numpy()
    got = check.forward()
    print(f"{path}: {path.stat().st_size // 1024} KB, OpenCV matches torch to {np.abs(ref - got).max():.2e}")


def train_or_load(args, name, train, untrained, exported, shape, onnx_name, started):
    """Trains the net called name (when --only allows) and exports it to --out and its weights to
    --cache; else loads its weights from --cache into untrained, or None when it was never
    trained."""
    weights = args.cache / f"{name}.pt"
    if args.only in (None, name):
        net = train()
        export(exported(net), shape, args.out / onnx_name)
        torch.save(net.state_dict(), weights)
        print(f"{name} trained in {time.time() - started:.0f} s", flush=True)
        return net
    if not weights.exists():
        return None
    untrained.load_state_dict(torch.load(weights))
    return untrained


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("train", type=pathlib.Path, nargs="*",
                        help="render folders (truth.csv) and shared photo sets (labels.csv)")
    parser.add_argument("--join", type=pathlib.Path, nargs=2, metavar=("LAWN", "WORLD"),
                        help="train nothing: export two exported detectors (of a pair, its "
                             "lawn or its world half) as one DetectorPair to --out's "
                             "dice_detector.onnx")
    parser.add_argument("--box-choice", type=float, default=BOX_CHOICE_SHARPNESS,
                        help="how sharply a DetectorPair (--join, or --init-from a pair) takes "
                             "each cell's box from the half that scores it higher; 0: the boxes "
                             "weighted by the scores, as the committed pair")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("models"))
    parser.add_argument("--det-epochs", type=int, default=40)
    parser.add_argument("--reader-epochs", type=int, default=40)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", choices=["detector", "reader"], default=None,
                        help="train one net only")
    parser.add_argument("--init-from", type=pathlib.Path, default=None,
                        help="fine-tune: start from the nets exported in this folder (e.g. models)")
    parser.add_argument("--max-lr", type=float, default=3e-3,
                        help="the learning rate's peak (one cycle); lower to fine-tune")
    parser.add_argument("--colour-turn", type=float, default=0.0,
                        help="share of each net's samples shown with their colours turned "
                             "(turn_colours); the committed nets were trained with 0")
    parser.add_argument("--keep-sets", default="",
                        help="fine-tune: comma-separated folder names whose scenes also keep "
                             "the --init-from detector's maps (keep_loss) and whole-die "
                             "reader's readings (keep_readings)")
    parser.add_argument("--keep-where-right", action="append", default=[], metavar="NAME=CSV",
                        help="fine-tune the detector: of folder NAME, the photos CSV (`yardzee "
                             "eval --photos` of the --init-from reader) says were read right "
                             "keep the teacher's maps without their labels, the others learn "
                             "their labels alone (detector_roles); repeatable")
    add_dev_quarter_argument(parser)
    add_found_argument(parser)
    parser.add_argument("--teacher", type=pathlib.Path, default=None,
                        help="fine-tune, with --keep-sets: the exported detector whose maps "
                             "they keep (a single one or a pair), instead of the --init-from one")
    parser.add_argument("--keep-weight", type=float, default=1.0,
                        help="fine-tune: keep_loss's and keep_readings' weight beside each "
                             "net's own loss")
    parser.add_argument("--paste", type=float, default=0.0,
                        help="share of the detector's samples made by pasting rendered dice onto "
                             "other grounds (pasted_scene; from render folders drawn with "
                             "render_scenes.py --masks); with --only reader, any value above 0 "
                             "adds one pasted picture per such render; the committed nets were "
                             "trained with 0")
    parser.add_argument("--side-faces", type=int, default=0, metavar="N",
                        help="the whole-die reader also learns N crops a scene centred on a "
                             "die's side face as no top (side_face_negative)")
    parser.add_argument("--squash", type=float, default=0.0, metavar="SHARE",
                        help="the whole-die reader sees this share of the dice squashed along "
                             "a random direction (draw_squash); the committed one saw none")
    parser.add_argument("--reader-width", type=float, default=1.0,
                        help="the whole-die reader's channels times this (Reader); with "
                             "--init-from a narrower one, it is widened to it (widen_reader)")
    parser.add_argument("--detector-width", type=float, default=1.0,
                        help="fine-tuning a pair: its world half's channels times this, widened "
                             "from the file's (widen_detector)")
    parser.add_argument("--fresh-world-half", action="store_true",
                        help="fine-tuning a pair: its world half starts from random weights "
                             "(--detector-width wide) instead of the file's, and learns through "
                             "the pair where its lawn half sees no die")
    parser.add_argument("--live-norms", action="store_true",
                        help="fine-tune: the whole-die reader's BatchNorms learn again "
                             "(revive_norms) instead of staying folded into its convolutions")
    parser.add_argument("--cache", type=pathlib.Path, default=pathlib.Path("/tmp/yz-train-nets"),
                        help="where the torch weights are kept between runs")
    args = parser.parse_args()
    if args.join:
        args.out.mkdir(exist_ok=True)
        lawn, world = map(load_detector, args.join)  # of a pair, its lawn or world half
        export(DetectorPair(getattr(lawn, "first", lawn), getattr(world, "second", world),
                            args.box_choice),
               (1, 3, DET_SIDE, DET_SIDE), args.out / "dice_detector.onnx")
        return
    if not args.train:
        parser.error("name the render folders and photo sets to train on")
    if args.keep_where_right and not args.init_from:
        parser.error("--keep-where-right holds the --init-from detector's maps: name it")
    keep_where_right = {}
    for pair in args.keep_where_right:
        name, _, photos = pair.partition("=")
        if not photos:
            parser.error(f"--keep-where-right {pair}: expected NAME=CSV")
        keep_where_right[name] = read_right(photos)
    rng = seeded(args.threads)
    train, val = ([scene[:3] + scene[4:] for scene in part]
                  for part in load_split(args.train, leave_dev_quarter=args.dev_quarter,
                                         found=args.found))
    args.out.mkdir(exist_ok=True)
    started = time.time()
    args.cache.mkdir(exist_ok=True)
    # Both made first, whatever is trained: their initial weights draw on torch's seeded
    # generator, and the committed models were trained after these draws.
    det, reader = Detector(), Reader()
    teacher = reader_teacher = None
    if args.init_from:
        det_file = args.init_from / "dice_detector.onnx"
        pair = exported_pair(det_file)
        if pair:  # the pair learns as one; its lawn half stays as it is
            det = load_exported(pair, det_file, (1, 3, DET_SIDE, DET_SIDE))
            det.first.requires_grad_(False)
            det.box_choice = args.box_choice  # learns as it will be read
            if args.fresh_world_half:  # learns the world from nothing, beside the lawn half
                fresh_world_half(det, args.detector_width)
            elif args.detector_width != 1:  # the world half, with more room
                det.second = widen_detector(det.second, args.detector_width,
                                            np.random.default_rng(13))
        else:
            load_exported(det, det_file, (1, 3, DET_SIDE, DET_SIDE))
        if args.keep_sets or args.keep_where_right:
            teacher = load_detector(args.teacher or det_file)
        reader_file = args.init_from / "top_reader.onnx"
        file_width = exported_reader_width(reader_file)
        if args.reader_width < file_width:
            parser.error(f"--reader-width {args.reader_width}: {reader_file} is {file_width} wide")
        if file_width != 1:
            reader = Reader(file_width)
        load_exported(reader, reader_file, (1, 3, CROP, CROP), softmax=True)
        if args.keep_sets and args.only in (None, "reader"):
            reader_teacher = copy.deepcopy(reader)  # the file's readings, before any widening
        if args.reader_width > file_width:
            reader = widen_reader(reader, args.reader_width, np.random.default_rng(11))
        if args.live_norms:  # statistics from unaugmented crops of 400 training scenes
            some = np.random.default_rng(5).permutation(len(train))[:400]
            revive_norms(reader, to_tensor(reader_samples([train[i] for i in some],
                                                          np.random.default_rng(5), False)[0]))
    elif args.reader_width != 1:
        reader = Reader(args.reader_width)
    if args.paste and args.only == "reader":
        # The reader learns from crops cut once an epoch: a fixed set of pasted pictures, one
        # for each render with masks, beside the rest.
        masks = pd.load_masks(args.train)
        sources = paste_sources(train, masks)
        train = train + [(f"pasted/{k}", *pasted_scene(train, masks, sources, rng), [])
                         for k in range(len(sources))]
        print(f"{len(sources)} pasted pictures added", flush=True)
    det = train_or_load(args, "detector",
                        lambda: train_detector(train, val, args.det_epochs, rng, det, args.max_lr,
                                                    args.colour_turn, teacher,
                                                    set(filter(None, args.keep_sets.split(","))),
                                                    args.keep_weight, args.paste,
                                                    pd.load_masks(args.train) if args.paste
                                                    else None, keep_where_right),
                        det, lambda net: net, (1, 3, DET_SIDE, DET_SIDE), "dice_detector.onnx",
                        started)
    reader = train_or_load(args, "reader",
                           lambda: train_reader(train, val, args.reader_epochs, rng, reader,
                                                args.max_lr, args.colour_turn, reader_teacher,
                                                set(filter(None, args.keep_sets.split(","))),
                                                args.keep_weight, args.side_faces, args.squash),
                           reader, ReaderExport, (1, 3, CROP, CROP), "top_reader.onnx", started)
    print("weigh them with tools/sweep_thresholds.sh and tools/eval_shared.sh", flush=True)


if __name__ == "__main__":
    main()
