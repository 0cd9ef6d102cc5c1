#!/usr/bin/env bash
# Hard negatives for the training scripts: runs the reader over render folders and writes every
# die it finds where the truth has none, each a false detection, to DIR/negatives.csv
# (file,x,y,w,h,reported, upright pixels). On scenes with no dice (tools/render_scenes.py --world
# --clutter-only) that is every die found; on scenes with dice, every die found whose box
# neither holds a true die's centre nor has its centre in a true die's box. train_reader.py
# shows each as "no die" to the top reader, train_die_or_not.py as "not a die".
# Two readings of each photo: first every peak the detector finds (min_die=0: the die-or-not net
# is not asked), so that the die-or-not net learns from all the detector's mistakes, not only
# from those it already sees (reported=0); then, where the truth has dice, the reader as it is,
# told the true count, whose false dice (reported=1) are those that pass a photo as sure: its
# looks again when short of dice find them, which the first reading never makes.
# A shared photo set (labels.csv and images/) is mined the same way, its false detections
# written to $YZ_NEGATIVES/<set>.csv, outside ../shared/data (train_reader.py's load_set reads
# them from there).
# Every other die found (its box holds a true die's centre or its centre lies in a true die's
# box) is written beside them to DIR/found.csv or $YZ_NEGATIVES/<set>.found.csv, same columns:
# the boxes the detector really puts on dice, at which train_reader.py --found teaches the
# readers each die's value, or no top where the box holds only a piece of a die.
# usage: [YZ_NEGATIVES=DIR] tools/mine_negatives.sh DIR...
set -euo pipefail
cd "$(dirname "$0")/.."
yardzee="${YARDZEE:-build/yardzee}"
for dir in "$@"; do
    dir="${dir%/}"
    if [ -f "$dir/labels.csv" ]; then # a shared photo set
        [ -n "${YZ_NEGATIVES:-}" ] || { echo "mine_negatives: $dir: set YZ_NEGATIVES to a folder for its negatives" >&2; exit 2; }
        mkdir -p "$YZ_NEGATIVES"
        out="$YZ_NEGATIVES/$(basename "$dir").csv"
        found="$YZ_NEGATIVES/$(basename "$dir").found.csv"
        truth="$dir/labels.csv" photos="$dir/images"
        files=$(tail -n +2 "$truth" | cut -d, -f1 | sort -u)
    else
        out="$dir/negatives.csv" found="$dir/found.csv" truth="$dir/truth.csv" photos="$dir"
        files=$(tail -n +2 "$dir/scenes.csv" | cut -d, -f1)
    fi
    for file in $files; do
        printf '%s\t0\t' "$file"
        YARDZEE_TUNE=min_die=0 "$yardzee" read "$photos/$file" --expect any --json 2>/dev/null | tr -d '\n' || true
        echo
        count=$(awk -F, -v f="$file" '$1 == f' "$truth" | wc -l)
        [ "$count" -gt 0 ] || continue
        printf '%s\t1\t' "$file"
        "$yardzee" read "$photos/$file" --expect "$count" --json 2>/dev/null | tr -d '\n' || true
        echo
    done | /usr/bin/python3 -c '
import collections, csv, json, sys
truth = collections.defaultdict(list)
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        truth[row["file"]].append([float(row[k]) for k in "xywh"])
def inside(px, py, box):
    return box[0] <= px <= box[0] + box[2] and box[1] <= py <= box[1] + box[3]
false, found = open(sys.argv[2], "w"), open(sys.argv[3], "w")
for out in (false, found):
    print("file,x,y,w,h,reported", file=out)
for line in sys.stdin:
    name, reported, text = line.rstrip("\n").split("\t", 2)
    try:
        dice = json.loads(text).get("dice", [])
    except ValueError:
        continue
    for die in dice:
        box = die["box"]
        centre = (box[0] + box[2] / 2, box[1] + box[3] / 2)
        on_a_die = any(inside(*centre, t) or inside(t[0] + t[2] / 2, t[1] + t[3] / 2, box)
                       for t in truth[name])
        print(name + "," + ",".join(str(v) for v in box) + "," + reported,
              file=found if on_a_die else false)
' "$truth" "$out.tmp" "$found.tmp"
    mv "$out.tmp" "$out"
    mv "$found.tmp" "$found"
    echo "$dir: $(($(wc -l <"$out") - 1)) false detections, $(($(wc -l <"$found") - 1)) dice found, in $(echo "$files" | wc -w) photos"
done
