/* score.c - what a roll scores in each box, which boxes it may legally go into, cards,
 * totals and standings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void yz_rules_set_error(yz_rules_error *err, yz_status code, const char *fmt, ...)
{
    if (!err) return;
    err->code = code;
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
}

static const char *const box_names[YZ_BOX_COUNT] = {
    "aces",       "twos",           "threes",         "fours",      "fives",
    "sixes",      "one_pair",       "two_pairs",      "three_kind", "four_kind",
    "full_house", "small_straight", "large_straight", "yahtzee",    "chance"};

const char *yz_rules_box_name(yz_box box)
{
    return (unsigned)box < YZ_BOX_COUNT ? box_names[box] : "?";
}

int yz_rules_profile_has_box(const yz_profile *profile, yz_box box)
{
    for (int i = 0; i < profile->n_boxes; i++)
        if (profile->boxes[i] == box) return 1;
    return 0;
}

/* A box name folded for comparing: lower case, without spaces, underscores, hyphens and dots, so
 * that "3 of a Kind", "3_of_a_kind" and "3-of-a-kind" are one name, and so are "full_house" and
 * "Full House". Longer names than out holds are cut (no box name is that long). */
static void fold_box_name(const char *name, char out[32])
{
    size_t at = 0;
    for (const char *c = name; *c && at < 31; c++) {
        if (*c == ' ' || *c == '_' || *c == '-' || *c == '.') continue;
        out[at++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
    }
    out[at] = '\0';
}

int yz_rules_name_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 31 || lb > 31) return 99;
    int d[32][32];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The names a box goes by besides its machine name and the labels of every profile (which
 * yz_rules_box_parse also accepts): the other vocabulary's words and the short forms players
 * write on a score sheet. Folded (see fold_box_name). */
static const struct {
    const char *name;
    yz_box box;
} box_aliases[] = {
    {"ones", YZ_BOX_ONES},
    {"1s", YZ_BOX_ONES},
    {"2s", YZ_BOX_TWOS},
    {"3s", YZ_BOX_THREES},
    {"4s", YZ_BOX_FOURS},
    {"5s", YZ_BOX_FIVES},
    {"6s", YZ_BOX_SIXES},
    {"pair", YZ_BOX_ONE_PAIR},
    {"1pair", YZ_BOX_ONE_PAIR},
    {"pairs", YZ_BOX_TWO_PAIRS},
    {"2pairs", YZ_BOX_TWO_PAIRS},
    {"3k", YZ_BOX_THREE_KIND},
    {"3kind", YZ_BOX_THREE_KIND},
    {"4k", YZ_BOX_FOUR_KIND},
    {"4kind", YZ_BOX_FOUR_KIND},
    {"house", YZ_BOX_FULL_HOUSE},
    {"fh", YZ_BOX_FULL_HOUSE},
    {"sm", YZ_BOX_SMALL_STRAIGHT},
    {"ss", YZ_BOX_SMALL_STRAIGHT},
    {"small", YZ_BOX_SMALL_STRAIGHT},
    {"lg", YZ_BOX_LARGE_STRAIGHT},
    {"ls", YZ_BOX_LARGE_STRAIGHT},
    {"large", YZ_BOX_LARGE_STRAIGHT},
    {"yatzy", YZ_BOX_YAHTZEE},
    {"yardzee", YZ_BOX_YAHTZEE},
};

/* Calls match(box, folded spelling, ctx) for every spelling of every box, until it returns
 * nonzero. */
static void each_box_spelling(int (*match)(yz_box, const char *, void *), void *ctx)
{
    char folded[32];
    for (int b = 0; b < YZ_BOX_COUNT; b++) {
        fold_box_name(box_names[b], folded);
        if (match((yz_box)b, folded, ctx)) return;
        for (size_t p = 0; p < yz_rules_profile_count(); p++) {
            const char *label = yz_rules_profile_at(p)->box_labels[b];
            if (!label) continue;
            fold_box_name(label, folded);
            if (match((yz_box)b, folded, ctx)) return;
        }
    }
    for (size_t i = 0; i < sizeof box_aliases / sizeof box_aliases[0]; i++)
        if (match(box_aliases[i].box, box_aliases[i].name, ctx)) return;
}

typedef struct {
    const yz_profile *profile;
    const char *folded;
    int found;   /* the box spelled so, or -1 */
    int nearest; /* the profile's box with the nearest spelling, or -1 */
    int nearest_distance;
} box_search;

