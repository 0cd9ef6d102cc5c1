#!/usr/bin/python3
"""The tools that copy a photo set with each photo and its boxes changed alike (tools/set_copy.py),
on small sets made here.

tools/unstretch_set.py: a photo whose dice were squeezed to 3/4 of their width comes back 4/3 as
wide with square boxes, one with square dice is left as it is, the splits are copied, and a
folder without labels.csv is refused with its name.

tools/jitter_set.py, on a render folder (truth.csv, scenes.csv with a picture of no dice) and a
shared photo set (labels.csv, images/, splits.csv): --shift 3 cuts three columns off every photo
and moves every box three pixels left, a box at the edge losing its cut part and one cut off
whole its row; every picture and the other columns are kept; a folder of neither kind is
refused with its name.

  tests/test_set_copies.py   # exits 77 (skipped) without python3-opencv and python3-numpy
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

TOOLS = pathlib.Path(__file__).resolve().parent.parent / "tools"
# jitter_set's photos: the first at the left edge, the last gone with --shift 3
BOXES = [(0, 50, 40, 40), (100, 60, 50, 50), (0, 10, 3, 3)]


def run_tool(tool, *args):
    return subprocess.run([sys.executable, str(TOOLS / tool), *map(str, args)],
                          capture_output=True, text=True)


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def make_squeezed_set(root):
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
    write_csv(root / "labels.csv", ["file", "value", "x", "y", "w", "h"], rows)
    (root / "splits.csv").write_text("file,split\nsqueezed.jpg,test\nsquare.jpg,train\n")


def make_photos(folder, names):
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        cv2.imwrite(str(folder / name), np.full((120, 200, 3), 90, np.uint8))


def boxes_of(path):
    with open(path, newline="") as f:
        return [(r["file"], int(r["x"]), int(r["y"]), int(r["w"]), int(r["h"]), r)
                for r in csv.DictReader(f)]


def check_unstretch_set(check):
    with tempfile.TemporaryDirectory() as tmp:
        source, out = pathlib.Path(tmp) / "tiny", pathlib.Path(tmp) / "out"
        make_squeezed_set(source)
        run = run_tool("unstretch_set.py", source, out)
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
        bad = run_tool("unstretch_set.py", tmp, out)
        check(bad.returncode != 0 and tmp in bad.stderr and "labels.csv" in bad.stderr,
              f"a folder without labels.csv: exit {bad.returncode}, {bad.stderr!r}")


def check_jitter_set(check):
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
            done = run_tool("jitter_set.py", source, out, "--shift", 3)
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
        bad = run_tool("jitter_set.py", tmp / "nothing_here", tmp / "bad_out")
        check(bad.returncode != 0 and "nothing_here" in bad.stderr,
              f"a folder of neither kind: exit {bad.returncode}, {bad.stderr!r}")


def main():
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    check_unstretch_set(check)
    check_jitter_set(check)
    for failure in failures:
        print(f"FAIL: {failure}")
    print("ok" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
