/* test_rules.c - the rules engine against an oracle written plainly here, the rulebooks'
 * worked examples, and every extra-Yahtzee case of every profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules.h"
#include "test_cards.h"

/* ---- the oracle: each box's rule as the rulebook words it, on the dice as thrown ---------- */

typedef struct {
    int sum_all_for_kinds; /* Yahtzee: 3/4 of a Kind score all dice; Yatzy: only the matching */
    int house;             /* points for a Full House, 0 = sum of the dice */
    int scandinavian_straights;
    int small, large;
} oracle_rules;

static int count_of(const int dice[5], int face)
{
    int n = 0;
    for (int i = 0; i < 5; i++)
        n += dice[i] == face;
    return n;
}

static int total(const int dice[5])
{
    return dice[0] + dice[1] + dice[2] + dice[3] + dice[4];
}

/* "1234" style string of the distinct faces, ascending. */
static void distinct_faces(const int dice[5], char out[8])
{
    int at = 0;
    for (int face = 1; face <= 6; face++)
        if (count_of(dice, face)) out[at++] = (char)('0' + face);
    out[at] = '\0';
}

static int oracle_points(const oracle_rules *r, yz_box box, const int dice[5])
{
    char faces[8];
    distinct_faces(dice, faces);
    int best = 0;
    switch (box) {
    case YZ_BOX_ONES:
    case YZ_BOX_TWOS:
    case YZ_BOX_THREES:
    case YZ_BOX_FOURS:
    case YZ_BOX_FIVES:
    case YZ_BOX_SIXES:
        for (int i = 0; i < 5; i++)
            best += dice[i] == (int)box + 1 ? dice[i] : 0;
        return best;
    case YZ_BOX_ONE_PAIR:
        for (int face = 1; face <= 6; face++)
            if (count_of(dice, face) >= 2) best = 2 * face;
        return best;
    case YZ_BOX_TWO_PAIRS:
        for (int a = 1; a <= 6; a++)
            for (int b = a + 1; b <= 6; b++)
                if (count_of(dice, a) >= 2 && count_of(dice, b) >= 2 && 2 * (a + b) > best)
                    best = 2 * (a + b);
        return best;
    case YZ_BOX_THREE_KIND:
    case YZ_BOX_FOUR_KIND: {
        int need = box == YZ_BOX_THREE_KIND ? 3 : 4;
        for (int face = 1; face <= 6; face++)
            if (count_of(dice, face) >= need)
                best = r->sum_all_for_kinds ? total(dice) : need * face;
        return best;
    }
    case YZ_BOX_FULL_HOUSE:
        for (int a = 1; a <= 6; a++)
            for (int b = 1; b <= 6; b++)
                if (a != b && count_of(dice, a) == 3 && count_of(dice, b) == 2)
                    return r->house ? r->house : total(dice);
        return 0;
    case YZ_BOX_SMALL_STRAIGHT:
        if (r->scandinavian_straights) return strcmp(faces, "12345") == 0 ? r->small : 0;
        return strstr(faces, "1234") || strstr(faces, "2345") || strstr(faces, "3456") ? r->small
                                                                                       : 0;
    case YZ_BOX_LARGE_STRAIGHT:
        if (r->scandinavian_straights) return strcmp(faces, "23456") == 0 ? r->large : 0;
        return strcmp(faces, "12345") == 0 || strcmp(faces, "23456") == 0 ? r->large : 0;
    case YZ_BOX_YAHTZEE: return strlen(faces) == 1 ? 50 : 0;
    case YZ_BOX_CHANCE: return total(dice);
    default: return -1;
    }
}

static const struct {
    const char *profile;
    oracle_rules rules;
    int n_boxes;
} oracle_profiles[] = {
    {"yahtzee", {1, 25, 0, 30, 40}, 13}, {"hasbro", {1, 25, 0, 30, 40}, 13},
    {"yardzee", {1, 25, 0, 30, 40}, 13}, {"belknap", {1, 25, 0, 30, 40}, 13},
    {"yatzy", {0, 25, 0, 30, 40}, 15},   {"yatzy-scandinavian", {0, 0, 1, 15, 20}, 15},
};

