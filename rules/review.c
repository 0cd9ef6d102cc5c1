/* review.c - how well one player played: each decision beside the optimal one, and the luck
 * of each throw, from the advisor's expectations.
 *
 * At each throw, V (the position's value) is the expected final score after the best answer to
 * the dice. The throw's luck is V minus the expectation before it (the card's expected total
 * for a turn's first throw, the kept dice's expectation for the others); the decision gives up
 * V minus the expectation of the answer chosen. Within a turn the answer's expectation is the
 * next throw's "before", and after a box it is the next turn's, so the sums telescope:
 *     optimum - given_up + luck == expectation of the last answer,
 * which is the final score once the card is full. V depends only on the position, never on
 * the answer chosen, so luck is the dice's alone. */
#include <string.h>

#include "internal.h"

/* The advisor's keep and box expectations add the same values in different orders; answers
 * within this of each other are the same answer. */
#define TIE 1e-9

const char *yz_review_class_name(yz_review_class verdict)
{
    static const char *const names[YZ_REVIEW_N_CLASSES] = {"fine", "slip", "mistake", "blunder"};
    return (unsigned)verdict < YZ_REVIEW_N_CLASSES ? names[verdict] : "?";
}

static yz_review_class classify(double given_up)
{
    if (given_up >= 10) return YZ_REVIEW_BLUNDER;
    if (given_up >= 3) return YZ_REVIEW_MISTAKE;
    if (given_up >= 0.5) return YZ_REVIEW_SLIP;
    return YZ_REVIEW_FINE;
}

static void sort_dice(uint8_t *dice, int n_dice)
{
    for (int i = 1; i < n_dice; i++)
        for (int j = i; j > 0 && dice[j] < dice[j - 1]; j--) {
            uint8_t t = dice[j];
            dice[j] = dice[j - 1];
            dice[j - 1] = t;
        }
}

/* 1 when every die of part is among the five of roll (as multisets). */
static int roll_contains(const yz_roll *roll, const uint8_t *part, int n_part)
{
    int counts[YZ_N_FACES + 1] = {0};
    for (int i = 0; i < YZ_N_DICE; i++)
        counts[roll->dice[i]]++;
    for (int i = 0; i < n_part; i++)
        if (part[i] < 1 || part[i] > YZ_N_FACES || --counts[part[i]] < 0) return 0;
    return 1;
}

static int roll_is_valid(const yz_roll *roll)
{
    for (int i = 0; i < YZ_N_DICE; i++)
        if (roll->dice[i] < 1 || roll->dice[i] > YZ_N_FACES) return 0;
    return 1;
}

static yz_review_choice keep_choice(const yz_keep_advice *advice)
{
    yz_review_choice choice;
    memset(&choice, 0, sizeof choice);
    memcpy(choice.keep, advice->keep, (size_t)advice->n_keep);
    choice.n_keep = advice->n_keep;
    choice.expected = advice->expected;
    return choice;
}

static yz_review_choice box_choice(const yz_box_advice *advice)
{
    yz_review_choice choice;
    memset(&choice, 0, sizeof choice);
    choice.is_box = 1;
    choice.box = advice->option.box;
    choice.points = advice->option.points + advice->option.bonus;
    choice.expected = advice->expected;
    return choice;
}

/* Every answer to the dice: the boxes, then (with throws left) the keeps. The best is the
 * highest; a tie goes to scoring now over standing pat with every die, the same thing said
 * later. Fills *chosen from the answer asked for (a box when is_box) and returns 0, or -1 when
 * it is not among them. */
static int review_answers(const yz_strategy *strategy, const yz_card *card, const yz_roll *roll,
                          int throws_left, int is_box, yz_box box, const uint8_t *keep, int n_keep,
                          yz_review_choice *chosen, yz_review_choice *best)
{
    yz_box_advice boxes[YZ_BOX_COUNT];
    int n_boxes = yz_advise_boxes(strategy, card, roll, boxes, YZ_BOX_COUNT);
    yz_keep_advice keeps[32]; /* a roll has at most 32 distinct sub-multisets */
    int n_keeps =
        throws_left > 0 ? yz_advise_keeps(strategy, card, roll, throws_left, keeps, 32) : 0;
    int found = 0;
    best->expected = -1e300;
    for (int i = 0; i < n_boxes; i++) {
        yz_review_choice choice = box_choice(&boxes[i]);
        if (choice.expected > best->expected + TIE) *best = choice;
        if (is_box && boxes[i].option.box == box) *chosen = choice, found = 1;
    }
    for (int pass = 0; pass < 2; pass++) /* standing pat with all five dice last */
        for (int i = 0; i < n_keeps; i++) {
            if ((keeps[i].n_keep == YZ_N_DICE) != pass) continue;
            yz_review_choice choice = keep_choice(&keeps[i]);
            if (choice.expected > best->expected + TIE) *best = choice;
            if (!is_box && keeps[i].n_keep == n_keep &&
                memcmp(keeps[i].keep, keep, (size_t)n_keep) == 0)
                *chosen = choice, found = 1;
        }
    return found ? 0 : -1;
}

static yz_status refuse(yz_rules_error *err, int round, int throw_number, const char *what)
{
    yz_rules_set_error(err, YZ_ERR_DATA, "round %d, throw %d: %s", round, throw_number, what);
    return YZ_ERR_DATA;
}

