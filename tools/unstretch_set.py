#!/usr/bin/python3
"""A copy of a shared photo set with Roboflow's "Resize to 640x640 (Stretch)" undone.

epanemu-dice's photos were squeezed from their phones' 4:3 or 16:9 frames into 640x640 squares
(its README), so its dice are a third wider or narrower than tall and their pips are ovals: no
photo a player takes looks like that. Its boxes show it: a photo's median box width over height
clusters near 3/4 or 4/3 (and 9/16), not near 1 as on the unstretched sets (byler-d6's median is
1.00). Each photo's stretch is taken as the phone frame ratio (9/16, 3/4, 1, 4/3, 16/9) nearest
to that median (the values and the count of its dice play no part), and undone by enlarging the
squeezed axis, so that nothing of the photo is lost; its boxes are scaled with it.

  usage: tools/unstretch_set.py SET OUT_ROOT   # writes OUT_ROOT/<set's name>/ (images/,
                                               # labels.csv, splits.csv when SET has one)
  e.g.   tools/unstretch_set.py ../shared/data/epanemu-dice /tmp/unstretched
         DATA=/tmp/unstretched SETS=epanemu-dice tools/eval_shared.sh

The copy stays outside the repository, as ../shared/data does. Needs python3-opencv and
python3-numpy. What the readers and the pipeline do on it is in tools/READER_HISTORY.md (the
twenty-first try).
"""
import collections
import math
import pathlib
import sys

import cv2
import numpy as np

from set_copy import copy_set

FRAME_RATIOS = (9 / 16, 3 / 4, 1.0, 4 / 3, 16 / 9)  # how much wider than tall a die was made


def stretch_of(boxes):
    """The frame ratio nearest (in log) to the median width / height of a photo's boxes."""
    median = float(np.median([w / h for w, h in boxes]))
    return min(FRAME_RATIOS, key=lambda ratio: abs(math.log(median / ratio)))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2]) / source.name
    if not (source / "labels.csv").exists():
        sys.exit(f"unstretch_set: {source}: no labels.csv (a shared photo set has labels.csv and images/)")
    stretches = collections.Counter()

    def unstretch(image, boxes):
        ratio = stretch_of([(w, h) for _, _, w, h in boxes])
        stretches[ratio] += 1
        sx, sy = (1 / ratio, 1.0) if ratio < 1 else (1.0, ratio)  # enlarge the squeezed axis
        h, w = image.shape[:2]
        image = cv2.resize(image, (round(w * sx), round(h * sy)), interpolation=cv2.INTER_CUBIC)
        return image, [(x * sx, y * sy, bw * sx, bh * sy) for x, y, bw, bh in boxes]

    copy_set(source, out, unstretch, 95, "unstretch_set")
    print(f"{out}: {sum(stretches.values())} photos; stretched by " + ", ".join(
        f"{ratio:.2f}: {count}" for ratio, count in sorted(stretches.items())))


if __name__ == "__main__":
    main()
