"""Copies of a labelled photo set with each photo and its boxes changed alike: the one loop
under tools/unstretch_set.py and tools/jitter_set.py.

A set is a shared photo set (labels.csv and images/, as in ../shared/data) or a render folder
(truth.csv beside the JPEGs, and scenes.csv naming every picture, dice or not). The copy keeps
the layout, the rows' other columns, and splits.csv and scenes.csv when there are any.
"""
import collections
import csv
import pathlib
import shutil
import sys

import cv2


def copy_set(source, out, change, quality, tool):
    """Writes source's photos to out, each as change(image, boxes) returns it: (image, boxes),
    boxes [(x, y, w, h)] in the photo's rows' order, None for a die no longer in the photo (its
    row is left out). JPEGs at `quality`. A photo that cannot be
    read is left out with a line naming it (tool: whose line). Returns how many were written."""
    source, out = pathlib.Path(source), pathlib.Path(out)
    shared = (source / "labels.csv").exists()
    if not shared and not (source / "truth.csv").exists():
        sys.exit(f"{tool}: {source}: no labels.csv or truth.csv (a shared photo set or a render folder)")
    labels = "labels.csv" if shared else "truth.csv"
    photos_in, photos_out = (source / "images", out / "images") if shared else (source, out)
    rows = collections.defaultdict(list)
    with open(source / labels, newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames
        for row in reader:
            rows[row["file"]].append(row)
    names = sorted(rows)
    if (source / "scenes.csv").exists():  # every picture, those without dice too
        with open(source / "scenes.csv", newline="") as f:
            names = sorted(set(names) | {row["file"] for row in csv.DictReader(f)})
    photos_out.mkdir(parents=True, exist_ok=True)
    written, kept = [], 0
    for name in names:
        image = cv2.imread(str(photos_in / name))
        if image is None:
            print(f"{tool}: {photos_in / name}: cannot be read, left out", file=sys.stderr)
            continue
        dice = rows.get(name, [])
        image, boxes = change(image, [tuple(float(d[k]) for k in "xywh") for d in dice])
        cv2.imwrite(str(photos_out / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        kept += 1
        for d, box in zip(dice, boxes):
            if box is not None:
                written.append({**d, **{k: round(v) for k, v in zip("xywh", box)}})
    with open(out / labels, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(written)
    for extra in ("splits.csv", "scenes.csv"):
        if (source / extra).exists():
            shutil.copy(source / extra, out / extra)
    return kept
