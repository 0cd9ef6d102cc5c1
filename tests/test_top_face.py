#!/usr/bin/python3
"""How well `yardzee read` finds each die's top face on the lawn renders, against the renderer's
own geometry: each scene is drawn again from its seed (scenes.csv) and every die's top face
projected through its camera (tools/render/truth.py top_face_corners).

  tests/test_top_face.py YARDZEE SAMPLES_DIR [--every N] [--max-median F] [--max-p95 F]

The error of a die is the mean distance from each corner read to the true one (in the best of
the four clockwise orders), in die sides. Exits 1 when the median or the 95th percentile is over
its bound, or when fewer than 90 % of the readable dice got a top face; 77 (skipped) without
python3-numpy.
"""
import argparse
import json
import pathlib
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("skipped: python3-numpy is not installed")
    sys.exit(77)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from render import truth as render_truth  # noqa: E402


def true_tops(samples):
    """{file: [(box centre, long side, 4x2 corners)]} for the dice with a readable top."""
    rows, faces = render_truth.truth_rows(samples), render_truth.top_faces(samples)
    tops = {}
    for name, photo_rows in rows.items():
        tops[name] = []
        for row, face in zip(photo_rows, faces[name]):
            x, y, w, h = (float(row[k]) for k in "xywh")
            if row["top_visible"] == "1" and face is not None:
                tops[name].append((np.array([x + w / 2, y + h / 2]), max(w, h), face))
    return tops


def corner_error(read, truth):
    return min(np.linalg.norm(read - np.roll(truth, k, 0), axis=1).mean() for k in range(4))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("yardzee")
    parser.add_argument("samples", type=pathlib.Path)
    parser.add_argument("--every", type=int, default=4, help="read every Nth photo")
    parser.add_argument("--max-median", type=float, default=0.08)
    parser.add_argument("--max-p95", type=float, default=0.35)
    args = parser.parse_args()
    errors, missing = [], 0
    for index, (name, dice) in enumerate(sorted(true_tops(args.samples).items())):
        if index % args.every:
            continue
        done = subprocess.run([args.yardzee, "read", "--json", "--expect", "any",
                               str(args.samples / name)], capture_output=True, text=True)
        read = json.loads(done.stdout)["dice"]
        for centre, side, face in dice:
            on = [d for d in read if d["top"] and d["box"][0] <= centre[0] <= d["box"][0] + d["box"][2]
                  and d["box"][1] <= centre[1] <= d["box"][1] + d["box"][3]]
            if not on:
                missing += 1
                continue
            errors.append(corner_error(np.array(on[0]["top"], float), face) / side)
    errors = np.array(errors)
    total = len(errors) + missing
    median, p95 = np.median(errors), np.percentile(errors, 95)
    print(f"top faces of {len(errors)}/{total} readable dice found; corner error median "
          f"{median:.3f}, 95th percentile {p95:.3f}, worst {errors.max():.3f} die sides")
    failed = []
    if median > args.max_median:
        failed.append(f"median over {args.max_median}")
    if p95 > args.max_p95:
        failed.append(f"95th percentile over {args.max_p95}")
    if len(errors) < 0.9 * total:
        failed.append("fewer than 90 % of the dice have a top face")
    if failed:
        print("FAILED: " + "; ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
