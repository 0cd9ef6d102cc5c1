#!/usr/bin/python3
"""tools/train_reader.py's side_face_negative, the crops that teach the whole-die reader a die's
side face is no top: where they are cut, against the rule written plainly here, and that
reader_samples without them draws exactly what it drew before they existed; and the squashed
crops (crop's squash, reader_samples' squash share): a square shrunk along the direction given
and no other, each squashed die beside its crop as cut; and augment_crop's twin with its colours
unturned, which a teacher reads for a kept crop; and --found's dice: the boxes where the reader
found dice (mine_negatives.sh's found.csv), each labelled as the true die it overlaps, read by
load_set and cut by reader_samples.

  tests/test_reader_samples.py

Exits 1 on a failed check; 77 (skipped) without python3-torch or python3-opencv
(tools/setup.sh --train installs them).
"""
import math
import pathlib
import tempfile

import tool_checks
from tool_checks import check, finish

tr = tool_checks.train_reader()
import numpy as np  # noqa: E402


IMAGE = np.zeros((480, 640, 3), np.uint8)
DIE = (4, 300, 200, 40, 50, 1)  # value, x, y, w, h, top visible: centre (320, 225), side 50

# Where each crop is cut: crop() replaced by one that returns its centre and side.
cut_at = []
real_crop = tr.crop
tr.crop = lambda image, cx, cy, side, angle=0.0: cut_at.append((cx, cy, side)) or (cx, cy, side)
rng = np.random.default_rng(3)
for _ in range(500):
    tr.side_face_negative(IMAGE, [DIE], rng)
tr.crop = real_crop

side, centre_x, centre_y = 50, 320, 225
below = [(cy - centre_y) / side for cx, cy, s in cut_at]
across = [abs(cx - centre_x) / side for cx, cy, s in cut_at]
sizes = [s / (side * tr.CROP_SCALE) for cx, cy, s in cut_at]
check(len(cut_at) == 500, "a lone die always gives a side-face crop")
# 0.4 to 0.7 sides off, within 0.6 rad of straight down (image rows grow downwards)
check(min(below) >= 0.4 * math.cos(0.6) - 1e-9 and max(below) <= 0.7 + 1e-9,
      f"each crop's centre lies below the die's, {min(below):.2f} to {max(below):.2f} sides")
check(max(across) <= 0.7 * math.sin(0.6) + 1e-9,
      f"and at most {0.7 * math.sin(0.6):.2f} sides to either side ({max(across):.2f})")
check(min(sizes) >= 1 - 1e-9 and max(sizes) <= 1.25 + 1e-9,
      f"cut 1 to 1.25 times the die's crop ({min(sizes):.2f} to {max(sizes):.2f})")

# Another die whose centre lies where the side face would be: its crop is that die's, not a
# side face, so none is cut there.
beneath = (2, 300, 250, 40, 50, 1)  # centre (320, 275): one side straight below
near_other = skipped = 0
tr.crop = lambda image, cx, cy, s, angle=0.0: (cx, cy, s)
rng = np.random.default_rng(4)
for _ in range(200):
    got = tr.side_face_negative(IMAGE, [DIE, beneath], rng)
    skipped += got is None
    if got is not None and abs(got[0] - 320) < 40 / 3 and abs(got[1] - 275) < 50 / 3:
        near_other += 1
tr.crop = real_crop
check(near_other == 0 and 0 < skipped < 200,
      f"no side-face crop is centred on the die beneath ({skipped} of 200 left uncut)")

# reader_samples: without side faces, the very crops and labels it drew before; with them,
# each side-face crop labelled 0 ("no top") in the folder SIDE_FACES, which is never a keep-set.
image = np.random.default_rng(5).integers(0, 255, (240, 320, 3), np.uint8)
scenes = [("w/one", image, [(3, 100, 80, 40, 40, 1), (5, 200, 120, 40, 40, 1)], [])]
before = tr.reader_samples(scenes, np.random.default_rng(6), True)
again = tr.reader_samples(scenes, np.random.default_rng(6), True, 0)
check(len(before[0]) == len(again[0]) and all(np.array_equal(a, b) for a, b in
                                              zip(before[0], again[0]))
      and before[1] == again[1] and before[2] == again[2],
      "reader_samples with no side faces draws what it drew without the option")
