#!/usr/bin/env bash
# The reader on the real photo sets in ../shared/data (not lawn photos: webcam dice on a desk,
# and trays of small dice of every colour), with `--expect any`: per-die accuracy, the
# confusion matrix, dice wrongly read as sure. It reads only the held-out photos, every 4th
# of each set in sorted order: tools/train_reader.py trains on the other three quarters.
# usage: tools/eval_shared.sh [EVAL_OPTIONS...]   (e.g. --json, --min-die-accuracy 90)
# Exit: 0, 77 when ../shared/data is not there, else yardzee eval's exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
data="../shared/data"
yardzee="${YARDZEE:-build/yardzee}"
if [ ! -d "$data" ]; then
    echo "skipped: no $data (the shared photo sets are not part of the repo)"
    exit 77
fi
[ -x "$yardzee" ] || bash tools/build.sh build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
code=0
for set in matteop65-webcam byler-d6; do
    # Held out: the 4th, 8th, ... file by name (tools/train_reader.py's held_out()).
    awk -F, 'NR == 1 { print; next }
             $1 != last { last = $1; n++ }
             n % 4 == 0 { print }' "$data/$set/labels.csv" >"$tmp/$set.csv"
    "$yardzee" eval --truth "$tmp/$set.csv" "$data/$set/images" --expect any "$@" || code=$?
done
exit $code
