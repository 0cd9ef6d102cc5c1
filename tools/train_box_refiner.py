#!/usr/bin/python3
"""Train models/box_refiner.onnx: where the die a detection points at really is.

The detector's boxes are often off where the world is hard: on the world dev renders drawn as
the frozen set is (tools/render_sets.py's wf76), the dice the pipeline left without a value had
their box's centre a median 0.12 of the die's side off (0.04 for the dice read right), and at
their true boxes the readers read 97% of all dice right and surely against 87% through the
pipeline (tools/READER_HISTORY.md, forty-fourth try). This net looks at a wider square around a
detection (models/pipeline.json's box_refiner crop_scale times the box's long side, resampled to
the readers' 64x64) and says where the die nearest its centre is: its centre's offset from the
square's centre and its box's width and height, in the detection's long side (dx, dy, log w,
log h). vision/read.c reads every die again at the box it gives (read_refined): an unsure die
takes that reading where it is sure, and a die read surely as two values at the two boxes is
left unsure.

Training crops: every die of the truth files (hidden tops too: the box is the die's either way)
cut at a box drawn wrong on purpose, shifted by a normal spread of SHIFT_SPREAD sides and scaled
SCALE_RANGE, or (FAR_SHARE of them) centred on its side faces, the die nearest the cut's centre
its target; mirrored crops flip dx. With --found, each box the reader really found on a die
(tools/mine_negatives.sh's found.csv, as train_reader.py's load_set reads it) is cut too, at
that box, aimed at the die nearest its centre, and the held-out found boxes' error is printed
beside the drawn ones'. Held out as train_reader.py holds out: every 7th render by number,
every 4th photo of a shared set (or its own split). The net starts from the committed whole-die
reader's features with a new head (--fine-tune: from --init-from's box_refiner.onnx, head and
all).

The committed net came from exactly this, 14 epochs, 13 minutes on two cores beside evals; the
render folders are tools/render_sets.py's wlow75 and wlow75b, and the first 100, 100 and 80
scenes of its w7, pl71 and gl11 (the same scenes: render_scenes.py with their options and a
smaller --count), and epanemu-dice's training part unstretched by tools/unstretch_set.py:

  S=../shared/data   # matteop65-webcam's boxes are pips only, its die boxes guessed: left out
  /usr/bin/python3 tools/train_box_refiner.py /tmp/wlow75 /tmp/wlow75b /tmp/w7 /tmp/pl71 \
      /tmp/gl11 $S/byler-d6 /tmp/unstretched/epanemu-dice --epochs 14 --threads 2
  # held out: 1798 crops, their centres off a median 0.234 of the box's side -> 0.067 refined

Needs python3-torch, python3-opencv, python3-numpy, python3-onnx (tools/setup.sh --train).
"""
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import train_reader as tr

REFINE_SCALE = tr.PIPELINE["box_refiner"]["crop_scale"]  # crop side / detection's long side
SHIFT_SPREAD = 0.15  # the drawn boxes' centre shift: normal, in die sides, clipped at SHIFT_MAX
SHIFT_MAX = 0.45
SCALE_RANGE = (0.55, 1.7)  # the drawn boxes' long side over the die's, log-uniform
# A share of the boxes drawn far off instead: FAR_SHIFT sides from the die's centre, most
# below it (where its side faces show in an upright photo): the detector boxes a side face as a
# die, and a refiner that never saw one shrinks the box onto it, where the readers may read the
# side face's pips as a top (READER_HISTORY.md, forty-fourth try).
FAR_SHARE, FAR_SHIFT = 0.25, (0.3, 0.7)


def nearest_die(cx, cy, dice):
    """The die of dice whose box centre is nearest (cx, cy)."""
    return min(dice, key=lambda d: (d[1] + d[3] / 2 - cx) ** 2 + (d[2] + d[4] / 2 - cy) ** 2)


def cut(image, cx, cy, drawn, dice):
    """The crop around a box of long side `drawn` centred at (cx, cy), and its target: the
    nearest die's box as (dx, dy, log w, log h) in `drawn`."""
    _, tx, ty, tw, th, _ = nearest_die(cx, cy, dice)
    return (tr.crop(image, cx, cy, drawn * REFINE_SCALE),
            ((tx + tw / 2 - cx) / drawn, (ty + th / 2 - cy) / drawn,
             np.log(tw / drawn), np.log(th / drawn)))


def samples(scenes, rng, drawn_boxes=True):
    """(crops, targets): each die of each scene cut around a box drawn wrong (drawn_boxes), and
    around each box the reader really found on a die (load_set's found boxes, loaded with
    --found), the target the die nearest the box's centre."""
    pairs = []
    for _, image, dice, _, mined in scenes:
        for _, x, y, w, h, _ in dice if drawn_boxes else []:
            side = max(w, h)
            if rng.random() < FAR_SHARE:
                towards = np.pi / 2 + rng.uniform(-1.2, 1.2)  # image rows grow downwards
                jx, jy = rng.uniform(*FAR_SHIFT) * side * np.array([np.cos(towards), np.sin(towards)])
            else:
                jx, jy = np.clip(rng.normal(0, SHIFT_SPREAD, 2), -SHIFT_MAX, SHIFT_MAX) * side
            drawn = side * np.exp(rng.uniform(*np.log(SCALE_RANGE)))
            pairs.append(cut(image, x + w / 2 + jx, y + h / 2 + jy, drawn, dice))
        for box in mined:
            if len(box) == 5:  # a found die (x, y, w, h, label); a false detection has no label
                x, y, w, h, _ = box
                pairs.append(cut(image, x + w / 2, y + h / 2, max(w, h), dice))
    return [c for c, _ in pairs], np.array([t for _, t in pairs], np.float32).reshape(-1, 4)


