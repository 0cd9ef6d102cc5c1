#!/usr/bin/python3
"""The reader on photo sets and on two copies of each no one could tell from it (tools/jitter_set.py:
every photo saved again, and saved again with one column of pixels cut off), each count with the
three readings' mean: what README's "judge a change on the set and two copies" asks, in one run.

  usage: [YARDZEE_MODELS=DIR] tools/eval_copies.py SET... [--copies DIR | --no-copies]
  e.g.   tools/eval_copies.py samples/lawn /tmp/w5 ../shared/data/byler-d6
         tools/eval_copies.py --no-copies /tmp/yz-frozen   # issue 24's numbers, the set only

A SET is a render folder (truth.csv): its five-dice photos right with five expected, its photos
right with the true count given, the wrong rolls reported sure with the count given, and with
five expected its dice right, missed and left without a value, its photos of 4 or 6 dice
refused and the wrong rolls reported sure, and those with any number expected. Or a shared
photo set (labels.csv): its unseen part read by tools/eval_shared.sh, its dice right with any
number expected, its photos right with the count given, and the wrong rolls reported sure with
the count given and with any number. The copies are made once into --copies (default:
yardzee-copies in $TMPDIR, else in /tmp), a folder per set name: remove it when a set changes.
--no-copies reads the sets alone. Needs python3-opencv to make the copies; YARDZEE (default
build/yardzee) is the reader.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

TOOLS = pathlib.Path(__file__).resolve().parent
READINGS = (("set", None), ("resaved", []), ("shifted", ["--shift", "1"]))


def copy_of(root, reading, args, copies):
    """root itself, or its copy for this reading, made the first time it is asked for."""
    if args is None:
        return root
    out = copies / reading / root.name
    if not out.exists():
        subprocess.run([sys.executable, str(TOOLS / "jitter_set.py"), str(root), str(out), *args],
                       check=True, stdout=subprocess.DEVNULL)
    return out


def reports(command, env=None):
    """The --json reports a yardzee eval command (or eval_shared.sh) prints, in order. A failed
    check (exit 5, a wrong roll reported sure) still prints its report."""
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    found = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if not found:
        sys.exit(f"eval_copies: {' '.join(map(str, command))} printed no report: "
                 f"{run.stderr.strip()}")
    return found


def counts(root, yardzee):
    """{name: count} of one reading of the set at root."""
    if (root / "labels.csv").exists():  # a shared photo set: its unseen part
        env = dict(os.environ, DATA=str(root.parent), SETS=root.name, YARDZEE=yardzee)
        any_number, true_count = reports(["bash", str(TOOLS / "eval_shared.sh"), "--json"], env)
        return {"dice right, any number (%)": any_number["die_accuracy"],
                "photos right, count given": true_count["photos_right"],
                "wrong-sure, count given": true_count["wrong_ok"],
                "wrong-sure, any number": any_number["wrong_ok"]}
    truth = str(root / "truth.csv")
    five, true_count, any_number = (
        reports([yardzee, "eval", "--truth", truth, str(root), "--json", *expect])[0]
        for expect in ([], ["--expect", "truth"], ["--expect", "any"]))
    return {"five-dice photos right": five["five_right"],
            "photos right, count given": true_count["photos_right"],
            "wrong-sure, count given": true_count["wrong_ok"],
            "dice right, five expected (%)": five["die_accuracy"],
            "dice missed": five["dice_missed"],
            "dice without a value": five["dice_no_value"],
            "photos of 4 or 6 dice refused": five["odd_refused"],
            "wrong-sure, five expected": five["wrong_ok"],
            "wrong-sure, any number": any_number["wrong_ok"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", type=pathlib.Path, nargs="+")
    parser.add_argument("--copies", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / "yardzee-copies")
    parser.add_argument("--no-copies", action="store_true",
                        help="read each set only (issue 24's frozen test set, say)")
    args = parser.parse_args()
    yardzee = os.environ.get("YARDZEE", str(TOOLS.parent / "build" / "yardzee"))
    for root in args.sets:
        if not (root / "truth.csv").exists() and not (root / "labels.csv").exists():
            parser.error(f"{root}: no truth.csv or labels.csv")
    readings = READINGS[:1] if args.no_copies else READINGS
    for root in args.sets:
        rows = [counts(copy_of(root.resolve(), reading, copy_args, args.copies), yardzee)
                for reading, copy_args in readings]
        if args.no_copies:
            print(f"{root} (the set only)")
            for name, value in rows[0].items():
                print(f"  {name}: {value:.1f}" if isinstance(value, float) else
                      f"  {name}: {value}")
            continue
        print(f"{root} (set / resaved / shifted: mean)")
        for name in rows[0]:
            values = [row[name] for row in rows]
            shown = [f"{v:.1f}" if isinstance(v, float) else str(v) for v in values]
            print(f"  {name}: {' / '.join(shown)}: {statistics.mean(values):.1f}")


if __name__ == "__main__":
    main()