static int match_spelling(yz_box box, const char *spelling, void *ctx)
{
    box_search *search = ctx;
    if (strcmp(spelling, search->folded) == 0) {
        search->found = (int)box;
        return 1;
    }
    int distance = yz_rules_name_distance(spelling, search->folded);
    if (yz_rules_profile_has_box(search->profile, box) &&
        (search->nearest < 0 || distance < search->nearest_distance)) {
        search->nearest = (int)box;
        search->nearest_distance = distance;
    }
    return 0;
}

yz_status yz_rules_box_parse(const yz_profile *profile, const char *name, yz_box *box,
                             yz_rules_error *err)
{
    char folded[32];
    fold_box_name(name, folded);
    box_search search = {profile, folded, -1, -1, 0};
    if (*folded && strlen(name) < 64) each_box_spelling(match_spelling, &search);
    if (search.found >= 0 && yz_rules_profile_has_box(profile, (yz_box)search.found)) {
        *box = (yz_box)search.found;
        return YZ_OK;
    }
    /* A typo of one or two letters (one in a short name) gets a suggestion, as git does. */
    char hint[64] = "";
    int close_enough = strlen(folded) <= 4 ? 1 : 2;
    if (search.found < 0 && search.nearest >= 0 && search.nearest_distance <= close_enough)
        snprintf(hint, sizeof hint, "; did you mean %s?", box_names[search.nearest]);
    char names[200] = "";
    size_t at = 0;
    for (int i = 0; i < profile->n_boxes && at < sizeof names; i++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? " " : "",
                               box_names[profile->boxes[i]]);
    yz_rules_set_error(err, YZ_ERR_USAGE, "'%.24s' is not a box of the %s rules%s (boxes: %s)",
                       name, profile->name, hint, names);
    return YZ_ERR_USAGE;
}

yz_status yz_rules_roll_parse(const char *text, const char *what, yz_roll *roll,
                              yz_rules_error *err)
{
    int n_dice = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != ' ' && *p != ',')
            p++;
        int len = (int)(p - start);
        if (len != 1 || start[0] < '1' || start[0] > '6') {
            yz_rules_set_error(err, YZ_ERR_USAGE, "%s: '%.*s' is not a die value (1-6)", what,
                               len > 20 ? 20 : len, start);
            return YZ_ERR_USAGE;
        }
        if (n_dice < YZ_N_DICE) roll->dice[n_dice] = (uint8_t)(start[0] - '0');
        n_dice++;
    }
    if (n_dice != YZ_N_DICE) {
        yz_rules_set_error(err, YZ_ERR_USAGE, "%s: expected %d dice, got %d", what, YZ_N_DICE,
                           n_dice);
        return YZ_ERR_USAGE;
    }
    return YZ_OK;
}

void yz_rules_roll_counts(const yz_roll *roll, int counts[YZ_N_FACES + 1])
{
    memset(counts, 0, sizeof(int) * (YZ_N_FACES + 1));
    for (int i = 0; i < YZ_N_DICE; i++)
        counts[roll->dice[i]]++;
}

static int roll_sum(const yz_roll *roll)
{
    int sum = 0;
    for (int i = 0; i < YZ_N_DICE; i++)
        sum += roll->dice[i];
    return sum;
}

int yz_rules_roll_is_yahtzee(const yz_roll *roll)
{
    for (int i = 1; i < YZ_N_DICE; i++)
        if (roll->dice[i] != roll->dice[0]) return 0;
    return 1;
}

/* The highest face shown at least n times, or 0. */
static int highest_with_count(const int counts[], int n)
{
    for (int face = YZ_N_FACES; face >= 1; face--)
        if (counts[face] >= n) return face;
    return 0;
}

static int has_run(const int counts[], int first, int length)
{
    for (int face = first; face < first + length; face++)
        if (!counts[face]) return 0;
    return 1;
}

static int is_full_house(const int counts[])
{
    int three = 0, two = 0;
    for (int face = 1; face <= YZ_N_FACES; face++) {
        if (counts[face] == 3) three = 1;
        if (counts[face] == 2) two = 1;
    }
    return three && two;
}

static int kind_points(const yz_profile *profile, const int counts[], int n, int sum)
{
    int face = highest_with_count(counts, n);
    if (!face) return 0;
    return profile->kinds == YZ_KIND_SUM_ALL ? sum : n * face;
}

static int house_points(const yz_profile *profile, int sum)
{
    return profile->house == YZ_HOUSE_SUM ? sum : profile->house_points;
}

