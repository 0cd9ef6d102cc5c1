#!/usr/bin/python3
"""Train the net that finds each die's top face, and export it to models/top_face.onnx.

  models/top_face.onnx - the reader's 64x64 crop around one die in (the same crop), the four
                         corners of its TOP face out: 8 numbers, x0 y0 .. x3 y3 clockwise on
                         screen, in crop widths (0..1 across the crop). `yardzee read` maps them
                         back to the photo and --annotate draws the face, so a referee sees
                         which face was read.

Truth comes from the renderer: every render folder records each scene's seed (scenes.csv), so
the scene is drawn again without rendering and each die's top face projected through its camera
(tools/render/truth.py top_face_corners); a die is matched to its truth.csv row by value and
box. The real photo sets have no such truth and are not used. Held out: every 7th render, as in
tools/train_reader.py. A square's corners have no first one, so the loss is the smallest over
the four ways of starting the clockwise order.

  /usr/bin/python3 tools/train_top_face.py $RENDERS --epochs 40 --threads 1   # see train_reader.py

That net came from exactly that (1540 renders to train, 253 held out). Held-out corner error:
median 0.023, 95th percentile 0.068 die sides (1261 dice). The committed net is it fine-tuned
on lawn and world renders (READER_HISTORY.md's tf2, issue 24's seventh try; it landed in the
ninth, once a die half behind another no longer merged into the one in front):

  mkdir /tmp/before   # the nets before (this net and the face reader were fine-tuned from them)
  for f in models/*; do git show dfa81bd:$f >/tmp/before/${f#models/}; done
  LAWN="/tmp/plain /tmp/t3 /tmp/t4 /tmp/t5 /tmp/plc"      # READER_HISTORY.md's lawn folders
  WORLD="/tmp/world /tmp/world2 /tmp/world3 /tmp/world-crowded /tmp/world-cut"
  /usr/bin/python3 tools/train_top_face.py $LAWN $WORLD --epochs 20 --colour-turn 0.3 \
      --init-from /tmp/before --max-lr 1e-3      # 4 minutes on two cores

What else was tried is in tools/READER_HISTORY.md.

Needs python3-torch, python3-opencv, python3-numpy (tools/setup.sh).
"""
import argparse
import pathlib
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from render import truth as render_truth  # noqa: E402
from train_reader import (CROP, CROP_SCALE, NO_ERROR, below_centre, block, crop,  # noqa: E402
                          crop_matrix, detector_error, draw_squash, export, jitter_colour, load_exported,
                          load_set, to_tensor, train_epoch, turn_colours_sometimes)


