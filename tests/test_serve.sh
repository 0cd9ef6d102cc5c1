#!/usr/bin/env bash
# End-to-end tests of `yardzee serve` over loopback with curl: the page, reading photos and the
# upload limits, game moves that need the join code and the state's tag (a repeated or stale
# change is a 409 and the file stays byte for byte), the join code kept with the game, a new
# game after the last box, 50 reads at once; with raw sockets
# (serve_limits.py) the memory all uploads share and a body trickled a byte a second; --bind.
# The page in a headless browser, and its screenshot, is test_serve_e2e.py.
# usage: test_serve.sh YARDZEE_BINARY SAMPLES_DIR
set -u
yardzee=$(realpath "$1")
samples=$(realpath "$2")
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
here=$(dirname "$(realpath "$0")")
source "$here/check.sh"
tmp=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# http NAME EXPECTED_STATUS EXPECTED_TEXT -- CURL_ARGS...: one request; EXPECTED_TEXT is grep -E
# on the body. Every error answer must be a JSON {"error": ...}.
http() {
    local name="$1" want_status="$2" want_text="$3"
    shift 4
    local status
    status=$(curl -s --max-time 60 -o "$tmp/body" -w '%{http_code}' "$@")
    local ok=1
    [[ "$status" == $want_status ]] || ok=0
    grep -Eq -- "$want_text" "$tmp/body" || ok=0
    if [[ "$status" == [45]* ]] && ! grep -q '^{"error":"' "$tmp/body"; then ok=0; fi
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name (status $status, want $want_status; want text /$want_text/)"
        head -c 300 "$tmp/body" | sed 's/^/  body: /'
        echo
    fi
}

# start_server OUT [SERVE_OPTIONS...]: a server on a free loopback port, its stdout in OUT;
# sets server_pid and url once it has printed its join code.
start_server() {
    local out="$1"
    shift
    TMPDIR="$tmp" "$yardzee" serve --bind 127.0.0.1 --port 0 "$@" >"$out" 2>>serve.err &
    server_pid=$!
    for _ in $(seq 300); do
        grep -q '^Join code: ' "$out" && break
        sleep 0.2
    done
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$out" | head -1)
}

# game_tag: the tag of the game's state now, as a phone gets it with GET /api/game.
game_tag() {
    curl -s --max-time 30 "${url}api/game" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tag"])'
}

"$yardzee" game new --players Ann,Bob --file g.json >/dev/null
start_server serve.out --game g.json
code=$(sed -n 's/^Join code: \([A-Z0-9]\{6\}\) .*/\1/p' serve.out)
expect_true "the join code is saved with the game" grep -q "\"join_code\": \"$code\"" g.json
expect_true "the server prints its address and a join code" test -n "$url" -a -n "$code"
[ -n "$url" ] && [ -n "$code" ] || { cat serve.out serve.err; finish; }
expect_true "the server prints a QR code" grep -q '█' serve.out