def augment(patch, target, rng):
    """A crop as photos vary it, and its target: mirrored (dx flips), blurred, colours and noise."""
    target = target.copy()
    if rng.random() < 0.5:
        patch = patch[:, ::-1]
        target[0] = -target[0]
    if rng.random() < 0.3:
        patch = cv2.GaussianBlur(np.ascontiguousarray(patch), (0, 0), rng.uniform(0.3, 1.0))
    patch = tr.jitter_colour(patch, rng)
    patch = patch + rng.normal(0, rng.uniform(0, 5), patch.shape)
    return np.clip(patch, 0, 255), target


def centre_error(pred, target):
    """Each crop's centre error, in the drawn box's long side."""
    return torch.hypot(pred[:, 0] - target[:, 0], pred[:, 1] - target[:, 1])


def found_error(net, fx, ft):
    """The held-out found boxes' centre error as drawn and as the net refines them, as text ("" when
    there are none)."""
    if fx is None:
        return ""
    found, refined = torch.hypot(ft[:, 0], ft[:, 1]), centre_error(tr.predict(net, fx), ft)
    text = (f"; held-out found boxes ({len(ft)}): centre off median {found.median():.3f} -> "
            f"{refined.median():.3f}")
    far = found > 0.15  # the few far off, where refining a box matters
    if far.any():
        text += (f", the {int(far.sum())} off by over 0.15 {found[far].median():.3f} -> "
                 f"{refined[far].median():.3f}")
    return text


def main():
    parser = tr.crop_net_arguments(
        __doc__, "render folders (truth.csv) and shared photo sets (labels.csv)", 10, 2e-3)
    parser.add_argument("--width", type=float, default=None,
                        help="the net's channels times this (train_reader.py's Reader) from "
                             "random weights, instead of --init-from's reader")
    parser.add_argument("--fine-tune", action="store_true",
                        help="start from --init-from's box_refiner.onnx, head and all, instead "
                             "of its reader's features with a new head")
    tr.add_found_argument(parser)
    args = parser.parse_args()
    if args.width and args.fine_tune:
        parser.error("--width draws a new net; --fine-tune starts from the committed one")
    rng = tr.seeded(args.threads)
    started = time.time()
    train, val = tr.load_split(args.train, leave_dev_quarter=args.dev_quarter, found=args.found)
    start = args.init_from / ("box_refiner.onnx" if args.fine_tune else "top_reader.onnx")
    net = tr.Reader(args.width or tr.exported_reader_width(start))
    if args.fine_tune:  # the committed refiner, its 4-way head too
        net.classify = nn.Linear(net.classify.in_features, 4)
        tr.load_exported(net, start, (1, 3, tr.CROP, tr.CROP))
    else:  # the reader's features (or, with --width, random ones) under a new 4-way head
        if not args.width:
            tr.load_exported(net, start, (1, 3, tr.CROP, tr.CROP), softmax=True)
        net.classify = nn.Linear(net.classify.in_features, 4)
    vx, vt = samples([(*scene[:4], []) for scene in val], np.random.default_rng(7))
    vx, vt = tr.to_tensor(vx), torch.from_numpy(vt)
    fx, ft = samples(val, None, drawn_boxes=False)  # held-out found boxes (--found), if any
    fx, ft = (tr.to_tensor(fx), torch.from_numpy(ft)) if len(ft) else (None, None)
    before = torch.hypot(vt[:, 0], vt[:, 1])  # the drawn boxes' own centre error
    if args.fine_tune:  # where the net it starts from stands on these held-out crops
        print(f"box refiner before fine-tuning: held out centre off median "
              f"{centre_error(tr.predict(net, vx), vt).median():.3f}{found_error(net, fx, ft)}",
              flush=True)
    opt = torch.optim.Adam(net.parameters(), args.max_lr / 10, weight_decay=1e-4)
    sched = None
    for epoch in range(args.epochs):
        xs, ts = samples(train, rng)
        if sched is None:
            steps = (len(xs) + 31) // 32
            sched = torch.optim.lr_scheduler.OneCycleLR(
                opt, args.max_lr, total_steps=int(args.epochs * steps * 1.1) + 10)

        def batch(idx):
            pairs = [augment(xs[i], ts[i], rng) for i in idx]
            return (tr.to_tensor([p for p, _ in pairs]),
                    torch.from_numpy(np.stack([t for _, t in pairs])))

        loss = tr.train_epoch(net, opt, sched, len(xs), rng, F.smooth_l1_loss, batch)
        pred = tr.predict(net, vx)
        after = centre_error(pred, vt)
        size = (pred[:, 2:] - vt[:, 2:]).abs().mean()
        print(f"box refiner epoch {epoch}: loss {loss:.4f}; held out ({len(vt)} crops): centre "
              f"off median {before.median():.3f} -> {after.median():.3f}, within 0.1 side "
              f"{(before < 0.1).float().mean():.3f} -> {(after < 0.1).float().mean():.3f}; "
              f"log size off {size:.3f}{found_error(net, fx, ft)} ({len(xs)} training crops, "
              f"{time.time() - started:.0f} s)",
              flush=True)
    args.out.mkdir(exist_ok=True)
    tr.export(net, (1, 3, tr.CROP, tr.CROP), args.out / "box_refiner.onnx")


if __name__ == "__main__":
    main()