int yz_rules_box_points(const yz_profile *profile, yz_box box, const yz_roll *roll)
{
    int counts[YZ_N_FACES + 1];
    yz_rules_roll_counts(roll, counts);
    int sum = roll_sum(roll);
    switch (box) {
    case YZ_BOX_ONES:
    case YZ_BOX_TWOS:
    case YZ_BOX_THREES:
    case YZ_BOX_FOURS:
    case YZ_BOX_FIVES:
    case YZ_BOX_SIXES: {
        int face = (int)box + 1;
        return counts[face] * face;
    }
    case YZ_BOX_ONE_PAIR: return 2 * highest_with_count(counts, 2);
    case YZ_BOX_TWO_PAIRS: {
        int high = highest_with_count(counts, 2);
        int low = 0;
        for (int face = high - 1; face >= 1 && !low; face--)
            if (counts[face] >= 2) low = face;
        return low ? 2 * (high + low) : 0;
    }
    case YZ_BOX_THREE_KIND: return kind_points(profile, counts, 3, sum);
    case YZ_BOX_FOUR_KIND: return kind_points(profile, counts, 4, sum);
    case YZ_BOX_FULL_HOUSE: return is_full_house(counts) ? house_points(profile, sum) : 0;
    case YZ_BOX_SMALL_STRAIGHT:
        if (profile->straights == YZ_STRAIGHT_FIXED)
            return has_run(counts, 1, 5) ? profile->small_straight_points : 0;
        return has_run(counts, 1, 4) || has_run(counts, 2, 4) || has_run(counts, 3, 4)
                   ? profile->small_straight_points
                   : 0;
    case YZ_BOX_LARGE_STRAIGHT:
        if (profile->straights == YZ_STRAIGHT_FIXED)
            return has_run(counts, 2, 5) ? profile->large_straight_points : 0;
        return has_run(counts, 1, 5) || has_run(counts, 2, 5) ? profile->large_straight_points : 0;
    case YZ_BOX_YAHTZEE: return counts[roll->dice[0]] == YZ_N_DICE ? profile->yahtzee_points : 0;
    case YZ_BOX_CHANCE: return sum;
    case YZ_BOX_COUNT: break;
    }
    return 0;
}

/* A five of a kind used as a joker scores a fixed-value box at full value. */
static int joker_points(const yz_profile *profile, yz_box box, const yz_roll *roll)
{
    switch (box) {
    case YZ_BOX_FULL_HOUSE: return house_points(profile, roll_sum(roll));
    case YZ_BOX_SMALL_STRAIGHT: return profile->small_straight_points;
    case YZ_BOX_LARGE_STRAIGHT: return profile->large_straight_points;
    default: return yz_rules_box_points(profile, box, roll);
    }
}

void yz_rules_card_init(yz_card *card)
{
    for (int b = 0; b < YZ_BOX_COUNT; b++)
        card->points[b] = YZ_OPEN;
    card->extra_yahtzees = 0;
}

int yz_rules_card_is_open(const yz_card *card, yz_box box)
{
    return card->points[box] == YZ_OPEN;
}

int yz_rules_card_is_full(const yz_profile *profile, const yz_card *card)
{
    for (int i = 0; i < profile->n_boxes; i++)
        if (yz_rules_card_is_open(card, profile->boxes[i])) return 0;
    return 1;
}

/* Which boxes a roll may go into; see yz_extra_policy for the rules in words. */
typedef enum { ALLOW_NONE, ALLOW_NORMAL, ALLOW_JOKER, ALLOW_ZERO } allowance;

static allowance extra_yahtzee_allowance(const yz_profile *profile, const yz_card *card, int face,
                                         yz_box box)
{
    int upper_open = yz_rules_card_is_open(card, (yz_box)(face - 1));
    int yahtzee_scored = card->points[YZ_BOX_YAHTZEE] == profile->yahtzee_points;
    int any_upper_open = 0, any_lower_open = 0;
    for (int i = 0; i < profile->n_boxes; i++) {
        if (!yz_rules_card_is_open(card, profile->boxes[i])) continue;
        if (YZ_BOX_IS_UPPER(profile->boxes[i]))
            any_upper_open = 1;
        else
            any_lower_open = 1;
    }
    int upper = YZ_BOX_IS_UPPER(box);
    switch (profile->extra) {
    case YZ_EXTRA_NONE: return ALLOW_NORMAL;
    case YZ_EXTRA_FREE: return !upper && !upper_open ? ALLOW_JOKER : ALLOW_NORMAL;
    case YZ_EXTRA_FORCED:
        if (upper_open) return box == (yz_box)(face - 1) ? ALLOW_NORMAL : ALLOW_NONE;
        if (any_lower_open) return upper ? ALLOW_NONE : ALLOW_JOKER;
        return ALLOW_NORMAL; /* only upper boxes left: each scores 0 */
    case YZ_EXTRA_TLG:
        if (!yahtzee_scored) return ALLOW_NORMAL;
        if (upper_open) return box == (yz_box)(face - 1) ? ALLOW_NORMAL : ALLOW_NONE;
        if (any_upper_open) return upper ? ALLOW_NORMAL : ALLOW_NONE;
        return ALLOW_NORMAL;
    case YZ_EXTRA_BELKNAP:
        if (yahtzee_scored) {
            if (upper_open) return box == (yz_box)(face - 1) ? ALLOW_NORMAL : ALLOW_NONE;
            return ALLOW_NORMAL;
        }
        if (any_upper_open || yz_rules_card_is_open(card, YZ_BOX_CHANCE))
            return upper || box == YZ_BOX_CHANCE ? ALLOW_NORMAL : ALLOW_NONE;
        return ALLOW_ZERO;
    }
    return ALLOW_NORMAL;
}

