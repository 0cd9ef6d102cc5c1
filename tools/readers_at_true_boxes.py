#!/usr/bin/python3
"""How the readers do when the detector is perfect: every die of a render folder (or of a shared
photo set's unseen part) whose top face shows, cut at its true box as vision/read.c cuts a
detected one, read by the whole-die reader (with its mirror image), the face reader (on the face
the top-face net finds) and both combined as yz_vision_combine_readers does; and the share of
those dice the die-or-not net calls lawn. It tells the readers' part of what `yardzee eval`
reports from the detector's part.

  usage: tools/readers_at_true_boxes.py DIR [MODELS_DIR] [COLUMN]  # DIR: truth.csv, scenes.csv
         tools/readers_at_true_boxes.py ../shared/data/SET [MODELS_DIR] [size]  # unseen part only
         tools/readers_at_true_boxes.py ../shared/data/SET [MODELS_DIR] --trained  # the rest
         tools/readers_at_true_boxes.py DIR [MODELS_DIR] --jitter K  # and K boxes moved a little
         tools/readers_at_true_boxes.py DIR [MODELS_DIR] --box-error SCALE SHIFT  # boxes off
         tools/readers_at_true_boxes.py DIR [MODELS_DIR] --montage OUT.png  # and look at them

--trained reads the part of a shared set the nets trained on instead: read no better there than
on the unseen part, the readers underfit the set rather than fail to generalise from it. Only
where the two parts are alike: epanemu-dice's training split carries Roboflow's salt-and-pepper
noise and its unseen splits do not (READER_HISTORY.md, thirty-eighth try).

Per ground (or per value of another scenes.csv COLUMN: die_material, light, ...; a shared set's
unseen part is one group: tools/eval_shared.sh's photos, and those of over 32 dice it leaves
out; COLUMN `size` groups any set's dice by their long side in load_set's pixels), each
reader's dice: RS read right and sure (>= 0.9, the reader's min_confidence), ru
right but unsure, zero "no top face", wu wrong and unsure, WS wrong and sure.

--jitter K also cuts each die at K boxes moved by up to 6% of its side and scaled 0.92 to 1.08
(a detector's box a few pixels off) and says, of the dice combined reads sure at the true box,
right and wrong, how many read below 0.99 there and how many stay the same value and sure at
every moved box: whether a second look would tell a sure wrong die from a sure right one.

--box-error SCALE SHIFT cuts each die instead at its true box times SCALE, its centre moved
SHIFT of its side in a random direction: how the readers do where the detector's box is off
(train_reader.py's detector_error trains them on boxes 0.8 to 1.25 times, centres moved by a
normal spread of 0.06 sides).

--montage OUT.png writes every die the combined reading does not read right and sure, as
the reader's crop shows it (enlarged, the truth's value and the combined reading's value and
probability written on it, 0 for "no top"), in pages of 48: OUT.png, OUT_1.png, ... So that
the dice lost can be looked at, on a dev set, before guessing why.

Needs python3-opencv, python3-numpy and python3-torch (for train_reader.py's crops).
"""
import argparse
import collections
import csv
import pathlib
import sys

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from train_face_reader import cut_faces  # noqa: E402
from train_reader import (CROP_SCALE, crop, is_shared_set, load_set,  # noqa: E402
                          run_exported as run)

SURE = 0.9  # vision/tuning.c's min_confidence
FACE_ALONE = 0.95  # vision/tuning.c's face_alone
JITTER_SHIFT, JITTER_SCALE = 0.06, 0.08  # --jitter's moved boxes: shift / side, scale - 1
VERY_SURE = 0.99  # --jitter also counts the sure dice read below this
SIZES = (24, 32, 48, 64, 96)  # COLUMN size: the groups' upper bounds (px), the last open


def size_group(side):
    """The die's group by its long side: "<24 px", ..., ">=96 px" (in order sorted as text)."""
    return next((f"<{bound} px" for bound in SIZES if side < bound), f">={SIZES[-1]} px")


def combine(whole_die, face):
    """yz_vision_combine_readers: the whole-die reading alone where the face reader sees no face
    and the whole-die reader favours a value at FACE_ALONE or more; else the geometric mean
    where both favour one value, else the mean."""
    agree = (whole_die.argmax(1) == face.argmax(1))[:, None]
    combined = np.where(agree, np.sqrt(whole_die * face), (whole_die + face) / 2)
    combined = combined / combined.sum(1, keepdims=True)
    alone = ((face.argmax(1) == 0) & (whole_die.argmax(1) > 0) &
             (whole_die.max(1) >= FACE_ALONE))[:, None]
    return np.where(alone, whole_die, combined)


def outcome(p, labels):
    best, sure = p.argmax(1), p.max(1) >= SURE
    return np.where(best == labels, np.where(sure, "RS", "ru"),
                    np.where(best == 0, "zero", np.where(sure, "WS", "wu")))


def read_combined(net, crops):
    """What the readers make of crops: the whole-die reader (with its mirror image), the face
    reader on the face the top-face net finds, and the two combined."""
    whole_die = (run(net["top_reader"], crops) + run(net["top_reader"], [c[:, ::-1] for c in crops])) / 2
    face = run(net["face_reader"], cut_faces(net["top_face"], crops))
    return whole_die, face, combine(whole_die, face)


