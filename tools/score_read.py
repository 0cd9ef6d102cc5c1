#!/usr/bin/python3
"""Score `yardzee read` against a labelled photo set: per-die and per-photo accuracy.

  tools/score_read.py build/yardzee samples/lawn                 # truth.csv, expect 5
  tools/score_read.py build/yardzee ../shared/data/byler-d6 --expect any   # labels.csv

A labelled die is matched to a reported die when one's box centre lies in the other's box
(the shared sets draw boxes differently, so no IoU). Per-die accuracy counts a die right
only when it is matched, certain, and its value is right; a refused photo still gets credit
for the dice it read with confidence (--expect any), none with --expect 5 (nothing is
reported to the player). Wrong-ok counts photos reported "ok" with any wrong or missing die:
the outcome that must not happen.
"""
import argparse
import collections
import concurrent.futures
import csv
import json
import pathlib
import subprocess
import sys


def load_truth(root):
    for name in ("truth.csv", "labels.csv"):
        path = root / name
        if path.exists():
            rows = collections.defaultdict(list)
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    rows[row["file"]].append(row)
            images = root / "images" if (root / "images").is_dir() else root
            return images, rows
    sys.exit(f"score_read: no truth.csv or labels.csv in {root}")


def inside(px, py, box):
    x, y, w, h = box
    return x <= px <= x + w and y <= py <= y + h


def centre(box):
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def match(truth, dice):
    """Greedy: each labelled die takes the nearest reported die that overlaps it."""
    used, pairs = set(), []
    for t in truth:
        tbox = [int(t[k]) for k in "xywh"]
        tc = centre(tbox)
        best = None
        for i, d in enumerate(dice):
            if i in used:
                continue
            dc = centre(d["box"])
            if inside(*tc, d["box"]) or inside(*dc, tbox):
                dist = (tc[0] - dc[0]) ** 2 + (tc[1] - dc[1]) ** 2
                if best is None or dist < best[0]:
                    best = (dist, i)
        if best:
            used.add(best[1])
        pairs.append((t, dice[best[1]] if best else None))
    return pairs


def run(binary, image, expect):
    done = subprocess.run([binary, "read", str(image), "--json", "--expect", expect],
                          capture_output=True, text=True)
    if done.returncode not in (0, 3):
        return {"status": "error", "reason": done.stderr.strip(), "dice": []}
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--expect", default=None, help="5 or any (default: 5 for truth.csv)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", action="store_true", help="list every photo not read right")
    args = parser.parse_args()
    images, truth = load_truth(args.root)
    lawn = (args.root / "truth.csv").exists()
    expect = args.expect or ("5" if lawn else "any")
    files = sorted(truth)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda f: run(args.binary, images / f, expect), files))

    dice_total = dice_right = dice_wrong_certain = 0
    five = five_right = other = other_refused = wrong_ok = refused = errors = 0
    for name, result in zip(files, results):
        rows = truth[name]
        readable = [r for r in rows if r.get("top_visible", "1") == "1"]
        ok = result["status"] == "ok"
        refused += result["status"] == "refused"
        errors += result["status"] == "error"
        pairs = match(readable, result["dice"])
        photo_right = len(result["dice"]) == len(readable) == len(rows)
        for t, d in pairs:
            dice_total += 1
            good = d is not None and d["value"] == int(t["value"]) and d["confidence"] > 0
            credited = good and (ok or expect == "any")
            dice_right += credited
            if d is not None and d["value"] not in (None, int(t["value"])) and (ok or expect == "any"):
                dice_wrong_certain += 1
            photo_right &= good
        if ok and not photo_right:
            wrong_ok += 1
        if len(rows) == 5 and lawn:
            five += 1
            five_right += ok and photo_right
        elif lawn:
            other += 1
            other_refused += not ok
        if args.show and not (ok and photo_right):
            got = [d["value"] for d in result["dice"]]
            want = [int(r["value"]) for r in sorted(rows, key=lambda r: int(r["x"]))]
            print(f"  {name}: {result['status']} {result.get('reason', '')} got {got} want {want}")
    print(f"photos {len(files)}  refused {refused}  errors {errors}  expect {expect}")
    print(f"dice right {dice_right}/{dice_total} = {100 * dice_right / max(dice_total, 1):.1f}%"
          f"  (reported wrong values: {dice_wrong_certain})")
    if lawn:
        print(f"five-dice photos entirely right {five_right}/{five} = "
              f"{100 * five_right / max(five, 1):.1f}%;  4/6-dice photos refused "
              f"{other_refused}/{other}")
    print(f"wrong rolls reported ok: {wrong_ok}")


if __name__ == "__main__":
    main()
