/* test_vision_verdict.c - the verdict stage (vision/verdict.c) alone, on hand-made dice: built
 * from verdict.c and tuning.c without a net, a photo or OpenCV, so what it decides is seen
 * apart from what the nets find. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stages.h"

#define PHOTO_W 1000
#define PHOTO_H 750

/* How a case's dice differ from n plain ones: die i at x = 100 + 150 i, y = 300, 50 px square,
 * its top face the box's upper two thirds, value (i % 6) + 1, read with confidence. */
typedef struct {
    int n_dice;
    int uncertain;   /* index of a die whose value is not trusted, or -1 */
    int merged;      /* index of a die whose box is 80 px (two dice seen as one), or -1 */
    int cut;         /* index of a die moved so its box reaches 20 px out of the right edge */
    int completed;   /* ... and its top face was read whole through its twin */
    int expect;      /* dice expected, 0 = any */
    double two_dice; /* two_dice_side; 0: the committed one */
    int ok;          /* the photo is read */
    const char *why; /* when refused: part of the reason */
    int again;       /* when > 0: die `again` lies on die again - 1, ... */
    int lower;       /* ... box and top face this many px lower */
} verdict_case;

static yz_vision_result hand_made(const verdict_case *c)
{
    yz_vision_result result;
    memset(&result, 0, sizeof result);
    result.image_w = PHOTO_W;
    result.image_h = PHOTO_H;
    result.n_dice = c->n_dice;
    for (int i = 0; i < c->n_dice; i++) {
        yz_vision_die *die = &result.dice[i];
        int side = i == c->merged ? 80 : 50;
        int x = i == c->cut ? PHOTO_W - side + 20 : 100 + 150 * (i % 6);
        int y = 300 + 60 * (i / 6);
        if (c->again > 0 && i == c->again) x -= 150, y += c->lower;
        die->value = i % 6 + 1;
        die->confidence = i == c->uncertain ? 0.6 : 0.99;
        die->certain = i != c->uncertain;
        die->box[0] = x, die->box[1] = y, die->box[2] = side, die->box[3] = side;
        double x1 = x + side, y1 = y + side * 2.0 / 3;
        double top[4][2] = {{x, y}, {x1, y}, {x1, y1}, {x, y1}};
        memcpy(die->top, top, sizeof top);
        die->top_completed = i == c->cut && c->completed;
    }
    return result;
}

/* Die 3 boxed on die 2 (over the same 50 px box) with top face `top`: whether the verdict takes
 * the two faces for one. Die 2's face is 50 x 33.3 px from (400, 300). */
static int one_face_seen_twice(const double top[4][2])
{
    verdict_case five = {5, -1, -1, -1, 0, 5, 0, 1, NULL, 3, 0};
    yz_vision_result result = hand_made(&five);
    memcpy(result.dice[3].top, top, sizeof result.dice[3].top);
    yz_vision_tuning tuning;
    assert_int_equal(yz_vision_tuning_parse(NULL, "test", &tuning, NULL), YZ_VISION_OK);
    yz_vision_give_verdict(&result, 5, &tuning);
    if (result.status == YZ_VISION_READ_OK) return 0;
    assert_non_null(strstr(result.reason, "dice 3 and 4 (from the left) show the same top face"));
    assert_false(result.dice[2].certain || result.dice[3].certain);
    return 1;
}

/* Faces turned against each other, their corners counter-clockwise or clockwise on screen: the
 * share is the common area over the smaller face's, worked out by hand here (h: half the face's
 * height, 16.7 px). */
static void two_faces_are_one_by_the_area_they_share(void **state)
{
    (void)state;
    const double h = 50.0 / 3, cx = 425, cy = 300 + h;
    /* Die 2's face turned a quarter about its centre, counter-clockwise: 33.3 x 50 px, the two
     * sharing a 33.3 px square, 1111 of 1667 px (0.67). */
    double turned[4][2] = {
        {cx - h, cy - 25}, {cx - h, cy + 25}, {cx + h, cy + 25}, {cx + h, cy - 25}};
    assert_true(one_face_seen_twice(turned));
    /* A diamond of half-diagonal h on the middle of the face's right edge (450, cy), clockwise:
     * its left half, 278 of 556 px, inside the face (0.5). */
    double diamond[4][2] = {{450, cy - h}, {450 + h, cy}, {450, cy + h}, {450 - h, cy}};
    assert_true(one_face_seen_twice(diamond));
    /* The diamond moved right by 0.7 h: inside the face a triangle 0.3 h long and 0.6 h across,
     * 0.09 h^2 of 2 h^2 (0.045): a die beside it. */
    for (int k = 0; k < 4; k++)
        diamond[k][0] += 0.7 * h;
    assert_false(one_face_seen_twice(diamond));
}

