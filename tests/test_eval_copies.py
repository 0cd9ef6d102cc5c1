#!/usr/bin/python3
"""tools/eval_copies.py on a render folder of five lawn samples made here: the set's own column
is what `yardzee eval` reports of it, each copy is made once (a second run finds it) and holds
every photo, the mean is the three readings' mean, --no-copies reports the set alone (every
count yardzee eval's, no copy made), and a folder of neither kind is refused with its name.

  tests/test_eval_copies.py YARDZEE SAMPLES_LAWN   # exits 77 (skipped) without python3-opencv
"""
import csv
import json
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile

import tool_checks
from tool_checks import check, finish

try:
    import cv2  # noqa: F401 (tools/jitter_set.py makes the copies with it)
except ImportError:
    print("skipped: python3-opencv is not installed")
    sys.exit(77)

TOOL = pathlib.Path(__file__).resolve().parent.parent / "tools" / "eval_copies.py"
yardzee, lawn = sys.argv[1], pathlib.Path(sys.argv[2])
PHOTOS = ["lawn_000.jpg", "lawn_003.jpg", "lawn_010.jpg", "lawn_049.jpg", "lawn_072.jpg"]


def run_tool(*args):
    return tool_checks.run_tool(TOOL, yardzee, *args)


def means(output):
    """{count name: (the three readings, their mean)} from the tool's report of one set."""
    found = {}
    for line in output.splitlines()[1:]:
        name, readings, mean = line.strip().rsplit(": ", 2)
        found[name] = ([float(v) for v in readings.split(" / ")], float(mean))
    return found


with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    small = tmp / "small"
    small.mkdir()
    with open(lawn / "truth.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(small / "truth.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=rows[0].keys())
        writer.writeheader()
        writer.writerows(row for row in rows if row["file"] in PHOTOS)
    for name in PHOTOS:
        shutil.copy(lawn / name, small / name)

    first = run_tool(small, "--copies", tmp / "copies")
    check(first.returncode == 0, f"runs on a render folder ({first.stderr.strip()})")
    report = means(first.stdout)
    direct = {}
    for extra, key, name in (([], "five_right", "five-dice photos right"),
                             (["--expect", "truth"], "photos_right", "photos right, count given"),
                             (["--expect", "truth"], "wrong_ok", "wrong-sure, count given")):
        out = subprocess.run([yardzee, "eval", "--truth", str(small / "truth.csv"), str(small),
                              "--json", *extra], capture_output=True, text=True).stdout
        direct[name] = json.loads(out)[key]
    for name, value in direct.items():
        readings, mean = report.get(name, ([None], None))
        check(readings[0] == value, f"{name}: the set's own reading {readings[0]}, yardzee eval "
                                    f"{value}")
        check(mean is not None and abs(mean - statistics.mean(readings)) < 0.06,
              f"{name}: mean {mean} of {readings}")
    made_copies = sorted(p.name for p in (tmp / "copies").iterdir())
    check(made_copies == ["resaved", "shifted"], f"the set read as it is, two copies made "
                                                 f"({made_copies})")
    for copy in ("resaved", "shifted"):
        made = sorted(p.name for p in (tmp / "copies" / copy / "small").glob("*.jpg"))
        check(made == sorted(PHOTOS), f"the {copy} copy holds every photo ({len(made)})")
    stamp = (tmp / "copies" / "shifted" / "small" / "truth.csv").stat().st_mtime_ns
    again = run_tool(small, "--copies", tmp / "copies")
    check(again.stdout == first.stdout and
          (tmp / "copies" / "shifted" / "small" / "truth.csv").stat().st_mtime_ns == stamp,
          "a second run reads the copies made by the first, to the same report")

    # --no-copies: the set alone, each count what yardzee eval reports, no copy made.
    alone = run_tool(small, "--no-copies", "--copies", tmp / "none")
    listed = dict(line.strip().rsplit(": ", 1) for line in alone.stdout.splitlines()[1:])
    five = json.loads(subprocess.run([yardzee, "eval", "--truth", str(small / "truth.csv"),
                                      str(small), "--json"], capture_output=True, text=True).stdout)
    every = json.loads(subprocess.run([yardzee, "eval", "--truth", str(small / "truth.csv"),
                                       str(small), "--json", "--expect", "any"],
                                      capture_output=True, text=True).stdout)
    expected = {name: str(value) for name, value in direct.items()}
    expected.update({"dice right, five expected (%)": f"{five['die_accuracy']:.1f}",
                     "dice missed": str(five["dice_missed"]),
                     "dice without a value": str(five["dice_no_value"]),
                     "photos of 4 or 6 dice refused": str(five["odd_refused"]),
                     "wrong-sure, five expected": str(five["wrong_ok"]),
                     "wrong-sure, any number": str(every["wrong_ok"])})
    check(alone.returncode == 0 and listed == expected and not (tmp / "none").exists(),
          f"--no-copies: the set's own counts, no copy made ({listed})")

    refused = run_tool(tmp / "copies", "--copies", tmp / "copies")
    check(refused.returncode == 2 and "copies: no truth.csv or labels.csv" in refused.stderr,
          f"a folder of neither kind refused with its name ({refused.stderr.strip()[-60:]})")

finish()
