#!/usr/bin/env bash
# End-to-end tests of `yardzee game`: a whole game, illegal moves that change nothing, undo,
# and saves that a crash cannot corrupt.
# usage: test_game.sh YARDZEE_BINARY
set -u
yardzee=$(realpath "$1")
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
source "$(dirname "$(realpath "$0")")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# An illegal move must leave the file byte for byte as it was.
check_unchanged() { # NAME TEXT -- ARGS...
    local before
    before=$(sha1sum g.json)
    check "$1" 1 "$2" -- "${@:4}"
    expect_true "$1 leaves the file as it was" test "$(sha1sum g.json)" = "$before"
}

check "new game" 0 'New game of yahtzee for 2 players' -- game new --players Ann,Bob --file g.json
check "no second game over the first" 1 'g.json: a game is already there' -- game new --players Ann --file g.json
check "yardzee needs 2-5 players" 2 'the yardzee rules are for 2-5 players, not 1' -- game new --players Ann --rules yardzee --file solo.json
check "seven players" 2 'at most 6 players' -- game new --players A,B,C,D,E,F,G --file seven.json
check "same name twice" 2 "two players are called 'Ann'" -- game new --players Ann,Ann --file twice.json
check_unchanged "score before a throw" 'Ann has not thrown yet' -- game score chance --file g.json
check "first throw with advice" 0 'Advice: keep 3 3 and throw 3 dice' -- game throw --roll 1,3,3,4,6 --file g.json
check_unchanged "keep dice not thrown" 'cannot keep dice that were not thrown' -- game keep 5,5 --file g.json
check "keep" 0 'Ann keeps 3 3 and throws 3 dice' -- game keep 3,3 --file g.json
check_unchanged "the same keep again is a no-op" 'Ann already keeps these dice: nothing changed' -- game keep 3,3 --file g.json
check_unchanged "throw without the kept dice" 'kept dice that are not in this throw' -- game throw --roll 1,2,4,5,6 --file g.json
check "second throw: only the dice thrown again" 0 'throw 2 of 3: 3 3 3 2 5' -- game throw --roll 3,2,5 --file g.json
check "undo says what it took back" 0 "^Took back Ann's throw 3 3 3 2 5\.$" -- game undo --file g.json
check "a throw of neither all dice nor the dice thrown again" 2 'give the 5 dice, or the 3 dice thrown again besides the kept ones \(2 given\)' -- game throw --roll 2,5 --file g.json
check "second throw" 0 'throw 2 of 3: 3 3 3 2 5' -- game throw --roll 3,3,3,2,5 --file g.json
check "third throw" 0 'Advice: score Threes for 9' -- game throw --roll 3,3,3,2,5 --file g.json
check_unchanged "a fourth throw" 'Ann has thrown three times: score a box' -- game throw --roll 1,1,1,1,1 --file g.json
check_unchanged "scoring out of turn" "it is Ann's turn, not Bob's" -- game score threes --player Bob --file g.json
check_unchanged "a stranger" "'Eve' is not playing" -- game score threes --player Eve --file g.json
check "score" 0 'Ann scores 9 in Threes \(total 9\)' -- game score threes --player Ann --file g.json
check "Bob throws" 0 'Bob, throw 1 of 3' -- game throw --roll 2,2,3,3,3 --file g.json
check "a box name with a typo" 2 "'Ful Hose' is not a box of the yahtzee rules; did you mean full_house\? \(boxes: aces twos" -- game score "Ful Hose" --file g.json
check "Bob scores" 0 'Bob scores 25 in Full House' -- game score "Full House" --file g.json
check "Ann throws" 0 'Ann, throw 1 of 3' -- game throw --roll 3,3,3,3,3 --file g.json
check_unchanged "scoring a filled box" 'threes is already filled' -- game score threes --file g.json
check "undo" 0 "^Took back Ann's throw 3 3 3 3 3\.$" -- game undo --file g.json
check "show after undo" 0 "Round 2 of 13: Ann's turn\." -- game show --file g.json
check "show json" 0 '"turn":"Ann","round":2,"throws":0' -- game show --json --file g.json
check "standings" 0 'Standings: 1. Bob 25, 2. Ann 9' -- game show --file g.json
check "unknown box" 2 "'eights' is not a box of the yahtzee rules" -- game score eights --file g.json
check "missing file" 1 'nope.json: cannot open: No such file or directory \(start one with: yardzee game new\)' -- game show --file nope.json
check "unknown subcommand" 2 "game: unknown command 'dance'" -- game dance

# A hand-edited file with an illegal move is refused with the move's number.
sed 's/"score":"full_house","points":25/"score":"full_house","points":30/' g.json >edited.json
check "an edited file" 1 'edited.json: move 7: the roll scores 25 in full_house, not what the file says' -- game show --file edited.json
printf '{"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann"], "moves": [{"player": "Ann", "throw": [1,2,3,4,9]}]}' >nine.json
check "a die of 9" 1 'nine.json: move 1: "throw" must be five dice 1-6' -- game show --file nine.json
printf '{"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann"], "moves": [' >broken.json
check "broken json" 1 'broken.json: line 1:' -- game show --file broken.json