http "the page" 200 'capture="environment"' -- "$url"
http "its script" 200 'api/game/throw' -- "${url}page.js"
http "its manifest" 200 '"display": "standalone"' -- "${url}manifest.webmanifest"
expect_true "its icon is a PNG" test "$(curl -s "${url}icon-192.png" | head -c 4 | tail -c 3)" = PNG
http "a photo is read" 200 '"status":"ok".*"roll":\[3,2,2,4,6\]' -- --data-binary @"$samples/lawn/lawn_004.jpg" "${url}api/read"
expect_true "the read answer has the shape of read --json plus id, advice" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert {"file", "status", "reason", "dice", "roll", "id", "confidence", "player", "advice"} <= set(r)
assert len(r["dice"]) == 5 and all({"value", "box", "confidence"} <= set(d) for d in r["dice"])
assert r["player"] == "Ann" and r["advice"]["throws_left"] == 2 and r["advice"]["keep"] == [2, 2]
' "$tmp/body"
id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/body")
curl -s -o annotated.jpg "${url}api/annotated/$id.jpg"
expect_true "the annotated photo is a JPEG" test "$(head -c 3 annotated.jpg | od -An -tx1 | tr -d ' ')" = ffd8ff
expect_true "the annotated photo is under 300 KB" test "$(stat -c %s annotated.jpg)" -lt 307200
http "a photo sent as a form field" 200 '"status":"ok".*"roll":\[3,2,2,4,6\]' -- -F photo=@"$samples/lawn/lawn_004.jpg" "${url}api/read"
http "an unknown annotated photo" 404 'no such photo' -- "${url}api/annotated/999.jpg"
http "an iPhone's HEIC, turned by its irot box" 200 '"status":"ok".*"roll":\[5,1,3,1,3\]' -- --data-binary @"$samples/../tests/corpus/heic_irot_3.heic" "${url}api/read"
http "a refused photo says why" 200 '"status":"refused","reason":"found 4 dice' -- --data-binary @"$samples/lawn/lawn_010.jpg" "${url}api/read"
echo "not a photo" >text.txt
http "a text file" 415 'not a photo' -- --data-binary @text.txt "${url}api/read"
head -c 20000 "$samples/lawn/lawn_004.jpg" >truncated.jpg
http "a truncated JPEG" 4?? 'truncated' -- --data-binary @truncated.jpg "${url}api/read"
head -c 31M /dev/zero >big.bin
http "an upload over 30 MB" 413 'larger than' -- --data-binary @big.bin "${url}api/read"
http "the same, chunked" 413 'larger than' -- -H 'Transfer-Encoding: chunked' --data-binary @big.bin "${url}api/read"
rm big.bin
http "verify a wrong claim" 200 '"verdict":"mismatch".*"differ":\[\{"die":5,"shows":6,"claimed":5\}\]' -- --data-binary @"$samples/lawn/lawn_004.jpg" "${url}api/verify?claim=2,2,3,4,5"
http "verify needs a claim of five dice" 400 'expected 5 dice' -- --data-binary @"$samples/lawn/lawn_004.jpg" "${url}api/verify?claim=2,2"
http "no such page" 404 'no such page' -- "${url}nope"