static void every_roll_in_every_box_matches_the_oracle(void **state)
{
    (void)state;
    for (size_t p = 0; p < sizeof oracle_profiles / sizeof oracle_profiles[0]; p++) {
        const yz_profile *profile = yz_rules_profile_find(oracle_profiles[p].profile);
        assert_non_null(profile);
        assert_int_equal(profile->n_boxes, oracle_profiles[p].n_boxes);
        for (int code = 0; code < 7776; code++) { /* every ordered throw of five dice */
            int dice[5];
            yz_roll roll;
            for (int i = 0, c = code; i < 5; i++, c /= 6) {
                dice[i] = c % 6 + 1;
                roll.dice[i] = (uint8_t)dice[i];
            }
            for (int b = 0; b < profile->n_boxes; b++) {
                yz_box box = profile->boxes[b];
                int expected = oracle_points(&oracle_profiles[p].rules, box, dice);
                int got = yz_rules_box_points(profile, box, &roll);
                if (got != expected)
                    fail_msg("%s: %d%d%d%d%d in %s: got %d, oracle %d", profile->name, dice[0],
                             dice[1], dice[2], dice[3], dice[4], yz_rules_box_name(box), got,
                             expected);
            }
        }
    }
}

/* ---- the rulebooks' worked examples -------------------------------------------------------- */

