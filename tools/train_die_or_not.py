#!/usr/bin/python3
"""Train models/die_or_not.onnx: is there a die in this crop at all, whatever its top shows.

The same 64x64 crop the whole-die reader gets (models/pipeline.json's reader crop) in, two
probabilities out: 0 = lawn (soil, a leaf, a ball, a blank block, clover, a cup: anything the
detector may score as a die), 1 = a die, also one whose top face cannot be read (hidden, in
glare, cut by the frame). vision/read.c's collect_dice counts a detection as a die only when
this net says so, so a bare-soil patch no longer refuses a photo as "found 6 dice", while a die
whose top cannot be read still counts and refuses it (a photo of six dice with one unreadable
never passes as five).

Positives: every die of the truth files, cut as the detector's boxes cut them (the same
detector_error as the readers learn with). Negatives: the detector's false detections, mined
by tools/mine_negatives.sh (clutter-only scenes, scenes with dice, and the real sets' photos),
and crops of ground well away from every die. Held out as train_reader.py holds out:
every 7th render by number, every 4th photo of a shared set (or its own split).

The net starts from the committed whole-die reader's features (load_exported), which already
tell dice from lawn in a way, with a new two-way head; a few epochs on one core suffice.

  SHARED="../shared/data/epanemu-dice ../shared/data/byler-d6 ../shared/data/matteop65-webcam"
  WORLD="/tmp/world /tmp/world2 /tmp/world3 /tmp/clutter /tmp/clutter3"  # tools/render/README.md
  export YZ_NEGATIVES=/tmp/yz-negatives   # the shared sets' false detections go here
  tools/mine_negatives.sh $WORLD /tmp/plain $SHARED   # with the committed detector, then again
  # with a second detector (YARDZEE_MODELS), each DIR/negatives.csv (and $YZ_NEGATIVES/SET.csv)
  # the two runs' rows together: the mistakes of two detectors, not only of the one in use
  /usr/bin/python3 tools/train_die_or_not.py $WORLD /tmp/plain /tmp/plain $SHARED --threads 2

The committed net came from exactly that, with the whole-die reader of then (`git show
f623e79:models/top_reader.onnx` in models/, or a folder given as --init-from): /tmp/plain is train_reader.py's seed-1000 folder (200
scenes at 640 px), the first detector the lawn detector alone (the committed pair's first half,
`git show c97d710:models/dice_detector.onnx`), the second the one tools/READER_HISTORY.md calls
ft5 (train_reader.py --colour-turn 0.3, issue 24's third try), 8 epochs, 16 minutes on two cores
beside a training. Then it was fine-tuned (issue 24's ninth try) so that a die half behind
another counts: 160 renders of such dice (tools/render/README.md's --one-behind-another
folders /tmp/behind1 and /tmp/behind2) given twice. The render folders kept their negatives;
the shared sets' and the new folders' were mined with the committed pair alone (YZ_NEGATIVES
pointed to a new folder):

  tools/mine_negatives.sh $SHARED /tmp/behind1 /tmp/behind2
  /usr/bin/python3 tools/train_die_or_not.py /tmp/plain /tmp/plain $WORLD /tmp/behind1 \
      /tmp/behind2 /tmp/behind1 /tmp/behind2 $SHARED --fine-tune --init-from /tmp/before \
      --epochs 3 --max-lr 3e-4 --threads 2   # /tmp/before: train_top_face.py's; 6 minutes
  # held out: 98.5% of 2263 dice, 99.2% of 3324 lawn crops right

The committed net was mined before mine_negatives.sh's second reading (the reader told the true
count) existed. Issue 24's fifty-eighth try (tools/READER_HISTORY.md) fine-tuned it as above, 4
epochs, on wt82, wt83, wt85-wt89, world2, pl71 and the shared sets, those reported false dice
shown --reported-repeat times: it learned them (a ball read as a sure 1 no longer counts), but
passed more photos of six dice as five, and was not kept.

Needs python3-torch, python3-opencv, python3-numpy, python3-onnx (tools/setup.sh --train).
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import train_reader as tr


def samples(scenes, rng, augment):
    """(crops, labels): every die (1), every mined false detection and two crops of ground (0)."""
    xs, ys = [], []
    for _, image, dice, _, negatives in scenes:
        boxes = [(x, y, w, h, 1) for _, x, y, w, h, _ in dice] + [(*n, 0) for n in negatives]
        for x, y, w, h, label in boxes:
            side = max(w, h)
            jx, jy, k, angle = tr.detector_error(side, rng) if augment else tr.NO_ERROR
            xs.append(tr.crop(image, x + w / 2 + jx, y + h / 2 + jy, side * tr.CROP_SCALE * k,
                              angle))
            ys.append(label)
        for _ in range(2):
            patch = tr.lawn_negative(image, dice, rng)
            if patch is not None:
                xs.append(patch)
                ys.append(0)
    return xs, ys


def main():
    parser = tr.crop_net_arguments(
        __doc__, "render folders (truth.csv, negatives.csv) and shared photo sets", 8, 1e-3)
    parser.add_argument("--fine-tune", action="store_true",
                        help="start from --init-from's die_or_not.onnx, head and all (lower "
                             "--max-lr and --epochs to keep what it learned)")
    parser.add_argument("--reported-repeat", type=int, default=10,
                        help="times an epoch each false die the reader reported with the true "
                             "count given (negatives.csv's reported = 1) is shown: a handful "
                             "among thousands of easy lawn crops, each one a wrong roll")
    parser.add_argument("--colour-turn", type=float, default=0.0,
                        help="share of the crops shown with their colours turned "
                             "(train_reader.turn_colours); the committed net was trained with 0")
    args = parser.parse_args()
    rng = tr.seeded(args.threads)
    started = time.time()
    train, val = tr.load_split(args.train, args.reported_repeat, args.dev_quarter)

    start = args.init_from / ("die_or_not.onnx" if args.fine_tune else "top_reader.onnx")
    net = tr.Reader(tr.exported_reader_width(start))  # as wide as the net it starts from
    if args.fine_tune:
        net.classify = nn.Linear(net.classify.in_features, 2)
    tr.load_exported(net, start, (1, 3, tr.CROP, tr.CROP), softmax=True)
    if not args.fine_tune:
        net.classify = nn.Linear(net.classify.in_features, 2)
    vx, vy = samples(val, np.random.default_rng(7), False)
    vx, vy = tr.to_tensor(vx), torch.tensor(vy)
    opt = torch.optim.Adam(net.parameters(), args.max_lr / 10, weight_decay=1e-4)
    sched = None
    for epoch in range(args.epochs):
        xs, ys = samples(train, rng, True)
        if sched is None:
            steps = (len(xs) + 31) // 32
            sched = torch.optim.lr_scheduler.OneCycleLR(
                opt, args.max_lr, total_steps=int(args.epochs * steps * 1.1) + 10)
        loss = tr.train_epoch(net, opt, sched, len(xs), rng, F.cross_entropy,
                              lambda idx: (tr.augment_batch((xs[i] for i in idx), rng,
                                                            args.colour_turn, False)[0],
                                           torch.tensor([ys[i] for i in idx])))
        net.eval()
        with torch.no_grad():
            p_die = torch.softmax(net(vx), 1)[:, 1]
        dice, lawn = vy == 1, vy == 0
        print(f"die-or-not epoch {epoch}: loss {loss:.3f}; held out: "
              f"{(p_die[dice] >= 0.5).float().mean():.3f} of {int(dice.sum())} dice, "
              f"{(p_die[lawn] < 0.5).float().mean():.3f} of {int(lawn.sum())} lawn crops right "
              f"({len(ys)} training crops, {time.time() - started:.0f} s)", flush=True)
    args.out.mkdir(exist_ok=True)
    tr.export(tr.ReaderExport(net),  # softmax over (lawn, die)
              (1, 3, tr.CROP, tr.CROP), args.out / "die_or_not.onnx")


if __name__ == "__main__":
    main()
