/* test_advisor.c - the optimal advisor: published optima, a brute-force turn solver written
 * plainly here, well-known positions, the table format, allocation failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules.h"
#include "rules_testing.h"
#include "test_cards.h"

static yz_strategy *build(const char *profile_name, int no_extra_rules)
{
    yz_strategy_options options = {0};
    options.n_threads = 2;
    options.no_extra_rules = no_extra_rules;
    yz_strategy *strategy = NULL;
    yz_rules_error err;
    if (yz_strategy_build(yz_rules_profile_find(profile_name), &options, &strategy, &err) != YZ_OK)
        fail_msg("%s", err.message);
    return strategy;
}

/* ---- published optima ---------------------------------------------------------------------- */

static void optimal_scores_match_the_published_optima(void **state)
{
    (void)state;
    static const struct {
        const char *profile;
        int no_extra_rules;
        double expected;
        const char *source;
    } cases[] = {
        {"yahtzee", 0, 254.5896, "Verhoeff's optimal solitaire Yahtzee; Glenn 254.59"},
        {"hasbro", 0, 254.5877, "forced joker"},
        {"yahtzee", 1, 245.8708, "Glenn: no Yahtzee bonus, no joker"},
        {"yatzy-scandinavian", 0, 248.4400, "three public solvers agree"},
        {"yatzy", 0, 295.2530, "the issue's independent computation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_strategy *strategy = build(cases[i].profile, cases[i].no_extra_rules);
        yz_card empty;
        yz_rules_card_init(&empty);
        double got = yz_strategy_expected_total(strategy, &empty);
        yz_strategy_free(strategy);
        if (got < cases[i].expected - 0.00005 || got > cases[i].expected + 0.00005)
            fail_msg("%s%s: %.6f, expected %.4f (%s)", cases[i].profile,
                     cases[i].no_extra_rules ? " without extra rules" : "", got, cases[i].expected,
                     cases[i].source);
    }
}

/* ---- brute force --------------------------------------------------------------------------- */

/* The last turns of a game by plain enumeration: every ordered outcome of every re-roll of
 * every subset of dice positions. Memoized per sorted roll only to keep it quick. */
typedef struct {
    const yz_profile *profile;
    double memo[3][16807];
    int known[3][16807];
    yz_card card;
} brute;

static double brute_game(const yz_profile *profile, const yz_card *card);

/* The games that follow a first turn, by their card: a handful, each solved once. */
static struct {
    yz_card card;
    double value;
} solved_games[256];
static int n_solved_games;

static int sorted_code(const int dice[5])
{
    int sorted[5];
    memcpy(sorted, dice, sizeof sorted);
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    int code = 0;
    for (int i = 0; i < 5; i++)
        code = code * 7 + sorted[i]; /* 0 = no die */
    return code;
}

/* Best final value of scoring dice now: points + bonuses + the rest of the game. */
static double brute_score_now(brute *b, const int dice[5])
{
    yz_roll roll;
    for (int i = 0; i < 5; i++)
        roll.dice[i] = (uint8_t)dice[i];
    yz_option options[YZ_BOX_COUNT];
    int n = yz_rules_options(b->profile, &b->card, &roll, options);
    yz_totals before;
    yz_rules_totals(b->profile, &b->card, &before);
    double best = -1;
    for (int i = 0; i < n; i++) {
        yz_card after = b->card;
        yz_rules_error err;
        assert_int_equal(yz_rules_score(b->profile, &after, &roll, options[i].box, NULL, &err),
                         YZ_OK);
        yz_totals totals;
        yz_rules_totals(b->profile, &after, &totals);
        double value = totals.total - before.total + brute_game(b->profile, &after);
        if (value > best) best = value;
    }
    return best;
}

static double brute_turn(brute *b, const int dice[5], int throws_left)
{
    int code = sorted_code(dice);
    if (b->known[throws_left][code]) return b->memo[throws_left][code];
    double best = brute_score_now(b, dice);
    if (throws_left > 0) {
        int tried[32], n_tried = 0;
        for (int reroll = 1; reroll < 32; reroll++) { /* bit i set: re-throw die i */
            /* Keeping the same values from other positions is the same choice: skip it. */
            int kept[5];
            for (int i = 0; i < 5; i++)
                kept[i] = reroll >> i & 1 ? 0 : dice[i];
            int kept_code = sorted_code(kept), seen = 0;
            for (int i = 0; i < n_tried; i++)
                seen |= tried[i] == kept_code;
            if (seen) continue;
            tried[n_tried++] = kept_code;
            int n_rerolled = __builtin_popcount((unsigned)reroll), n_outcomes = 1;
            for (int i = 0; i < n_rerolled; i++)
                n_outcomes *= 6;
            double sum = 0;
            for (int outcome = 0; outcome < n_outcomes; outcome++) {
                int next[5], o = outcome;
                for (int i = 0; i < 5; i++) {
                    next[i] = dice[i];
                    if (reroll >> i & 1) {
                        next[i] = o % 6 + 1;
                        o /= 6;
                    }
                }
                sum += brute_turn(b, next, throws_left - 1);
            }
            if (sum / n_outcomes > best) best = sum / n_outcomes;
        }
    }
    b->known[throws_left][code] = 1;
    b->memo[throws_left][code] = best;
    return best;
}

/* Expected points still to come from this card under optimal play. */
static double brute_game(const yz_profile *profile, const yz_card *card)
{
    if (yz_rules_card_is_full(profile, card)) return 0;
    for (int i = 0; i < n_solved_games; i++)
        if (memcmp(&solved_games[i].card, card, sizeof *card) == 0) return solved_games[i].value;
    brute *b = calloc(1, sizeof *b);
    b->profile = profile;
    b->card = *card;
    double sum = 0;
    for (int code = 0; code < 7776; code++) {
        int dice[5];
        for (int i = 0, c = code; i < 5; i++, c /= 6)
            dice[i] = c % 6 + 1;
        sum += brute_turn(b, dice, 2);
    }
    free(b);
    if (n_solved_games < 256) {
        solved_games[n_solved_games].card = *card;
        solved_games[n_solved_games++].value = sum / 7776;
    }
    return sum / 7776;
}

#define FILLED_EXCEPT_CHANCE_SIXES                                                                 \
    "aces=3 twos=6 threes=9 fours=12 fives=15 three_kind=20 four_kind=0 full_house=25 "            \
    "small_straight=30 large_straight=0 yahtzee=0"

/* Cards with one or two open boxes, chosen so that few distinct games follow the first turn
 * (the brute force solves each of them from scratch). */
static void turn_solver_matches_brute_force_on_short_games(void **state)
{
    (void)state;
    static const struct {
        const char *profile, *card;
    } cases[] = {
        {"yahtzee", FILLED_EXCEPT_CHANCE_SIXES " sixes=18"},
        /* Sixes and Yahtzee open, 18 needed in Sixes for the upper bonus. */
        {"yahtzee", "aces=3 twos=6 threes=9 fours=12 fives=15 three_kind=20 four_kind=0 "
                    "full_house=25 small_straight=30 large_straight=0 chance=20"},
        /* Forced joker and bonus: Fours and Large Straight open, 50 in the Yahtzee box. */
        {"hasbro", "aces=3 twos=6 threes=9 fives=15 sixes=18 three_kind=20 four_kind=0 "
                   "full_house=25 small_straight=30 yahtzee=50 chance=20"},
        /* TLG: an extra Yardzee must take Fours; then only a lower box is left. */
        {"yardzee", "aces=3 twos=6 threes=9 fives=15 sixes=18 three_kind=20 four_kind=0 "
                    "full_house=25 large_straight=40 yahtzee=50 chance=20"},
        /* Belknap after a scratched Yahtzee: Fours open, Full House open. */
        {"belknap", "aces=3 twos=6 threes=9 fives=15 sixes=18 three_kind=20 four_kind=0 "
                    "small_straight=30 large_straight=40 yahtzee=0 chance=20"},
        {"yatzy", "aces=3 twos=6 threes=9 fours=12 fives=15 sixes=18 one_pair=8 two_pairs=14 "
                  "three_kind=9 four_kind=16 small_straight=30 large_straight=40 full_house=25 "
                  "chance=20"},
        {"yatzy-scandinavian",
         "aces=3 twos=6 threes=9 fours=12 fives=15 sixes=12 one_pair=8 "
         "two_pairs=14 three_kind=9 four_kind=12 full_house=17 large_straight=20 "
         "chance=20 yahtzee=0"},
    };
    const char *built = NULL;
    yz_strategy *strategy = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const yz_profile *profile = yz_rules_profile_find(cases[i].profile);
        if (!built || strcmp(built, cases[i].profile) != 0) {
            yz_strategy_free(strategy);
            strategy = build(cases[i].profile, 0);
            built = cases[i].profile;
        }
        yz_card card = card_of(cases[i].card);
        yz_totals totals;
        yz_rules_totals(profile, &card, &totals);
        n_solved_games = 0;
        double expected = totals.total + brute_game(profile, &card);
        double got = yz_strategy_expected_total(strategy, &card);
        if (got < expected - 1e-9 || got > expected + 1e-9)
            fail_msg("%s {%s}: solver %.9f, brute force %.9f", cases[i].profile, cases[i].card, got,
                     expected);
    }
    yz_strategy_free(strategy);
}

