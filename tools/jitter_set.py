#!/usr/bin/python3
"""A copy of a photo set that no one could tell from it: each photo saved again as a JPEG, and
with --shift N its first N columns of pixels cut off (its boxes moved N px left), so that the
detector's cells fall elsewhere on every die.

How far a reader's count of right photos moves on such a copy is how far it moves for no reason
at all: a change to the nets is worth keeping only when it gains more than that (READER_HISTORY.md,
the twenty-second try, found samples/lawn's 117 of 120 five-dice photos read at 116 on either copy,
and a detector's apparent gain of six w5 photos shrink to two, averaged over three).

  usage: tools/jitter_set.py SET OUT [--shift N] [--quality Q]   # SET: a render folder or a
                                                                 # shared photo set; OUT: its copy
  e.g.   tools/jitter_set.py samples/lawn /tmp/lawn_resaved
         tools/jitter_set.py samples/lawn /tmp/lawn_shift1 --shift 1
         yardzee eval --truth /tmp/lawn_shift1/truth.csv /tmp/lawn_shift1

A box the cut reaches loses the part cut off; a die cut off whole loses its row. Needs
python3-opencv.
"""
import argparse
import pathlib

from set_copy import copy_set


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("set", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--shift", type=int, default=0, help="columns cut off the left")
    parser.add_argument("--quality", type=int, default=92, help="the copies' JPEG quality")
    args = parser.parse_args()
    if args.shift < 0 or not 1 <= args.quality <= 100:
        parser.error("--shift is 0 or more, --quality 1 to 100")

    def shift(image, boxes):
        if args.shift >= image.shape[1]:
            parser.error(f"--shift {args.shift}: a photo is only {image.shape[1]} px wide")
        moved = [(max(x - args.shift, 0), y, w - max(args.shift - x, 0), h) for x, y, w, h in boxes]
        return image[:, args.shift:], [box if box[2] >= 1 else None for box in moved]

    count = copy_set(args.set, args.out, shift, args.quality, "jitter_set")
    print(f"{args.out}: {count} photos, {args.shift} px cut off the left, JPEG quality {args.quality}")


if __name__ == "__main__":
    main()
