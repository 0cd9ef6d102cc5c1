#!/usr/bin/env bash
# The advisor's table cache: a damaged table is found by its checksum and rebuilt (with a
# warning), and the rebuilt one gives the same advice and loads quietly. Not run under valgrind
# (tools/test_valgrind.sh): the rebuild solves a whole profile.
# usage: test_cache.sh YARDZEE_BINARY
set -u
yardzee="$1"
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/check.sh"

# A damaged advisor table in the cache is found (its checksum) and rebuilt, with a warning.
mkdir -p "$tmp/cache"
"$yardzee" score --roll 1,2,3,4,5 >/dev/null 2>&1
cp "$YARDZEE_CACHE/strategy-yahtzee.bin" "$tmp/cache/"
printf '\x55' | dd of="$tmp/cache/strategy-yahtzee.bin" bs=1 seek=4000000 conv=notrunc status=none
YARDZEE_CACHE="$tmp/cache" check "damaged table rebuilt" 0 'strategy-yahtzee.bin: strategy table for yahtzee: checksum mismatch; rebuilding it' -- score --roll 5,2,5,6,5
YARDZEE_CACHE="$tmp/cache" check "rebuilt table gives the same advice" 0 "Advisor: score Fives for 15: keeps the upper bonus" -- score --roll 5,2,5,6,5
expect_true "rebuilt table loads quietly" [ ! -s "$tmp/err" ]

finish
