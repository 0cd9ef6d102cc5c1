#!/usr/bin/python3
"""tools/jitter_set.py on small sets made here: a render folder (truth.csv, scenes.csv with a
picture of no dice) and a shared photo set (labels.csv, images/, splits.csv). --shift 3 cuts
three columns off every photo and moves every box three pixels left, a box at the edge losing
its cut part; every picture and the other columns are kept; a folder of neither kind is refused
with its name.

  tests/test_jitter_set.py   # exits 77 (skipped) without python3-opencv and python3-numpy
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

try:
    import cv2
    import numpy as np
except ImportError:
    print("skipped: python3-opencv or python3-numpy is not installed")
    sys.exit(77)

TOOL = pathlib.Path(__file__).resolve().parent.parent / "tools" / "jitter_set.py"
BOXES = [(0, 50, 40, 40), (100, 60, 50, 50)]  # the first at the photo's left edge


def make_photos(folder, names):
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        cv2.imwrite(str(folder / name), np.full((120, 200, 3), 90, np.uint8))


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def boxes_of(path):
    with open(path, newline="") as f:
        return [(r["file"], int(r["x"]), int(r["y"]), int(r["w"]), int(r["h"]), r) for r in csv.DictReader(f)]


def main():
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    def run(*args):
        return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        renders, shared = tmp / "renders", tmp / "shared"
        make_photos(renders, ["a.jpg", "empty.jpg"])
        write_csv(renders / "truth.csv", ["file", "value", "x", "y", "w", "h", "top_visible"],
                  [{"file": "a.jpg", "value": k + 1, "x": x, "y": y, "w": w, "h": h, "top_visible": 1}
                   for k, (x, y, w, h) in enumerate(BOXES)])
        write_csv(renders / "scenes.csv", ["file", "seed"], [{"file": "a.jpg", "seed": 1},
                                                           {"file": "empty.jpg", "seed": 2}])
        make_photos(shared / "images", ["b.jpg"])
        write_csv(shared / "labels.csv", ["file", "value", "x", "y", "w", "h"],
                  [{"file": "b.jpg", "value": k + 4, "x": x, "y": y, "w": w, "h": h}
                   for k, (x, y, w, h) in enumerate(BOXES)])
        (shared / "splits.csv").write_text("file,split\nb.jpg,test\n")

        for source, labels, photos in ((renders, "truth.csv", ""), (shared, "labels.csv", "images")):
            out = tmp / f"{source.name}_out"
            done = run(source, out, "--shift", 3)
            check(done.returncode == 0, f"{source.name}: exit {done.returncode}: {done.stderr}")
            got = boxes_of(out / labels)
            check([b[1:5] for b in got] == [(0, 50, 37, 40), (97, 60, 50, 50)],
                  f"{source.name}: boxes {[b[1:5] for b in got]}, not moved 3 px left")
            check(all(b[5].get("top_visible", "1") == "1" for b in got) and
                  [b[5]["value"] for b in got] in (["1", "2"], ["4", "5"]),
                  f"{source.name}: the rows' other columns changed: {[b[5] for b in got]}")
            for name in ["a.jpg", "empty.jpg"] if source == renders else ["b.jpg"]:
                image = cv2.imread(str(out / photos / name))
                check(image is not None and image.shape[:2] == (120, 197),
                      f"{source.name}: {name} is {None if image is None else image.shape[:2]}, not 120x197")
        check((tmp / "renders_out" / "scenes.csv").exists(), "scenes.csv not copied")
        check((tmp / "shared_out" / "splits.csv").read_text() == (shared / "splits.csv").read_text(),
              "splits.csv not copied")
        bad = run(tmp / "nothing_here", tmp / "bad_out")
        check(bad.returncode != 0 and "nothing_here" in bad.stderr,
              f"a folder of neither kind: exit {bad.returncode}, {bad.stderr!r}")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("ok" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
