/* strategy.c - the exact solitaire optimum by dynamic programming, and advice from it.
 *
 * A state between turns is (which boxes are filled, the upper total capped at the bonus
 * threshold, whether the Yahtzee box holds 50). Its value is the expected score still to come
 * under optimal play. States are solved from the full card backwards, one "number of filled
 * boxes" layer at a time; the states of a layer are independent and shared between threads.
 *
 * Within a turn, dice are multisets: 252 rolls and 462 keeps (multisets of 0-5 dice). The
 * expected value of a keep is the mean over the six faces of the keep with one more die, so
 * every keep's expectation costs six additions; the best keep of a roll is the best of its
 * sub-multisets, found the same way by removing one die at a time.
 *
 * Serialized table layout (native byte order, checked by the byte-order mark):
 *   0  char[8]  magic "YZSTRAT"
 *   8  u32      format version (YZ_STRATEGY_VERSION)
 *  12  u32      byte-order mark 0x01020304
 *  16  char[32] profile name, NUL padded
 *  48  u64      fingerprint of the rules the table was solved for (box scores, bonuses, policy)
 *  56  u32      number of boxes
 *  60  u32      number of Yahtzee-flag states (1 or 2)
 *  64  f64[n]   state values, n = 2^boxes * 64 * flags, unreachable states hold 0
 *  ..  u64      XXH64 (seed 0) of every byte before it
 *
 * The checksum is XXH64 rather than a byte-at-a-time hash because the CLI checks the table on
 * every run: XXH64 reads 8 MB at memory speed (about 1 ms), so every byte is still covered and
 * a damaged table is still found, while FNV-1a took about 10 ms. Version 1 used FNV-1a. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define YZ_STRATEGY_VERSION 2u
#define N_KEEPS 462
#define N_UPPER                                                                                    \
    64 /* upper totals 0..63; 63 stands for "63 or more", the bonus threshold of                   \
         every profile (yz_strategy_build refuses another) */
#define HEADER_BYTES 64

/* Multisets of 0..5 dice, ordered by size; the 252 of size 5 are the rolls, in
 * yz_rules_roll_from_index order. */
typedef struct {
    uint8_t counts[N_KEEPS][YZ_N_FACES + 1];
    uint8_t size[N_KEEPS];
    int16_t plus_die[N_KEEPS][YZ_N_FACES]; /* keep + one die of face f+1; -1 past 5 dice */
    /* The distinct keeps one die smaller, padded with the empty keep (a sub-keep of every
       keep), so the best-keep pass runs without branches. */
    int16_t smaller[N_KEEPS][YZ_N_DICE];
    int first_of_size[YZ_N_DICE + 2];
    int16_t key_to_keep[46656]; /* counts as base-6 digits -> keep index */
} dice_sets;

struct yz_strategy {
    const yz_profile *profile; /* as given, for names */
    yz_profile rules;          /* as solved (the test switch may strip extra-Yahtzee rules) */
    int n_flags;               /* 2 when the Yahtzee-box-holds-50 flag matters */
    size_t n_values;
    double *values;
    /* When the values are read in place from a caller's buffer: called by yz_strategy_free
       instead of releasing them (yz_strategy_deserialize_borrowed). */
    int values_borrowed;
    void (*release)(void *ctx);
    void *release_ctx;
    dice_sets *sets;
    int16_t (*points)[YZ_BOX_COUNT];                         /* [roll][slot] base points */
    double (*slot_points)[YZ_N_DISTINCT_ROLLS];              /* [slot][roll], the same as doubles */
    uint8_t face_count[YZ_N_FACES + 1][YZ_N_DISTINCT_ROLLS]; /* dice showing face in roll */
    int yahtzee_roll[YZ_N_FACES + 1];                        /* roll index of five of face */
    uint8_t upper_reachable[64][N_UPPER];                    /* [upper-slot mask][total] */
    int yahtzee_slot;                                        /* -1 if none */
};

/* ---- dice sets ---------------------------------------------------------------------------- */

static int counts_key(const uint8_t counts[YZ_N_FACES + 1])
{
    int key = 0;
    for (int face = YZ_N_FACES; face >= 1; face--)
        key = key * 6 + counts[face];
    return key;
}

/* Appends every multiset of `size` dice with faces >= face, in lexicographic order of the
 * sorted dice, so that size-5 sets come out in roll index order. */
static void enumerate_sets(dice_sets *sets, uint8_t counts[], int face, int left, int *n)
{
    if (left == 0) {
        memcpy(sets->counts[*n], counts, YZ_N_FACES + 1);
        (*n)++;
        return;
    }
    for (int f = face; f <= YZ_N_FACES; f++) {
        counts[f]++;
        enumerate_sets(sets, counts, f, left - 1, n);
        counts[f]--;
    }
}

