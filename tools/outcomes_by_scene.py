#!/usr/bin/python3
"""How the whole pipeline does on a render folder, broken down by its scenes.csv columns: each
photo read once by `yardzee eval --photos`, its outcome grouped by the value of each COLUMN
(numbers in three bins of equal counts: low, mid, high). What tools/render/README.md allows to
be read of the frozen test set besides its totals, and on a dev set where to look first.

  usage: tools/outcomes_by_scene.py DIR [COLUMN...] [--expect 5|any|truth]
  e.g.   tools/outcomes_by_scene.py /tmp/yz-frozen surface light motion_blur_px die_finish

Per group: photos, photos right (read ok with the true roll), refused, wrong rolls read as ok;
dice, right, missed and left without a value. Photos of other than five readable dice count
as right when refused with five expected. Without COLUMNs: surface, light, die_finish,
camera_elevation_deg, motion_blur_px. $YARDZEE names the binary (default build/yardzee);
$YARDZEE_TUNE reaches it as for `yardzee eval`.
"""
import argparse
import collections
import csv
import os
import pathlib
import subprocess
import sys
import tempfile

DEFAULT_COLUMNS = ["surface", "light", "die_finish", "camera_elevation_deg", "motion_blur_px"]
NUMBERS = ("photos", "right", "refused", "wrong_ok", "dice", "dice_right", "missed", "no_value")


def read_photos(yardzee, root, expect):
    """One dict per photo from `yardzee eval --photos`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "photos.csv"
        done = subprocess.run([yardzee, "eval", "--truth", str(root / "truth.csv"), str(root),
                               "--expect", expect, "--photos", str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"outcomes_by_scene: yardzee eval failed: {done.stderr.strip()}")
        with open(out, newline="") as f:
            return list(csv.DictReader(f))


def outcome(photo, scene, expect):
    """The counts one photo adds to its group."""
    ok = photo["status"] == "ok"
    wrong_ok = photo["wrong_ok"] == "1"
    dice = int(photo["dice"])
    five_readable = int(scene["n_dice"]) == 5 and dice == 5
    # Five expected, a photo of other than five readable dice is right when refused.
    right = (ok and not wrong_ok) if (expect != "5" or five_readable) else not ok
    return {"photos": 1, "right": int(right), "refused": int(not ok), "wrong_ok": int(wrong_ok),
            "dice": dice, "dice_right": int(photo["right"]), "missed": int(photo["missed"]),
            "no_value": int(photo["no_value"])}


def as_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def group_names(values):
    """Each photo's group for one column: the value itself, or for numbers its third."""
    numbers = [as_number(v) for v in values]
    if any(n is None for n in numbers) or len(set(numbers)) <= 4:
        return list(values)
    ordered = sorted(numbers)
    low, high = ordered[len(ordered) // 3], ordered[(2 * len(ordered)) // 3]
    if low == high:  # most photos one value (e.g. no blur): that value, below and above
        return [f"= {low:g}" if n == low else (f"< {low:g}" if n < low else f"> {low:g}")
                for n in numbers]
    return [f"low (< {low:g})" if n < low else (f"mid ({low:g} to {high:g})" if n < high
                                                 else f"high (>= {high:g})") for n in numbers]


def print_table(column, rows):
    print(f"\n== {column}")
    print(f"{'group':28} {'photos':>6} {'right':>11} {'refused':>7} {'wrong_ok':>8}"
          f" {'dice':>5} {'dice right':>12} {'missed':>6} {'no value':>8}")
    for name, t in sorted(rows.items(), key=lambda kv: -kv[1]["photos"]):
        print(f"{name[:28]:28} {t['photos']:6} {t['right']:5} {100 * t['right'] / t['photos']:4.0f}%"
              f" {t['refused']:7} {t['wrong_ok']:8} {t['dice']:5} {t['dice_right']:6}"
              f" {100 * t['dice_right'] / max(t['dice'], 1):4.0f}% {t['missed']:6}"
              f" {t['no_value']:8}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=pathlib.Path, metavar="DIR")
    parser.add_argument("columns", nargs="*", metavar="COLUMN")
    parser.add_argument("--expect", default="5", choices=["5", "any", "truth"])
    args = parser.parse_args()
    for name in ("truth.csv", "scenes.csv"):
        if not (args.root / name).is_file():
            sys.exit(f"outcomes_by_scene: {args.root / name}: no such file")
    with open(args.root / "scenes.csv", newline="") as f:
        scenes = {row["file"]: row for row in csv.DictReader(f)}
    columns = args.columns or DEFAULT_COLUMNS
    for column in columns:
        if column not in next(iter(scenes.values()), {}):
            sys.exit(f"outcomes_by_scene: {args.root / 'scenes.csv'}: no column {column}")
    photos = [p for p in read_photos(os.environ.get("YARDZEE", "build/yardzee"), args.root,
                                     args.expect) if p["file"] in scenes]
    counts = [outcome(p, scenes[p["file"]], args.expect) for p in photos]
    total = collections.Counter()
    for c in counts:
        total.update(c)
    print_table("all", {"all": total})
    for column in columns:
        groups = group_names([scenes[p["file"]][column] for p in photos])
        rows = collections.defaultdict(lambda: dict.fromkeys(NUMBERS, 0))
        for name, c in zip(groups, counts):
            for key in NUMBERS:
                rows[name][key] += c[key]
        print_table(column, rows)


if __name__ == "__main__":
    main()
