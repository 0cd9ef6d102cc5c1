#!/usr/bin/env bash
# Bad and odd inputs (tests/corpus/, made by tools/make_corpus.py) through the command line.
# A bad file must give exit 1 and exactly one line on stderr naming the file and the problem;
# a valid oddity must load (exit 0, or 3 when the reader refuses the dice) with nothing on
# stderr; the eight EXIF orientations of one scene must give the same dice at the same upright
# coordinates. No run may end with a status of 64 or more (70 internal, a signal, a crash).
# usage: test_corpus.sh YARDZEE_BINARY CORPUS_DIR
set -u
yardzee="$1"
corpus="$2"
export YARDZEE_CACHE="${YARDZEE_CACHE:-$(dirname "$yardzee")/cache}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# Too big to commit: a 5 MB card and game file (a valid start, then 5 MB of spaces).
{ printf '{"boxes": {'; head -c 5242880 /dev/zero | tr '\0' ' '; printf '}}'; } >"$tmp/bad_5mb.json"

# run FILE COMMAND: the command line for a kind of input.
run() {
    case "$2" in
    read) "$yardzee" read --json --expect any "$1" ;;
    card) "$yardzee" score --roll 1,2,3,4,5 --card "$1" ;;
    game) "$yardzee" game show --file "$1" ;;
    esac >"$tmp/out" 2>"$tmp/err"
}

# check FILE COMMAND STATUS STDERR_REGEX; STATUS "load" means 0 or 3 with stderr empty.
check() {
    local file="$1" command="$2" want="$3" regex="$4" path
    path="$corpus/$file"
    [ -e "$path" ] || path="$tmp/$file"
    run "$path" "$command"
    local status=$? ok=1
    if [ "$status" -ge 64 ]; then
        ok=0
    elif [ "$want" = load ]; then
        { [ "$status" -eq 0 ] || [ "$status" -eq 3 ]; } || ok=0
        [ -s "$tmp/err" ] && ok=0
    else
        [ "$status" -eq "$want" ] || ok=0
    fi
    if [ "$want" = 0 ]; then
        [ -s "$tmp/err" ] && ok=0
    elif [ "$want" != load ]; then
        [ "$(wc -l <"$tmp/err")" -eq 1 ] || ok=0
        grep -Fq -- "yardzee: $path: " "$tmp/err" || ok=0
        grep -Eq -- "$regex" "$tmp/err" || ok=0
    fi
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $file ($command): status $status, want $want; want stderr /$regex/"
        head -5 "$tmp/err" | sed 's/^/  err: /'
    fi
}

# file | command | expected status | expected stderr (grep -E)
while IFS='|' read -r file command want regex; do
    file=$(echo "$file" | xargs)
    [ -z "$file" ] || [ "${file:0:1}" = "#" ] && continue
    check "$file" "$(echo "$command" | xargs)" "$(echo "$want" | xargs)" "$(echo "$regex" | sed 's/^ *//; s/ *$//')"
