#!/usr/bin/env bash
# Hard negatives for tools/train_reader.py: runs the reader over render folders of scenes with no
# dice (tools/render_scenes.py --world --clutter-only) and writes every die it finds there, each
# a false detection, to DIR/negatives.csv (file,x,y,w,h, upright pixels). train_reader.py shows
# each as "no die" to the top reader; the detector learns the same from the empty scenes.
# usage: tools/mine_negatives.sh DIR...
set -euo pipefail
cd "$(dirname "$0")/.."
yardzee="${YARDZEE:-build/yardzee}"
for dir in "$@"; do
    out="$dir/negatives.csv"
    echo "file,x,y,w,h" >"$out.tmp"
    tail -n +2 "$dir/scenes.csv" | cut -d, -f1 | while read -r file; do
        "$yardzee" read "$dir/$file" --expect any --json 2>/dev/null |
            /usr/bin/python3 -c 'import json, sys
for die in json.load(sys.stdin).get("dice", []):
    print(sys.argv[1] + "," + ",".join(str(v) for v in die["box"]))' "$file" >>"$out.tmp" || true
    done
    mv "$out.tmp" "$out"
    echo "$dir: $(($(wc -l <"$out") - 1)) false detections in $(($(wc -l <"$dir/scenes.csv") - 1)) scenes"
done