static void rulebook_examples_score_as_printed(void **state)
{
    (void)state;
    static const struct {
        const char *profile, *roll;
        yz_box box;
        int points;
        const char *source;
    } cases[] = {
        {"yardzee", "5,2,5,6,5", YZ_BOX_FIVES, 15, "TLG: 5-2-5-6-5 in Fives is 15"},
        {"yardzee", "2,3,2,5,4", YZ_BOX_SMALL_STRAIGHT, 30, "TLG: 2-3-2-5-4 small straight"},
        {"yardzee", "2,3,2,5,4", YZ_BOX_LARGE_STRAIGHT, 0, "TLG: ... or 0 in Large Straight"},
        {"yahtzee", "3,3,3,3,1", YZ_BOX_THREES, 12, "001: four threes in Threes is twelve"},
        {"yahtzee", "5,5,5,2,4", YZ_BOX_THREE_KIND, 21, "001: 5,5,5,2,4 as 3 of a Kind is 21"},
        {"belknap", "5,5,5,6,2", YZ_BOX_FIVES, 15, "Belknap: 5-5-5-6-2 in Fives"},
        {"belknap", "5,5,5,6,2", YZ_BOX_TWOS, 2, "Belknap: ... in Twos"},
        {"belknap", "5,5,5,6,2", YZ_BOX_SIXES, 6, "Belknap: ... in Sixes"},
        {"belknap", "4,4,4,1,6", YZ_BOX_THREE_KIND, 19, "Belknap: 4-4-4-1-6 3 of a kind"},
        {"belknap", "6,6,6,6,2", YZ_BOX_FOUR_KIND, 26, "Belknap: 6-6-6-6-2 4 of a kind"},
        {"belknap", "3,4,5,6,1", YZ_BOX_SMALL_STRAIGHT, 30, "Belknap: 3-4-5-6-1 small"},
        {"belknap", "2,3,4,5,6", YZ_BOX_LARGE_STRAIGHT, 40, "Belknap: 2-3-4-5-6 large"},
        {"belknap", "3,3,3,2,2", YZ_BOX_FULL_HOUSE, 25, "Belknap: 3-3-3-2-2 full house"},
        {"belknap", "4,4,4,4,4", YZ_BOX_FOURS, 20, "Belknap: 4-4-4-4-4 in Fours is 20"},
        {"yatzy", "3,4,5,6,6", YZ_BOX_SMALL_STRAIGHT, 30, "004: 3,4,5,6 small straight"},
        {"yatzy", "1,2,3,4,5", YZ_BOX_LARGE_STRAIGHT, 40, "004: 1,2,3,4,5 large straight"},
        {"yatzy", "4,4,4,4,2", YZ_BOX_FOUR_KIND, 16, "004: sum of those four dice"},
        {"yatzy", "6,6,6,6,6", YZ_BOX_FULL_HOUSE, 0, "choice: five of a kind is not a House"},
        {"yatzy", "6,6,6,6,2", YZ_BOX_TWO_PAIRS, 0, "choice: two pairs of different faces"},
        {"yatzy", "6,6,5,5,5", YZ_BOX_TWO_PAIRS, 22, "a house holds two pairs"},
        {"yatzy", "6,6,6,5,5", YZ_BOX_THREE_KIND, 18, "choice: the highest qualifying face"},
        {"yahtzee", "6,6,6,6,6", YZ_BOX_FULL_HOUSE, 0, "choice: five of a kind is no house"},
        {"yatzy-scandinavian", "1,2,3,4,5", YZ_BOX_SMALL_STRAIGHT, 15, "1-2-3-4-5 is 15"},
        {"yatzy-scandinavian", "2,3,4,5,6", YZ_BOX_SMALL_STRAIGHT, 0, "2-6 is not small"},
        {"yatzy-scandinavian", "2,3,4,5,6", YZ_BOX_LARGE_STRAIGHT, 20, "2-3-4-5-6 is 20"},
        {"yatzy-scandinavian", "6,6,6,5,5", YZ_BOX_FULL_HOUSE, 28, "house scores the sum"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_roll roll = roll_of(cases[i].roll);
        int got = yz_rules_box_points(yz_rules_profile_find(cases[i].profile), cases[i].box, &roll);
        if (got != cases[i].points)
            fail_msg("%s: got %d, expected %d", cases[i].source, got, cases[i].points);
    }
}

/* ---- legal boxes for a five of a kind ----------------------------------------------------- */

/* "fours=20 three_kind=20 +100": the options expected, in display order, then the bonus. */
static void check_options(const char *profile_name, const char *card_spec, const char *roll_text,
                          const char *expected)
{
    const yz_profile *profile = yz_rules_profile_find(profile_name);
    yz_card card = card_of(card_spec);
    yz_roll roll = roll_of(roll_text);
    yz_option options[YZ_BOX_COUNT];
    int n = yz_rules_options(profile, &card, &roll, options);
    char got[512] = "";
    size_t at = 0;
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(got + at, sizeof got - at, "%s%s=%d", i ? " " : "",
                               yz_rules_box_name(options[i].box), options[i].points);
    if (n) snprintf(got + at, sizeof got - at, " +%d", options[0].bonus);
    if (strcmp(got, expected) != 0)
        fail_msg("%s, card {%s}, roll %s:\n  got      %s\n  expected %s", profile_name, card_spec,
                 roll_text, got, expected);
}

/* The upper boxes and lower boxes below are filled with placeholder scores. */
#define UPPER_BUT_FOURS "aces=3 twos=6 threes=9 fives=15 sixes=18"
#define ALL_UPPER UPPER_BUT_FOURS " fours=12"
#define LOWER_BUT_STRAIGHTS "three_kind=20 four_kind=20 full_house=25 chance=20"

static void extra_yahtzee_rules_of_every_profile(void **state)
{
    (void)state;
    static const struct {
        const char *profile, *card, *roll, *options, *why;
    } cases[] = {
        /* Yahtzee box open: an ordinary roll everywhere, the box takes 50. */
        {"yahtzee", UPPER_BUT_FOURS " " LOWER_BUT_STRAIGHTS, "4,4,4,4,4",
         "fours=20 small_straight=0 large_straight=0 yahtzee=50 +0", "first Yahtzee"},
        /* yahtzee: free choice; joker only once the matching upper box is filled. */
        {"yahtzee", "yahtzee=50", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fours=20 fives=0 sixes=0 three_kind=20 four_kind=20 "
         "full_house=0 small_straight=0 large_straight=0 chance=20 +100",
         "free: any box, no joker while Fours is open"},
        {"yahtzee", "yahtzee=50 fours=12", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fives=0 sixes=0 three_kind=20 four_kind=20 full_house=25 "
         "small_straight=30 large_straight=40 chance=20 +100",
         "free: joker with Fours filled"},
        {"yahtzee", "yahtzee=0 fours=12", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fives=0 sixes=0 three_kind=20 four_kind=20 full_house=25 "
         "small_straight=30 large_straight=40 chance=20 +0",
         "free: joker after a scratched Yahtzee, no bonus"},
        /* hasbro: forced. */
        {"hasbro", "yahtzee=50", "4,4,4,4,4", "fours=20 +100", "forced: matching upper box"},
        {"hasbro", "yahtzee=0 fours=12", "4,4,4,4,4",
         "three_kind=20 four_kind=20 full_house=25 small_straight=30 large_straight=40 chance=20 "
         "+0",
         "forced: any lower box as a joker"},
        {"hasbro",
         "yahtzee=50 fours=12 " LOWER_BUT_STRAIGHTS " small_straight=30 large_straight=40",
         "4,4,4,4,4", "aces=0 twos=0 threes=0 fives=0 sixes=0 +100",
         "forced: a zero in an upper box when the lower section is full"},
        /* yardzee (TLG): matching upper, else a zero in the upper section, no joker. */
        {"yardzee", "yahtzee=50", "6,6,6,6,6", "sixes=30 +100", "TLG: must score Sixes"},
        {"yardzee", "yahtzee=50 sixes=18", "6,6,6,6,6",
         "aces=0 twos=0 threes=0 fours=0 fives=0 +100", "TLG: zero anywhere in the upper section"},
        {"yardzee", "yahtzee=50 " ALL_UPPER, "4,4,4,4,4",
         "three_kind=20 four_kind=20 full_house=0 small_straight=0 large_straight=0 chance=20 +100",
         "TLG silent: upper full, any lower box, no joker"},
        {"yardzee", "yahtzee=0", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fours=20 fives=0 sixes=0 three_kind=20 four_kind=20 "
         "full_house=0 small_straight=0 large_straight=0 chance=20 +0",
         "TLG silent: after a scratched Yardzee an ordinary roll"},
        /* belknap. */
        {"belknap", "yahtzee=50", "4,4,4,4,4", "fours=20 +100", "Belknap: must use Fours"},
        {"belknap", "yahtzee=50 fours=12", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fives=0 sixes=0 three_kind=20 four_kind=20 full_house=0 "
         "small_straight=0 large_straight=0 chance=20 +100",
         "Belknap silent: Fours filled, any box, no joker"},
        {"belknap", "yahtzee=0 fours=12", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fives=0 sixes=0 chance=20 +0",
         "Belknap: after a scratch only open upper boxes or Chance"},
        {"belknap", "yahtzee=0 " ALL_UPPER " chance=20", "4,4,4,4,4",
         "three_kind=0 four_kind=0 full_house=0 small_straight=0 large_straight=0 +0",
         "Belknap silent: nowhere allowed, a scratch"},
        /* Yatzy: no bonus, no joker. */
        {"yatzy", "yahtzee=50", "4,4,4,4,4",
         "aces=0 twos=0 threes=0 fours=20 fives=0 sixes=0 one_pair=8 two_pairs=0 three_kind=12 "
         "four_kind=16 small_straight=0 large_straight=0 full_house=0 chance=20 +0",
         "Yatzy: a second Yatzy is an ordinary roll"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_options(cases[i].profile, cases[i].card, cases[i].roll, cases[i].options);
}

static void scoring_fills_the_box_and_refuses_illegal_boxes(void **state)
{
    (void)state;
    const yz_profile *hasbro = yz_rules_profile_find("hasbro");
    yz_card card = card_of("yahtzee=50");
    yz_roll roll = roll_of("4,4,4,4,4");
    yz_rules_error err;
    yz_card before = card;
    assert_int_equal(yz_rules_score(hasbro, &card, &roll, YZ_BOX_CHANCE, NULL, &err), YZ_ERR_DATA);
    assert_memory_equal(&card, &before, sizeof card);
    assert_int_equal(yz_rules_score(hasbro, &card, &roll, YZ_BOX_YAHTZEE, NULL, &err), YZ_ERR_DATA);
    assert_non_null(strstr(err.message, "already filled"));
    assert_int_equal(yz_rules_score(hasbro, &card, &roll, YZ_BOX_ONE_PAIR, NULL, &err),
                     YZ_ERR_USAGE);
    yz_option scored;
    assert_int_equal(yz_rules_score(hasbro, &card, &roll, YZ_BOX_FOURS, &scored, &err), YZ_OK);
    assert_int_equal(card.points[YZ_BOX_FOURS], 20);
    assert_int_equal(card.extra_yahtzees, 1);
    assert_int_equal(scored.bonus, 100);
}

static void totals_add_the_upper_bonus_at_63_and_extra_yahtzees(void **state)
{
    (void)state;
    static const struct {
        const char *profile, *card;
        int upper, upper_bonus, lower, yahtzee_bonus, total;
    } cases[] = {
        {"yahtzee", "aces=3 twos=6 threes=9 fours=12 fives=15 sixes=18", 63, 35, 0, 0, 98},
        {"yahtzee", "aces=2 twos=6 threes=9 fours=12 fives=15 sixes=18", 62, 0, 0, 0, 62},
        {"yahtzee", "yahtzee=50 fours=20 chance=30 extra=1", 20, 0, 80, 100, 200},
        {"yatzy", "aces=3 twos=6 threes=9 fours=12 fives=15 sixes=18 one_pair=12", 63, 50, 12, 0,
         125},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_card card = card_of(cases[i].card);
        yz_totals t;
        yz_rules_totals(yz_rules_profile_find(cases[i].profile), &card, &t);
        assert_int_equal(t.upper, cases[i].upper);
        assert_int_equal(t.upper_bonus, cases[i].upper_bonus);
        assert_int_equal(t.lower, cases[i].lower);
        assert_int_equal(t.yahtzee_bonus, cases[i].yahtzee_bonus);
        assert_int_equal(t.total, cases[i].total);
    }
}

static void card_values_are_checked_against_what_a_roll_can_score(void **state)
{
    (void)state;
    static const struct {
        const char *profile;
        yz_box box;
        int value, ok;
    } cases[] = {
        {"yahtzee", YZ_BOX_FOURS, 7, 0},
        {"yahtzee", YZ_BOX_FOURS, 20, 1},
        {"yahtzee", YZ_BOX_FOURS, 24, 0},
        {"yahtzee", YZ_BOX_FULL_HOUSE, 25, 1},
        {"yahtzee", YZ_BOX_FULL_HOUSE, 20, 0},
        {"yahtzee", YZ_BOX_YAHTZEE, 49, 0},
        {"yahtzee", YZ_BOX_THREE_KIND, 4, 0},
        {"yahtzee", YZ_BOX_THREE_KIND, 5, 1},
        {"yahtzee", YZ_BOX_CHANCE, 31, 0},
        {"yahtzee", YZ_BOX_CHANCE, -1, 0},
        {"yatzy", YZ_BOX_FOUR_KIND, 24, 1},
        {"yatzy", YZ_BOX_FOUR_KIND, 25, 0},
        {"yatzy", YZ_BOX_TWO_PAIRS, 4, 0},
        {"yatzy", YZ_BOX_TWO_PAIRS, 6, 1},
        {"yatzy", YZ_BOX_ONE_PAIR, 7, 0},
        {"yatzy-scandinavian", YZ_BOX_FULL_HOUSE, 7, 1},
        {"yatzy-scandinavian", YZ_BOX_FULL_HOUSE, 25, 0},
        {"yahtzee", YZ_BOX_ONE_PAIR, 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_card card;
        yz_rules_card_init(&card);
        yz_rules_error err;
        yz_status status = yz_rules_card_set(yz_rules_profile_find(cases[i].profile), &card,
                                             cases[i].box, cases[i].value, &err);
        if ((status == YZ_OK) != cases[i].ok)
            fail_msg("%s %s=%d: expected %s", cases[i].profile, yz_rules_box_name(cases[i].box),
                     cases[i].value, cases[i].ok ? "ok" : "refused");
    }
    const yz_profile *yahtzee = yz_rules_profile_find("yahtzee");
    yz_card card;
    yz_rules_card_init(&card);
    yz_rules_error err;
    assert_int_equal(yz_rules_card_set(yahtzee, &card, YZ_BOX_FOURS, 8, &err), YZ_OK);
    assert_int_equal(yz_rules_card_set(yahtzee, &card, YZ_BOX_FOURS, 8, &err), YZ_ERR_DATA);
    assert_non_null(strstr(err.message, "filled twice"));
    card.extra_yahtzees = 1; /* no 50 in the Yahtzee box */
    assert_int_equal(yz_rules_card_check(yahtzee, &card, &err), YZ_ERR_DATA);
    yz_card good = card_of("yahtzee=50 fours=20 extra=1");
    assert_int_equal(yz_rules_card_check(yahtzee, &good, &err), YZ_OK);
    yz_card too_many = card_of("yahtzee=50 fours=20 extra=2");
    assert_int_equal(yz_rules_card_check(yahtzee, &too_many, &err), YZ_ERR_DATA);
}

static void rolls_parse_five_dice_or_name_the_problem(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"5,2,5,6,5", NULL},
        {"5 2 5 6 5", NULL},
        {" 1, 2,3 ,4,6 ", NULL},
        {"1,2,3,4", "expected 5 dice, got 4"},
        {"1,2,3,4,5,6", "expected 5 dice, got 6"},
        {"1,2,3,4,7", "'7' is not a die value"},
        {"a,b,c,d,e", "'a' is not"},
        {"", "got 0"},
        {"12,3,4,5,6", "'12' is not"},
        {"0,1,2,3,4", "'0' is not"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_roll roll;
        yz_rules_error err;
        yz_status status = yz_rules_roll_parse(cases[i].text, "--roll", &roll, &err);
        if (!cases[i].error) {
            assert_int_equal(status, YZ_OK);
        } else {
            assert_int_equal(status, YZ_ERR_USAGE);
            if (!strstr(err.message, cases[i].error))
                fail_msg("'%s': message '%s' lacks '%s'", cases[i].text, err.message,
                         cases[i].error);
        }
    }
}

static void standings_use_each_profiles_tiebreak(void **state)
{
    (void)state;
    static const struct {
        const char *profile;
        const char *cards[3];
        int places[3];
    } cases[] = {
        /* Yatzy: same total 60; Yatzy box first breaks it. */
        {"yatzy",
         {"chance=10 yahtzee=50", "chance=30 sixes=30", "chance=20 fives=20 fours=20"},
         {1, 2, 3}},
        /* Yatzy: everything equal: the player who went first wins. */
        {"yatzy", {"chance=20", "chance=20", "chance=25"}, {2, 3, 1}},
        /* Yatzy: equal Yatzy and Chance; the upper total decides. */
        {"yatzy", {"chance=20 one_pair=12", "chance=20 sixes=12", "chance=5"}, {2, 1, 3}},
        /* Yahtzee: ties stand. */
        {"yahtzee", {"chance=20", "chance=20", "chance=25"}, {2, 2, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_card cards[3];
        for (int p = 0; p < 3; p++)
            cards[p] = card_of(cases[i].cards[p]);
        int order[3], place[3];
        yz_rules_standings(yz_rules_profile_find(cases[i].profile), cards, 3, order, place);
        for (int p = 0; p < 3; p++)
            if (place[p] != cases[i].places[p])
                fail_msg("case %zu: player %d placed %d, expected %d", i, p, place[p],
                         cases[i].places[p]);
    }
}

static void profiles_are_found_by_name_and_boxes_by_alias(void **state)
{
    (void)state;
    assert_string_equal(yz_rules_profile_default()->name, "yahtzee");
    assert_null(yz_rules_profile_find("poker"));
    yz_box box;
    yz_rules_error err;
    assert_int_equal(yz_rules_box_parse(yz_rules_profile_find("yatzy"), "house", &box, &err),
                     YZ_OK);
    assert_int_equal(box, YZ_BOX_FULL_HOUSE);
    assert_int_equal(yz_rules_box_parse(yz_rules_profile_find("yahtzee"), "one_pair", &box, &err),
                     YZ_ERR_USAGE);
    assert_int_equal(yz_rules_profile_find("yardzee")->max_players, 5);
    assert_int_equal(yz_rules_profile_find("yatzy")->max_players, 6);
}

/* Box names as yardzee prints them and as players write them, spelled out here by hand. */
static void box_names_are_accepted_as_printed_with_a_suggestion_on_a_typo(void **state)
{
    (void)state;
    static const struct {
        const char *profile, *name;
        int ok;
        yz_box box;          /* when ok */
        const char *message; /* when not ok: a part of the error message */
    } cases[] = {
        {"yahtzee", "threes", 1, YZ_BOX_THREES, NULL},
        {"yahtzee", "Threes", 1, YZ_BOX_THREES, NULL},
        {"yahtzee", "THREES", 1, YZ_BOX_THREES, NULL},
        {"yahtzee", "Aces", 1, YZ_BOX_ONES, NULL},
        {"yahtzee", "ones", 1, YZ_BOX_ONES, NULL},
        {"yahtzee", "Full House", 1, YZ_BOX_FULL_HOUSE, NULL},
        {"yahtzee", "full house", 1, YZ_BOX_FULL_HOUSE, NULL},
        {"yahtzee", "full-house", 1, YZ_BOX_FULL_HOUSE, NULL},
        {"yahtzee", "fh", 1, YZ_BOX_FULL_HOUSE, NULL},
        {"yahtzee", "3 of a Kind", 1, YZ_BOX_THREE_KIND, NULL},
        {"yahtzee", "three of a kind", 1, YZ_BOX_THREE_KIND, NULL},
        {"yahtzee", "3k", 1, YZ_BOX_THREE_KIND, NULL},
        {"yahtzee", "4 of a Kind", 1, YZ_BOX_FOUR_KIND, NULL},
        {"yahtzee", "4K", 1, YZ_BOX_FOUR_KIND, NULL},
        {"yahtzee", "Sm Straight", 1, YZ_BOX_SMALL_STRAIGHT, NULL},
        {"yahtzee", "small straight", 1, YZ_BOX_SMALL_STRAIGHT, NULL},
        {"yahtzee", "ss", 1, YZ_BOX_SMALL_STRAIGHT, NULL},
        {"yahtzee", "Lg Straight", 1, YZ_BOX_LARGE_STRAIGHT, NULL},
        {"yahtzee", "large", 1, YZ_BOX_LARGE_STRAIGHT, NULL},
        {"yahtzee", "6s", 1, YZ_BOX_SIXES, NULL},
        {"yahtzee", "Yahtzee", 1, YZ_BOX_YAHTZEE, NULL},
        {"yahtzee", "Chance", 1, YZ_BOX_CHANCE, NULL},
        {"yardzee", "Yardzee", 1, YZ_BOX_YAHTZEE, NULL},
        {"yatzy", "Yatzy", 1, YZ_BOX_YAHTZEE, NULL},
        {"yatzy", "One Pair", 1, YZ_BOX_ONE_PAIR, NULL},
        {"yatzy", "two pairs", 1, YZ_BOX_TWO_PAIRS, NULL},
        {"yatzy", "House", 1, YZ_BOX_FULL_HOUSE, NULL},
        {"yatzy-scandinavian", "Three of a Kind", 1, YZ_BOX_THREE_KIND, NULL},
        {"yahtzee", "threee", 0, 0,
         "'threee' is not a box of the yahtzee rules; did you mean threes?"},
        {"yahtzee", "Ful House", 0, 0, "did you mean full_house?"},
        {"yahtzee", "chanse", 0, 0, "did you mean chance?"},
        {"yahtzee", "eights", 0, 0,
         "'eights' is not a box of the yahtzee rules (boxes: aces twos threes fours fives sixes "
         "three_kind four_kind full_house small_straight large_straight yahtzee chance)"},
        {"yahtzee", "one_pair", 0, 0, "'one_pair' is not a box of the yahtzee rules (boxes: aces"},
        {"yahtzee", "One Pair", 0, 0, "not a box of the yahtzee rules (boxes:"},
        {"yahtzee", "", 0, 0, "'' is not a box"},
        {"yatzy", "two_pair", 0, 0, "did you mean two_pairs?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_box box = YZ_BOX_COUNT;
        yz_rules_error err = {YZ_OK, ""};
        yz_status status =
            yz_rules_box_parse(yz_rules_profile_find(cases[i].profile), cases[i].name, &box, &err);
        if (cases[i].ok && (status != YZ_OK || box != cases[i].box))
            fail_msg("case %zu: '%s' in %s gave status %d, box %d, expected box %d (%s)", i,
                     cases[i].name, cases[i].profile, status, box, cases[i].box, err.message);
        if (!cases[i].ok && (status != YZ_ERR_USAGE || !strstr(err.message, cases[i].message)))
            fail_msg("case %zu: '%s' in %s gave status %d, message \"%s\", expected \"%s\"", i,
                     cases[i].name, cases[i].profile, status, err.message, cases[i].message);
    }
    /* No suggestion for a name far from every box. */
    yz_box box;
    yz_rules_error err;
    yz_rules_box_parse(yz_rules_profile_default(), "eights", &box, &err);
    assert_null(strstr(err.message, "did you mean"));
}

/* Three throws a turn: left before and after each, and after the one being photographed. */
static void a_turn_has_three_throws(void **state)
{
    (void)state;
    yz_game game;
    yz_rules_error err;
    const char *const names[] = {"Ann", "Bob"};
    assert_int_equal(yz_game_init(&game, yz_rules_profile_find("yahtzee"), names, 2, &err), YZ_OK);
    yz_roll roll = {{1, 3, 3, 4, 6}};
    static const int left[] = {3, 2, 1, 0}, left_after_next[] = {2, 1, 0, 0};
    for (int throws = 0; throws <= 3; throws++) {
        if (throws) assert_int_equal(yz_game_throw(&game, &roll, &err), YZ_OK);
        assert_int_equal(yz_game_throws_left(&game, 0), left[throws]);
        assert_int_equal(yz_game_throws_left(&game, 1), left_after_next[throws]);
    }
    assert_int_not_equal(yz_game_throw(&game, &roll, &err), YZ_OK); /* no fourth */
    yz_option scored;
    assert_int_equal(yz_game_score(&game, YZ_BOX_THREES, &scored, &err), YZ_OK);
    assert_int_equal(yz_game_throws_left(&game, 0), 3); /* Bob's turn */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_roll_in_every_box_matches_the_oracle),
        cmocka_unit_test(rulebook_examples_score_as_printed),
        cmocka_unit_test(extra_yahtzee_rules_of_every_profile),
        cmocka_unit_test(scoring_fills_the_box_and_refuses_illegal_boxes),
        cmocka_unit_test(totals_add_the_upper_bonus_at_63_and_extra_yahtzees),
        cmocka_unit_test(card_values_are_checked_against_what_a_roll_can_score),
        cmocka_unit_test(rolls_parse_five_dice_or_name_the_problem),
        cmocka_unit_test(standings_use_each_profiles_tiebreak),
        cmocka_unit_test(profiles_are_found_by_name_and_boxes_by_alias),
        cmocka_unit_test(box_names_are_accepted_as_printed_with_a_suggestion_on_a_typo),
        cmocka_unit_test(a_turn_has_three_throws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
