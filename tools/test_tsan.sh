#!/usr/bin/env bash
# ThreadSanitizer on the threaded parts (the last pass of tools/test.sh): the advisor's table
# build (one thread a core, `yardzee strategy`), a JPEG's scan decoded in parts
# (vision/jpeg_split.c, by tests/test_vision_decode.c), batch --jobs 2, and serve answering
# reads and game moves at once. Any race report
# fails the pass. OpenCV is not built with TSan; tools/tsan.supp says what of it is ignored.
# The full serve test takes minutes under TSan; this drives the same threads with fewer photos.
# usage: tools/test_tsan.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh build-tsan -DYZ_TSAN=ON >/dev/null || exit 1
yardzee="$PWD/build-tsan/yardzee"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$PWD/tools/tsan.supp"
export YARDZEE_CACHE="$PWD/build-tsan/cache"
tmp=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
status=0
step() { # NAME COMMAND...: runs it, its output kept for a failure
    echo "tsan: $1 ($(date +%T))"
    shift
    "$@" >"$tmp/log" 2>&1 || { status=1; echo "tsan: FAILED"; grep -m1 -A25 'ThreadSanitizer' "$tmp/log" || tail -20 "$tmp/log"; }
}

step "advisor build on two threads" "$yardzee" strategy --rules yahtzee
step "a JPEG's scan in 2, 3 and 8 parts" build-tsan/tests/test_vision_decode

mkdir "$tmp/photos"
for n in 004 010; do cp "samples/lawn/lawn_$n.jpg" "$tmp/photos/"; done
echo "not a photo" >"$tmp/photos/text.jpg"
step "batch --jobs 2" "$yardzee" batch "$tmp/photos" --jobs 2 --csv "$tmp/batch.csv"

serve_at_once() {
    "$yardzee" game new --players Ann,Bob --file "$tmp/g.json" >/dev/null || return 1
    "$yardzee" serve --bind 127.0.0.1 --port 0 --game "$tmp/g.json" >"$tmp/serve.out" 2>"$tmp/serve.err" &
    server_pid=$!
    for _ in $(seq 600); do grep -q '^Join code: ' "$tmp/serve.out" && break; sleep 0.2; done
    local url
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/serve.out" | head -1)
    [ -n "$url" ] || return 1
    # Two reads and two game requests at once, on separate connections (separate threads).
    for i in 1 2; do
        curl -s --max-time 300 -o /dev/null -w '%{http_code}\n' \
            --data-binary @samples/lawn/lawn_004.jpg "${url}api/read" >"$tmp/read$i" &
        curl -s --max-time 300 -o /dev/null -w '%{http_code}\n' "${url}api/game" >"$tmp/game$i" &
    done
    wait $(jobs -p | grep -v "^$server_pid$")
    cat "$tmp"/read? "$tmp"/game?
    [ "$(cat "$tmp"/read? "$tmp"/game? | grep -c '^200$')" -eq 4 ] || return 1
    kill "$server_pid"
    wait "$server_pid"
    local code=$?
    server_pid=""
    cat "$tmp/serve.err"
    return $code
}
step "serve: reads and game requests at once" serve_at_once

[ $status -eq 0 ] && echo "tsan: all clean"
exit $status