xs, ys, folders, _ = tr.reader_samples(scenes, np.random.default_rng(6), True, 3)
marked = [y for y, f in zip(ys, folders) if f == tr.SIDE_FACES]
check(len(marked) == 3 and set(marked) == {0} and len(xs) == len(ys) == len(folders),
      f"three side faces a scene: {len(marked)} crops in {tr.SIDE_FACES!r}, each labelled 0")
check(folders.count("w") == len(folders) - 3, "the scene's other crops keep its folder")



def extent(patch):
    """The width and height, in crop pixels, of a crop's bright part."""
    bright = patch[:, :, 0] > 127
    cols, rows = np.nonzero(bright.any(0))[0], np.nonzero(bright.any(1))[0]
    return cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1


# A white square filling half a crop's side: squashed to half along x it is half as wide and as
# tall; along y, the other way round; along the diagonal, a square still no taller than wide.
square = np.zeros((200, 200, 3), np.uint8)
square[75:125, 75:125] = 255
side = 100  # the crop covers 100 photo pixels: the square is CROP / 2 across
upright = extent(tr.crop(square, 100, 100, side))
across = extent(tr.crop(square, 100, 100, side, squash=(0.5, 0.0)))
down = extent(tr.crop(square, 100, 100, side, squash=(0.5, math.pi / 2)))
plain = tr.crop(square, 100, 100, side, squash=(1.0, 0.7))
check(upright == (tr.CROP // 2, tr.CROP // 2), f"the square upright is {upright}")
check(abs(across[0] - tr.CROP / 4) <= 1 and across[1] == upright[1],
      f"squashed to half along x: {across}, as tall as upright")
check(abs(down[1] - tr.CROP / 4) <= 1 and down[0] == upright[0],
      f"squashed to half along y: {down}, as wide as upright")
check(np.array_equal(plain, tr.crop(square, 100, 100, side)), "a squash of 1 changes nothing")

# reader_samples with every die squashed: each die's crop has its twin as cut beside it, the
# negatives none; the labels and folders as without the squash.
xs, ys, folders, plain = tr.reader_samples(scenes, np.random.default_rng(6), True, 0, 1.0)
dice_at = [k for k, twin in enumerate(plain) if twin is not None]
check(len(dice_at) == 2 and [ys[k] for k in dice_at] == [3, 5],
      f"both dice have their crop as cut beside the squashed one ({len(dice_at)} twins)")
check(all(not np.array_equal(xs[k], plain[k]) for k in dice_at),
      "and the squashed crop differs from it")
check(len(plain) == len(xs) and set(folders) == {"w"}, "one twin or None for every crop")

# augment_crop's unturned twin, what a teacher reads for a kept crop: the crop it returns alone
# with the same draws, and the same crop with its colours as they were; the same grey (a turn is
# about the grey axis) up to the clip at 0 and 255.
patch = np.random.default_rng(8).uniform(100, 150, (tr.CROP, tr.CROP, 3))  # turned, never clipped
alone = tr.augment_crop(patch, np.random.default_rng(9), 1.0)
turned, unturned = tr.augment_crop(patch, np.random.default_rng(9), 1.0, True)
check(np.array_equal(alone, turned), "with its twin, augment_crop returns the crop it returns alone")
check(not np.allclose(turned, unturned), "and the twin's colours are not turned")
inside = (turned > 0).all(2) & (turned < 255).all(2) & (unturned > 0).all(2) & (unturned < 255).all(2)
check(inside.mean() > 0.5 and np.allclose(turned.mean(2)[inside], unturned.mean(2)[inside], atol=1e-3),
      "the two share each pixel's grey")
same, twin = tr.augment_crop(patch, np.random.default_rng(9), 0.0, True)
check(np.array_equal(same, twin), "with no colour turn the twin is the crop")
x, twins = tr.augment_batch([patch, patch], np.random.default_rng(9), 1.0, True)
check(twins is not None and np.allclose(x[0].numpy(), tr.to_tensor([turned])[0].numpy()) and
      np.allclose(twins[0].numpy(), tr.to_tensor([unturned])[0].numpy()),
      "augment_batch: a batch of those crops and their twins")
check(tr.augment_batch([patch], np.random.default_rng(9), 1.0, False)[1] is None and
      tr.augment_batch([patch], np.random.default_rng(9), 0.0, True)[1] is None,
      "and no twins when no teacher asks or no colour is turned")

# found_dice: a box is a true die's where their boxes' intersection over union is 0.5 or more,
# checked here against the overlap worked out by hand; its label is the die's value, 0 where
# the die's top is hidden; a box on a piece of a die (under 0.3) is 0; a box half on a die, or
# on none, is left out.
dice = [(4, 100, 100, 40, 40, True), (2, 300, 100, 40, 40, False)]
overlap = tr.box_overlap((100, 100, 40, 40), (110, 100, 40, 40))
check(abs(overlap - 30 * 40 / (2 * 1600 - 1200)) < 1e-9, "box_overlap: 1200 shared of 2000 covered")
labelled = tr.found_dice([(104, 96, 40, 44),    # 36 x 40 = 1440 shared of 1920: 0.75, the 4
                          (310, 110, 40, 40),   # 30 x 30 = 900 of 2300: 0.39, left out
                          (295, 100, 48, 48),   # 40 x 40 = 1600 of 2304: 0.69, a hidden top
                          (500, 300, 40, 40),   # on no die
                          (120, 124, 20, 20)],  # 20 x 16 = 320 of 1680: 0.19, a piece of the 4
                         dice)
check(labelled == [(104, 96, 40, 44, 4), (295, 100, 48, 48, 0), (120, 124, 20, 20, 0)],
      f"found_dice: the 4, the hidden top and the piece, the others left out ({labelled})")
check(tr.found_dice([(104, 96, 40, 44)], []) == [], "found_dice: no box in a photo without dice")

# load_set with found: a render folder's found.csv after its negatives.csv, as (x, y, w, h,
# label), found_dice's labels (the die, a piece of it, one half on it left out); without found,
# the negatives alone, as before.
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    tr.cv2.imwrite(str(root / "r_000.jpg"), np.zeros((240, 320, 3), np.uint8))
    (root / "truth.csv").write_text("file,value,x,y,w,h,top_visible\nr_000.jpg,6,100,80,40,40,1\n")
    (root / "negatives.csv").write_text("file,x,y,w,h,reported\nr_000.jpg,10,10,30,30,0\n")
    (root / "found.csv").write_text("file,x,y,w,h,reported\nr_000.jpg,102,82,40,40,1\n"
                                    "r_000.jpg,115,80,40,40,0\n"  # IoU 0.45
                                    "r_000.jpg,130,80,40,40,0\n")  # IoU 0.14
    mined = tr.load_set(root, found=True)[0][4]
    check(mined == [(10, 10, 30, 30), (102, 82, 40, 40, 6), (130, 80, 40, 40, 0)],
          f"load_set found: the negative, then the die found at its box and the piece ({mined})")
    check(tr.load_set(root)[0][4] == [(10, 10, 30, 30)], "load_set without found: the negative")

# reader_samples: a false detection is labelled 0, a found die its value.
mined = [(10, 10, 30, 30), (100, 80, 40, 40, 5)]
xs, ys, folders, _ = tr.reader_samples([("w/one", image, [], mined)], np.random.default_rng(6), True)
check(ys[:2] == [0, 5], f"reader_samples: a false detection 0, the found die its value ({ys[:2]})")

finish()
