/* test_review.c - the game review: hand-checked positions against the advisor's table read
 * plainly here, optimal games, random games whose reviews must add up to their scores.
 *
 * The tables come from $YARDZEE_CACHE (else the build's cache folder) when they are there, and
 * are built and stored there when they are not, so only the first run solves the profiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "rules.h"
#include "test_cards.h"

#ifndef YZ_TEST_CACHE
#define YZ_TEST_CACHE "cache"
#endif

/* The table from the cache, solved and stored there when missing, as the command line does. */
static yz_strategy *strategy_for(const yz_profile *profile)
{
    yz_strategy *strategy = yz_cli_strategy(profile);
    if (!strategy) fail_msg("no table for %s", profile->name);
    return strategy;
}

/* cmocka's assert_float_equal compares floats; these are doubles. */
#define assert_near(a, b, epsilon)                                                                 \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(a_ >= b_ - (epsilon) && a_ <= b_ + (epsilon)))                                       \
            fail_msg("%s = %.12f, %s = %.12f", #a, a_, #b, b_);                                    \
    } while (0)

static yz_box box_of(const yz_profile *profile, const char *name)
{
    yz_box box;
    yz_rules_error err;
    if (yz_rules_box_parse(profile, name, &box, &err) != YZ_OK) fail_msg("%s", err.message);
    return box;
}

/* "1,2,3,4,5 keep 5 | 5,5,5,6,6 keep 5,5,5 | 5,5,5,5,5 score chance"; "keep -" keeps nothing,
 * a turn without "score" is still being played. */
static yz_review_turn turn_of(const yz_profile *profile, const char *spec)
{
    yz_review_turn turn;
    memset(&turn, 0, sizeof turn);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *part = strtok(copy, " |"); part; part = strtok(NULL, " |")) {
        if (strcmp(part, "keep") == 0) {
            char *dice = strtok(NULL, " |");
            int k = turn.n_keeps++;
            if (k >= YZ_MAX_THROWS - 1 && dice[0] != '-') fail_msg("too many keeps: %s", spec);
            for (char *c = dice; *c && *c != '-'; c++)
                if (*c != ',') turn.keeps[k][turn.n_kept[k]++] = (uint8_t)(*c - '0');
        } else if (strcmp(part, "score") == 0) {
            turn.scored = 1;
            turn.box = box_of(profile, strtok(NULL, " |"));
        } else {
            turn.throws[turn.n_throws++] = roll_of(part);
        }
    }
    return turn;
}

static void review(const yz_strategy *strategy, const yz_review_turn *turns, int n_turns,
                   yz_review *out)
{
    yz_rules_error err;
    if (yz_review_player(strategy, turns, n_turns, out, &err) != YZ_OK) fail_msg("%s", err.message);
}

/* ---- hand-checked positions -------------------------------------------------------------- */

/* A Yahtzee written in Chance while the Yahtzee box is open gives up exactly what the table
 * says separates the two cards; the size is the plain difference of their expectations. */