/* Checks the shape of a turn before anything is reviewed. */
static yz_status check_turn(const yz_review_turn *turn, int round, int is_last, yz_rules_error *err)
{
    if (turn->n_throws < 1 || turn->n_throws > YZ_MAX_THROWS) {
        yz_rules_set_error(err, YZ_ERR_DATA, "round %d: %d throws (a turn has 1-%d)", round,
                           turn->n_throws, YZ_MAX_THROWS);
        return YZ_ERR_DATA;
    }
    int waits = !turn->scored && turn->n_throws < YZ_MAX_THROWS;
    if (turn->n_keeps != turn->n_throws - 1 && !(waits && turn->n_keeps == turn->n_throws)) {
        yz_rules_set_error(err, YZ_ERR_DATA, "round %d: %d keeps for %d throws", round,
                           turn->n_keeps, turn->n_throws);
        return YZ_ERR_DATA;
    }
    if (!turn->scored && !is_last) {
        yz_rules_set_error(err, YZ_ERR_DATA, "round %d: no box scored, yet another turn follows",
                           round);
        return YZ_ERR_DATA;
    }
    for (int t = 0; t < turn->n_throws; t++) {
        if (!roll_is_valid(&turn->throws[t]))
            return refuse(err, round, t + 1, "a die that is not 1-6");
        if (t > 0 && !roll_contains(&turn->throws[t], turn->keeps[t - 1], turn->n_kept[t - 1]))
            return refuse(err, round, t + 1, "the dice kept are not in this throw");
    }
    for (int k = 0; k < turn->n_keeps; k++)
        if (turn->n_kept[k] < 0 || turn->n_kept[k] > YZ_N_DICE ||
            !roll_contains(&turn->throws[k], turn->keeps[k], turn->n_kept[k]))
            return refuse(err, round, k + 1, "keeps dice that were not thrown");
    return YZ_OK;
}

static void add_decision(yz_review *out, const yz_review_decision *decision)
{
    yz_review_decision *d = &out->decisions[out->n_decisions++];
    *d = *decision;
    d->throws_left = YZ_MAX_THROWS - d->throw_number;
    d->given_up = d->best.expected - d->chosen.expected;
    if (d->given_up <= TIE) { /* optimal: a tie is no loss */
        d->best = d->chosen;
        d->given_up = 0;
    }
    d->luck = d->best.expected - d->before;
    d->verdict = classify(d->given_up);
    out->counts[d->verdict]++;
    out->given_up += d->given_up;
    out->luck += d->luck;
    out->expected = d->chosen.expected;
}

/* The three biggest losses, biggest first; the earlier decision first on a tie. */
static void find_worst(yz_review *out)
{
    out->n_worst = 0;
    for (int i = 0; i < out->n_decisions; i++) {
        double given_up = out->decisions[i].given_up;
        int at;
        if (given_up <= 0) continue;
        if (out->n_worst < 3)
            at = out->n_worst++;
        else if (given_up > out->decisions[out->worst[2]].given_up)
            at = 2;
        else
            continue;
        out->worst[at] = i;
        for (; at > 0 && out->decisions[out->worst[at - 1]].given_up < given_up; at--) {
            out->worst[at] = out->worst[at - 1];
            out->worst[at - 1] = i;
        }
    }
}

yz_status yz_review_player(const yz_strategy *strategy, const yz_review_turn *turns, int n_turns,
                           yz_review *out, yz_rules_error *err)
{
    const yz_profile *profile = yz_strategy_profile(strategy);
    memset(out, 0, sizeof *out);
    if (n_turns < 0 || n_turns > profile->n_boxes) {
        yz_rules_set_error(err, YZ_ERR_DATA, "%d turns: a %s card has %d boxes", n_turns,
                           profile->name, profile->n_boxes);
        return YZ_ERR_DATA;
    }
    yz_card card;
    yz_rules_card_init(&card);
    out->optimum = yz_strategy_expected_total(strategy, &card);
    out->expected = out->optimum;
    for (int r = 0; r < n_turns; r++) {
        const yz_review_turn *turn = &turns[r];
        int round = r + 1;
        yz_status status = check_turn(turn, round, r == n_turns - 1, err);
        if (status != YZ_OK) return status;
        double before = yz_strategy_expected_total(strategy, &card);
        for (int t = 0; t < turn->n_throws; t++) {
            int throws_left = YZ_MAX_THROWS - 1 - t;
            int is_box = t == turn->n_throws - 1 && turn->scored;
            if (!is_box && t >= turn->n_keeps) break; /* not answered yet */
            yz_review_decision d;
            memset(&d, 0, sizeof d);
            d.round = round;
            d.throw_number = t + 1;
            d.dice = turn->throws[t];
            d.before = before;
            uint8_t keep[YZ_N_DICE];
            int n_keep = 0;
            if (!is_box) {
                n_keep = turn->n_kept[t];
                memcpy(keep, turn->keeps[t], (size_t)n_keep);
                sort_dice(keep, n_keep);
            }
            if (review_answers(strategy, &card, &d.dice, throws_left, is_box, turn->box, keep,
                               n_keep, &d.chosen, &d.best) != 0)
                return refuse(err, round, t + 1,
                              is_box ? "the box is not open for these dice" : "an illegal keep");
            add_decision(out, &d);
            before = d.chosen.expected;
        }
        if (turn->scored) {
            yz_option scored;
            yz_rules_error why;
            if (yz_rules_score(profile, &card, &turn->throws[turn->n_throws - 1], turn->box,
                               &scored, &why) != YZ_OK)
                return refuse(err, round, turn->n_throws, why.message);
        }
    }
    yz_totals totals;
    yz_rules_totals(profile, &card, &totals);
    out->score = totals.total;
    out->complete = yz_rules_card_is_full(profile, &card);
    find_worst(out);
    return YZ_OK;
}
