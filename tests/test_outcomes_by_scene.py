#!/usr/bin/python3
"""tools/outcomes_by_scene.py on samples/world's five scenes, one die's truth changed to a value
it does not show: the "all" row is what `yardzee eval --json` counts, each column's groups add
up to it, the changed photo's group holds its wrong roll and its die read wrong, a number column
falls into thirds, and a column scenes.csv lacks is refused with its name.

  tests/test_outcomes_by_scene.py YARDZEE SAMPLES_DIR
"""
import csv
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import tool_checks
from tool_checks import check, finish

TOOL = pathlib.Path(__file__).resolve().parent.parent / "tools" / "outcomes_by_scene.py"
yardzee, samples = sys.argv[1], pathlib.Path(sys.argv[2])


def run_tool(*args):
    return tool_checks.run_tool(TOOL, yardzee, *args)


def tables(text):
    """{column: {group: [numbers...]}} from the tool's output."""
    out, column = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            column = line[3:]
            out[column] = {}
        elif column and line and not line.startswith("group"):
            name = line[:28].strip()
            out[column][name] = [int(n) for n in re.findall(r"(?<![.\d])\d+(?![.\d%])", line[28:])]
    return out


world = samples / "world"
if not (world / "scenes.csv").is_file():
    print(f"skipped: no {world / 'scenes.csv'}")
    sys.exit(77)
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp) / "world"
    shutil.copytree(world, root)
    with open(root / "truth.csv", newline="") as f:
        rows = list(csv.reader(f))
    # world_001's first die (a photo read ok with five dice): its value one off.
    changed = "world_001.jpg"
    row = next(r for r in rows if r[0] == changed)
    row[1] = str(int(row[1]) % 6 + 1)
    with open(root / "truth.csv", "w", newline="") as f:
        csv.writer(f).writerows(rows)
    with open(root / "scenes.csv", newline="") as f:
        scene_of = {row["file"]: row for row in csv.DictReader(f)}

    report = json.loads(subprocess.run([yardzee, "eval", "--truth", str(root / "truth.csv"),
                                        str(root), "--json"], capture_output=True,
                                       text=True).stdout)
    done = run_tool(root, "surface", "camera_elevation_deg")
    check(done.returncode == 0, f"runs on {root.name} (status {done.returncode}: {done.stderr})")
    got = tables(done.stdout)
    # photos, right, refused, wrong_ok, dice, dice right, missed, no value
    total = got.get("all", {}).get("all", [])
    want = [report["photos"], None, report["refused"], report["wrong_ok"], report["dice"],
            report["dice_right"], report["dice_missed"], report["dice_no_value"]]
    check(len(total) == 8 and all(w is None or t == w for t, w in zip(total, want)),
          f"the all row {total} is yardzee eval's {want}")
    check(total[:1] == [5] and total[3:4] == [1], "five photos, the changed one a wrong roll")
    check(total[1:2] == [4], "four right: world_000 (a top hidden) refused counts as right")
    for column in ("surface", "camera_elevation_deg"):
        groups = got.get(column, {})
        sums = [sum(g[k] for g in groups.values()) for k in range(8)] if groups else []
        check(sums == total, f"{column}'s groups add up to the all row ({sums})")
    surface = got.get("surface", {}).get(scene_of[changed]["surface"], [])
    check(len(surface) == 8 and surface[3] >= 1 and surface[5] < surface[4],
          f"the changed photo's ground holds its wrong roll and its die read wrong ({surface})")
    thirds = got.get("camera_elevation_deg", {})
    check(len(thirds) == 3 and all(n.startswith(("low", "mid", "high")) for n in thirds),
          f"camera_elevation_deg in thirds ({list(thirds)})")

    done = run_tool(root, "no_such_column")
    check(done.returncode != 0 and "no column no_such_column" in done.stderr,
          f"an unknown column is refused ({done.stderr.strip()})")
    (root / "scenes.csv").unlink()
    done = run_tool(root)
    check(done.returncode != 0 and "scenes.csv: no such file" in done.stderr,
          f"a folder without scenes.csv is refused ({done.stderr.strip()})")

finish()