static void dice_sets_init(dice_sets *sets)
{
    int n = 0;
    for (int size = 0; size <= YZ_N_DICE; size++) {
        sets->first_of_size[size] = n;
        uint8_t counts[YZ_N_FACES + 1] = {0};
        enumerate_sets(sets, counts, 1, size, &n);
    }
    sets->first_of_size[YZ_N_DICE + 1] = n;
    memset(sets->key_to_keep, 0xff, sizeof sets->key_to_keep);
    for (int k = 0; k < N_KEEPS; k++) {
        int size = 0;
        for (int face = 1; face <= YZ_N_FACES; face++)
            size += sets->counts[k][face];
        sets->size[k] = (uint8_t)size;
        sets->key_to_keep[counts_key(sets->counts[k])] = (int16_t)k;
    }
    for (int k = 0; k < N_KEEPS; k++) {
        int16_t minus_die[YZ_N_FACES]; /* keep - one die of face f+1; -1 if none */
        for (int f = 0; f < YZ_N_FACES; f++) {
            uint8_t counts[YZ_N_FACES + 1];
            memcpy(counts, sets->counts[k], sizeof counts);
            sets->plus_die[k][f] = -1;
            minus_die[f] = -1;
            if (sets->size[k] < YZ_N_DICE) {
                counts[f + 1]++;
                sets->plus_die[k][f] = sets->key_to_keep[counts_key(counts)];
                counts[f + 1]--;
            }
            if (counts[f + 1]) {
                counts[f + 1]--;
                minus_die[f] = sets->key_to_keep[counts_key(counts)];
            }
        }
        int n_smaller = 0;
        for (int f = 0; f < YZ_N_FACES; f++)
            if (minus_die[f] >= 0) sets->smaller[k][n_smaller++] = minus_die[f];
        while (n_smaller < YZ_N_DICE)
            sets->smaller[k][n_smaller++] = 0;
    }
}

/* Several states are solved together, one per lane: every inner loop below runs across the
 * lanes, so it vectorizes, and each table index is read once for all of them. */
#define LANES 4
typedef double lanes[LANES];

/* keep_value[k] for every keep, from the values of the 252 rolls (keep indices 210..461). */
static void expect_keeps(const dice_sets *sets, lanes *keep_value)
{
    for (int k = sets->first_of_size[YZ_N_DICE] - 1; k >= 0; k--) {
        const int16_t *plus = sets->plus_die[k];
        const double *p0 = keep_value[plus[0]], *p1 = keep_value[plus[1]],
                     *p2 = keep_value[plus[2]];
        const double *p3 = keep_value[plus[3]], *p4 = keep_value[plus[4]],
                     *p5 = keep_value[plus[5]];
        for (int w = 0; w < LANES; w++)
            keep_value[k][w] = (p0[w] + p1[w] + p2[w] + p3[w] + p4[w] + p5[w]) * (1.0 / 6.0);
    }
}

/* best[k] = the best keep_value over the sub-multisets of k; for a roll, its best keep. */
static void best_sub_keeps(const dice_sets *sets, const lanes *keep_value, lanes *best)
{
    for (int w = 0; w < LANES; w++)
        best[0][w] = keep_value[0][w];
    for (int k = 1; k < N_KEEPS; k++) {
        const int16_t *smaller = sets->smaller[k];
        lanes value;
        for (int w = 0; w < LANES; w++)
            value[w] = keep_value[k][w];
        for (int i = 0; i < YZ_N_DICE; i++) {
            const double *sub = best[smaller[i]];
            for (int w = 0; w < LANES; w++)
                value[w] = sub[w] > value[w] ? sub[w] : value[w];
        }
        for (int w = 0; w < LANES; w++)
            best[k][w] = value[w];
    }
}

/* ---- states ------------------------------------------------------------------------------- */

typedef struct {
    unsigned mask; /* bit i = the profile's box i is filled */
    int upper;     /* capped */
    int yahtzee50;
} state;

static size_t state_index(const yz_strategy *s, state st)
{
    return ((size_t)st.mask * N_UPPER + (size_t)st.upper) * (size_t)s->n_flags +
           (size_t)st.yahtzee50;
}

static unsigned upper_mask_of(const yz_strategy *s, unsigned mask)
{
    unsigned upper = 0;
    for (int i = 0; i < s->rules.n_boxes; i++)
        if ((mask >> i & 1u) && YZ_BOX_IS_UPPER(s->rules.boxes[i]))
            upper |= 1u << s->rules.boxes[i];
    return upper;
}

