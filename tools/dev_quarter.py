#!/usr/bin/python3
"""A shared photo set's dev quarter (train_reader.py's dev_quarter: every 4th photo of its train
split by name) as a folder `yardzee eval` reads: OUT/truth.csv and the photos. Nets trained with
train_reader.py --dev-quarter never learn from it, so it is a dev set of real photos to trace
mistakes on, which the unseen splits (the measured part, tools/eval_shared.sh) must not be.
OUT/splits.csv puts every photo in a split "dev", so that train_reader.load_set reads the folder
as held out: tools/readers_at_true_boxes.py reads all of it, and a training script given it by
mistake validates on it without learning from it.

  usage: tools/dev_quarter.py SET OUT [--as-shipped]
  e.g.   tools/dev_quarter.py ../shared/data/epanemu-dice /tmp/epadev
         build/yardzee eval --truth /tmp/epadev/truth.csv /tmp/epadev --expect truth
         tools/readers_at_true_boxes.py /tmp/epadev models size --jitter 8

epanemu-dice's train split carries Roboflow's salt-and-pepper augmentation (1% of its pixels set
black or white; READER_HISTORY.md's thirty-eighth try) and its valid and test splits do not, so
each photo is written with those dots put back to their 3x3 median (clean_dots), as the photos
it stands for look; --as-shipped links the photos as they are. Photos of more than 32 dice,
which yardzee eval does not take, are left out. Needs python3-opencv and python3-numpy.
"""
import argparse
import collections
import csv
import pathlib
import sys

import cv2
import numpy as np

from train_reader import dev_quarter

MAX_DICE = 32  # yardzee eval's limit per photo
DOT_DARK, DOT_LIGHT, DOT_OFF = 40, 215, 60  # a dot: near black or white, this far off its median


def clean_dots(image):
    """image (BGR) with each single-pixel dot near black or white, at least DOT_OFF grey levels
    off its 3x3 median, set to that median."""
    median = cv2.medianBlur(image, 3)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.int16)
    grey_median = cv2.cvtColor(median, cv2.COLOR_BGR2GRAY).astype(np.int16)
    dots = ((grey <= DOT_DARK) | (grey >= DOT_LIGHT)) & (np.abs(grey - grey_median) >= DOT_OFF)
    out = image.copy()
    out[dots] = median[dots]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("set", type=pathlib.Path, help="a shared set with labels.csv and splits.csv")
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--as-shipped", action="store_true", help="link the photos, dots and all")
    args = parser.parse_args()
    names = dev_quarter(args.set)
    if not names:
        sys.exit(f"dev_quarter: {args.set}: no splits.csv with a train split")
    rows = collections.defaultdict(list)
    with open(args.set / "labels.csv", newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames
        for row in reader:
            if row["file"] in names:
                rows[row["file"]].append(row)
    args.out.mkdir(parents=True, exist_ok=True)
    kept = sorted(name for name, dice in rows.items() if len(dice) <= MAX_DICE)
    for name in kept:
        source, target = (args.set / "images" / name).resolve(), args.out / name
        target.unlink(missing_ok=True)
        if args.as_shipped:
            target.symlink_to(source)
        elif not cv2.imwrite(str(target), clean_dots(cv2.imread(str(source))),
                             [cv2.IMWRITE_JPEG_QUALITY, 95]):
            sys.exit(f"dev_quarter: {target}: cannot write")
    with open(args.out / "truth.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for name in kept:
            writer.writerows(rows[name])
    with open(args.out / "splits.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["file", "split"])
        writer.writerows([name, "dev"] for name in kept)
    print(f"dev_quarter: {len(kept)} photos of {args.set.name}'s train split "
          f"({len(names) - len(kept)} of more than {MAX_DICE} dice left out) in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
