#!/usr/bin/env bash
# End-to-end tests of the yardzee command line: output, exit codes, one-line errors.
# usage: test_cli.sh YARDZEE_BINARY SAMPLES_DIR
set -u
yardzee="$1"
samples="$2"
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/check.sh"

card() { printf '%s' "$2" >"$tmp/$1"; echo "$tmp/$1"; }

check "score lists the best box" 0 "3 of a Kind +23  <- most points" -- score --roll 5,2,5,6,5
check "score marks the advisor's choice" 0 "Advisor: score Fives for 15: keeps the upper bonus" -- score --roll 5,2,5,6,5
check "score json" 0 '^\{"rules":"yahtzee","roll":\[5,2,5,6,5\],"options":\[\{"box":"three_kind","points":23\}' -- score --roll 5,2,5,6,5 --json
check "score json best" 0 '"best":\{"box":"three_kind","points":23\}' -- score --roll 5,2,5,6,5 --json
check "filled boxes never appear" 0 '^  Fives +15  <- most points' -- score --roll 5,2,5,6,5 --card "$samples/cards/midgame.json"
check "filled boxes never appear (json)" 0 '"options":\[\{"box":"fives","points":15\},\{"box":"threes"' -- score --roll 5,2,5,6,5 --card "$samples/cards/midgame.json" --json
check "forced joker with bonus" 0 'Lg Straight +40 \(joker\)' -- score --roll 4,4,4,4,4 --card "$samples/cards/yahtzee50.json"
check "yatzy card" 0 'Yatzy +50' -- score --roll 6,6,6,6,6 --card "$samples/cards/yatzy.json"
check "yatzy names" 0 '"box":"yahtzee","points":50' -- score --roll 6,6,6,6,6 --rules yatzy --json
check "four dice" 2 'yardzee: --roll: expected 5 dice, got 4' -- score --roll 1,2,3,4
check "six dice" 2 'expected 5 dice, got 6' -- score --roll 1,2,3,4,5,6
check "a seven" 2 "'7' is not a die value" -- score --roll 1,2,3,4,7
check "letters" 2 "'x' is not a die value" -- score --roll x,2,3,4,5
check "no roll" 2 '--roll is required' -- score
check "unknown rules" 2 "unknown rules 'poker'" -- score --roll 1,2,3,4,5 --rules poker
check "unknown option" 2 'unknown option --frobnicate' -- score --roll 1,2,3,4,5 --frobnicate
check "unknown command" 2 "unknown command 'dance' \(see" -- dance
check "a command with a typo" 2 "unknown command 'scroe'; did you mean 'score'\?" -- scroe
check "a photo that is not there" 1 "^yardzee: LAWN_004.JPG: no such file$" -- LAWN_004.JPG
check "a photo in another case" 1 "LAWN_004.JPG: no such file \(did you mean .*/lawn/lawn_004.jpg\?\)" -- "$samples/lawn/LAWN_004.JPG"
check "an option without its value" 2 "^yardzee: score: option --roll needs a value$" -- score --roll
check "a game option without its value" 2 "^yardzee: game: option --file needs a value$" -- game show --file
check "a box label in a card" 0 "Roll 5 2 5 6 5" -- score --roll 5,2,5,6,5 --card "$(card label.json '{"boxes": {"Threes": 9}}')"
check "missing card" 1 'nope.json: cannot open' -- score --roll 1,2,3,4,5 --card "$tmp/nope.json"
check "broken json" 1 'broken.json: line 1: ' -- score --roll 1,2,3,4,5 --card "$(card broken.json '{"boxes": {"aces": 3,')"
check "unknown box" 1 'boxes.eights: not a box of the yahtzee rules' -- score --roll 1,2,3,4,5 --card "$(card eights.json '{"boxes": {"eights": 8}}')"
check "box filled twice" 1 'twice.json: .*duplicate' -- score --roll 1,2,3,4,5 --card "$(card twice.json '{"boxes": {"aces": 3, "aces": 2}}')"
check "alias filled twice" 1 'aces: filled twice' -- score --roll 1,2,3,4,5 --card "$(card alias.json '{"boxes": {"aces": 3, "ones": 2}}')"
check "fours holding 7" 1 'fours: no roll scores 7 there' -- score --roll 1,2,3,4,5 --card "$(card seven.json '{"boxes": {"fours": 7}}')"
check "wrong type" 1 'boxes.fours: must be a whole number or null' -- score --roll 1,2,3,4,5 --card "$(card type.json '{"boxes": {"fours": "8"}}')"
check "huge number" 1 'boxes.fours: no roll scores' -- score --roll 1,2,3,4,5 --card "$(card huge.json '{"boxes": {"fours": 99999999999}}')"
check "unknown key" 1 'unknown key "player"' -- score --roll 1,2,3,4,5 --card "$(card key.json '{"player": "Ann"}')"
check "bonus without 50" 1 'yahtzee_bonus: 1 extra Yahtzees needs 50' -- score --roll 1,2,3,4,5 --card "$(card bonus.json '{"boxes": {"yahtzee": 0, "aces": 5}, "yahtzee_bonus": 1}')"
check "card for other rules" 1 'a card for the yatzy rules, not yahtzee' -- score --roll 1,2,3,4,5 --rules yahtzee --card "$samples/cards/yatzy.json"
check "deep json" 1 'deep.json: ' -- score --roll 1,2,3,4,5 --card "$(card deep.json "$(printf '%.0s[' $(seq 3000))")"
check "full card" 1 'the card is full' -- score --roll 1,2,3,4,5 --card "$(card full.json '{"boxes": {"aces":1,"twos":2,"threes":3,"fours":4,"fives":5,"sixes":6,"three_kind":0,"four_kind":0,"full_house":0,"small_straight":0,"large_straight":0,"yahtzee":0,"chance":5}}')"
check "advise keeps" 0 'Best:   keep 3 3 +reroll 3' -- advise --roll 1,3,3,4,6 --throws-left 2
check "advise box" 0 'Best: Threes' -- advise --roll 1,3,3,4,6 --throws-left 0
check "advise json" 0 '"keeps":\[\{"keep":\[3,3\],"expected":25' -- advise --roll 1,3,3,4,6 --throws-left 2 --json
check "advise throws" 2 "--throws-left: '3' is not 0, 1 or 2" -- advise --roll 1,3,3,4,6 --throws-left 3
check "rules list" 0 'yatzy-scandinavian' -- rules
check "rules one" 0 'Small Straight +small_straight +1-2-3-4-5: 15' -- rules yatzy-scandinavian
check "help" 0 'exit status: 0 ok, 1 bad data' -- --help
check "version" 0 '^yardzee [0-9]+\.[0-9]+\.[0-9]+$' -- --version
check "version command" 0 '^yardzee [0-9]+\.[0-9]+\.[0-9]+$' -- version

# The photo reader is a plugin, opened only when a photo is read (src/vision_loader.c).
YARDZEE_VISION_PLUGIN="$tmp/none.so" check "score needs no photo reader" 0 'Lg Straight +40' -- score --roll 1,2,3,4,5
YARDZEE_VISION_PLUGIN="$tmp/none.so" check "no photo reader: one line" 70 '^yardzee: cannot load the photo reader: .*none.so' -- read "$samples/lawn/lawn_004.jpg"
expect_true "no photo reader: one line only" [ "$(wc -l <"$tmp/err")" -eq 1 ]
maps_opencv() { LD_DEBUG=files "$yardzee" "$@" 2>&1 >/dev/null | grep -q 'file=.*libopencv'; }
expect_true "score maps no OpenCV library" eval '! maps_opencv score --roll 1,2,3,4,5'
# (a file that is not a photo: the plugin is opened to decode it, and no slow read follows)
expect_true "a photo command does map OpenCV" maps_opencv read "$samples/cards/midgame.json"

finish
