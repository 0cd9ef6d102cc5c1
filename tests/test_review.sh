#!/usr/bin/env bash
# End-to-end tests of `yardzee game review`: a game played through the CLI (a changed keep, a
# throw without a keep, scoring early, a Yahtzee in Chance, a turn in progress), the sample
# games' JSON checked against itself and the advice command, a folder of games, errors, and
# GET /api/review answering the same text as --json.
# usage: test_review.sh YARDZEE_BINARY SAMPLES_DIR
set -u
yardzee=$(realpath "$1")
samples=$(realpath "$2")
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
source "$(dirname "$(realpath "$0")")/check.sh"
tmp=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

play() { "$yardzee" game "$@" --file g.json >/dev/null || echo "FAIL: game $*"; }
play new --players Ann,Bob
play throw --roll 5,5,5,5,5
play score chance
play throw --roll 1,3,3,4,6
play keep 3,3
play keep 3,3,4
play throw --roll 3,3,4,2,2
play throw --roll 3,3,3,3,1
play score threes
play throw --roll 2,3,4,5,6
play score large_straight
play throw --roll 6,6,6,1,2
play keep 6,6,6

check "a Yahtzee in Chance is a blunder" 0 \
    'Round 1, throw 1: 5 5 5 5 5, scored Chance 25 early; best Yahtzee 50, gave up [0-9.]+ \(blunder\)' \
    -- game review --file g.json
check "a game in progress says so" 0 'in progress \(the moves so far\)' -- game review --file g.json
check "solitaire play is said" 0 'reviewed as solitaire play' -- game review --file g.json
check "--verbose lists every decision with its luck" 0 \
    'Round 1, throw 2: 3 3 4 2 2 \(luck [-+][0-9.]+\), kept nothing' -- game review --verbose --file g.json
"$yardzee" game review --json --file g.json >g.review.json
"$yardzee" advise --roll 5,5,5,5,5 --throws-left 0 --json >advice.json
expect_true "the JSON has every decision, the blunder the size the advice says" python3 -c '
import json, sys
r = json.load(open("g.review.json"))
assert r["profile"] == "yahtzee" and r["solitaire"] is True and r["complete"] is False
ann, bob = r["players"]
boxes = {b["box"]: b["expected"] for b in json.load(open("advice.json"))["boxes"]}
blunder = ann["decisions"][0]
assert blunder["kind"] == "box" and blunder["throws_left"] == 2 and blunder["class"] == "blunder"
assert blunder["chosen"]["box"] == "chance" and blunder["best"]["box"] == "yahtzee"
assert abs(blunder["given_up"] - (boxes["yahtzee"] - boxes["chance"])) < 1e-6, blunder
assert ann["worst"][0] == blunder
got = [(d["round"], d["throw"], d["kind"], d["chosen"].get("keep", d["chosen"].get("box")))
       for d in bob["decisions"]]
assert got == [(1, 1, "keep", [3, 3, 4]), (1, 2, "keep", []), (1, 3, "box", "threes"),
               (2, 1, "keep", [6, 6, 6])], got
assert bob["final"] == 12 and ann["final"] == 65
for p in r["players"]:
    assert abs(r["optimum"] - p["given_up"] + p["luck"] - p["expected"]) < 1e-6
' || cat g.review.json

# The sample games: every answered throw is a decision, the totals add up, the classes follow
# the thresholds, and the identity holds for each player.
for game in "$samples"/games/*.json; do
    "$yardzee" game review --json --file "$game" >review.json
    expect_true "$(basename "$game"): the review adds up to the final scores" python3 -c '
import json, sys
game, r = json.load(open(sys.argv[1])), json.load(open("review.json"))
assert r["complete"] is True
for p in r["players"]:
    moves = [m for m in game["moves"] if m["player"] == p["name"]]
    assert len(p["decisions"]) == sum("throw" in m for m in moves)
    assert abs(r["optimum"] - p["given_up"] + p["luck"] - p["final"]) < 1e-6, p["name"]
    assert abs(sum(d["given_up"] for d in p["decisions"]) - p["given_up"]) < 1e-6
    assert abs(sum(d["luck"] for d in p["decisions"]) - p["luck"]) < 1e-6
    for d in p["decisions"]:
        g = d["given_up"]
        assert abs(g - (d["best_expected"] - d["chosen_expected"])) < 1e-6 and g >= 0
        want = "fine" if g < 0.5 else "slip" if g < 3 else "mistake" if g < 10 else "blunder"
        assert d["class"] == want and d["throws_left"] == 3 - d["throw"], d
        assert (d["chosen"] == d["best"]) == (g == 0), d
    for c in ("fine", "slip", "mistake", "blunder"):
        assert p["counts"][c] == sum(d["class"] == c for d in p["decisions"])
    worst = sorted((d for d in p["decisions"] if d["given_up"] > 0), key=lambda d: -d["given_up"])
    assert [d["given_up"] for d in p["worst"]] == [d["given_up"] for d in worst[:3]]
' "$game"
done
check "text: the identity and the gap between players" 0 \
    'Ann 304, Bob 239: of the 65 between them, \+16\.3 came from choices and \+48\.7 from the dice' \
    -- game review --file "$samples/games/game_1.json"

mkdir games
cp "$samples"/games/*.json games/
cp g.json games/in_progress.json
check "a folder: a table of players" 0 '^Ann +3 +1 +203\.0' -- game review games
check "a folder: games in progress are left out" 0 'Left out games/in_progress.json: in progress' \
    -- game review games
expect_true "a folder in JSON" python3 -c '
import json, subprocess, sys
r = json.loads(subprocess.run([sys.argv[1], "game", "review", "games", "--json"],
                              capture_output=True, check=True).stdout)
assert len(r["games"]) == 3 and r["left_out"] == [{"file": "games/in_progress.json", "why": "in progress"}]
ann = [p for p in r["players"] if p["name"] == "Ann"][0]
finals = [p["final"] for g in r["games"] for p in g["review"]["players"] if p["name"] == "Ann"]
assert ann["games"] == 3 and abs(ann["mean_final"] - sum(finals) / 3) < 1e-9
' "$yardzee"
echo '{"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann"], "moves": [' >games/broken.json
check "a broken file in a folder: its error, the rest reviewed" 1 'games/broken.json: line' -- game review games
mkdir empty
check "a folder without games" 1 'empty: no finished game files' -- game review empty
check "a missing game" 1 'nope.json: cannot open' -- game review --file nope.json
check "an unknown option" 2 'game review: unknown option --fast' -- game review --fast
check "help" 0 'optimum - given up \+ luck = final score' -- game review --help

# GET /api/review: the same text as game review --json.
if command -v curl >/dev/null; then
    TMPDIR="$tmp" "$yardzee" serve --bind 127.0.0.1 --port 0 --game g.json >serve.out 2>serve.err &
    server_pid=$!
    for _ in $(seq 300); do
        grep -q '^Join code: ' serve.out && break
        sleep 0.2
    done
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' serve.out | head -1)
    curl -s --max-time 60 "${url}api/review" >served.json
    expect_true "GET /api/review is game review --json" test "$(cat served.json)" = "$(cat g.review.json)"
fi
finish
