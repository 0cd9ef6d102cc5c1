#!/usr/bin/env bash
# Replays the fuzzers' seeds and every input they ever crashed on (tests/fuzz/corpus/) through
# the command line: each must end with a clean exit status and at most one line on stderr.
# usage: test_fuzz_regressions.sh YARDZEE_BINARY CORPUS_DIR
set -u
yardzee="$1"
corpus="$2"
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # FILE ARGS...
    local file="$1"
    shift
    "$yardzee" "$@" >/dev/null 2>"$tmp/err"
    local status=$?
    if [ "$status" -lt 64 ] && [ "$(wc -l <"$tmp/err")" -le 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $file: yardzee $* exited $status"
        head -5 "$tmp/err"
    fi
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
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