# One die thrown again is one die; an extra Yahtzee's bonus is said where it is scored.
"$yardzee" game new --players Solo --file solo.json >/dev/null
"$yardzee" game throw --roll 6,6,6,6,2 --file solo.json >/dev/null
check "keep four: throw 1 die" 0 '^Solo keeps 6 6 6 6 and throws 1 die\.$' -- game keep 6,6,6,6 --file solo.json
check "throw the one die again" 0 'Solo, throw 2 of 3: 6 6 6 6 6' -- game throw --roll 6 --file solo.json
check "score a label as printed" 0 'Solo scores 50 in Yahtzee \(total 50\)' -- game score Yahtzee --file solo.json
check "advice with the bonus" 0 'Advice: (stop and )?score Sixes for 30, \+100 Yahtzee bonus' -- game throw --roll 6,6,6,6,6 --file solo.json
check "score with the bonus" 0 '^Solo scores 30 in Sixes, \+100 Yahtzee bonus \(total 180\)\.$' -- game score sixes --file solo.json
check "undo of a score" 0 "^Took back Solo's 30 in Sixes\.$" -- game undo --file solo.json

# A whole solitaire game of Yatzy ends with a winner.
check "solitaire yatzy needs two" 2 'the yatzy rules are for 2-6 players' -- game new --players Solo --rules yatzy --file y.json
"$yardzee" game new --players Ann,Bob --rules yatzy-scandinavian --file y.json >/dev/null
for box in ones twos threes fours fives sixes one_pair two_pairs three_kind four_kind small_straight large_straight full_house chance; do
    for player in Ann Bob; do
        "$yardzee" game throw --roll 6,6,6,6,6 --file y.json >/dev/null
        "$yardzee" game score "$box" --player "$player" --file y.json >/dev/null
    done
done
"$yardzee" game throw --roll 6,6,6,6,6 --file y.json >/dev/null
"$yardzee" game score yatzy --file y.json >/dev/null
"$yardzee" game throw --roll 1,1,1,1,2 --file y.json >/dev/null
check "last box" 0 'Bob scores 0 in Yatzy' -- game score yatzy --file y.json
check "the winner" 0 'Game over: the winner is Ann\.' -- game show --file y.json
check "no move after the end" 1 'the game is over' -- game throw --roll 1,2,3,4,5 --file y.json

# Saves: a disk that refuses the write (here a file-size limit of 0, which root obeys too)
# leaves the old game whole.
cp g.json before.json
(trap '' XFSZ; ulimit -f 0; exec "$yardzee" game throw --roll 1,2,3,4,5 --file g.json 2>&1) | cat >err
expect_true "a refused write says so" grep -q 'g.json: cannot save the game: File too large (the file is as it was)' err
expect_true "a refused write leaves the game" cmp -s g.json before.json
expect_true "no temporary file is left behind" test -z "$(ls g.json.tmp-* 2>/dev/null)"
# ... and a save that fails or is killed at each of its steps (fault points in
# src/atomic_file.c: YARDZEE_FAIL_AT) leaves the previous game whole, or the new one whole once
# the rename is done.
shown=$("$yardzee" game show --file g.json)
cp g.json before.json
# killed_throw STEP: a throw whose save is killed at STEP; prints its exit status (137: SIGKILL).
killed_throw() {
    (YARDZEE_FAIL_AT=$1:crash exec "$yardzee" game throw --roll 1,2,3,4,5 --file g.json) \
        >/dev/null 2>&1
    echo $?
}
for step in write fsync rename; do
    YARDZEE_FAIL_AT=$step check "a save failing at $step says so" 1 'g.json: cannot save the game: Input/output error \(the file is as it was\)' -- game throw --roll 1,2,3,4,5 --file g.json
    expect_true "a save failing at $step leaves the game" cmp -s g.json before.json
    expect_true "a save failing at $step leaves no temporary file" test -z "$(ls g.json.tmp-* 2>/dev/null)"
    expect_true "a save killed at $step was killed" test "$(killed_throw "$step" 2>/dev/null)" = 137
    expect_true "a save killed at $step leaves the game" cmp -s g.json before.json
    check "the game killed at $step loads" 0 "Ann's turn" -- game show --file g.json
    rm -f g.json.tmp-*
done
expect_true "a save killed after its rename was killed" test "$(killed_throw dirsync 2>/dev/null)" = 137
check "a save killed after its rename kept the throw" 0 "Ann's turn, 1 of 3 throws made: 1 2 3 4 5" -- game show --file g.json
check "undo the throw saved before the kill" 0 'Took back' -- game undo --file g.json
YARDZEE_FAIL_AT=dirsync check "a folder that cannot be flushed still saves" 0 'Ann, throw 1 of 3' -- game throw --roll 1,2,3,4,5 --file g.json
check "undo it" 0 'Took back' -- game undo --file g.json
expect_true "the faults and undos leave the game as it was" \
    test "$("$yardzee" game show --file g.json)" = "$shown"

finish