static void the_verdict_reads_only_what_it_can_vouch_for(void **state)
{
    (void)state;
    static const verdict_case cases[] = {
        /* n  unc  mrg  cut cmp exp two  ok  why  again lower */
        {5, -1, -1, -1, 0, 5, 0, 1, NULL, 0, 0},
        {6, -1, -1, -1, 0, 5, 0, 0, "found 6 dice, expected 5; something else may look", 0, 0},
        {4, -1, -1, -1, 0, 5, 0, 0, "found 4 dice, expected 5; one may be hidden", 0, 0},
        {1, -1, -1, -1, 0, 5, 0, 0, "found 1 die, expected 5; one may be hidden", 0, 0},
        {10, -1, -1, -1, 0, 5, 0, 0, "found 10 dice, expected 5; the camera may be so close", 0, 0},
        {5, 2, -1, -1, 0, 5, 0, 0, "die 3 (from the left) could not be read with confidence", 0, 0},
        {5, 0, -1, -1, 0, 5, 0, 0, "die 1 (from the left) could not be read with confidence", 0, 0},
        {0, -1, -1, -1, 0, 0, 0, 0, "found no dice", 0, 0},
        {3, -1, -1, -1, 0, 0, 0, 1, NULL, 0, 0},
        {7, -1, -1, -1, 0, 0, 0, 1, NULL, 0, 0},
        /* An 80 px box among 50 px ones: 1.6 times, over the committed 1.45; not over 2. */
        {5, -1, 3, -1, 0, 5, 0, 0, "die 4 (from the left) is much larger than the others", 0, 0},
        {5, -1, 3, -1, 0, 5, 2.0, 1, NULL, 0, 0},
        /* A box out of the frame: its pips may be too, unless its face was read whole. */
        {5, -1, -1, 4, 0, 5, 0, 0, "die 5 (from the left) is cut off by the edge", 0, 0},
        {5, -1, -1, 4, 1, 5, 0, 1, NULL, 0, 0},
        /* ... but not when its value was not trusted anyway. */
        {5, 4, -1, 4, 1, 5, 0, 0, "die 5 (from the left) is cut off by the edge", 0, 0},
        /* A count other than expected is said first. */
        {6, 2, -1, -1, 0, 5, 0, 0, "found 6 dice", 0, 0},
        /* Two dice on one top face (50 x 33.3 px): one die found twice, the faces sharing 0.7
         * or 0.55 of a face (10 or 15 px lower), 0.4 or more. A die half behind another shows
         * its own face farther up: 0.25 shared (25 px). */
        {5, -1, -1, -1, 0, 5, 0, 0, "dice 3 and 4 (from the left) show the same top face", 3, 10},
        {5, -1, -1, -1, 0, 5, 0, 0, "dice 3 and 4 (from the left) show the same top face", 3, 15},
        {5, -1, -1, -1, 0, 5, 0, 1, NULL, 3, 25},
        /* One die too many, boxed over the die above it (here 25 px lower, half inside it; 37,
         * 13 rows of 50 inside): one die found twice. 12 rows is under a quarter: a stray. */
        {6, -1, -1, -1, 0, 5, 0, 0,
         "found 6 dice, expected 5; dice 3 and 4 (from the left) overlap", 3, 25},
        {6, -1, -1, -1, 0, 5, 0, 0,
         "found 6 dice, expected 5; dice 3 and 4 (from the left) overlap", 3, 37},
        {6, -1, -1, -1, 0, 5, 0, 0, "found 6 dice, expected 5; something else may look", 3, 38},
        /* Two dice for one, the second over the first: found twice, not pips from too close
         * (which one die found twice among ten for five does not explain). */
        {2, -1, -1, -1, 0, 1, 0, 0,
         "found 2 dice, expected 1; dice 1 and 2 (from the left) overlap", 1, 25},
        {10, -1, -1, -1, 0, 5, 0, 0, "found 10 dice, expected 5; the camera may be so close", 7,
         25},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const verdict_case *c = &cases[k];
        yz_vision_tuning tuning;
        assert_int_equal(yz_vision_tuning_parse(NULL, "test", &tuning, NULL), YZ_VISION_OK);
        if (c->two_dice > 0) tuning.two_dice_side = c->two_dice;
        yz_vision_result result = hand_made(c);
        yz_vision_give_verdict(&result, c->expect, &tuning);
        if (c->ok) {
            if (result.status != YZ_VISION_READ_OK)
                fail_msg("case %zu: refused: %s", k, result.reason);
            assert_string_equal(result.reason, "");
            assert_null(result.retake);
            for (int i = 0; i < c->n_dice; i++)
                assert_int_equal(result.roll[i], i % 6 + 1);
        } else {
            if (result.status != YZ_VISION_READ_REFUSED || !strstr(result.reason, c->why))
                fail_msg("case %zu: expected a refusal (%s), got status %d (%s)", k, c->why,
                         result.status, result.reason);
            assert_non_null(result.retake);
        }
    }
}

