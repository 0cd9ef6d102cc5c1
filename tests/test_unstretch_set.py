#!/usr/bin/python3
"""tools/unstretch_set.py on a small set made here: a photo whose dice were squeezed to 3/4 of
their width comes back 4/3 as wide with square boxes, one with square dice is left as it is, the
splits are copied, and a folder without labels.csv is refused with its name.

  tests/test_unstretch_set.py   # exits 77 (skipped) without python3-opencv and python3-numpy
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

TOOL = pathlib.Path(__file__).resolve().parent.parent / "tools" / "unstretch_set.py"


def make_set(root):
    """Two 640x640 photos: 'squeezed.jpg' with three 60x80 boxes, 'square.jpg' with two 70x70."""
    (root / "images").mkdir(parents=True)
    rows = []
    for name, (w, h), count in (("squeezed.jpg", (60, 80), 3), ("square.jpg", (70, 70), 2)):
        image = np.full((640, 640, 3), 90, np.uint8)
        for k in range(count):
            x, y = 100 + 150 * k, 200
            cv2.rectangle(image, (x, y), (x + w, y + h), (240, 240, 240), -1)
            rows.append({"file": name, "value": k + 1, "x": x, "y": y, "w": w, "h": h})
        cv2.imwrite(str(root / "images" / name), image)
    with open(root / "labels.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["file", "value", "x", "y", "w", "h"])
        writer.writeheader()
        writer.writerows(rows)
    (root / "splits.csv").write_text("file,split\nsqueezed.jpg,test\nsquare.jpg,train\n")


def main():
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        source, out = pathlib.Path(tmp) / "tiny", pathlib.Path(tmp) / "out"
        make_set(source)
        run = subprocess.run([sys.executable, str(TOOL), str(source), str(out)],
                             capture_output=True, text=True)
        check(run.returncode == 0, f"exit {run.returncode}: {run.stderr}")
        made = out / "tiny"
        squeezed, square = (cv2.imread(str(made / "images" / n)) for n in ("squeezed.jpg", "square.jpg"))
        check(squeezed is not None and squeezed.shape[:2] == (640, 853),
              f"squeezed.jpg is {None if squeezed is None else squeezed.shape[:2]}, not 640x853")
        check(square is not None and square.shape[:2] == (640, 640),
              f"square.jpg is {None if square is None else square.shape[:2]}, not 640x640")
        with open(made / "labels.csv", newline="") as f:
            boxes = {(r["file"], r["value"]): r for r in csv.DictReader(f)}
        check(len(boxes) == 5, f"{len(boxes)} boxes written, not 5")
        first = boxes.get(("squeezed.jpg", "1"))
        check(first is not None and (first["x"], first["w"], first["h"]) == ("133", "80", "80"),
              f"squeezed.jpg's first box is {first}, not x 133 and 80x80")
        second = boxes.get(("square.jpg", "2"))
        check(second is not None and (second["x"], second["w"]) == ("250", "70"),
              f"square.jpg's second box is {second}, not as it was")
        check((made / "splits.csv").read_text() == (source / "splits.csv").read_text(),
              "splits.csv not copied")
        bad = subprocess.run([sys.executable, str(TOOL), tmp, str(out)], capture_output=True,
                             text=True)
        check(bad.returncode != 0 and tmp in bad.stderr and "labels.csv" in bad.stderr,
              f"a folder without labels.csv: exit {bad.returncode}, {bad.stderr!r}")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("ok" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