static void a_yahtzee_in_chance_is_a_blunder_of_the_tables_size(void **state)
{
    (void)state;
    static const struct {
        const char *profile;
        const char *turns[3];               /* the last one scores the Yahtzee in Chance */
        const char *in_yahtzee, *in_chance; /* the card after it, either way */
    } cases[] = {
        {"yahtzee",
         {"1,2,3,4,5 keep 5 | 5,5,5,6,6 keep 5,5,5 | 5,5,5,5,5 score chance"},
         "yahtzee=50",
         "chance=25"},
        {"yahtzee",
         {"1,1,1,2,3 score aces", "5,5,5,5,5 score chance"},
         "aces=3 yahtzee=50",
         "aces=3 chance=25"},
        {"hasbro",
         {"6,6,6,6,2 score sixes", "4,4,1,1,2 keep 4,4 | 4,4,4,4,4 score chance"},
         "sixes=24 yahtzee=50",
         "sixes=24 chance=20"},
        {"yatzy", {"3,3,3,3,3 score chance"}, "yahtzee=50", "chance=15"},
        {"yatzy-scandinavian",
         {"2,2,2,2,2 keep 2,2,2,2,2 | 2,2,2,2,2 score chance"},
         "yahtzee=50",
         "chance=10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const yz_profile *profile = yz_rules_profile_find(cases[i].profile);
        yz_strategy *strategy = strategy_for(profile);
        yz_review_turn turns[3];
        int n_turns = 0;
        while (n_turns < 3 && cases[i].turns[n_turns]) {
            turns[n_turns] = turn_of(profile, cases[i].turns[n_turns]);
            n_turns++;
        }
        yz_review got;
        review(strategy, turns, n_turns, &got);
        yz_card in_yahtzee = card_of(cases[i].in_yahtzee), in_chance = card_of(cases[i].in_chance);
        double size = yz_strategy_expected_total(strategy, &in_yahtzee) -
                      yz_strategy_expected_total(strategy, &in_chance);
        const yz_review_decision *last = &got.decisions[got.n_decisions - 1];
        if (!last->chosen.is_box || last->chosen.box != YZ_BOX_CHANCE || !last->best.is_box ||
            last->best.box != YZ_BOX_YAHTZEE || last->verdict != YZ_REVIEW_BLUNDER ||
            last->given_up < size - 1e-9 || last->given_up > size + 1e-9 || size < 10)
            fail_msg("case %zu (%s): gave up %.6f (%s), best %s; the table says %.6f", i,
                     cases[i].profile, last->given_up, yz_review_class_name(last->verdict),
                     last->best.is_box ? yz_rules_box_name(last->best.box) : "a keep", size);
        assert_int_equal(got.worst[0], got.n_decisions - 1);
        yz_strategy_free(strategy);
    }
}

/* ---- games ----------------------------------------------------------------------------- */

static uint64_t next_random(uint64_t *seed)
{
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    return *seed;
}

static uint8_t random_die(uint64_t *seed)
{
    return (uint8_t)(1 + next_random(seed) % 6);
}

/* The kept dice plus new ones for the rest. */
static yz_roll throw_with(const uint8_t *kept, int n_kept, uint64_t *seed)
{
    yz_roll roll;
    for (int i = 0; i < YZ_N_DICE; i++)
        roll.dice[i] = i < n_kept ? kept[i] : random_die(seed);
    return roll;
}

typedef enum { PLAY_OPTIMAL, PLAY_RANDOM } play_style;

/* Plays a whole solitaire game (or its first n_rounds turns, the last left at a keep when
 * stop_at_keep) and returns the turns and the card's total. */
static int play(const yz_strategy *strategy, play_style style, uint64_t seed, int n_rounds,
                int stop_at_keep, yz_review_turn *turns)
{
    const yz_profile *profile = yz_strategy_profile(strategy);
    yz_card card;
    yz_rules_card_init(&card);
    for (int r = 0; r < n_rounds; r++) {
        yz_review_turn *turn = &turns[r];
        memset(turn, 0, sizeof *turn);
        uint8_t kept[YZ_N_DICE];
        int n_kept = 0;
        for (;;) {
            yz_roll roll = throw_with(kept, n_kept, &seed);
            turn->throws[turn->n_throws++] = roll;
            int throws_left = YZ_MAX_THROWS - turn->n_throws;
            int stand = 0;
            if (style == PLAY_OPTIMAL && throws_left > 0) {
                yz_keep_advice best;
                yz_advise_keeps(strategy, &card, &roll, throws_left, &best, 1);
                stand = best.n_keep == YZ_N_DICE;
                n_kept = best.n_keep;
                memcpy(kept, best.keep, YZ_N_DICE);
            } else if (throws_left > 0) {
                stand = next_random(&seed) % 5 == 0;
                n_kept = 0;
                for (int i = 0; i < YZ_N_DICE; i++)
                    if (next_random(&seed) % 2) kept[n_kept++] = roll.dice[i];
            }
            if (throws_left == 0 || stand) break;
            int k = turn->n_keeps++;
            memcpy(turn->keeps[k], kept, (size_t)n_kept);
            turn->n_kept[k] = n_kept;
            if (stop_at_keep && r == n_rounds - 1) return -1;
        }
        yz_roll *last = &turn->throws[turn->n_throws - 1];
        if (style == PLAY_OPTIMAL) {
            yz_box_advice best;
            yz_advise_boxes(strategy, &card, last, &best, 1);
            turn->box = best.option.box;
        } else {
            yz_option options[YZ_BOX_COUNT];
            int n_options = yz_rules_options(profile, &card, last, options);
            turn->box = options[next_random(&seed) % (uint64_t)n_options].box;
        }
        turn->scored = 1;
        yz_option scored;
        yz_rules_error err;
        if (yz_rules_score(profile, &card, last, turn->box, &scored, &err) != YZ_OK)
            fail_msg("%s", err.message);
    }
    yz_totals totals;
    yz_rules_totals(profile, &card, &totals);
    return totals.total;
}

/* Each move the advisor's first choice: nothing is given up, every decision is fine. */
static void an_optimal_game_reviews_to_nothing_given_up(void **state)
{
    (void)state;
    static const struct {
        const char *profile;
        uint64_t seed;
    } cases[] = {{"yahtzee", 1}, {"yahtzee", 2}, {"hasbro", 3}, {"yatzy", 4}, {"belknap", 5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const yz_profile *profile = yz_rules_profile_find(cases[i].profile);
        yz_strategy *strategy = strategy_for(profile);
        yz_review_turn turns[YZ_BOX_COUNT];
        int score = play(strategy, PLAY_OPTIMAL, cases[i].seed, profile->n_boxes, 0, turns);
        yz_review got;
        review(strategy, turns, profile->n_boxes, &got);
        assert_true(got.complete);
        assert_int_equal(got.score, score);
        assert_true(got.given_up == 0.0);
        assert_int_equal(got.counts[YZ_REVIEW_FINE], got.n_decisions);
        assert_int_equal(got.n_worst, 0);
        for (int d = 0; d < got.n_decisions; d++)
            assert_true(got.decisions[d].given_up == 0.0);
        yz_strategy_free(strategy);
    }
}

/* optimum - given up + luck is the final score, for random play under every profile; every
 * throw answered is one decision, and the totals are the sums of the decisions. */
static void random_games_add_up_to_their_scores_for_every_profile(void **state)
{
    (void)state;
    for (size_t p = 0; p < yz_rules_profile_count(); p++) {
        const yz_profile *profile = yz_rules_profile_at(p);
        yz_strategy *strategy = strategy_for(profile);
        for (uint64_t seed = 100; seed < 104; seed++) {
            yz_review_turn turns[YZ_BOX_COUNT];
            int score = play(strategy, PLAY_RANDOM, seed * 7919 + p, profile->n_boxes, 0, turns);
            yz_review got;
            review(strategy, turns, profile->n_boxes, &got);
            double rebuilt = got.optimum - got.given_up + got.luck;
            if (rebuilt < score - 1e-6 || rebuilt > score + 1e-6 || got.score != score)
                fail_msg("%s seed %llu: %.9f - %.9f + %.9f = %.9f, scored %d", profile->name,
                         (unsigned long long)seed, got.optimum, got.given_up, got.luck, rebuilt,
                         score);
            int n_throws = 0, n_counted = 0;
            double given_up = 0, luck = 0;
            for (int r = 0; r < profile->n_boxes; r++)
                n_throws += turns[r].n_throws;
            for (int c = 0; c < YZ_REVIEW_N_CLASSES; c++)
                n_counted += got.counts[c];
            for (int d = 0; d < got.n_decisions; d++) {
                const yz_review_decision *decision = &got.decisions[d];
                assert_true(decision->given_up >= 0);
                assert_near(decision->given_up, decision->best.expected - decision->chosen.expected,
                            1e-9);
                assert_near(decision->luck, decision->best.expected - decision->before, 1e-12);
                given_up += decision->given_up;
                luck += decision->luck;
            }
            assert_int_equal(got.n_decisions, n_throws);
            assert_int_equal(n_counted, n_throws);
            assert_near(given_up, got.given_up, 1e-9);
            assert_near(luck, got.luck, 1e-9);
            assert_true(got.given_up > 10); /* random play loses plenty */
            assert_int_equal(got.n_worst, 3);
            assert_true(got.decisions[got.worst[0]].given_up >=
                        got.decisions[got.worst[1]].given_up);
            assert_true(got.decisions[got.worst[1]].given_up >=
                        got.decisions[got.worst[2]].given_up);
            for (int d = 0; d < got.n_decisions; d++)
                if (d != got.worst[0] && d != got.worst[1] && d != got.worst[2])
                    assert_true(got.decisions[d].given_up <= got.decisions[got.worst[2]].given_up);
        }
        yz_strategy_free(strategy);
    }
}

/* A game still being played: the turns so far add up to the expectation of the last answer,
 * which is the table's value of the dice kept. */
static void a_game_in_progress_adds_up_to_its_expectation(void **state)
{
    const yz_strategy *strategy = *state;
    for (uint64_t seed = 1; seed < 6; seed++) {
        yz_review_turn turns[YZ_BOX_COUNT];
        int n_rounds = (int)(seed + 2);
        play(strategy, PLAY_RANDOM, seed * 31, n_rounds, 1, turns);
        yz_review got;
        review(strategy, turns, n_rounds, &got);
        assert_false(got.complete);
        const yz_review_decision *last = &got.decisions[got.n_decisions - 1];
        assert_false(last->chosen.is_box);
        assert_near(got.expected, last->chosen.expected, 0);
        assert_near(got.optimum - got.given_up + got.luck, got.expected, 1e-6);
    }
}

/* The dice decide the luck; the answer chosen does not change it. */
static void luck_does_not_depend_on_the_answer(void **state)
{
    const yz_strategy *strategy = *state;
    const yz_profile *profile = yz_strategy_profile(strategy);
    static const char *const answers[] = {
        "2,3,4,5,6 keep 2,3,4,5,6 | 2,3,4,5,6 score large_straight",
        "2,3,4,5,6 keep 6 | 6,6,1,1,2 score sixes",
        "2,3,4,5,6 score chance",
        "2,3,4,5,6 keep - | 1,1,1,1,1 score aces",
    };
    double first_luck = 0;
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        yz_review_turn turn = turn_of(profile, answers[i]);
        yz_review got;
        review(strategy, &turn, 1, &got);
        if (i == 0) first_luck = got.decisions[0].luck;
        assert_near(got.decisions[0].luck, first_luck, 1e-9);
    }
}

/* The chosen answer and the best, as the review names them. */
static void decisions_name_the_answer_and_the_best(void **state)
{
    const yz_strategy *strategy = *state;
    const yz_profile *profile = yz_strategy_profile(strategy);
    static const struct {
        const char *turn;
        int decision;
        int chosen_box, best_box; /* -1: a keep */
        const char *best_keep;    /* when the best is a keep */
        int throws_left;
    } cases[] = {
        /* A large straight on the first throw: score it, whatever is kept instead. */
        {"2,3,4,5,6 keep 6 | 6,6,1,1,2 score sixes", 0, -1, YZ_BOX_LARGE_STRAIGHT, NULL, 2},
        /* Standing pat with every die is scoring the straight later: the same, fine. */
        {"2,3,4,5,6 keep 2,3,4,5,6 | 2,3,4,5,6 score large_straight", 0, -1, -1, "23456", 2},
        /* 1 3 3 4 6 on an empty card: keep the threes (the house's README example). */
        {"1,3,3,4,6 keep - | 1,1,2,5,6 score chance", 0, -1, -1, "33", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_review_turn turn = turn_of(profile, cases[i].turn);
        yz_review got;
        review(strategy, &turn, 1, &got);
        const yz_review_decision *d = &got.decisions[cases[i].decision];
        assert_int_equal(d->throws_left, cases[i].throws_left);
        assert_int_equal(d->chosen.is_box, cases[i].chosen_box >= 0);
        assert_int_equal(d->best.is_box, cases[i].best_box >= 0);
        if (cases[i].best_box >= 0) assert_int_equal(d->best.box, cases[i].best_box);
        if (cases[i].best_keep) {
            char keep[8] = "";
            for (int k = 0; k < d->best.n_keep; k++)
                keep[k] = (char)('0' + d->best.keep[k]);
            assert_string_equal(keep, cases[i].best_keep);
        }
    }
}

/* Turns the rules do not allow are refused with the round and throw at fault. */
static void illegal_turns_are_refused_naming_the_round_and_throw(void **state)
{
    const yz_strategy *strategy = *state;
    const yz_profile *profile = yz_strategy_profile(strategy);
    static const struct {
        const char *turns[2];
        const char *message;
    } cases[] = {
        {{"1,2,3,4,5 keep 6 | 6,6,6,6,6 score sixes"},
         "round 1, throw 1: keeps dice that were not"},
        {{"1,2,3,4,5 keep 5 | 6,6,6,6,6 score sixes"}, "round 1, throw 2: the dice kept are not"},
        {{"1,1,1,1,1 score aces", "1,1,1,1,1 score aces"}, "round 2, throw 1:"},
        {{"1,2,3,4,5", "1,1,1,1,1 score aces"}, "round 1: no box scored, yet another turn"},
        {{"1,2,3,4,5 keep - | 1,2,3,4,5 keep - | 1,2,3,4,5 keep -"}, "round 1: 3 keeps for 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_review_turn turns[2];
        int n_turns = 0;
        while (n_turns < 2 && cases[i].turns[n_turns]) {
            turns[n_turns] = turn_of(profile, cases[i].turns[n_turns]);
            n_turns++;
        }
        yz_review got;
        yz_rules_error err = {YZ_OK, ""};
        assert_int_equal(yz_review_player(strategy, turns, n_turns, &got, &err), YZ_ERR_DATA);
        if (!strstr(err.message, cases[i].message))
            fail_msg("case %zu: '%s', expected '%s'", i, err.message, cases[i].message);
    }
    /* More throws than a turn holds, or none. */
    yz_review_turn turn;
    memset(&turn, 0, sizeof turn);
    yz_review got;
    yz_rules_error err;
    for (int n_throws = 0; n_throws <= 4; n_throws += 4) {
        turn.n_throws = n_throws;
        assert_int_equal(yz_review_player(strategy, &turn, 1, &got, &err), YZ_ERR_DATA);
        assert_non_null(strstr(err.message, "throws (a turn has 1-3)"));
    }
}

static int load_yahtzee(void **state)
{
    *state = strategy_for(yz_rules_profile_find("yahtzee"));
    return 0;
}

static int free_strategy(void **state)
{
    yz_strategy_free(*state);
    return 0;
}

int main(void)
{
    setenv("YARDZEE_CACHE", YZ_TEST_CACHE, 0); /* a cache given from outside wins */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_yahtzee_in_chance_is_a_blunder_of_the_tables_size),
        cmocka_unit_test(an_optimal_game_reviews_to_nothing_given_up),
        cmocka_unit_test(random_games_add_up_to_their_scores_for_every_profile),
        cmocka_unit_test_setup_teardown(a_game_in_progress_adds_up_to_its_expectation, load_yahtzee,
                                        free_strategy),
        cmocka_unit_test_setup_teardown(luck_does_not_depend_on_the_answer, load_yahtzee,
                                        free_strategy),
        cmocka_unit_test_setup_teardown(decisions_name_the_answer_and_the_best, load_yahtzee,
                                        free_strategy),
        cmocka_unit_test_setup_teardown(illegal_turns_are_refused_naming_the_round_and_throw,
                                        load_yahtzee, free_strategy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