static int state_is_reachable(const yz_strategy *s, state st)
{
    if (!s->upper_reachable[upper_mask_of(s, st.mask)][st.upper]) return 0;
    if (st.yahtzee50 && !(st.mask >> s->yahtzee_slot & 1u)) return 0;
    return 1;
}

static state state_of_card(const yz_strategy *s, const yz_card *card)
{
    state st = {0, 0, 0};
    int upper = 0;
    for (int i = 0; i < s->rules.n_boxes; i++) {
        yz_box box = s->rules.boxes[i];
        if (yz_rules_card_is_open(card, box)) continue;
        st.mask |= 1u << i;
        if (YZ_BOX_IS_UPPER(box)) upper += card->points[box];
    }
    st.upper = upper < N_UPPER - 1 ? upper : N_UPPER - 1;
    st.yahtzee50 = s->n_flags == 2 && card->points[YZ_BOX_YAHTZEE] == s->rules.yahtzee_points;
    return st;
}

/* A card with the state's filled boxes, for yz_rules_options (it only asks which boxes are
 * open and whether the Yahtzee box holds 50). */
static void card_of_state(const yz_strategy *s, state st, yz_card *card)
{
    yz_rules_card_init(card);
    for (int i = 0; i < s->rules.n_boxes; i++)
        if (st.mask >> i & 1u) card->points[s->rules.boxes[i]] = 0;
    if (st.yahtzee50) card->points[YZ_BOX_YAHTZEE] = (int16_t)s->rules.yahtzee_points;
}

static int slot_of_box(const yz_strategy *s, yz_box box)
{
    for (int i = 0; i < s->rules.n_boxes; i++)
        if (s->rules.boxes[i] == box) return i;
    return -1;
}

/* The state after writing `points` in slot, and the upper bonus that crossing earns. */
static state state_after(const yz_strategy *s, state st, int slot, int points, int *bonus_now)
{
    state next = st;
    next.mask |= 1u << slot;
    *bonus_now = 0;
    if (YZ_BOX_IS_UPPER(s->rules.boxes[slot])) {
        int upper = st.upper + points;
        if (upper >= N_UPPER - 1) {
            upper = N_UPPER - 1;
            if (st.upper < N_UPPER - 1) *bonus_now = s->rules.upper_bonus;
        }
        next.upper = upper;
    }
    if (slot == s->yahtzee_slot && s->n_flags == 2)
        next.yahtzee50 = points == s->rules.yahtzee_points;
    return next;
}

/* Value of writing `points` in slot now: the points, any bonus, and the future. */
static double option_value(const yz_strategy *s, state st, int slot, int points)
{
    int bonus_now;
    state next = state_after(s, st, slot, points, &bonus_now);
    return points + bonus_now + s->values[state_index(s, next)];
}

/* roll_value[r] = best value over the legal boxes for roll r with no throws left, for the
 * states of the lanes, which all have the same boxes filled. */
static void score_rolls(const yz_strategy *s, const state st[LANES], lanes *roll_value)
{
    unsigned mask = st[0].mask;
    for (int r = 0; r < YZ_N_DISTINCT_ROLLS; r++)
        for (int w = 0; w < LANES; w++)
            roll_value[r][w] = -1e300;
    for (int slot = 0; slot < s->rules.n_boxes; slot++) {
        if (mask >> slot & 1u) continue;
        yz_box box = s->rules.boxes[slot];
        if (YZ_BOX_IS_UPPER(box)) {
            int face = (int)box + 1;
            lanes after_count[YZ_N_DICE + 1];
            for (int n = 0; n <= YZ_N_DICE; n++)
                for (int w = 0; w < LANES; w++)
                    after_count[n][w] = option_value(s, st[w], slot, n * face);
            const uint8_t *count = s->face_count[face];
            for (int r = 0; r < YZ_N_DISTINCT_ROLLS; r++) {
                const double *v = after_count[count[r]];
                for (int w = 0; w < LANES; w++)
                    roll_value[r][w] = v[w] > roll_value[r][w] ? v[w] : roll_value[r][w];
            }
            continue;
        }
        /* A lower box leads to the same state whatever it scores, except the Yahtzee box,
           whose 50 sets the flag: the six five-of-a-kind rolls are fixed up below. */
        lanes future;
        for (int w = 0; w < LANES; w++)
            future[w] = option_value(s, st[w], slot, 0);
        const double *points = s->slot_points[slot];
        for (int r = 0; r < YZ_N_DISTINCT_ROLLS; r++)
            for (int w = 0; w < LANES; w++) {
                double v = points[r] + future[w];
                roll_value[r][w] = v > roll_value[r][w] ? v : roll_value[r][w];
            }
        if (slot == s->yahtzee_slot)
            for (int face = 1; face <= YZ_N_FACES; face++)
                for (int w = 0; w < LANES; w++) {
                    int r = s->yahtzee_roll[face];
                    double v = option_value(s, st[w], slot, s->rules.yahtzee_points);
                    roll_value[r][w] = v > roll_value[r][w] ? v : roll_value[r][w];
                }
    }
    if (s->rules.extra == YZ_EXTRA_NONE || !(mask >> s->yahtzee_slot & 1u)) return;
    /* Five of a kind after the Yahtzee box is filled: bonus, jokers and forced boxes. */
    for (int w = 0; w < LANES; w++) {
        yz_card card;
        card_of_state(s, st[w], &card);
        for (int face = 1; face <= YZ_N_FACES; face++) {
            yz_roll roll = {
                {(uint8_t)face, (uint8_t)face, (uint8_t)face, (uint8_t)face, (uint8_t)face}};
            yz_option options[YZ_BOX_COUNT];
            int n_options = yz_rules_options(&s->rules, &card, &roll, options);
            double best = -1e300;
            for (int i = 0; i < n_options; i++) {
                double v = options[i].bonus + option_value(s, st[w], slot_of_box(s, options[i].box),
                                                           options[i].points);
                if (v > best) best = v;
            }
            roll_value[s->yahtzee_roll[face]][w] = best;
        }
    }
}

