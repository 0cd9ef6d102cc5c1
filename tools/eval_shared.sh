#!/usr/bin/env bash
# The reader on the real photo sets in ../shared/data (not lawn photos: webcam dice on a desk,
# trays of small dice of every colour, dice of every colour on tables and cloth), on the part of
# each that no net was trained on: every 4th photo by name of matteop65-webcam and byler-d6
# (tools/train_reader.py trains on the other three quarters), and the valid and test splits of
# epanemu-dice (no net has seen any of it). Each set is read twice:
#   --expect any    per-die accuracy and the confusion matrix (a missed die counts as wrong);
#   --expect truth  each photo's true number of dice given, as a player says how many were
#                   thrown: photos entirely right, and no wrong roll reported ok, not one
#                   (exit 5 otherwise).
# usage: [DATA=ROOT] [SETS="byler-d6 ..."] tools/eval_shared.sh [EVAL_OPTIONS...]   (e.g. --json)
# DATA reads the sets from another root than ../shared/data, e.g. epanemu-dice with its stretch
# to 640x640 undone (tools/unstretch_set.py): DATA=/tmp/unstretched SETS=epanemu-dice.
# Exit: 0, 77 when ../shared/data is not there, else the first failing yardzee eval's code.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${DATA:-../shared/data}"
yardzee="${YARDZEE:-build/yardzee}"
if [ ! -d "$data" ]; then
    echo "skipped: no $data (the shared photo sets are not part of the repo)"
    exit 77
fi
[ -x "$yardzee" ] || bash tools/build.sh build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The unseen part of a set's labels.csv, header kept.
unseen() {
    local set="$1"
    if [ -f "$data/$set/splits.csv" ]; then
        awk -F, 'NR == FNR { if ($2 == "valid" || $2 == "test") keep[$1] = 1; next }
                 FNR == 1 || ($1 in keep)' "$data/$set/splits.csv" "$data/$set/labels.csv"
    else
        # The 4th, 8th, ... file by name (tools/train_reader.py's held_out()).
        awk -F, 'NR == 1 { print; next }
                 $1 != last { last = $1; n++ }
                 n % 4 == 0 { print }' "$data/$set/labels.csv"
    fi
}

code=0
for set in ${SETS:-matteop65-webcam byler-d6 epanemu-dice}; do
    [ -d "$data/$set" ] || { echo "$set: not in $data, skipped"; continue; }
    # The reader reports at most 32 dice (YZ_VISION_MAX_DICE): photos of more are left out.
    unseen "$set" >"$tmp/$set.all.csv"
    awk -F, 'NR == FNR { n[$1]++; next } FNR == 1 || n[$1] <= 32' "$tmp/$set.all.csv" \
        "$tmp/$set.all.csv" >"$tmp/$set.csv"
    left_out=$(awk -F, 'NR > 1 { n[$1]++ } END { for (f in n) k += n[f] > 32; print k + 0 }' \
        "$tmp/$set.all.csv")
    [ "$left_out" -eq 0 ] || echo "$set: $left_out photos of more than 32 dice left out"
    echo "== $set, any number of dice"
    "$yardzee" eval --truth "$tmp/$set.csv" "$data/$set/images" --expect any "$@" || code=$?
    echo "== $set, the true number of dice given"
    "$yardzee" eval --truth "$tmp/$set.csv" "$data/$set/images" --expect truth \
        --max-wrong-ok 0 "$@" || { rc=$?; [ "$code" -ne 0 ] || code=$rc; }
done
exit $code