int yz_rules_options(const yz_profile *profile, const yz_card *card, const yz_roll *roll,
                     yz_option out[YZ_BOX_COUNT])
{
    int extra = profile->extra != YZ_EXTRA_NONE && yz_rules_roll_is_yahtzee(roll) &&
                !yz_rules_card_is_open(card, YZ_BOX_YAHTZEE);
    int bonus = extra && card->points[YZ_BOX_YAHTZEE] == profile->yahtzee_points
                    ? profile->extra_yahtzee_bonus
                    : 0;
    int n_options = 0;
    for (int i = 0; i < profile->n_boxes; i++) {
        yz_box box = profile->boxes[i];
        if (!yz_rules_card_is_open(card, box)) continue;
        allowance allow =
            extra ? extra_yahtzee_allowance(profile, card, roll->dice[0], box) : ALLOW_NORMAL;
        if (allow == ALLOW_NONE) continue;
        yz_option *option = &out[n_options++];
        option->box = box;
        option->bonus = bonus;
        option->points = allow == ALLOW_ZERO    ? 0
                         : allow == ALLOW_JOKER ? joker_points(profile, box, roll)
                                                : yz_rules_box_points(profile, box, roll);
        option->joker =
            allow == ALLOW_JOKER && option->points != yz_rules_box_points(profile, box, roll);
    }
    return n_options;
}

yz_status yz_rules_score(const yz_profile *profile, yz_card *card, const yz_roll *roll, yz_box box,
                         yz_option *scored, yz_rules_error *err)
{
    if (!yz_rules_profile_has_box(profile, box)) {
        yz_rules_set_error(err, YZ_ERR_USAGE, "'%s' is not a box of the %s rules",
                           yz_rules_box_name(box), profile->name);
        return YZ_ERR_USAGE;
    }
    if (!yz_rules_card_is_open(card, box)) {
        yz_rules_set_error(err, YZ_ERR_DATA, "%s is already filled (%d)", yz_rules_box_name(box),
                           card->points[box]);
        return YZ_ERR_DATA;
    }
    yz_option options[YZ_BOX_COUNT];
    int n_options = yz_rules_options(profile, card, roll, options);
    for (int i = 0; i < n_options; i++) {
        if (options[i].box != box) continue;
        card->points[box] = (int16_t)options[i].points;
        if (options[i].bonus) card->extra_yahtzees++;
        if (scored) *scored = options[i];
        return YZ_OK;
    }
    yz_rules_set_error(err, YZ_ERR_DATA,
                       "%s may not take this roll: an extra five of a kind must go in %s",
                       yz_rules_box_name(box), n_options ? yz_rules_box_name(options[0].box) : "?");
    return YZ_ERR_DATA;
}

/* Every value some roll can put in the box, jokers and scratches included. */
static int value_is_possible(const yz_profile *profile, yz_box box, int value)
{
    if (value == 0) return 1;
    for (int index = 0; index < YZ_N_DISTINCT_ROLLS; index++) {
        yz_roll roll;
        yz_rules_roll_from_index(index, &roll);
        if (yz_rules_box_points(profile, box, &roll) == value) return 1;
        if (profile->extra != YZ_EXTRA_NONE && yz_rules_roll_is_yahtzee(&roll) &&
            joker_points(profile, box, &roll) == value &&
            (profile->extra == YZ_EXTRA_FREE || profile->extra == YZ_EXTRA_FORCED))
            return 1;
    }
    return 0;
}