# Changing the game needs the join code; without it nothing changes, byte for byte.
before=$(sha1sum g.json)
http "a throw without the code" 403 'join code' -- -d '{"roll":[1,3,3,4,6]}' "${url}api/game/throw"
http "a throw with a wrong code" 403 'join code' -- -H 'X-Join-Code: WRONG2' -d '{"roll":[1,3,3,4,6]}' "${url}api/game/throw"
http "an undo with a wrong code" 403 'join code' -- -X POST "${url}api/game/undo?code=WRONG2"
expect_true "refused requests leave the game file as it was" test "$(sha1sum g.json)" = "$before"
tag=$(game_tag)
http "a change without the state's tag" 400 'send the game.s \\"tag\\"' -- -H "X-Join-Code: $code" -d '{"roll":[1,3,3,4,6]}' "${url}api/game/throw"
http "a throw with the code" 200 '"turn":"Ann","round":1,"throws":1,"dice":\[1,3,3,4,6\]' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\",\"roll\":[1,3,3,4,6]}" "${url}api/game/throw"
cp g.json after_throw.json
http "the same throw again (a double tap)" 409 '^\{"error":"already recorded.*"game":\{.*"throws":1' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\",\"roll\":[1,3,3,4,6]}" "${url}api/game/throw"
expect_true "a repeated throw leaves the game file byte for byte" cmp -s g.json after_throw.json
http "the scoreboard shows the throw" 200 '"throws":1,"dice":\[1,3,3,4,6\].*"advice":\{"throws_left":2,"keep":\[3,3\]' -- "${url}api/game"
http "the open boxes with their points, the best marked" 200 '"options":\[\{"box":"aces","label":"Aces","points":1,"best":false\}.*\{"box":"threes","label":"Threes","points":6,"best":true\}' -- "${url}api/game"
stale=$tag
tag=$(game_tag)
http "an unchanged game answers a poll in a few bytes" 200 "^\{\"tag\":\"$tag\",\"same\":true\}$" -- "${url}api/game?since=$tag"
http "keep, code in the query" 200 '"kept":\[3,3\]' -- -d "{\"tag\":\"$tag\",\"keep\":[3,3]}" "${url}api/game/keep?code=$code"
cp g.json after_keep.json
http "the same keep again" 409 'already recorded' -- -d "{\"tag\":\"$tag\",\"keep\":[3,3]}" "${url}api/game/keep?code=$code"
http "a keep made on an older state" 409 'already recorded' -- -d "{\"tag\":\"$stale\",\"keep\":[3]}" "${url}api/game/keep?code=$code"
expect_true "repeated and stale keeps leave the game file byte for byte" cmp -s g.json after_keep.json
tag=$(game_tag)
http "a throw from a photo, corrected by hand" 200 '"throws":2' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\",\"photo\":$id,\"roll\":[3,3,2,2,6],\"corrected\":true}" "${url}api/game/throw"
expect_true "the move records the photo and the correction" grep -q "\"photo\":\"upload-$id\",\"corrected\":true" g.json
cp g.json after_photo.json
tag=$(game_tag)
http "the same photo in a later throw" 409 "already recorded: this photo is move 3" -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\",\"photo\":$id,\"roll\":[3,3,2,2,6]}" "${url}api/game/throw"
expect_true "a photo recorded twice leaves the game file byte for byte" cmp -s g.json after_photo.json
before=$(sha1sum g.json)
http "an illegal move" 409 'cannot keep dice that were not thrown' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\",\"keep\":[5,5]}" "${url}api/game/keep"
http "an unknown box" 400 'must name a box' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\",\"box\":\"eights\"}" "${url}api/game/score"
http "a body that is not JSON" 400 'JSON object' -- -H "X-Join-Code: $code" -d 'nonsense' "${url}api/game/score"
expect_true "illegal moves leave the game file as it was" test "$(sha1sum g.json)" = "$before"
# Two phones score at once on the same state: one succeeds, the others are told it is recorded.
seq 6 | xargs -P 6 -I{} curl -s -o /dev/null -w '%{http_code}\n' -H "X-Join-Code: $code" \
    -d "{\"tag\":\"$tag\",\"box\":\"threes\"}" "${url}api/game/score" >scores.txt
expect_true "six scores at once on one state: exactly one is recorded" \
    test "$(grep -c '^200$' scores.txt) $(grep -c '^409$' scores.txt)" = "1 5"
http "the score" 200 '"name":"Ann","boxes":\{[^}]*"threes":6' -- "${url}api/game"
http "whose turn after scoring" 200 '"turn":"Bob","round":1,"throws":0.*"last":\{"player":"Ann","score":"threes","points":6\}' -- "${url}api/game"
tag=$(game_tag)
http "undo" 200 '"turn":"Ann","round":1,"throws":2' -- -H "X-Join-Code: $code" -X POST "${url}api/game/undo?tag=$tag"
cp g.json after_undo.json
http "the same undo again (a double tap)" 409 'already recorded' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\"}" "${url}api/game/undo"
expect_true "a repeated undo leaves the game file byte for byte" cmp -s g.json after_undo.json
expect_true "undo keeps the join code in the game file" grep -q "\"join_code\": \"$code\"" g.json
tag=$(game_tag)
http "a new game before this one is over" 409 'not over' -- -H "X-Join-Code: $code" -d "{\"tag\":\"$tag\"}" "${url}api/game/new"
"$yardzee" game show --file g.json >/dev/null
expect_true "the game file loads in the command line" test $? -eq 0

# 50 reads at once: every one answered, the server alive, the game file untouched.
before=$(sha1sum g.json)
seq 50 | xargs -P 50 -I{} curl -s --max-time 120 -o /dev/null -w '%{http_code}\n' \
    --data-binary @"$samples/lawn/lawn_004.jpg" "${url}api/read" >statuses.txt
expect_true "50 reads at once are all answered" test "$(grep -c '^200$' statuses.txt)" -eq 50
expect_true "the server is still running" kill -0 "$server_pid"
http "and still answers" 200 '"turn":"Ann"' -- "${url}api/game"
expect_true "reads leave the game file as it was" test "$(sha1sum g.json)" = "$before"