/* ---- well-known positions ------------------------------------------------------------------ */

static int build_yahtzee(void **state)
{
    *state = build("yahtzee", 0);
    return 0;
}

static int free_strategy(void **state)
{
    yz_strategy_free(*state);
    return 0;
}

static void well_known_positions_get_the_known_best_move(void **state)
{
    const yz_strategy *yahtzee = *state;
    static const struct {
        const char *card, *roll;
        int throws_left;
        const char *best;
        const char *why;
    } cases[] = {
        {"", "6,6,6,6,6", 2, "keep 6 6 6 6 6", "never re-roll a Yahtzee"},
        {"", "6,6,6,6,6", 0, "yahtzee", "a first Yahtzee goes in the Yahtzee box"},
        {"", "1,2,3,4,5", 0, "large_straight", "a large straight scores 40"},
        {"", "2,3,4,5,1", 2, "keep 1 2 3 4 5", "keep a large straight"},
        {"", "5,2,5,6,5", 0, "fives", "three fives early go to Fives, not 3 of a Kind"},
        {FILLED_EXCEPT_CHANCE_SIXES " sixes=18", "1,2,4,5,6", 2, "keep 5 6",
         "Chance alone: keep 5s and 6s with two throws"},
        {FILLED_EXCEPT_CHANCE_SIXES " sixes=18", "1,2,4,5,6", 1, "keep 4 5 6",
         "Chance alone: keep 4s and up with one throw"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_card card = card_of(cases[i].card);
        yz_roll roll = roll_of(cases[i].roll);
        char got[64] = "";
        if (cases[i].throws_left) {
            yz_keep_advice advice[1];
            assert_int_equal(
                yz_advise_keeps(yahtzee, &card, &roll, cases[i].throws_left, advice, 1), 1);
            int at = snprintf(got, sizeof got, "keep");
            for (int d = 0; d < advice[0].n_keep; d++)
                at += snprintf(got + at, sizeof got - (size_t)at, " %d", advice[0].keep[d]);
        } else {
            yz_box_advice advice[1];
            assert_int_equal(yz_advise_boxes(yahtzee, &card, &roll, advice, 1), 1);
            snprintf(got, sizeof got, "%s", yz_rules_box_name(advice[0].option.box));
        }
        if (strcmp(got, cases[i].best) != 0)
            fail_msg("%s: advised '%s', expected '%s'", cases[i].why, got, cases[i].best);
    }
}

/* The turn decision: a keep while a throw is left and keeping everything is not best, else a
 * box; pinned on positions whose right move any player knows. */
static void the_turn_decision_keeps_or_scores(void **state)
{
    const yz_strategy *yahtzee = *state;
    static const struct {
        const char *card, *roll;
        int throws_left;
        const char *decision;
    } cases[] = {
        {"", "6,6,6,6,6", 2, "score yahtzee"}, /* never re-roll a Yahtzee */
        {"", "6,6,6,6,6", 0, "score yahtzee"},
        {"", "2,3,4,5,1", 1, "score large_straight"}, /* a made large straight is kept whole */
        {"", "1,3,3,4,6", 2, "keep 3 3"},             /* README's example */
        {"", "1,3,3,4,6", 0, "score threes"},
        {FILLED_EXCEPT_CHANCE_SIXES " sixes=18", "1,2,4,5,6", 1, "keep 4 5 6"},
        {FILLED_EXCEPT_CHANCE_SIXES " sixes=18", "1,2,4,5,6", 0, "score chance"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_card card = card_of(cases[i].card);
        yz_roll roll = roll_of(cases[i].roll);
        yz_turn_advice advice;
        assert_int_equal(yz_advise_turn(yahtzee, &card, &roll, cases[i].throws_left, &advice), 1);
        assert_int_equal(advice.throws_left, cases[i].throws_left);
        char got[64];
        int at = snprintf(got, sizeof got, "%s", advice.keeping ? "keep" : "score");
        if (advice.keeping)
            for (int d = 0; d < advice.keep.n_keep; d++)
                at += snprintf(got + at, sizeof got - (size_t)at, " %d", advice.keep.keep[d]);
        else
            snprintf(got + at, sizeof got - (size_t)at, " %s",
                     yz_rules_box_name(advice.box.option.box));
        if (strcmp(got, cases[i].decision) != 0)
            fail_msg("%s with %d left: advised '%s', expected '%s'", cases[i].roll,
                     cases[i].throws_left, got, cases[i].decision);
    }
    /* Throwing again is never advised when it is expected to do worse than scoring now. */
    yz_card empty;
    yz_rules_card_init(&empty);
    for (int code = 0; code < 7776; code += 7) {
        yz_roll roll;
        for (int i = 0, c = code; i < 5; i++, c /= 6)
            roll.dice[i] = (uint8_t)(c % 6 + 1);
        yz_turn_advice advice, stop;
        assert_int_equal(yz_advise_turn(yahtzee, &empty, &roll, 1, &advice), 1);
        assert_int_equal(yz_advise_turn(yahtzee, &empty, &roll, 0, &stop), 1);
        assert_false(stop.keeping);
        if (advice.keeping) {
            assert_true(advice.keep.n_keep < 5);
            assert_true(advice.keep.expected >= stop.box.expected - 1e-9);
        } else {
            assert_int_equal(advice.box.option.box, stop.box.option.box);
        }
    }
    /* A full card: nothing to advise. */
    yz_card full = card_of("aces=1 twos=2 threes=3 fours=4 fives=5 sixes=6 three_kind=0 "
                           "four_kind=0 full_house=0 small_straight=0 large_straight=0 yahtzee=0 "
                           "chance=5");
    yz_roll roll = roll_of("1,2,3,4,5");
    yz_turn_advice advice;
    assert_int_equal(yz_advise_turn(yahtzee, &full, &roll, 2, &advice), 0);
    assert_int_equal(yz_advise_turn(yahtzee, &full, &roll, 0, &advice), 0);
}

/* The best keep's expectation with two throws left is the turn's expected value. */
static void advice_is_consistent_with_the_table(void **state)
{
    const yz_strategy *strategy = *state;
    yz_card empty;
    yz_rules_card_init(&empty);
    double mean = 0;
    for (int code = 0; code < 7776; code++) {
        yz_roll roll;
        for (int i = 0, c = code; i < 5; i++, c /= 6)
            roll.dice[i] = (uint8_t)(c % 6 + 1);
        yz_keep_advice best[1];
        yz_advise_keeps(strategy, &empty, &roll, 2, best, 1);
        mean += best[0].expected / 7776;
    }
    assert_float_equal(mean, yz_strategy_expected_total(strategy, &empty), 1e-9);
}

/* ---- the table format ----------------------------------------------------------------------- */

static void count_release(void *ctx)
{
    ++*(int *)ctx;
}

static void tables_round_trip_and_damage_is_detected(void **state)
{
    const yz_strategy *strategy = *state;
    const yz_profile *yahtzee = yz_rules_profile_find("yahtzee");
    uint8_t *bytes;
    size_t len;
    yz_rules_error err;
    assert_int_equal(yz_strategy_serialize(strategy, &bytes, &len, &err), YZ_OK);
    yz_strategy *loaded;
    assert_int_equal(yz_strategy_deserialize(yahtzee, bytes, len, &loaded, &err), YZ_OK);
    yz_card empty;
    yz_rules_card_init(&empty);
    assert_float_equal(yz_strategy_expected_total(loaded, &empty),
                       yz_strategy_expected_total(strategy, &empty), 0);
    yz_strategy_free(loaded);

    /* Read in place: the same values, and the buffer handed back once, at free. */
    int releases = 0;
    assert_int_equal(yz_strategy_deserialize_borrowed(yahtzee, bytes, len, count_release, &releases,
                                                      &loaded, &err),
                     YZ_OK);
    assert_float_equal(yz_strategy_expected_total(loaded, &empty),
                       yz_strategy_expected_total(strategy, &empty), 0);
    assert_int_equal(releases, 0);
    yz_strategy_free(loaded);
    assert_int_equal(releases, 1);
    releases = 0;
    assert_int_equal(
        yz_strategy_deserialize_borrowed(yahtzee, bytes + 1, len - 1, NULL, NULL, &loaded, &err),
        YZ_ERR_USAGE); /* values not 8-byte aligned */

    static const struct {
        size_t offset; /* byte to flip, or SIZE_MAX to truncate */
        const char *profile, *why;
    } cases[] = {
        {SIZE_MAX, "yahtzee", "not a strategy table"},
        {0, "yahtzee", "not a strategy table"},
        {8, "yahtzee", "another version"},
        {5000, "yahtzee", "checksum mismatch"},
        {SIZE_MAX - 1, "yahtzee", "checksum mismatch"}, /* the middle of the values */
        {SIZE_MAX - 2, "yahtzee", "checksum mismatch"}, /* the last value's last byte */
        {SIZE_MAX - 3, "yahtzee", "checksum mismatch"}, /* the checksum itself */
        {48, "yahtzee", "other rules"},
        {0, "hasbro", "other rules"},
    };
    /* Both readers, the copying one and the one reading in place (borrowed), refuse each. */
    for (size_t i = 0; i < 2 * (sizeof cases / sizeof cases[0]); i++) {
        size_t c = i / 2;
        int borrow = i % 2;
        uint8_t *copy = malloc(len);
        memcpy(copy, bytes, len);
        size_t copy_len = len, offset = cases[c].offset;
        if (offset == SIZE_MAX - 1) offset = len / 2;
        if (offset == SIZE_MAX - 2) offset = len - 9;
        if (offset == SIZE_MAX - 3) offset = len - 1;
        if (offset == SIZE_MAX)
            copy_len = len / 2;
        else if (strcmp(cases[c].profile, "yahtzee") == 0)
            copy[offset] ^= 0x40;
        loaded = NULL;
        const yz_profile *profile = yz_rules_profile_find(cases[c].profile);
        yz_status status =
            borrow ? yz_strategy_deserialize_borrowed(profile, copy, copy_len, count_release,
                                                      &releases, &loaded, &err)
                   : yz_strategy_deserialize(profile, copy, copy_len, &loaded, &err);
        assert_int_equal(status, YZ_ERR_FORMAT);
        assert_null(loaded);
        assert_int_equal(releases, 0);
        if (!strstr(err.message, cases[c].why))
            fail_msg("case %zu (%s): '%s' lacks '%s'", c, borrow ? "borrowed" : "copied",
                     err.message, cases[c].why);
        free(copy);
    }
    free(bytes);
}

static void a_failed_allocation_is_a_clean_error(void **state)
{
    (void)state;
    const yz_profile *yahtzee = yz_rules_profile_find("yahtzee");
    for (long nth = 1; nth <= 10; nth++) {
        yz_rules_testing_fail_allocation(nth);
        yz_strategy *strategy = NULL;
        yz_rules_error err;
        yz_strategy_options options = {0};
        yz_status status = yz_strategy_build(yahtzee, &options, &strategy, &err);
        yz_rules_testing_fail_allocation(0);
        if (status == YZ_OK) {
            yz_strategy_free(strategy); /* past the last allocation: done */
            return;
        }
        assert_int_equal(status, YZ_ERR_NOMEM);
        assert_null(strategy);
        assert_non_null(strstr(err.message, "out of memory"));
    }
    fail_msg("yz_strategy_build makes more allocations than this test expects");
}

/* Two groups: "quick" runs under the sanitizers too; "slow" solves every profile and runs the
 * brute force, pure arithmetic that the sanitizers would only slow down (tools/test.sh). */
int main(int argc, char **argv)
{
    const struct CMUnitTest quick[] = {
        cmocka_unit_test_setup_teardown(well_known_positions_get_the_known_best_move, build_yahtzee,
                                        free_strategy),
        cmocka_unit_test_setup_teardown(advice_is_consistent_with_the_table, build_yahtzee,
                                        free_strategy),
        cmocka_unit_test_setup_teardown(the_turn_decision_keeps_or_scores, build_yahtzee,
                                        free_strategy),
        cmocka_unit_test_setup_teardown(tables_round_trip_and_damage_is_detected, build_yahtzee,
                                        free_strategy),
        cmocka_unit_test(a_failed_allocation_is_a_clean_error),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(optimal_scores_match_the_published_optima),
        cmocka_unit_test(turn_solver_matches_brute_force_on_short_games),
    };
    if (argc == 2 && strcmp(argv[1], "slow") == 0) return cmocka_run_group_tests(slow, NULL, NULL);
    if (argc == 2 && strcmp(argv[1], "quick") == 0)
        return cmocka_run_group_tests(quick, NULL, NULL);
    fprintf(stderr, "usage: test_advisor quick|slow\n");
    return 2;
}