yz_status yz_rules_card_set(const yz_profile *profile, yz_card *card, yz_box box, int value,
                            yz_rules_error *err)
{
    if (!yz_rules_profile_has_box(profile, box)) {
        yz_rules_set_error(err, YZ_ERR_DATA, "%s: not a box of the %s rules",
                           yz_rules_box_name(box), profile->name);
        return YZ_ERR_DATA;
    }
    if (!yz_rules_card_is_open(card, box)) {
        yz_rules_set_error(err, YZ_ERR_DATA, "%s: filled twice", yz_rules_box_name(box));
        return YZ_ERR_DATA;
    }
    if (value < 0 || value > 1000 || !value_is_possible(profile, box, value)) {
        yz_rules_set_error(err, YZ_ERR_DATA, "%s: no roll scores %d there", yz_rules_box_name(box),
                           value);
        return YZ_ERR_DATA;
    }
    card->points[box] = (int16_t)value;
    return YZ_OK;
}

yz_status yz_rules_card_check(const yz_profile *profile, const yz_card *card, yz_rules_error *err)
{
    int n_extra = card->extra_yahtzees;
    if (n_extra == 0) return YZ_OK;
    const char *why = NULL;
    int n_filled = 0;
    for (int i = 0; i < profile->n_boxes; i++)
        n_filled += !yz_rules_card_is_open(card, profile->boxes[i]);
    if (n_extra < 0)
        why = "is negative";
    else if (profile->extra == YZ_EXTRA_NONE)
        why = "is not part of these rules";
    else if (card->points[YZ_BOX_YAHTZEE] != profile->yahtzee_points)
        why = "needs 50 in the Yahtzee box";
    else if (n_extra > n_filled - 1)
        why = "is more than the other filled boxes (each extra Yahtzee fills one)";
    if (!why) return YZ_OK;
    yz_rules_set_error(err, YZ_ERR_DATA, "yahtzee_bonus: %d extra Yahtzees %s", n_extra, why);
    return YZ_ERR_DATA;
}

void yz_rules_totals(const yz_profile *profile, const yz_card *card, yz_totals *totals)
{
    memset(totals, 0, sizeof *totals);
    for (int i = 0; i < profile->n_boxes; i++) {
        yz_box box = profile->boxes[i];
        if (yz_rules_card_is_open(card, box)) continue;
        if (YZ_BOX_IS_UPPER(box))
            totals->upper += card->points[box];
        else
            totals->lower += card->points[box];
    }
    if (totals->upper >= profile->upper_bonus_threshold) totals->upper_bonus = profile->upper_bonus;
    totals->yahtzee_bonus = card->extra_yahtzees * profile->extra_yahtzee_bonus;
    totals->total = totals->upper + totals->upper_bonus + totals->lower + totals->yahtzee_bonus;
}

/* >0 when player a ranks above player b. */
static int compare_players(const yz_profile *profile, const yz_card *cards, int a, int b)
{
    yz_totals ta, tb;
    yz_rules_totals(profile, &cards[a], &ta);
    yz_rules_totals(profile, &cards[b], &tb);
    if (ta.total != tb.total) return ta.total - tb.total;
    for (const yz_tiebreak *key = profile->tiebreak; key->kind != YZ_TIE_END; key++) {
        int va = 0, vb = 0;
        if (key->kind == YZ_TIE_BOX) {
            va = cards[a].points[key->box] > 0 ? cards[a].points[key->box] : 0;
            vb = cards[b].points[key->box] > 0 ? cards[b].points[key->box] : 0;
        } else if (key->kind == YZ_TIE_UPPER_TOTAL) {
            va = ta.upper;
            vb = tb.upper;
        } else if (key->kind == YZ_TIE_FIRST_PLAYER) {
            va = -a;
            vb = -b;
        }
        if (va != vb) return va - vb;
    }
    return 0;
}

void yz_rules_standings(const yz_profile *profile, const yz_card *cards, int n_players, int order[],
                        int place[])
{
    for (int i = 0; i < n_players; i++)
        order[i] = i;
    /* Insertion sort: at most six players, and it is stable (earlier player first on a tie). */
    for (int i = 1; i < n_players; i++)
        for (int j = i; j > 0 && compare_players(profile, cards, order[j], order[j - 1]) > 0; j--) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    for (int i = 0; i < n_players; i++) {
        int tied = i > 0 && compare_players(profile, cards, order[i - 1], order[i]) == 0;
        place[order[i]] = tied ? place[order[i - 1]] : i + 1;
    }
}