/* The turn from the lanes' states: keep values with one and two throws left, and the states'
 * values. */
typedef struct {
    lanes keeps_last[N_KEEPS];   /* keep values when the next throw is the last */
    lanes keeps_second[N_KEEPS]; /* keep values when two throws remain after this keep */
    lanes scratch[N_KEEPS];
} turn;

static void solve_turn(const yz_strategy *s, const state st[LANES], turn *t, double value[LANES])
{
    const dice_sets *sets = s->sets;
    int first_roll = sets->first_of_size[YZ_N_DICE];
    /* No throws left: the best box. */
    score_rolls(s, st, &t->keeps_last[first_roll]);
    expect_keeps(sets, t->keeps_last);
    /* One throw left: the best keep of each roll. */
    best_sub_keeps(sets, t->keeps_last, t->scratch);
    memcpy(&t->keeps_second[first_roll], &t->scratch[first_roll],
           YZ_N_DISTINCT_ROLLS * sizeof(lanes));
    expect_keeps(sets, t->keeps_second);
    /* Two throws left, then the first throw of all five dice. */
    best_sub_keeps(sets, t->keeps_second, t->scratch);
    expect_keeps(sets, t->scratch);
    for (int w = 0; w < LANES; w++)
        value[w] = t->scratch[0][w];
}

/* The turn of one state (every lane the same), for advice. */
static void solve_one_turn(const yz_strategy *s, state st, turn *t)
{
    state same[LANES];
    double value[LANES];
    for (int w = 0; w < LANES; w++)
        same[w] = st;
    solve_turn(s, same, t, value);
}

/* ---- building ----------------------------------------------------------------------------- */

typedef struct {
    yz_strategy *strategy;
    const state *states; /* grouped by mask */
    size_t n_states;
    atomic_size_t next;
} layer_job;

typedef struct {
    layer_job *job;
    turn *scratch; /* this worker's own */
} layer_worker;

static void *solve_layer(void *arg)
{
    layer_job *job = ((layer_worker *)arg)->job;
    turn *t = ((layer_worker *)arg)->scratch;
    yz_strategy *s = job->strategy;
    enum { CHUNK = 64 };
    for (;;) {
        size_t start = atomic_fetch_add(&job->next, CHUNK);
        if (start >= job->n_states) break;
        size_t end = start + CHUNK < job->n_states ? start + CHUNK : job->n_states;
        for (size_t i = start; i < end;) {
            /* Up to LANES states with the same mask; short groups repeat their last state. */
            state group[LANES];
            size_t n = 0;
            while (n < LANES && i + n < end && job->states[i + n].mask == job->states[i].mask) {
                group[n] = job->states[i + n];
                n++;
            }
            for (size_t w = n; w < LANES; w++)
                group[w] = group[n - 1];
            double value[LANES];
            solve_turn(s, group, t, value);
            for (size_t w = 0; w < n; w++)
                s->values[state_index(s, group[w])] = value[w];
            i += n;
        }
    }
    return NULL;
}

static void compute_upper_reachable(yz_strategy *s)
{
    memset(s->upper_reachable, 0, sizeof s->upper_reachable);
    s->upper_reachable[0][0] = 1;
    for (unsigned mask = 1; mask < 64; mask++) {
        int face_bit = __builtin_ctz(mask);
        unsigned rest = mask & ~(1u << face_bit);
        for (int u = 0; u < N_UPPER; u++) {
            if (!s->upper_reachable[rest][u]) continue;
            for (int n = 0; n <= YZ_N_DICE; n++) {
                int total = u + n * (face_bit + 1);
                s->upper_reachable[mask][total > N_UPPER - 1 ? N_UPPER - 1 : total] = 1;
            }
        }
    }
}

