#!/usr/bin/env bash
# Replays the fuzzers' seeds and every input they ever crashed on (tests/fuzz/corpus/) through
# the command line: each must end with a clean exit status and at most one line on stderr.
# The runs go side by side, one a core: under valgrind (tools/test_valgrind.sh) a seed that
# decodes is read through every look of the dice reader at minutes each, on one core.
# usage: test_fuzz_regressions.sh YARDZEE_BINARY CORPUS_DIR
set -u
yardzee="$1"
corpus="$2"
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
side_by_side=$(nproc 2>/dev/null || echo 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0

check() { # N FILE ARGS...: one run, its outcome in $tmp/N.passed or $tmp/N.failed
    local n="$1" file="$2"
    shift 2
    "$yardzee" "$@" >/dev/null 2>"$tmp/$n.err"
    local status=$?
    if [ "$status" -lt 64 ] && [ "$(wc -l <"$tmp/$n.err")" -le 1 ]; then
        : >"$tmp/$n.passed"
    else
        { echo "FAIL: $file: yardzee $* exited $status"; head -5 "$tmp/$n.err"; } >"$tmp/$n.failed"
    fi
}

run() { # FILE ARGS...: check in the background, at most side_by_side at once
    while [ "$(jobs -rp | wc -l)" -ge "$side_by_side" ]; do wait -n; done
    runs=$((runs + 1))
    check "$runs" "$@" &
}

for file in "$corpus"/fuzz_image/* "$corpus"/regressions/fuzz_image-* "$corpus"/fuzz_jpeg_split/* \
    "$corpus"/regressions/fuzz_jpeg_split-*; do
    [ -f "$file" ] && run "$file" read "$file"
done
for file in "$corpus"/fuzz_json_files/* "$corpus"/regressions/fuzz_json_files-*; do
    [ -f "$file" ] || continue
    run "$file" score --roll 1,2,3,4,5 --card "$file"
    run "$file" game show --file "$file"
done
for file in "$corpus"/fuzz_roll/* "$corpus"/regressions/fuzz_roll-*; do
    [ -f "$file" ] && run "$file" score --roll "$(tr -d '\0' <"$file")"
done
wait
passed=$(find "$tmp" -name '*.passed' | wc -l)
failed=$(find "$tmp" -name '*.failed' | wc -l)
for n in $(seq 1 "$runs"); do
    [ -f "$tmp/$n.failed" ] && cat "$tmp/$n.failed"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq "$runs" ]
