#!/usr/bin/python3
"""The reader on photo sets and on two copies of each no one could tell from it (tools/jitter_set.py:
every photo saved again, and saved again with one column of pixels cut off), each count with the
three readings' mean: what README's "judge a change on the set and two copies" asks, in one run.

  usage: [YARDZEE_MODELS=DIR] tools/eval_copies.py SET... [--copies DIR]
  e.g.   tools/eval_copies.py samples/lawn /tmp/w5 ../shared/data/byler-d6

A SET is a render folder (truth.csv): its five-dice photos right with five expected, its photos
right with the true count given, and the wrong rolls reported sure with the count given. Or a
shared photo set (labels.csv): its unseen part read by tools/eval_shared.sh, its dice right with
any number expected, its photos right with the count given, and the wrong rolls reported sure
with the count given. The copies are made once into --copies (default: yardzee-copies in $TMPDIR,
else in /tmp), a folder per set name: remove it when a set changes. Needs python3-opencv to
make the copies; YARDZEE (default build/yardzee) is the reader.
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
                "wrong-sure, count given": true_count["wrong_ok"]}
    truth = str(root / "truth.csv")
    five, = reports([yardzee, "eval", "--truth", truth, str(root), "--json"])
    true_count, = reports([yardzee, "eval", "--truth", truth, str(root), "--expect", "truth",
                           "--json"])
    return {"five-dice photos right": five["five_right"],
            "photos right, count given": true_count["photos_right"],
            "wrong-sure, count given": true_count["wrong_ok"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", type=pathlib.Path, nargs="+")
    parser.add_argument("--copies", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / "yardzee-copies")
    args = parser.parse_args()
    yardzee = os.environ.get("YARDZEE", str(TOOLS.parent / "build" / "yardzee"))
    for root in args.sets:
        if not (root / "truth.csv").exists() and not (root / "labels.csv").exists():
            parser.error(f"{root}: no truth.csv or labels.csv")
    for root in args.sets:
        rows = [counts(copy_of(root.resolve(), reading, copy_args, args.copies), yardzee)
                for reading, copy_args in READINGS]
        print(f"{root} (set / resaved / shifted: mean)")
        for name in rows[0]:
            values = [row[name] for row in rows]
            shown = [f"{v:.1f}" if isinstance(v, float) else str(v) for v in values]
            print(f"  {name}: {' / '.join(shown)}: {statistics.mean(values):.1f}")


if __name__ == "__main__":
    main()