/* A sixth die the readers could not read, boxed w x h at (x, y) beside five plain ones (die 1's
 * box is 250..300 x 300..350), its top face the box's upper two thirds as theirs; host_uncertain
 * leaves die 1 unread too. */
static yz_vision_read_status verdict_with_piece(int x, int y, int w, int h, int piece_certain,
                                                int host_uncertain, yz_vision_result *result)
{
    verdict_case plain = {5, host_uncertain ? 1 : -1, -1, -1, 0, 5, 0, 1, NULL, 0, 0};
    *result = hand_made(&plain);
    yz_vision_die *piece = &result->dice[result->n_dice++];
    memset(piece, 0, sizeof *piece);
    piece->value = 1;
    piece->confidence = piece_certain ? 0.99 : 0.4;
    piece->certain = piece_certain;
    piece->box[0] = x, piece->box[1] = y, piece->box[2] = w, piece->box[3] = h;
    double top[4][2] = {{x, y}, {x + w, y}, {x + w, y + h * 2.0 / 3}, {x, y + h * 2.0 / 3}};
    memcpy(piece->top, top, sizeof top);
    yz_vision_tuning tuning;
    assert_int_equal(yz_vision_tuning_parse(NULL, "test", &tuning, NULL), YZ_VISION_OK);
    yz_vision_give_verdict(result, 5, &tuning);
    return result->status;
}

/* An unread die boxed at least three quarters inside a die read surely is a piece of it (its
 * side face, its top boxed twice), not a sixth die; anything less inside, read surely itself,
 * or inside a die not read either, still counts. */