class TopFace(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(block(3, 16), nn.MaxPool2d(2),     # 32
                                      block(16, 24), nn.MaxPool2d(2),    # 16
                                      block(24, 32), nn.MaxPool2d(2),    # 8
                                      block(32, 48), nn.MaxPool2d(2),    # 4
                                      block(48, 64))
        self.corners = nn.Linear(64 * 4 * 4, 8)

    def forward(self, x):
        return self.corners(torch.flatten(self.features(x), 1)) + 0.5


FRONT_SHOWS = 0.7  # a die whose top spans less of its box's height shows a front face below it


def box_on_lower_part(side, rng):
    """A detector's box on a die's lower part, as (jx, jy, k, angle) like detector_error: its
    centre 0.1 to 0.3 of the die's side below the die's (train_reader.below_centre), 0.7 to 1
    times as large. Seen from low, the detector now and then boxes a die on its front face,
    beside the die's own box: in the two world renders looked at (wt85_191, wt83_055) 0.24 and
    0.26 sides low, 0.73 and 0.87 times the die, where the net, taught detector_error's 0.06
    sides alone, took the front face for the top and the photo was read wrongly as sure
    (READER_HISTORY.md, fifty-fourth try: taught this way it found such tops, but read fewer
    lawn photos right; not kept)."""
    jx, jy = below_centre(side, rng, 0.1, 0.3)
    return jx, jy, rng.uniform(0.7, 1.0), rng.uniform(-8, 8)


def samples(scenes_with_faces, rng, augment, squash=0.0, low_boxes=0.0):
    """Crops around every die with a readable top, and its corners in crop widths; with augment,
    this share of them squashed (train_reader.draw_squash) and low_boxes of those showing a front
    face (FRONT_SHOWS) cut around a box on the die's lower part (box_on_lower_part) instead of
    detector_error's."""
    xs, ys = [], []
    for image, dice, faces in scenes_with_faces:
        for (value, x, y, bw, bh, top), face in zip(dice, faces):
            if not top or face is None:
                continue
            side = max(bw, bh)
            cx, cy = x + bw / 2, y + bh / 2
            if not augment:
                jx, jy, k, angle = NO_ERROR
            elif low_boxes and np.ptp(face[:, 1]) < FRONT_SHOWS * bh and rng.random() < low_boxes:
                jx, jy, k, angle = box_on_lower_part(side, rng)
            else:
                jx, jy, k, angle = detector_error(side, rng)
            squashed = draw_squash(rng, squash) if augment else None
            cx, cy = cx + jx, cy + jy
            m = crop_matrix(cx, cy, side * CROP_SCALE * k, angle, squashed)
            patch = crop(image, cx, cy, side * CROP_SCALE * k, angle, squashed)
            corners = (face @ m[:, :2].T + m[:, 2]) / CROP
            if augment and rng.random() < 0.5:
                patch = patch[:, ::-1]
                corners = np.stack([1 - corners[:, 0], corners[:, 1]], 1)[::-1]  # still clockwise
            xs.append(patch)
            ys.append(corners.reshape(-1).astype(np.float32))
    return xs, ys


def corner_loss(pred, target):
    """Smooth L1 against the best of the four cyclic orders of the target's corners."""
    pred = pred.view(-1, 4, 2)
    target = target.view(-1, 4, 2)
    losses = [F.smooth_l1_loss(pred, torch.roll(target, k, 1), reduction="none", beta=0.02).mean((1, 2))
              for k in range(4)]
    return torch.stack(losses, 1).min(1).values.mean()


def recolour(patch, rng, colour_turn):
    """A crop's colours as photos vary them, and in colour_turn of crops turned (turn_colours):
    where a die's top face is does not depend on its colour."""
    return turn_colours_sometimes(jitter_colour(patch, rng), rng, colour_turn)


def corner_error(pred, target, sides):
    """Per crop: the mean distance of each corner to its true one (best cyclic order), in die
    sides."""
    pred = pred.view(-1, 4, 2)
    target = target.view(-1, 4, 2)
    errors = torch.stack([(pred - torch.roll(target, k, 1)).norm(dim=2).mean(1) for k in range(4)], 1)
    return errors.min(1).values / sides


def train(train_set, val_set, epochs, rng, colour_turn=0.0, net=None, max_lr=3e-3, squash=0.0,
          low_boxes=0.0):
    net = net or TopFace()
    opt = torch.optim.Adam(net.parameters(), 2e-3, weight_decay=1e-4)
    vx, vy = samples(val_set, np.random.default_rng(7), False)
    vx, vy = to_tensor(vx), torch.from_numpy(np.stack(vy))
    side_in_crop = torch.full((len(vy),), 1 / CROP_SCALE)  # the die's long side, in crop widths
    # The same dice, those showing a front face boxed on their lower part (box_on_lower_part),
    # the others as the detector errs: the corner error, in widths of the true top face across
    # the crop (the crops' scale varies, so a die side in crop widths is not one number). The
    # committed net: median 0.059, 95th percentile 0.399 on READER_HISTORY.md's fifty-fourth
    # try's folders.
    lx, ly = samples(val_set, np.random.default_rng(7), True, 0.0, 1.0)
    lx, ly = to_tensor(lx), torch.from_numpy(np.stack(ly))
    low_side = (ly.view(-1, 4, 2).amax(1) - ly.view(-1, 4, 2).amin(1)).amax(1)
    sched = None
    for epoch in range(epochs):
        xs, ys = samples(train_set, rng, True, squash, low_boxes)
        if sched is None:
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr, total_steps=epochs * ((len(xs) + 31) // 32) + 10)
        loss = train_epoch(net, opt, sched, len(xs), rng, corner_loss,
                           lambda idx: (to_tensor([recolour(xs[i], rng, colour_turn) for i in idx]),
                                        torch.from_numpy(np.stack([ys[i] for i in idx]))))
        net.eval()
        with torch.no_grad():
            errors = corner_error(net(vx), vy, side_in_crop)
            low = corner_error(net(lx), ly, low_side)
        print(f"top face epoch {epoch}: loss {loss:.4f}  val corner error: median "
              f"{errors.median():.3f}, 95th percentile {errors.quantile(0.95):.3f} die sides "
              f"({len(vy)} dice); boxed low: median {low.median():.3f}, 95th percentile "
              f"{low.quantile(0.95):.3f} top-face widths", flush=True)
    return net


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("renders", type=pathlib.Path, nargs="+", help="render folders (truth.csv, scenes.csv)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("models"))
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--colour-turn", type=float, default=0.0,
                        help="share of the crops shown with their colours turned "
                             "(train_reader.turn_colours)")
    parser.add_argument("--squash", type=float, default=0.0, metavar="SHARE",
                        help="this share of the dice seen squashed along a random direction "
                             "(train_reader.draw_squash); the committed net saw none")
    parser.add_argument("--low-boxes", type=float, default=0.0, metavar="SHARE",
                        help="this share of the crops cut around a box on the die's lower part "
                             "(box_on_lower_part); the committed net saw none")
    parser.add_argument("--init-from", type=pathlib.Path, default=None,
                        help="fine-tune: start from top_face.onnx in this folder (e.g. models)")
    parser.add_argument("--max-lr", type=float, default=3e-3,
                        help="the learning rate's peak (one cycle); lower to fine-tune")
    args = parser.parse_args()
    torch.manual_seed(1)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(1)
    started = time.time()
    train_set, val_set = [], []
    for root in args.renders:
        faces = render_truth.top_faces(root)
        for name, image, dice, held_out, _negatives in load_set(root):
            (val_set if held_out else train_set).append((image, dice, faces[name.split("/", 1)[1]]))
    print(f"{len(train_set)} training scenes, {len(val_set)} validation scenes", flush=True)
    net = None
    if args.init_from:
        net = load_exported(TopFace(), args.init_from / "top_face.onnx", (1, 3, CROP, CROP))
    net = train(train_set, val_set, args.epochs, rng, args.colour_turn, net, args.max_lr,
                args.squash, args.low_boxes)
    args.out.mkdir(exist_ok=True)
    export(net, (1, 3, CROP, CROP), args.out / "top_face.onnx")
    print(f"trained in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