# Bodies held in memory share 96 MB: more is refused with 503 and comes back when they close.
port=${url##*:}
expect_true "uploads share 96 MB: 503 when it is spent, and it comes back" \
    python3 "$here/serve_limits.py" memory "${port%/}" "$samples/lawn/lawn_004.jpg"

kill "$server_pid"
wait "$server_pid"
expect_true "the server stops cleanly on SIGTERM" test $? -eq 0
server_pid=""
expect_true "and removes its photo folder" test -z "$(ls -d "$tmp"/yardzee-serve-* 2>/dev/null)"

# Restarted on the same game: the same join code, and new photos numbered after the recorded one.
start_server serve3.out --game g.json
expect_true "a restart keeps the join code" grep -q "^Join code: $code " serve3.out
http "a photo after the restart" 200 "\"id\":$((id + 1))," -- --data-binary @"$samples/lawn/lawn_004.jpg" "${url}api/read"
kill "$server_pid"
wait "$server_pid"
server_pid=""

# A finished one-player game: "New game" keeps it as over-1.json and starts again in over.json.
python3 - over.json <<'PY'
import json, sys
boxes = ["aces", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "yahtzee", "chance"]
moves = []
for box in boxes:
    moves += [{"player": "Ann", "throw": [1, 2, 3, 4, 6]}, {"player": "Ann", "score": box}]
json.dump({"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann"], "join_code": "ABCD23",
           "moves": moves}, open(sys.argv[1], "w"))
PY
cp over.json finished.json
start_server serve4.out --game over.json
http "a finished game" 200 '"over":true' -- "${url}api/game"
tag=$(game_tag)
http "a new game once it is over" 200 '"over":false,"turn":"Ann","round":1,"throws":0.*"moves":0' -- -H "X-Join-Code: ABCD23" -d "{\"tag\":\"$tag\"}" "${url}api/game/new"
expect_true "the finished game is kept beside it, byte for byte" cmp -s over-1.json finished.json
expect_true "the new game keeps the join code" grep -q '"join_code": "ABCD23"' over.json
http "the same new game again" 409 'already recorded' -- -H "X-Join-Code: ABCD23" -d "{\"tag\":\"$tag\"}" "${url}api/game/new"
expect_true "and no second game is kept" test ! -e over-2.json
kill "$server_pid"
wait "$server_pid"
server_pid=""

# A body trickled a byte a second is dropped once --request-timeout has passed (MHD's own
# timeout closes only idle connections); a photo sent at once is not cut short.
start_server serve2.out --request-timeout 2
port=${url##*:}
expect_true "a body trickled a byte a second is dropped after --request-timeout 2" \
    python3 "$here/serve_limits.py" trickle "${port%/}"
http "a photo sent at once is read all the same" 200 '"status":"ok"' -- --data-binary @"$samples/lawn/lawn_004.jpg" "${url}api/read"
kill "$server_pid"
wait "$server_pid"
expect_true "that server too stops cleanly (under ASan: nothing leaked)" test $? -eq 0
server_pid=""

# --bind takes IPv4 addresses only; anything else is one line and exit 2, before any work.
check "--bind an IPv6 address" 2 "^yardzee: --bind: '::1' is not an IPv4 address.*IPv6 is not supported" -- serve --bind ::1
check "--bind a bad address" 2 "^yardzee: --bind: '300.1.2.3' is not an IPv4 address" -- serve --bind 300.1.2.3 --port 0
check "--bind an address of another machine" 1 "^yardzee: 192.0.2.7:0: cannot listen there" -- serve --bind 192.0.2.7 --port 0
check "--request-timeout 0" 2 "^yardzee: --request-timeout: '0' is not 1-3600 seconds" -- serve --request-timeout 0
check "the help says IPv4 only" 0 "IPv6 is not supported" -- serve --help
[ "$failed" -eq 0 ] || sed 's/^/  server: /' serve.err | head -20
finish
