#!/usr/bin/python3
"""Train the net that reads a die's value from its rectified TOP face alone, and export it to
models/face_reader.onnx.

  models/face_reader.onnx - the top face cut out of the reader's 64x64 crop along the four
                            corners models/top_face.onnx finds (FACE_MARGIN more on every side)
                            and warped flat to FACE x FACE in; 7 probabilities out, as
                            models/top_reader.onnx: 0 = no readable top face, 1..6 = its value.

Why a second reader: the whole-die reader sees the side faces' pips too and must learn which
face counts; on an oblique or glaring die it is often right but unsure. The flat top face shows
only the pips that count, laid out as on a die seen from above, so vision/read.c combines the
two readers' probabilities (see yz_vision_combine_readers there).

The faces are cut exactly as vision/read.c cuts them: the committed models/top_face.onnx
finds the corners in a crop whose centre and size carry the detector's errors, and the face is
warped out of that crop. A face's corners have no first one and the net may start anywhere, so
training turns and mirrors faces freely (a die's value is the same whichever way up it lies).
Data and the held-out split are those of tools/train_reader.py (every 7th render, every 4th
shared photo); the real photos' labels give the value, and the net's corners the face.

  # $R and $RENDERS as in tools/train_reader.py, and two more render folders:
  $R --out /tmp/yz-train7 --count 350 --seed 17000 --prefix t7_
  $R --out /tmp/yz-train8 --count 350 --seed 19000 --prefix t8_
  /usr/bin/python3 tools/train_face_reader.py $RENDERS /tmp/yz-train7 /tmp/yz-train8 \
      ../shared/data/matteop65-webcam ../shared/data/byler-d6 --epochs 24

That net came from exactly that: of 2493 renders and 510 shared photos, 2523 to train (51938
faces) and 480 held out. Held out: 98.6% of 2366 dice faces read right, 98.3% of 932 lawn and
half-die crops read as no face. The committed net is it fine-tuned on the faces the fine-tuned
top-face net finds (train_top_face.py's tf2), the lawn and the real sets kept (READER_HISTORY.md's
fr6, issue 24's eighth try; $LAWN, $WORLD and /tmp/before as in train_top_face.py):

  SHARED="../shared/data/matteop65-webcam ../shared/data/byler-d6 ../shared/data/epanemu-dice"
  /usr/bin/python3 tools/train_face_reader.py $LAWN $WORLD $SHARED --top-face models/top_face.onnx \
      --init-from /tmp/before --max-lr 5e-4 --epochs 8 --colour-turn 0.3 \
      --keep-sets plain,t3,t4,t5,plc,matteop65-webcam,byler-d6   # 13 minutes

What else was tried is in tools/READER_HISTORY.md.

Needs python3-torch, python3-opencv, python3-numpy (tools/setup.sh).
"""
import argparse
import pathlib
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from train_reader import (CROP, CROP_SCALE, NO_ERROR, PIPELINE, ReaderExport,  # noqa: E402
                          add_dev_quarter_argument, add_found_argument, augment_batch, block,
                          crop, detector_error, draw_squash, export, half_die_negative,
                          lawn_negative, load_exported, load_split, reading_loss, revive_norms,
                          run_exported, seeded, taught_target, to_tensor, train_epoch)

FACE = PIPELINE["face_reader"]["face"]  # face crop side (models/pipeline.json)
FACE_MARGIN = PIPELINE["face_reader"]["face_margin"]  # the face quad grown about its centre
VARIANTS = 3  # face crops cut per die: one from the true box, the rest with detector errors


class FaceReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(block(3, 24), block(24, 24), nn.MaxPool2d(2),  # 16
                                      block(24, 48), block(48, 48), nn.MaxPool2d(2),  # 8
                                      block(48, 64), block(64, 64), nn.MaxPool2d(2),  # 4
                                      block(64, 96))
        self.classify = nn.Linear(96 * 4 * 4, 7)

    def forward(self, x):
        return self.classify(torch.flatten(self.features(x), 1))