/* XXH64 (Yann Collet's xxHash, 64-bit, BSD-2): four independent lanes of multiply-rotate over
 * 32-byte stripes, so it runs at memory speed; the table checksum (see the top of the file). */
#define XXH_P1 11400714785074694791ull
#define XXH_P2 14029467366897019727ull
#define XXH_P3 1609587929392839161ull
#define XXH_P4 9650029242287828579ull
#define XXH_P5 2870177450012600261ull

static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t read_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v; /* little-endian hosts only, as the table's byte-order mark already requires */
}

static uint64_t xxh_round(uint64_t acc, uint64_t input)
{
    return rotl64(acc + input * XXH_P2, 31) * XXH_P1;
}

static uint64_t xxh_merge(uint64_t acc, uint64_t lane)
{
    return (acc ^ xxh_round(0, lane)) * XXH_P1 + XXH_P4;
}

static uint64_t xxh64(const void *data, size_t len)
{
    const uint8_t *p = data, *end = p + len;
    uint64_t h;
    if (len >= 32) {
        uint64_t v1 = XXH_P1 + XXH_P2, v2 = XXH_P2, v3 = 0, v4 = -XXH_P1;
        for (; p + 32 <= end; p += 32) {
            v1 = xxh_round(v1, read_u64(p));
            v2 = xxh_round(v2, read_u64(p + 8));
            v3 = xxh_round(v3, read_u64(p + 16));
            v4 = xxh_round(v4, read_u64(p + 24));
        }
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = xxh_merge(xxh_merge(xxh_merge(xxh_merge(h, v1), v2), v3), v4);
    } else {
        h = XXH_P5;
    }
    h += len;
    for (; p + 8 <= end; p += 8)
        h = rotl64(h ^ xxh_round(0, read_u64(p)), 27) * XXH_P1 + XXH_P4;
    if (p + 4 <= end) {
        uint32_t v;
        memcpy(&v, p, 4);
        h = rotl64(h ^ (uint64_t)v * XXH_P1, 23) * XXH_P2 + XXH_P3;
        p += 4;
    }
    for (; p < end; p++)
        h = rotl64(h ^ *p * XXH_P5, 11) * XXH_P1;
    h ^= h >> 33;
    h *= XXH_P2;
    h ^= h >> 29;
    h *= XXH_P3;
    return h ^ (h >> 32);
}

static uint64_t fnv1a(uint64_t hash, const void *data, size_t len)
{
    const uint8_t *bytes = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= bytes[i];
        hash *= 1099511628211ull;
    }
    return hash;
}

/* Changes whenever anything that the values depend on changes. */
static uint64_t rules_fingerprint(const yz_strategy *s)
{
    uint64_t hash = 14695981039346656037ull;
    hash = fnv1a(hash, s->points, sizeof(int16_t) * YZ_BOX_COUNT * YZ_N_DISTINCT_ROLLS);
    int numbers[] = {
        s->rules.n_boxes,      s->rules.upper_bonus_threshold, s->rules.upper_bonus,
        (int)s->rules.extra,   s->rules.extra_yahtzee_bonus,   s->rules.yahtzee_points,
        s->rules.house_points, s->rules.small_straight_points, s->rules.large_straight_points,
        (int)s->rules.house};
    hash = fnv1a(hash, numbers, sizeof numbers);
    hash = fnv1a(hash, s->rules.boxes, sizeof(yz_box) * (size_t)s->rules.n_boxes);
    return hash;
}