static void a_piece_of_a_sure_die_is_not_a_die(void **state)
{
    (void)state;
    yz_vision_result result;
    /* Wholly inside die 1's box: five dice, read. */
    assert_int_equal(verdict_with_piece(260, 310, 30, 30, 0, 0, &result), YZ_VISION_READ_OK);
    assert_int_equal(result.n_dice, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(result.roll[i], i + 1);
    /* 40 px wide from x = 270: 30 of its 40 columns inside (3/4); from 271, 29 of 40. */
    assert_int_equal(verdict_with_piece(270, 310, 40, 30, 0, 0, &result), YZ_VISION_READ_OK);
    assert_int_equal(verdict_with_piece(271, 310, 40, 30, 0, 0, &result), YZ_VISION_READ_REFUSED);
    assert_non_null(strstr(result.reason, "found 6 dice, expected 5"));
    /* Half outside, as a die behind another shows above it. */
    assert_int_equal(verdict_with_piece(260, 285, 30, 30, 0, 0, &result), YZ_VISION_READ_REFUSED);
    assert_int_equal(result.n_dice, 6);
    /* Read surely, or inside a die not read surely either: a die. */
    assert_int_equal(verdict_with_piece(260, 310, 30, 30, 1, 0, &result), YZ_VISION_READ_REFUSED);
    assert_int_equal(verdict_with_piece(260, 310, 30, 30, 0, 1, &result), YZ_VISION_READ_REFUSED);
    assert_non_null(strstr(result.reason, "found 6 dice, expected 5"));
}

/* A second reading of a refused photo (pipeline.c's ask_second_detector) stands in for the
 * first only where it reads, and finds every die the first found with each sure value the
 * same: it may add a die the first missed, or read one the first left unsure. */
static void a_second_reading_keeps_what_the_first_saw(void **state)
{
    (void)state;
    verdict_case four = {4, -1, -1, -1, 0, 5, 0, 0, NULL, 0, 0};
    verdict_case five = {5, -1, -1, -1, 0, 5, 0, 1, NULL, 0, 0};
    yz_vision_tuning tuning;
    assert_int_equal(yz_vision_tuning_parse(NULL, "test", &tuning, NULL), YZ_VISION_OK);
    yz_vision_result first = hand_made(&four), second = hand_made(&five);
    yz_vision_give_verdict(&first, 5, &tuning);
    yz_vision_give_verdict(&second, 5, &tuning);
    assert_int_equal(first.status, YZ_VISION_READ_REFUSED);
    assert_int_equal(second.status, YZ_VISION_READ_OK);
    /* Adds the die the first missed. */
    assert_true(yz_vision_second_reading_stands(&second, &first));
    /* A die the first read surely, read otherwise. */
    yz_vision_result changed = second;
    changed.dice[2].value = 6;
    assert_false(yz_vision_second_reading_stands(&changed, &first));
    /* The first's die 3 unsure: the second may read it as it will. */
    yz_vision_result unsure = first;
    unsure.dice[2].certain = 0;
    unsure.dice[2].value = 0;
    assert_true(yz_vision_second_reading_stands(&changed, &unsure));
    /* A die the first found, not there: its box's centre moved by half the box's side (25 of 50
     * px) is another place; by 24 px, the same die. */
    yz_vision_result moved = second;
    moved.dice[1].box[0] += 25;
    assert_false(yz_vision_second_reading_stands(&moved, &first));
    moved.dice[1].box[0] -= 1;
    assert_true(yz_vision_second_reading_stands(&moved, &first));
    moved.dice[1].box[1] += 25;
    assert_false(yz_vision_second_reading_stands(&moved, &first));
    /* A second reading that is refused itself never stands. */
    yz_vision_result refused = second;
    refused.status = YZ_VISION_READ_REFUSED;
    assert_false(yz_vision_second_reading_stands(&refused, &first));
}

/* A look again at a photo refused for more dice than expected stands only where, besides
 * reading and finding every die the first found, it boxes each die the first read surely
 * alike: the surplus it drops must be a die found twice, not a die behind one it holds. */
static void fewer_dice_stand_only_boxed_alike(void **state)
{
    (void)state;
    yz_vision_tuning tuning;
    assert_int_equal(yz_vision_tuning_parse(NULL, "test", &tuning, NULL), YZ_VISION_OK);
    yz_vision_result first;
    /* Die 2 (250-300 px across, 300-350 down) and an unsure box over its top, 40x60 px from
     * (255, 272), a die behind it: 0.53 of it inside die 2's box, a die of its own to the verdict,
     * its top face (the box's upper two thirds) sharing 0.3 of the smaller face with die 2's, so
     * another face, but its centre within half a side of die 2's (one_die). */
    assert_int_equal(verdict_with_piece(255, 272, 40, 60, 0, 0, &first), YZ_VISION_READ_REFUSED);
    assert_int_equal(first.n_dice, 6);
    verdict_case five = {5, -1, -1, -1, 0, 5, 0, 1, NULL, 0, 0};
    yz_vision_result again = hand_made(&five);
    yz_vision_give_verdict(&again, 5, &tuning);
    assert_true(yz_vision_fewer_dice_stand(&again, &first));
    /* Die 2's box grown by 10 px on every side, 50x50 to 70x70: 2500 of 4900 px in common,
     * 0.51, still boxed alike; by 11, 2500 of 5184, 0.48: boxed otherwise, while the rule for a
     * count not exceeded still finds it again. */
    yz_vision_result grown = again;
    grown.dice[1].box[0] -= 10, grown.dice[1].box[1] -= 10;
    grown.dice[1].box[2] += 20, grown.dice[1].box[3] += 20;
    assert_true(yz_vision_fewer_dice_stand(&grown, &first));
    grown.dice[1].box[0] -= 1, grown.dice[1].box[1] -= 1;
    grown.dice[1].box[2] += 2, grown.dice[1].box[3] += 2;
    assert_false(yz_vision_fewer_dice_stand(&grown, &first));
    assert_true(yz_vision_second_reading_stands(&grown, &first));
    /* A die read surely read otherwise, or a look refused itself: never. */
    yz_vision_result changed = again;
    changed.dice[3].value = 6;
    assert_false(yz_vision_fewer_dice_stand(&changed, &first));
    changed = again;
    changed.status = YZ_VISION_READ_REFUSED;
    assert_false(yz_vision_fewer_dice_stand(&changed, &first));
}

/* Two readings of one photo (pipeline.c's looks again, the second detector), each short of a
 * die the other found: together (yz_vision_merge_readings) they read, a die both found counted
 * once with its surer reading; two sure readings of it that differ leave it unsure. */
static void two_readings_together_read_what_neither_reads(void **state)
{
    (void)state;
    verdict_case five = {5, -1, -1, -1, 0, 5, 0, 1, NULL, 0, 0};
    yz_vision_tuning tuning;
    assert_int_equal(yz_vision_tuning_parse(NULL, "test", &tuning, NULL), YZ_VISION_OK);
    yz_vision_result all = hand_made(&five), first = all, other = all, both;
    first.n_dice = 4; /* the first misses the last die, the other the first die */
    memmove(other.dice, other.dice + 1, 4 * sizeof other.dice[0]);
    other.n_dice = 4;
    yz_vision_give_verdict(&first, 5, &tuning);
    yz_vision_give_verdict(&other, 5, &tuning);
    assert_int_equal(first.status, YZ_VISION_READ_REFUSED);
    yz_vision_merge_readings(&other, &first, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_OK);
    assert_int_equal(both.n_dice, 5);
    for (int i = 0; i < 5; i++) /* left to right */
        assert_int_equal(both.roll[i], i + 1);
    /* The first left die 3 unsure: the other's sure reading of it counts. */
    yz_vision_result unsure = first;
    unsure.dice[2].certain = 0;
    unsure.dice[2].value = 0;
    yz_vision_merge_readings(&unsure, &other, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_OK);
    assert_int_equal(both.roll[2], 3);
    /* Read surely as 3 and as 6: unsure. */
    yz_vision_result otherwise = other;
    otherwise.dice[1].value = 6;
    yz_vision_merge_readings(&first, &otherwise, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_REFUSED);
    assert_non_null(strstr(both.reason, "die 3 (from the left) could not be read"));
    /* A die moved by half its side is another die: six, not five. */
    yz_vision_result moved = other;
    moved.dice[1].box[0] += 25;
    yz_vision_merge_readings(&first, &moved, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_REFUSED);
    assert_int_equal(both.n_dice, 6);
    /* Two dice of the other's on one of the first's: two dice, six in all. */
    yz_vision_result twice = other;
    twice.dice[twice.n_dice] = twice.dice[1];
    twice.dice[twice.n_dice].box[1] += 10;
    twice.n_dice++;
    yz_vision_merge_readings(&first, &twice, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_REFUSED);
    assert_int_equal(both.n_dice, 6);
    /* The other boxes only a corner of die 2 (20 px of its 50, its centre 15 px off in x and
     * y: too far for one_die) and reads it surely, and misses die 5 as the first does. A piece
     * of die 2 or a die mostly behind it, neither reading can tell: five dice, neither of the
     * two read, never a sure roll of five. */
    yz_vision_result corner = first;
    yz_vision_die *piece = &corner.dice[4];
    *piece = corner.dice[1];
    piece->box[0] += 30, piece->box[1] += 30, piece->box[2] = piece->box[3] = 20;
    double x0 = piece->box[0], y0 = piece->box[1], x1 = x0 + 20, y1 = y0 + 40.0 / 3;
    double top[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    memcpy(piece->top, top, sizeof top);
    piece->value = 6;
    corner.n_dice = 5;
    yz_vision_merge_readings(&first, &corner, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_REFUSED);
    assert_int_equal(both.n_dice, 5);
    assert_non_null(strstr(both.reason, "could not be read"));
    /* The corner in the first reading and the whole die in the other: the same. */
    yz_vision_result whole = first;
    whole.dice[1] = *piece;
    yz_vision_merge_readings(&whole, &corner, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_REFUSED);
    assert_int_equal(both.n_dice, 5);
    /* Still short together: refused as short. */
    yz_vision_result fewer = first;
    fewer.n_dice = 3;
    yz_vision_merge_readings(&fewer, &first, 5, &tuning, &both);
    assert_int_equal(both.status, YZ_VISION_READ_REFUSED);
    assert_non_null(strstr(both.reason, "found 4 dice, expected 5"));
}

/* $YARDZEE_TUNE's grammar: NAME=VALUE, comma-separated, each name once known, each value in
 * its range; the committed thresholds otherwise. */
static void thresholds_are_set_by_name_or_refused(void **state)
{
    (void)state;
    static const struct {
        const char *list;
        yz_vision_status status;
        double min_confidence, die_score; /* when ok */
        const char *message;              /* when not */
    } cases[] = {
        {NULL, YZ_VISION_OK, 0.90, 0.50, NULL},
        {"", YZ_VISION_OK, 0.90, 0.50, NULL},
        {"min_confidence=0.95", YZ_VISION_OK, 0.95, 0.50, NULL},
        {"die_score=0.4,min_confidence=0.8", YZ_VISION_OK, 0.80, 0.40, NULL},
        {"die_score=0.4,,", YZ_VISION_OK, 0.90, 0.40, NULL},
        {"confidence=0.9", YZ_VISION_ERR_USAGE, 0, 0,
         "T: 'confidence' is not NAME=VALUE with NAME one of"},
        {"min_confidence", YZ_VISION_ERR_USAGE, 0, 0, "T: 'min_confidence' is not NAME=VALUE"},
        {"min_confidence=high", YZ_VISION_ERR_USAGE, 0, 0,
         "T: min_confidence: 'high' is not a number from 0 to 1"},
        {"die_score=1.5", YZ_VISION_ERR_USAGE, 0, 0, "T: die_score: '1.5' is not a number"},
        {"zoom_worth=0.5", YZ_VISION_ERR_USAGE, 0, 0, "T: zoom_worth: '0.5' is not a number"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        yz_vision_tuning tuning;
        yz_vision_error err = {0, ""};
        yz_vision_status status = yz_vision_tuning_parse(cases[k].list, "T", &tuning, &err);
        if (status != cases[k].status) fail_msg("case %zu: status %d (%s)", k, status, err.message);
        if (status == YZ_VISION_OK) {
            assert_float_equal(tuning.min_confidence, cases[k].min_confidence, 1e-12);
            assert_float_equal(tuning.die_score, cases[k].die_score, 1e-12);
            assert_float_equal(tuning.doubt_score, 0.25, 1e-12);
        } else if (strncmp(err.message, cases[k].message, strlen(cases[k].message)) != 0) {
            fail_msg("case %zu: message '%s'", k, err.message);
        }
    }
    yz_vision_tuning tuning;
    assert_int_equal(yz_vision_tuning_parse(NULL, "T", &tuning, NULL), YZ_VISION_OK);
    assert_float_equal(tuning.min_die, 0.5, 1e-12);
    assert_int_equal(yz_vision_tuning_parse("min_die=0.7", "T", &tuning, NULL), YZ_VISION_OK);
    assert_float_equal(tuning.min_die, 0.7, 1e-12);
    /* The look again when fewer dice are found than expected, and how it is switched off. */
    assert_int_equal(yz_vision_tuning_parse("short_look_side=0", "T", &tuning, NULL), YZ_VISION_OK);
    assert_float_equal(tuning.short_look_side, 0, 1e-12);
    assert_float_equal(tuning.far_look_side, 0.75, 1e-12);
    assert_int_equal(yz_vision_tuning_parse("far_look_side=0", "T", &tuning, NULL), YZ_VISION_OK);
    assert_float_equal(tuning.far_look_side, 0, 1e-12);
    assert_float_equal(tuning.merge_looks, 1, 1e-12);
    assert_int_equal(yz_vision_tuning_parse("merge_looks=0", "T", &tuning, NULL), YZ_VISION_OK);
    assert_float_equal(tuning.merge_looks, 0, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_verdict_reads_only_what_it_can_vouch_for),
        cmocka_unit_test(two_faces_are_one_by_the_area_they_share),
        cmocka_unit_test(a_piece_of_a_sure_die_is_not_a_die),
        cmocka_unit_test(a_second_reading_keeps_what_the_first_saw),
        cmocka_unit_test(fewer_dice_stand_only_boxed_alike),
        cmocka_unit_test(two_readings_together_read_what_neither_reads),
        cmocka_unit_test(thresholds_are_set_by_name_or_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