def face_quad(corners):
    """The top face's corners (4x2, crop pixels) grown by FACE_MARGIN about their centre."""
    centre = corners.mean(0)
    return (centre + (corners - centre) * (1 + FACE_MARGIN)).astype(np.float32)


def cut_faces(top_face, crops):
    """Each 64x64 crop's top face, found by the top-face net and warped flat to FACE x FACE as
    yz_cv_warp_quad does it."""
    corners = run_exported(top_face, crops).reshape(-1, 4, 2) * CROP
    square = np.float32([[0, 0], [FACE, 0], [FACE, FACE], [0, FACE]])
    return [cv2.warpPerspective(c, cv2.getPerspectiveTransform(face_quad(q), square), (FACE, FACE),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            for c, q in zip(crops, corners)]


def die_crops(scenes, rng, variants, squash=0.0):
    """Whole-die crops (as the reader sees them), labels and the folder each came from: every
    die `variants` times, the first from its true box, the others moved and resized as the
    detector errs, this share of them squashed (train_reader.draw_squash); and lawn and
    half-die crops labelled 0, as tools/train_reader.py makes them."""
    xs, ys, folders = [], [], []
    for name, image, dice, negatives in scenes:
        made = len(xs)
        # What the reader took for a die (mine_negatives.sh): no die, or with --found the die
        # it found there, its label beside its box.
        for x, y, bw, bh, *label in negatives:
            side = max(bw, bh)
            for v in range(variants):
                jx, jy, k, angle = detector_error(side, rng) if v else NO_ERROR
                xs.append(crop(image, x + bw / 2 + jx, y + bh / 2 + jy, side * CROP_SCALE * k, angle))
                ys.append(label[0] if label else 0)
        for value, x, y, bw, bh, top in dice:
            side = max(bw, bh)
            for v in range(variants):
                jx, jy, k, angle = detector_error(side, rng) if v else NO_ERROR
                squashed = draw_squash(rng, squash) if v else None
                xs.append(crop(image, x + bw / 2 + jx, y + bh / 2 + jy, side * CROP_SCALE * k,
                               angle, squashed))
                ys.append(value if top else 0)
        for _ in range(variants):
            patch = half_die_negative(image, dice, rng)
            if patch is None:
                continue
            xs.append(patch)
            ys.append(0)
            patch = lawn_negative(image, dice, rng)
            if patch is not None:
                xs.append(patch)
                ys.append(0)
        folders += [name.split("/")[0]] * (len(xs) - made)
    return xs, ys, folders


def face_samples(scenes, top_face, rng, variants, squash=0.0):
    """The faces, their labels, and the folder (set) each came from."""
    crops, labels, folders = die_crops(scenes, rng, variants, squash)
    faces = cut_faces(top_face, crops)
    return np.stack(faces).astype(np.uint8), np.array(labels), np.array(folders)


def turn(face, rng):
    """Any of the square's eight symmetries: the face's corners may start anywhere."""
    face = np.rot90(face, rng.integers(4))
    return face[:, ::-1] if rng.random() < 0.5 else face


def train(xs, ys, vx, vy, epochs, rng, net=None, max_lr=3e-3, colour_turn=0.0,
          teacher=None, kept=None, keep_weight=1.0):
    """With a teacher, the faces where `kept` is set also pull the net towards the teacher's
    readings of them (train_reader.keep_readings): a fine-tune on a wider world keeps what the
    committed net read on the lawn and the real photos, sureness included, which vision/read.c's
    combining of the two readers builds on."""
    net = net or FaceReader()
    opt = torch.optim.Adam(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr, total_steps=epochs * ((len(xs) + 31) // 32) + 10)
    vx, vy = to_tensor(vx), torch.from_numpy(vy)

    def batch(idx):
        teach = teacher is not None and kept is not None and kept[idx].any()
        # the teacher reads each kept face with its colours unturned
        x, teacher_x = augment_batch((turn(xs[i], rng) for i in idx), rng, colour_turn, teach)
        return x, taught_target(x, torch.from_numpy(ys[idx]),
                                None if kept is None else kept[idx], teacher, teacher_x)

    for epoch in range(epochs):
        loss = train_epoch(net, opt, sched, len(xs), rng,
                           lambda out, target: reading_loss(out, target, keep_weight), batch)
        net.eval()
        with torch.no_grad():
            p = torch.softmax(net(vx), 1)
        right = p.argmax(1) == vy
        dice = vy > 0
        sure = p.max(1).values >= 0.9
        print(f"face reader epoch {epoch}: loss {loss:.3f}  val: {right[dice].float().mean():.4f} of "
              f"{int(dice.sum())} dice right, {int((sure & ~right).sum())} wrong at >= 0.9, "
              f"{right[~dice].float().mean():.4f} of {int((~dice).sum())} others", flush=True)
    return net


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("train", type=pathlib.Path, nargs="+",
                        help="render folders (truth.csv) and shared photo sets (labels.csv)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("models"))
    parser.add_argument("--top-face", type=pathlib.Path, default=pathlib.Path("models/top_face.onnx"))
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--init-from", type=pathlib.Path, default=None,
                        help="fine-tune: start from face_reader.onnx in this folder (e.g. models)")
    parser.add_argument("--max-lr", type=float, default=3e-3,
                        help="the learning rate's peak (one cycle); lower to fine-tune")
    parser.add_argument("--colour-turn", type=float, default=0.0,
                        help="share of the faces shown with their colours turned "
                             "(train_reader.turn_colours); the committed net was trained with 0")
    parser.add_argument("--keep-sets", default="",
                        help="fine-tune: comma-separated folder names whose faces also keep the "
                             "--init-from face reader's readings (keep_readings)")
    parser.add_argument("--keep-weight", type=float, default=1.0,
                        help="fine-tune: keep_readings' weight beside the face reader's own loss")
    parser.add_argument("--squash", type=float, default=0.0, metavar="SHARE",
                        help="this share of the dice's moved crops squashed along a random "
                             "direction (train_reader.draw_squash) before their faces are cut; "
                             "the committed net saw none")
    parser.add_argument("--live-norms", action="store_true",
                        help="fine-tune: the BatchNorms learn again (train_reader.revive_norms) "
                             "instead of staying folded into the convolutions")
    add_dev_quarter_argument(parser)
    add_found_argument(parser)
    args = parser.parse_args()
    if args.keep_sets and not args.init_from:
        parser.error("--keep-sets keeps the --init-from face reader's readings: name it")
    rng = seeded(args.threads, args.seed)
    cv2.setNumThreads(args.threads)
    started = time.time()
    top_face = cv2.dnn.readNetFromONNX(str(args.top_face))
    train_set, val_set = ([scene[:3] + scene[4:] for scene in part]
                          for part in load_split(args.train,
                                                 leave_dev_quarter=args.dev_quarter,
                                                 found=args.found))
    xs, ys, folders = face_samples(train_set, top_face, rng, VARIANTS, args.squash)
    vx, vy, _ = face_samples(val_set, top_face, np.random.default_rng(7), 1)
    print(f"{len(xs)} training faces, {len(vx)} validation faces ({time.time() - started:.0f} s)",
          flush=True)
    net = teacher = kept = None
    if args.init_from:
        def committed():
            return load_exported(FaceReader(), args.init_from / "face_reader.onnx",
                                 (1, 3, FACE, FACE), softmax=True)
        net = committed()
        if args.keep_sets:
            teacher = committed()
            kept = np.isin(folders, args.keep_sets.split(","))
            print(f"{int(kept.sum())} of the training faces keep its readings", flush=True)
        if args.live_norms:  # statistics from 8000 of the training faces
            revive_norms(net, to_tensor(xs[np.random.default_rng(5).permutation(len(xs))[:8000]]))
    net = train(xs, ys, vx, vy, args.epochs, rng, net, args.max_lr, args.colour_turn,
                teacher, kept, args.keep_weight)
    args.out.mkdir(exist_ok=True)
    export(ReaderExport(net), (1, 3, FACE, FACE), args.out / "face_reader.onnx")
    print(f"trained in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