static yz_status strategy_new(const yz_profile *profile, int no_extra_rules, int own_values,
                              yz_strategy **out, yz_rules_error *err)
{
    yz_strategy *s = yz_rules_alloc(sizeof *s);
    if (!s) goto nomem;
    memset(s, 0, sizeof *s);
    s->profile = profile;
    s->rules = *profile;
    if (no_extra_rules) {
        s->rules.extra = YZ_EXTRA_NONE;
        s->rules.extra_yahtzee_bonus = 0;
    }
    s->yahtzee_slot = slot_of_box(s, YZ_BOX_YAHTZEE);
    s->n_flags = s->rules.extra != YZ_EXTRA_NONE ? 2 : 1;
    s->n_values = ((size_t)1 << s->rules.n_boxes) * N_UPPER * (size_t)s->n_flags;
    s->sets = yz_rules_alloc(sizeof *s->sets);
    s->points = yz_rules_alloc(sizeof(*s->points) * YZ_N_DISTINCT_ROLLS);
    s->slot_points = yz_rules_alloc(sizeof(*s->slot_points) * YZ_BOX_COUNT);
    s->values = own_values ? yz_rules_alloc(sizeof(double) * s->n_values) : NULL;
    s->values_borrowed = !own_values;
    if (!s->sets || !s->points || !s->slot_points || (own_values && !s->values)) goto nomem;
    if (own_values) memset(s->values, 0, sizeof(double) * s->n_values);
    memset(s->points, 0, sizeof(*s->points) * YZ_N_DISTINCT_ROLLS); /* hashed whole */
    dice_sets_init(s->sets);
    for (int r = 0; r < YZ_N_DISTINCT_ROLLS; r++) {
        yz_roll roll;
        yz_rules_roll_from_index(r, &roll);
        for (int slot = 0; slot < s->rules.n_boxes; slot++) {
            s->points[r][slot] =
                (int16_t)yz_rules_box_points(&s->rules, s->rules.boxes[slot], &roll);
            s->slot_points[slot][r] = s->points[r][slot];
        }
        for (int face = 1; face <= YZ_N_FACES; face++) {
            int count = 0;
            for (int i = 0; i < YZ_N_DICE; i++)
                count += roll.dice[i] == face;
            s->face_count[face][r] = (uint8_t)count;
            if (count == YZ_N_DICE) s->yahtzee_roll[face] = r;
        }
    }
    compute_upper_reachable(s);
    *out = s;
    return YZ_OK;
nomem:
    yz_strategy_free(s);
    yz_rules_set_error(err, YZ_ERR_NOMEM, "out of memory for the %s strategy table", profile->name);
    return YZ_ERR_NOMEM;
}

void yz_strategy_free(yz_strategy *s)
{
    if (!s) return;
    yz_rules_release(s->sets);
    yz_rules_release(s->points);
    yz_rules_release(s->slot_points);
    if (!s->values_borrowed)
        yz_rules_release(s->values);
    else if (s->release)
        s->release(s->release_ctx);
    yz_rules_release(s);
}

const yz_profile *yz_strategy_profile(const yz_strategy *s)
{
    return s->profile;
}

yz_status yz_strategy_build(const yz_profile *profile, const yz_strategy_options *options,
                            yz_strategy **out, yz_rules_error *err)
{
    yz_strategy_options defaults = {0};
    if (!options) options = &defaults;
    if (profile->upper_bonus_threshold != N_UPPER - 1) {
        yz_rules_set_error(err, YZ_ERR_DATA, "%s: the solver needs an upper bonus at 63",
                           profile->name);
        return YZ_ERR_DATA;
    }
    yz_strategy *s;
    yz_status status = strategy_new(profile, options->no_extra_rules, 1, &s, err);
    if (status != YZ_OK) return status;
    int n_threads = options->n_threads > 0 ? options->n_threads : 2;
    if (n_threads > 64) n_threads = 64;
    unsigned full = (1u << s->rules.n_boxes) - 1;
    state *states = yz_rules_alloc(sizeof(state) * ((size_t)1 << s->rules.n_boxes) * N_UPPER *
                                   (size_t)s->n_flags);
    turn *scratch = yz_rules_alloc(sizeof(turn) * (size_t)n_threads);
    if (!states || !scratch) {
        yz_rules_release(states);
        yz_rules_release(scratch);
        yz_strategy_free(s);
        yz_rules_set_error(err, YZ_ERR_NOMEM, "out of memory for the %s state list", profile->name);
        return YZ_ERR_NOMEM;
    }
    /* Progress weighs each mask by its open boxes: the first layers solved (few open boxes)
       are quick, the last ones are the bulk of the work. */
    double total_weight = 0, done_weight = 0;
    for (unsigned mask = 0; mask < full; mask++)
        total_weight += (double)__builtin_popcount(~mask & full);
    for (int filled = s->rules.n_boxes - 1; filled >= 0; filled--) {
        size_t n_states = 0;
        for (unsigned mask = 0; mask < full; mask++) {
            if (__builtin_popcount(mask) != filled) continue;
            done_weight += (double)(s->rules.n_boxes - filled);
            for (int upper = 0; upper < N_UPPER; upper++)
                for (int flag = 0; flag < s->n_flags; flag++) {
                    state st = {mask, upper, flag};
                    if (state_is_reachable(s, st)) states[n_states++] = st;
                }
        }
        layer_job job = {s, states, n_states, 0};
        layer_worker workers[64];
        pthread_t threads[64];
        int started = 0;
        for (int i = 0; i < n_threads; i++)
            workers[i] = (layer_worker){&job, &scratch[i]};
        for (int i = 1; i < n_threads; i++)
            if (pthread_create(&threads[started], NULL, solve_layer, &workers[started + 1]) == 0)
                started++;
        solve_layer(&workers[0]); /* this thread works too; a failed pthread_create only slows us */
        for (int i = 0; i < started; i++)
            pthread_join(threads[i], NULL);
        if (options->progress) options->progress(options->progress_ctx, done_weight / total_weight);
    }
    yz_rules_release(states);
    yz_rules_release(scratch);
    *out = s;
    return YZ_OK;
}

