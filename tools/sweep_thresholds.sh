#!/usr/bin/env bash
# Threshold sweeps through the C reader itself: `yardzee eval` on the held-out renders of each
# render folder (every 7th by number, tools/train_reader.py's held_out) for every combination
# of the thresholds given, set through $YARDZEE_TUNE (vision/tuning.c). One line per
# combination and folder: five-dice photos right, other photos refused, wrong rolls reported
# ok, dice right. The committed thresholds are the first combination when the grid holds them.
# usage: tools/sweep_thresholds.sh RENDER_DIR... [--grid "NAME=V1,V2 NAME=V1,V2 ..."]
#   default grid: "die_score=0.4,0.5,0.6 doubt_score=0.2,0.25,0.3 min_confidence=0.8,0.9,0.95,0.98"
#   names: die_score, doubt_score, min_confidence, zoom_worth, two_dice_side, min_die
# For the shared photo sets: YARDZEE_TUNE=... tools/eval_shared.sh
set -euo pipefail
cd "$(dirname "$0")/.."
yardzee="${YARDZEE:-build/yardzee}"
grid="die_score=0.4,0.5,0.6 doubt_score=0.2,0.25,0.3 min_confidence=0.8,0.9,0.95,0.98"
dirs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --grid) grid="$2"; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) dirs+=("$1"); shift ;;
    esac
done
if [ ${#dirs[@]} -eq 0 ]; then
    echo "usage: tools/sweep_thresholds.sh RENDER_DIR... [--grid \"NAME=V1,V2 ...\"]" >&2
    exit 2
fi
[ -x "$yardzee" ] || bash tools/build.sh build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "${dirs[@]}"; do
    [ -f "$dir/truth.csv" ] || { echo "sweep: $dir/truth.csv: no such file" >&2; exit 1; }
    # Held out: a render whose number is 6 modulo 7 (t2_006.jpg, t2_013.jpg, ...).
    awk -F, 'NR == 1 { print; next }
             { n = $1; sub(/\.[^.]*$/, "", n); sub(/.*_/, "", n); if (n % 7 == 6) print }' \
        "$dir/truth.csv" >"$tmp/$(basename "$dir").csv"
done

# Every combination of the grid, as NAME=V,NAME=V lists.
combos=("")
for axis in $grid; do
    name="${axis%%=*}"
    next=()
    for combo in "${combos[@]}"; do
        for value in $(tr ',' ' ' <<<"${axis#*=}"); do next+=("${combo:+$combo,}$name=$value"); done
    done
    combos=("${next[@]}")
done

for combo in "${combos[@]}"; do
    for dir in "${dirs[@]}"; do
        YARDZEE_TUNE="$combo" "$yardzee" eval --truth "$tmp/$(basename "$dir").csv" "$dir" --json |
            /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
print("%s  %s: five-dice right %d/%d, others refused %d/%d, wrong ok %d, dice %d/%d" % (
    sys.argv[1], sys.argv[2], r["five_right"], r["five_photos"], r["odd_refused"],
    r["odd_photos"], r["wrong_ok"], r["dice_right"], r["dice"]))' "$combo" "$(basename "$dir")"
    done
done