def report_jitter(net, combined, moved, labels):
    """--jitter: of the dice read sure at the true box (combined), right and wrong, how many
    read below VERY_SURE there and how many stay the same value and sure at every moved box."""
    value, sure = combined.argmax(1), combined.max(1) >= SURE
    stays = np.ones(len(labels), bool)
    for look in moved:
        p = read_combined(net, look)[2]
        stays &= (p.argmax(1) == value) & (p.max(1) >= SURE)
    below = combined.max(1) < VERY_SURE
    for name, chosen in (("right and sure", sure & (value == labels)),
                         ("wrong and sure", sure & (value != labels))):
        print(f"{name}: {chosen.sum()} dice, {(chosen & below).sum()} below {VERY_SURE}; "
              f"the same and sure at all {len(moved)} moved boxes: {(chosen & stays).sum()}")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=pathlib.Path, metavar="DIR")
    parser.add_argument("models", type=pathlib.Path, nargs="?", metavar="MODELS_DIR",
                        default=pathlib.Path(__file__).resolve().parent.parent / "models")
    parser.add_argument("column", nargs="?", default="surface", metavar="COLUMN")
    parser.add_argument("--trained", action="store_true")
    parser.add_argument("--jitter", type=int, default=0, metavar="K")
    parser.add_argument("--box-error", type=float, nargs=2, default=[1.0, 0.0],
                        metavar=("SCALE", "SHIFT"))
    parser.add_argument("--montage", type=pathlib.Path, default=None, metavar="OUT.png")
    return parser.parse_args()


MONTAGE_TILE, MONTAGE_COLUMNS, MONTAGE_ROWS = 128, 8, 6


def write_montage(path, crops, labels, combined, outcomes):
    """--montage: the crops of the dice whose outcome (outcome()'s, of combined) is not RS,
    MONTAGE_COLUMNS a row, MONTAGE_ROWS rows a page, each labelled "truth -> read probability"."""
    best = combined.argmax(1)
    lost = np.flatnonzero(outcomes != "RS")
    per_page = MONTAGE_COLUMNS * MONTAGE_ROWS
    blank = np.zeros((MONTAGE_TILE, MONTAGE_TILE, 3), np.uint8)
    for page in range(0, len(lost), per_page):
        tiles = []
        for i in lost[page:page + per_page]:
            tile = cv2.resize(cv2.cvtColor(crops[i], cv2.COLOR_RGB2BGR),
                              (MONTAGE_TILE, MONTAGE_TILE), interpolation=cv2.INTER_CUBIC)
            text = f"{labels[i]}->{best[i]} {combined[i].max():.2f}"
            for colour, thickness in (((0, 0, 0), 3), ((255, 255, 255), 1)):
                cv2.putText(tile, text, (3, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour,
                            thickness)
            tiles.append(tile)
        tiles += [blank] * (-len(tiles) % MONTAGE_COLUMNS)
        rows = [np.hstack(tiles[k:k + MONTAGE_COLUMNS])
                for k in range(0, len(tiles), MONTAGE_COLUMNS)]
        name = path if page == 0 else path.with_name(f"{path.stem}_{page // per_page}{path.suffix}")
        cv2.imwrite(str(name), np.vstack(rows))
    print(f"{len(lost)} dice not read right and sure, in {path}"
          f"{' and the pages after it' if len(lost) > per_page else ''}")


def main():
    args = parse_args()
    root, models, column, jitter, trained_part = (args.root, args.models, args.column,
                                                  args.jitter, args.trained)
    box_scale, box_shift = args.box_error
    rng = np.random.default_rng(5)
    net = {name: cv2.dnn.readNetFromONNX(str(models / f"{name}.onnx"))
           for name in ("top_reader", "top_face", "face_reader", "die_or_not")}
    shared = is_shared_set(root)
    if not shared and column != "size":
        with open(root / "scenes.csv", newline="") as f:
            group = {row["file"]: row.get(column) or "lawn" for row in csv.DictReader(f)}
    crops, labels, groups = [], [], []
    moved = [[] for _ in range(jitter)]
    for name, image, dice, held_out, _ in load_set(root):
        if shared and held_out == trained_part:
            continue  # not the part asked for
        for value, x, y, w, h, top in dice:
            if top:
                side, cx, cy = max(w, h), x + w / 2, y + h / 2
                towards = rng.uniform(0, 2 * np.pi) if box_shift else 0.0  # --jitter's draws kept
                off_x, off_y = box_shift * side * np.array([np.cos(towards), np.sin(towards)])
                crops.append(crop(image, cx + off_x, cy + off_y, side * box_scale * CROP_SCALE))
                for look in moved:
                    dx, dy = rng.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2) * side
                    scale = rng.uniform(1 - JITTER_SCALE, 1 + JITTER_SCALE)
                    look.append(crop(image, cx + dx, cy + dy, side * scale * CROP_SCALE))
                labels.append(value)
                groups.append(size_group(side) if column == "size" else
                              root.name if shared else group[name.split("/")[-1]])
    labels, groups = np.array(labels), np.array(groups)
    whole_die, face, combined = read_combined(net, crops)
    lawn = run(net["die_or_not"], crops)[:, 1] < 0.5
    outcomes = {"whole die": outcome(whole_die, labels), "face": outcome(face, labels),
                "combined": outcome(combined, labels)}
    for value in ["all"] + sorted(set(groups)):
        chosen = np.ones(len(labels), bool) if value == "all" else groups == value
        n = int(chosen.sum())
        line = f"{value:11s} {n:4d} dice, lawn to die-or-not {lawn[chosen].mean():5.1%}"
        for reader, result in outcomes.items():
            counts = collections.Counter(result[chosen])
            line += f" | {reader}: " + " ".join(f"{k} {counts[k] / n:4.0%}"
                                                for k in ("RS", "ru", "zero", "wu", "WS"))
        print(line)
    if jitter:
        report_jitter(net, combined, moved, labels)
    if args.montage:
        write_montage(args.montage, crops, labels, combined, outcomes["combined"])


if __name__ == "__main__":
    main()