double yz_strategy_expected_total(const yz_strategy *s, const yz_card *card)
{
    yz_totals totals;
    yz_rules_totals(s->profile, card, &totals);
    state st = state_of_card(s, card);
    return totals.total + s->values[state_index(s, st)];
}

/* ---- advice ------------------------------------------------------------------------------- */

static int compare_keeps(const void *a, const void *b)
{
    double ea = ((const yz_keep_advice *)a)->expected, eb = ((const yz_keep_advice *)b)->expected;
    return ea < eb ? 1 : ea > eb ? -1 : 0;
}

int yz_advise_keeps(const yz_strategy *s, const yz_card *card, const yz_roll *roll, int throws_left,
                    yz_keep_advice *out, int max_out)
{
    if (throws_left < 1 || throws_left > 2 || yz_rules_card_is_full(s->profile, card)) return 0;
    turn t;
    solve_one_turn(s, state_of_card(s, card), &t);
    const lanes *keep_value = throws_left == 1 ? t.keeps_last : t.keeps_second;
    yz_totals totals;
    yz_rules_totals(s->profile, card, &totals);

    /* Every distinct sub-multiset of the roll. */
    yz_keep_advice all[32];
    int n_all = 0;
    int roll_counts[YZ_N_FACES + 1] = {0};
    for (int i = 0; i < YZ_N_DICE; i++)
        roll_counts[roll->dice[i]]++;
    for (int k = 0; k < N_KEEPS; k++) {
        const uint8_t *counts = s->sets->counts[k];
        int fits = 1;
        for (int face = 1; face <= YZ_N_FACES; face++)
            if (counts[face] > roll_counts[face]) fits = 0;
        if (!fits) continue;
        yz_keep_advice *advice = &all[n_all++];
        advice->n_keep = 0;
        for (int face = 1; face <= YZ_N_FACES; face++)
            for (int n = 0; n < counts[face]; n++)
                advice->keep[advice->n_keep++] = (uint8_t)face;
        advice->expected = totals.total + keep_value[k][0];
    }
    qsort(all, (size_t)n_all, sizeof all[0], compare_keeps);
    int n_out = n_all < max_out ? n_all : max_out;
    memcpy(out, all, sizeof all[0] * (size_t)n_out);
    return n_out;
}

static int compare_boxes(const void *a, const void *b)
{
    double ea = ((const yz_box_advice *)a)->expected, eb = ((const yz_box_advice *)b)->expected;
    return ea < eb ? 1 : ea > eb ? -1 : 0;
}

int yz_advise_boxes(const yz_strategy *s, const yz_card *card, const yz_roll *roll,
                    yz_box_advice *out, int max_out)
{
    yz_option options[YZ_BOX_COUNT];
    int n_options = yz_rules_options(&s->rules, card, roll, options);
    yz_totals totals;
    yz_rules_totals(s->profile, card, &totals);
    state st = state_of_card(s, card);
    yz_box_advice all[YZ_BOX_COUNT];
    for (int i = 0; i < n_options; i++) {
        all[i].option = options[i];
        all[i].expected = totals.total + options[i].bonus +
                          option_value(s, st, slot_of_box(s, options[i].box), options[i].points);
    }
    qsort(all, (size_t)n_options, sizeof all[0], compare_boxes);
    int n_out = n_options < max_out ? n_options : max_out;
    memcpy(out, all, sizeof all[0] * (size_t)n_out);
    return n_out;
}

int yz_advise_turn(const yz_strategy *s, const yz_card *card, const yz_roll *roll, int throws_left,
                   yz_turn_advice *out)
{
    memset(out, 0, sizeof *out);
    out->throws_left = throws_left;
    if (throws_left > 0 && yz_advise_keeps(s, card, roll, throws_left, &out->keep, 1) &&
        out->keep.n_keep < YZ_N_DICE) {
        out->keeping = 1;
        return 1;
    }
    memset(&out->keep, 0, sizeof out->keep);
    return yz_advise_boxes(s, card, roll, &out->box, 1) == 1;
}

/* ---- serialization ------------------------------------------------------------------------ */