done <<'TABLE'
# Photos that cannot be loaded.
bad_empty.jpg                       | read | 1 | empty file
bad_empty.png                       | read | 1 | empty file
bad_text_named_photo.jpg            | read | 1 | not a JPEG, PNG or HEIC file
bad_truncated_after_soi.jpg         | read | 1 | truncated|not a JPEG, PNG or HEIC file
bad_truncated_in_app0.jpg           | read | 1 | truncated
bad_truncated_in_tables.jpg         | read | 1 | truncated
bad_truncated_at_scan_start.jpg     | read | 1 | truncated
bad_truncated_in_scan.jpg           | read | 1 | truncated
bad_truncated_half.jpg              | read | 1 | truncated
bad_truncated_no_eoi.jpg            | read | 1 | truncated
bad_truncated_in_signature.png      | read | 1 | truncated|not a JPEG, PNG or HEIC file
bad_truncated_after_signature.png   | read | 1 | truncated
bad_truncated_in_ihdr.png           | read | 1 | truncated
bad_truncated_after_ihdr.png        | read | 1 | truncated
bad_truncated_in_idat.png           | read | 1 | truncated
bad_truncated_half.png              | read | 1 | truncated
bad_truncated_no_iend.png           | read | 1 | truncated
bad_corrupt_soi.jpg                 | read | 1 | not a JPEG, PNG or HEIC file
bad_corrupt_sof_marker.jpg          | read | 1 | corrupt JPEG \(Unsupported JPEG process
bad_corrupt_sof_precision.jpg       | read | 1 | corrupt JPEG \(Unsupported JPEG data precision
bad_corrupt_sof_components.jpg      | read | 1 | corrupt JPEG \(
bad_corrupt_dqt_length.jpg          | read | 1 | corrupt JPEG \(
bad_corrupt_dht_counts.jpg          | read | 1 | corrupt JPEG \(Bogus Huffman table
bad_corrupt_sos_table.jpg           | read | 1 | corrupt JPEG \(Invalid component ID
bad_corrupt_marker_in_scan.jpg      | read | 1 | corrupt JPEG \(
bad_exif_app1_past_end.jpg          | read | 1 | truncated
bad_corrupt_signature.png           | read | 1 | not a JPEG, PNG or HEIC file
bad_corrupt_ihdr_crc.png            | read | 1 | corrupt PNG \(IHDR: CRC error\)
bad_corrupt_ihdr_width.png          | read | 1 | corrupt PNG \(IHDR: CRC error\)
bad_corrupt_ihdr_depth.png          | read | 1 | corrupt PNG \(Invalid IHDR data\)
bad_corrupt_ihdr_colour_type.png    | read | 1 | corrupt PNG \(Invalid IHDR data\)
bad_corrupt_idat_crc.png            | read | 1 | corrupt PNG \(
bad_corrupt_filter_type.png         | read | 1 | corrupt PNG \(bad adaptive filter
bad_corrupt_deflate.png             | read | 1 | corrupt PNG \(IDAT
bad_corrupt_no_ihdr.png             | read | 1 | corrupt PNG \(no IHDR\)
bad_truncated_in_ftyp.heic          | read | 1 | not a readable HEIC file \(.*ftyp
bad_truncated_half.heic             | read | 1 | not a readable HEIC file \(.*end of file
bad_corrupt_hvcc.heic               | read | 1 | corrupt HEIC image \(
# Headers that claim too much: refused before memory is asked for.
bad_sof_65535x65535.jpg             | read | 1 | corrupt JPEG \(Maximum supported image dimension is 65500
bad_sof_65500x65500.jpg             | read | 1 | 65500x65500 pixels has a side longer than the 20000 px limit
bad_sof_1x65500.jpg                 | read | 1 | 1x65500 pixels has a side longer than the 20000 px limit
bad_sof_10000x10000.jpg             | read | 1 | 10000x10000 pixels is more than the 50 MP limit
bad_sof_0x160.jpg                   | read | 1 | corrupt JPEG \(Empty JPEG image
bad_ihdr_100000x100000.png          | read | 1 | 100000x100000 pixels has a side longer than the 20000 px limit
bad_ihdr_1x1000000.png              | read | 1 | 1x1000000 pixels has a side longer than the 20000 px limit
bad_ihdr_10000x10000.png            | read | 1 | 10000x10000 pixels is more than the 50 MP limit
bad_ihdr_0x0.png                    | read | 1 | 0x0 pixels is not an image
bad_ihdr_4294967295x1.png           | read | 1 | 4294967295x1 pixels has a side longer
bad_ispe_30000x30000.heic           | read | 1 | 30000x30000 pixels has a side longer than the 20000 px limit
bad_ispe_10000x10000.heic           | read | 1 | 10000x10000 pixels is more than the 50 MP limit
# Valid oddities: they load.
ok_scene.jpg                        | read | load |
ok_scene.png                        | read | load |
odd_16bit.png                       | read | load |
odd_16bit_gray.png                  | read | load |
odd_rgba.png                        | read | load |
odd_palette_trns.png                | read | load |
odd_gray.jpg                        | read | load |
odd_gray.png                        | read | load |
odd_cmyk_adobe.jpg                  | read | load |
odd_progressive.jpg                 | read | load |
exif_orientation_1.jpg              | read | load |
exif_orientation_2.jpg              | read | load |
exif_orientation_3.jpg              | read | load |
exif_orientation_4.jpg              | read | load |
exif_orientation_5.jpg              | read | load |
exif_orientation_6.jpg              | read | load |
exif_orientation_7.jpg              | read | load |
exif_orientation_8.jpg              | read | load |
heic_upright.heic                   | read | load |
heic_irot_1.heic                    | read | load |
heic_irot_2.heic                    | read | load |
heic_irot_3.heic                    | read | load |
exif_malformed_ifd_out_of_segment.jpg     | read | load |
exif_malformed_entries_past_end.jpg       | read | load |
exif_malformed_ifd_loop.jpg               | read | load |
exif_malformed_orientation_offset_out.jpg | read | load |
exif_malformed_orientation_9.jpg          | read | load |
exif_malformed_bad_byte_order.jpg         | read | load |
exif_malformed_tiff_cut_short.jpg         | read | load |
# Cards.
ok_card.json                        | card | 0 |
bad_card_truncated.json             | card | 1 | line 1: '\}' expected near end of file
bad_card_truncated_in_string.json   | card | 1 | line 1: premature end of input
bad_card_empty.json                 | card | 1 | line 1: '\[' or '\{' expected near end of file
bad_card_trailing_garbage.json      | card | 1 | line 2: end of file expected
bad_deep_100000.json                | card | 1 | 100000 bytes, more than the 65536 a card may have
bad_5mb.json                        | card | 1 | 52428[0-9]+ bytes, more than the 65536 a card may have
bad_card_1e400.json                 | card | 1 | real number overflow
bad_card_bonus_1e400.json           | card | 1 | real number overflow
bad_card_big_integer.json           | card | 1 | too big integer
bad_card_integer_out_of_range.json  | card | 1 | boxes.aces: no roll scores 9223372036854775807 there
bad_card_negative.json              | card | 1 | aces: no roll scores -3 there
bad_card_real.json                  | card | 1 | boxes.aces: must be a whole number or null
bad_card_duplicate_key.json         | card | 1 | duplicate object key near '"boxes"'
bad_card_duplicate_box.json         | card | 1 | duplicate object key near '"aces"'
bad_card_unknown_box.json           | card | 1 | boxes.sevens: not a box of the yahtzee rules
bad_card_unknown_key.json           | card | 1 | unknown key "score"
bad_card_boxes_array.json           | card | 1 | "boxes" must be an object
bad_card_top_array.json             | card | 1 | a card must be a JSON object
bad_card_top_string.json            | card | 1 | '\[' or '\{' expected
bad_card_string_number.json         | card | 1 | boxes.aces: must be a whole number or null
bad_card_bool.json                  | card | 1 | boxes.aces: must be a whole number or null
bad_card_rules_number.json          | card | 1 | rules: not a known rules name
bad_card_bonus_string.json          | card | 1 | yahtzee_bonus: must be a count from 0 to 13
bad_card_nul_byte.json              | card | 1 | control character 0x0
bad_card_nul_escape.json            | card | 1 | \\u0000 is not allowed
bad_card_invalid_utf8.json          | card | 1 | unable to decode byte 0xff
bad_card_invalid_utf8_key.json      | card | 1 | unable to decode byte 0xc3
bad_card_overlong_utf8.json         | card | 1 | unable to decode byte 0xc0
bad_card_bom.json                   | card | 1 | starts with a byte order mark
ok_game.json                        | card | 1 | unknown key "yardzee_game"
# Game files.
ok_game.json                        | game | 0 |
bad_game_truncated.json             | game | 1 | line 2: '\]' expected near end of file
bad_game_truncated_in_number.json   | game | 1 | line 2: '\]' expected near end of file
bad_game_empty.json                 | game | 1 | line 1: '\[' or '\{' expected near end of file
bad_deep_100000.json                | game | 1 | maximum parsing depth reached
bad_5mb.json                        | game | 1 | 52428[0-9]+ bytes, more than the 1048576 a game file may have
bad_game_1e400.json                 | game | 1 | real number overflow
bad_game_big_integer.json           | game | 1 | too big integer
bad_game_version_big.json           | game | 1 | too big integer
bad_game_version_string.json        | game | 1 | not a yardzee game file \(version 1\)
bad_game_duplicate_key.json         | game | 1 | duplicate object key near '"players"'
bad_game_duplicate_move_key.json    | game | 1 | duplicate object key near '"throw"'
bad_game_unknown_box.json           | game | 1 | move 2: "score" must name a box of the yahtzee rules
bad_game_unknown_rules.json         | game | 1 | "rules" is not a known rules name
bad_game_players_string.json        | game | 1 | "players" must list 1-6 names
bad_game_player_number.json         | game | 1 | players\[0\] is not a name
bad_game_moves_object.json          | game | 1 | "moves" must be a list of at most 1000 moves
bad_game_too_many_moves.json        | game | 1 | "moves" must be a list of at most 1000 moves
bad_game_move_array.json            | game | 1 | move 1: a move is an object with a "player"
bad_game_throw_strings.json         | game | 1 | move 1: "throw" must be five dice 1-6
bad_game_throw_real.json            | game | 1 | move 1: "throw" must be five dice 1-6
bad_game_points_string.json         | game | 1 | move 2: "points" must be a whole number
bad_game_top_array.json             | game | 1 | not a yardzee game file \(version 1\)
bad_game_nul_byte.json              | game | 1 | control character 0x0
bad_game_nul_escape.json            | game | 1 | \\u0000 is not allowed
bad_game_invalid_utf8.json          | game | 1 | unable to decode byte 0xff
bad_game_bom.json                   | game | 1 | starts with a byte order mark
ok_card.json                        | game | 1 | not a yardzee game file \(version 1\)
TABLE

# The same dice at the same upright coordinates, however the pixels were stored. JPEG loses a
# little differently each way round, so a box may move by a pixel or two (a wrong turn moves
# it by tens).
boxes_of() { # FILE: "x y w h" of each die, one a line
    "$yardzee" read --json --expect any "$corpus/$1" 2>/dev/null |
        grep -o '"box": \[[0-9, ]*\]' | tr -dc '0-9 ,\n' | tr ',' ' ' | tr -s ' ' | sed 's/^ //'
}
same_boxes() { # NAME TOLERANCE REFERENCE FILES...
    local name="$1" tolerance="$2" reference="$3"
    shift 3
    boxes_of "$reference" >"$tmp/reference"
    if [ ! -s "$tmp/reference" ]; then
        failed=$((failed + 1))
        echo "FAIL: $name: no dice in $reference"
        return
    fi
    for file in "$@"; do
        boxes_of "$file" >"$tmp/boxes"
        if [ "$(wc -l <"$tmp/boxes")" -eq "$(wc -l <"$tmp/reference")" ] &&
            paste -d ' ' "$tmp/reference" "$tmp/boxes" | awk -v t="$tolerance" '
                { for (i = 1; i <= 4; i++) { d = $i - $(i + 4); if (d > t || d < -t) bad = 1 } }
                END { exit bad }'; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL: $name: $file"
            paste -d '|' "$tmp/reference" "$tmp/boxes" | sed 's/^/  want|got: /'
        fi
    done
}
same_boxes "EXIF orientations" 2 exif_orientation_1.jpg exif_orientation_{2..8}.jpg
# HEIC, upright or turned by its irot box (with an EXIF tag that agrees, as iPhones write).
same_boxes "HEIC rotations" 2 exif_orientation_1.jpg heic_upright.heic heic_irot_{1..3}.heic
# ... and the same roll, read with confidence: lawn_000's truth, 5 1 3 1 3 from the left.
for file in exif_orientation_{1..8}.jpg heic_upright.heic heic_irot_{1..3}.heic; do
    roll=$("$yardzee" read --json "$corpus/$file" 2>/dev/null | grep -o '"roll": \[[0-9, ]*\]')
    if [ "$roll" = '"roll": [5, 1, 3, 1, 3]' ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $file reads ${roll:-no roll}, not [5, 1, 3, 1, 3]"
    fi
done
# The same JPEG bytes with a broken APP1 in front: exactly the same pixels, the same boxes.
same_boxes "broken EXIF is ignored" 0 ok_scene.jpg $(cd "$corpus" && echo exif_malformed_*.jpg)

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
