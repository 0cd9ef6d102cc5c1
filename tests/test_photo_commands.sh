#!/usr/bin/env bash
# End-to-end tests of the commands that read photos: snap (`yardzee PHOTO`), verify, batch.
# They take their photos from samples/lawn, choosing by truth.csv a photo the reader reads
# right and one it refuses, so they test the commands, not the reader's accuracy (eval does).
# usage: test_photo_commands.sh YARDZEE_BINARY SAMPLES_DIR
set -u
yardzee=$(realpath "$1")
samples=$(realpath "$2")
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/check.sh"

truth="$samples/lawn/truth.csv"
[ -f "$truth" ] || { echo "skipped: no $truth"; exit 77; }

# The sorted true roll of a photo, "2 2 3 4 6".
true_roll() { awk -F, -v f="$1" '$1 == f { print $2 }' "$truth" | sort -n | tr '\n' ' ' | sed 's/ $//'; }
read_roll() { "$yardzee" read "$samples/lawn/$1" --json 2>/dev/null | sed -n 's/.*"roll": *\[\([0-9, ]*\)\].*/\1/p' | tr -d ' ' | tr ',' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//'; }
good="" refused=""
for photo in $(cut -d, -f1 "$truth" | sed 1d | uniq); do
    [ "$(awk -F, -v f="$photo" '$1 == f' "$truth" | wc -l)" -eq 5 ] || continue
    "$yardzee" read "$samples/lawn/$photo" >/dev/null 2>&1
    status=$?
    if [ $status -eq 0 ] && [ -z "$good" ] && [ "$(read_roll "$photo")" = "$(true_roll "$photo")" ]; then
        good=$photo
    elif [ $status -eq 3 ] && [ -z "$refused" ]; then
        refused=$photo
    fi
    [ -n "$good" ] && [ -n "$refused" ] && break
done
if [ -z "$good" ] || [ -z "$refused" ]; then
    echo "FAIL: no sample read right ('$good') or refused ('$refused')"
    exit 1
fi
roll=$(true_roll "$good")
claim=$(echo "$roll" | tr ' ' ',')
other_value=$(( $(echo "$roll" | cut -d' ' -f1) % 6 + 1 ))
wrong_claim="$other_value,$(echo "$claim" | cut -d, -f2-)"

check "snap reads and advises" 0 "^Roll: .*\(sure: [0-9]+%\)" -- "$samples/lawn/$good"
check "snap gives a box" 0 "^Score: .* for [0-9]+ points" -- "$samples/lawn/$good"
check "snap with throws left gives a keep" 0 "^(Keep: .* and throw [0-9] dice again|Score: )" -- "$samples/lawn/$good" --throws-left 2
check "snap annotates" 0 "^Roll: " -- "$samples/lawn/$good" --annotate "$tmp/snap.png"
expect_true "snap wrote the annotated PNG" test -s "$tmp/snap.png"
check "snap refuses honestly" 3 "Could not read the dice with confidence: " -- "$samples/lawn/$refused"
check "snap says how to retake" 3 "^Take another photo .*\.$" -- "$samples/lawn/$refused"
expect_true "a refused snap prints no roll" bash -c "! grep -q '^Roll:' '$tmp/out'"
check "snap of a broken file" 1 "fake.jpg: not a JPEG, PNG or HEIC file" -- "$(echo hello >"$tmp/fake.jpg"; echo "$tmp/fake.jpg")"

check "verify holds" 0 "the claim $claim holds \(sure: " -- verify "$samples/lawn/$good" --claim "$claim"
check "verify in another order" 0 "holds" -- verify "$samples/lawn/$good" --claim "$(echo "$roll" | tr ' ' '\n' | sort -rn | tr '\n' ',' | sed 's/,$//')"
check "verify differs" 4 "die [1-5] from the left shows [1-6], the claim has $other_value there" -- verify "$samples/lawn/$good" --claim "$wrong_claim"
check "verify annotates the claim" 4 "the claim has $other_value there" -- verify "$samples/lawn/$good" --claim "$wrong_claim" --annotate "$tmp/verify.png"
"$yardzee" read "$samples/lawn/$good" --annotate "$tmp/read.png" >/dev/null 2>&1
expect_true "verify's picture is not read's where the claim differs" bash -c "test -s '$tmp/verify.png' && ! cmp -s '$tmp/verify.png' '$tmp/read.png'"
check "verify cannot settle" 3 "Cannot settle it: " -- verify "$samples/lawn/$refused" --claim "$claim"
check "verify json" 4 '"verdict":"mismatch",.*"differ":\[\{"die":[1-5],"shows":[1-6],"claimed":'"$other_value"'\}' -- verify "$samples/lawn/$good" --claim "$wrong_claim" --json
check "verify json unreadable" 3 '"verdict":"unreadable","reason":"' -- verify "$samples/lawn/$refused" --claim "$claim" --json
check "snap json" 0 '"status":"ok","reason":"","roll":\[[1-6,]+\],"confidence":[0-9.]+,"advice":\{"box":' -- "$samples/lawn/$good" --json
check "snap json refused" 3 '"status":"refused",.*"advice":null,"retake":"Take another photo [^"]+\."' -- "$samples/lawn/$refused" --json
check "verify option without its value" 2 "^yardzee: verify: option --claim needs a value$" -- verify "$samples/lawn/$good" --claim
check "read option without its value" 2 "^yardzee: read: option --annotate needs a value$" -- read "$samples/lawn/$good" --annotate
check "verify bad claim" 2 "--claim: expected 5 dice, got 4" -- verify "$samples/lawn/$good" --claim 1,2,3,4

mkdir -p "$tmp/photos/sub"
cp "$samples/lawn/$good" "$tmp/photos/"
cp "$samples/lawn/$refused" "$tmp/photos/sub/"
echo "not a photo" >"$tmp/photos/sub/broken.jpg"
echo "notes" >"$tmp/photos/notes.txt"
check "batch one job" 0 "3 photos: 1 ok, 1 refused, 1 unreadable" -- batch "$tmp/photos" --jobs 1 --csv "$tmp/one.csv"
check "batch two jobs" 0 "3 photos: 1 ok, 1 refused, 1 unreadable" -- batch "$tmp/photos" --jobs 2 --csv "$tmp/two.csv"
expect_true "--jobs does not change the output" cmp -s "$tmp/one.csv" "$tmp/two.csv"
expect_true "the ok row" grep -q "^\"$tmp/photos/$good\",ok,\"\",[1-6 ]*,[0-9. ]*,[a-z_]*,[0-9]*,[a-z_]*,[0-9]*$" "$tmp/one.csv"
expect_true "the refused row has every found die's confidence" grep -q "^\"$tmp/photos/sub/$refused\",refused,\".*\",,[0-9]\.[0-9][0-9]\( [0-9]\.[0-9][0-9]\)*,,,,$" "$tmp/one.csv"
expect_true "the unreadable row" grep -q "broken.jpg\",unreadable,\".*not a JPEG, PNG or HEIC file\"" "$tmp/one.csv"
check "batch json" 0 "3 photos" -- batch "$tmp/photos" --json "$tmp/out.json"
expect_true "the json report" grep -q '"status": "refused"' "$tmp/out.json"
check "batch csv and json at once" 0 "3 photos: 1 ok, 1 refused, 1 unreadable" -- batch "$tmp/photos" --jobs 1 --csv "$tmp/both.csv" --json "$tmp/both.json"
expect_true "the csv of both is the csv alone" cmp -s "$tmp/both.csv" "$tmp/one.csv"
expect_true "the json of both is the json alone" cmp -s "$tmp/both.json" "$tmp/out.json"
check "batch of photos named" 0 "2 photos: 1 ok, 1 refused, 0 unreadable" -- batch "$samples/lawn/$refused" "$samples/lawn/$good" "$samples/lawn/$good" --jobs 1 --csv "$tmp/named.csv"
expect_true "photos named are sorted, each once" test "$(cut -d, -f1 "$tmp/named.csv" | sed 1d | tr -d '"' | tr '\n' ' ')" = "$(printf '%s\n' "$samples/lawn/$refused" "$samples/lawn/$good" | sort | tr '\n' ' ')"
check "batch of a photo that is not there" 1 "nope.jpg: no such file or folder" -- batch "$tmp/nope.jpg"
# 6 1 1 6 5 on an empty card: most points Chance 19 (Sixes 12, a pair of 1s 2), while the
# advisor scores the two 1s in Aces for the game ahead.
if [ "$(read_roll lawn_005.jpg)" = "$(true_roll lawn_005.jpg)" ] && [ "$(true_roll lawn_005.jpg)" = "1 1 5 6 6" ]; then
    check "most points and the advisor's box apart" 0 "2 photos" -- batch "$samples/lawn/lawn_005.jpg" "$samples/lawn/$refused" --csv "$tmp/points.csv" --json "$tmp/points.json"
    expect_true "most points: chance 19, advisor: aces 2" grep -q "lawn_005.jpg\",ok,\"\",6 1 1 6 5,[0-9. ]*,chance,19,aces,2$" "$tmp/points.csv"
    expect_true "json: most points and advisor" bash -c "tr -d ' \n' <'$tmp/points.json' | grep -q '\"most_points\":{\"box\":\"chance\",\"points\":19},\"advisor\":{\"box\":\"aces\",\"points\":2}'"
fi
cp "$samples/lawn/$good" "$tmp/photos/sub/again.jpg"
check "batch resume" 0 "4 photos: 1 ok, 0 refused, 0 unreadable, 3 already done" -- batch "$tmp/photos" --csv "$tmp/one.csv" --resume
expect_true "resume adds one row" test "$(wc -l <"$tmp/one.csv")" -eq 5
check "batch to stdout" 0 '^file,status,reason,roll,confidence,most_points_box,most_points,advisor_box,advisor_points$' -- batch "$tmp/photos" --jobs 2
check "batch resume of csv and json: the photo the json lacks" 0 "4 photos: 1 ok, 0 refused, 0 unreadable, 3 already done" -- batch "$tmp/photos" --csv "$tmp/one.csv" --json "$tmp/out.json" --resume
check "batch resume of csv and json: nothing left" 0 "4 photos: 0 ok, 0 refused, 0 unreadable, 4 already done" -- batch "$tmp/photos" --csv "$tmp/one.csv" --json "$tmp/out.json" --resume
expect_true "the resumed json has every photo" test "$(grep -c '"file"' "$tmp/out.json")" -eq 4
check "batch of nothing" 1 "nope: no such file or folder" -- batch "$tmp/nope"
check "batch resume without output" 2 "--resume needs --csv or --json" -- batch "$tmp/photos" --resume

finish