yz_status yz_strategy_serialize(const yz_strategy *s, uint8_t **buf, size_t *len,
                                yz_rules_error *err)
{
    size_t size = HEADER_BYTES + s->n_values * sizeof(double) + sizeof(uint64_t);
    uint8_t *bytes = malloc(size); /* freed by the caller with free(), as documented */
    if (!bytes) {
        yz_rules_set_error(err, YZ_ERR_NOMEM, "out of memory serializing the strategy");
        return YZ_ERR_NOMEM;
    }
    memset(bytes, 0, HEADER_BYTES);
    memcpy(bytes, "YZSTRAT", 8);
    uint32_t version = YZ_STRATEGY_VERSION, bom = 0x01020304u;
    uint32_t n_boxes = (uint32_t)s->rules.n_boxes, n_flags = (uint32_t)s->n_flags;
    uint64_t fingerprint = rules_fingerprint(s);
    memcpy(bytes + 8, &version, 4);
    memcpy(bytes + 12, &bom, 4);
    strncpy((char *)bytes + 16, s->profile->name, 31);
    memcpy(bytes + 48, &fingerprint, 8);
    memcpy(bytes + 56, &n_boxes, 4);
    memcpy(bytes + 60, &n_flags, 4);
    memcpy(bytes + HEADER_BYTES, s->values, s->n_values * sizeof(double));
    uint64_t checksum = xxh64(bytes, size - sizeof(uint64_t));
    memcpy(bytes + size - sizeof(uint64_t), &checksum, sizeof checksum);
    *buf = bytes;
    *len = size;
    return YZ_OK;
}

/* Checks buf as a table for profile into the new strategy s (values not yet set); NULL when it
 * fits, else why not. */
static const char *check_table(const yz_strategy *s, const yz_profile *profile, const uint8_t *buf,
                               size_t len)
{
    size_t size = HEADER_BYTES + s->n_values * sizeof(double) + sizeof(uint64_t);
    uint32_t version = 0, bom = 0, n_boxes = 0, n_flags = 0;
    uint64_t fingerprint = 0, checksum = 0;
    char name[33] = {0};
    if (len != size || memcmp(buf, "YZSTRAT", 8) != 0) return "not a strategy table of this size";
    memcpy(&version, buf + 8, 4);
    memcpy(&bom, buf + 12, 4);
    memcpy(name, buf + 16, 32);
    memcpy(&fingerprint, buf + 48, 8);
    memcpy(&n_boxes, buf + 56, 4);
    memcpy(&n_flags, buf + 60, 4);
    memcpy(&checksum, buf + size - sizeof(uint64_t), 8);
    if (version != YZ_STRATEGY_VERSION || bom != 0x01020304u) return "made by another version";
    if (strcmp(name, profile->name) != 0 || fingerprint != rules_fingerprint(s) ||
        n_boxes != (uint32_t)s->rules.n_boxes || n_flags != (uint32_t)s->n_flags)
        return "made for other rules";
    if (checksum != xxh64(buf, size - sizeof(uint64_t))) return "checksum mismatch";
    return NULL;
}

static yz_status deserialize(const yz_profile *profile, const uint8_t *buf, size_t len, int borrow,
                             yz_strategy **out, yz_rules_error *err)
{
    if (borrow && ((uintptr_t)(buf + HEADER_BYTES) % _Alignof(double)) != 0) {
        yz_rules_set_error(err, YZ_ERR_USAGE, "strategy table for %s: buffer not 8-byte aligned",
                           profile->name);
        return YZ_ERR_USAGE;
    }
    yz_strategy *s;
    yz_status status = strategy_new(profile, 0, !borrow, &s, err);
    if (status != YZ_OK) return status;
    const char *why = check_table(s, profile, buf, len);
    if (why) {
        yz_strategy_free(s);
        yz_rules_set_error(err, YZ_ERR_FORMAT, "strategy table for %s: %s", profile->name, why);
        return YZ_ERR_FORMAT;
    }
    if (borrow)
        s->values = (double *)(uintptr_t)(buf + HEADER_BYTES); /* read only, never written */
    else
        memcpy(s->values, buf + HEADER_BYTES, s->n_values * sizeof(double));
    *out = s;
    return YZ_OK;
}

yz_status yz_strategy_deserialize(const yz_profile *profile, const uint8_t *buf, size_t len,
                                  yz_strategy **out, yz_rules_error *err)
{
    return deserialize(profile, buf, len, 0, out, err);
}

yz_status yz_strategy_deserialize_borrowed(const yz_profile *profile, const uint8_t *buf,
                                           size_t len, void (*release)(void *ctx), void *ctx,
                                           yz_strategy **out, yz_rules_error *err)
{
    yz_status status = deserialize(profile, buf, len, 1, out, err);
    if (status == YZ_OK) {
        (*out)->release = release;
        (*out)->release_ctx = ctx;
    }
    return status;
}
