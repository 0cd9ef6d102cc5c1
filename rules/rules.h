/* rules.h - librules: the scoring rules of every supported rulebook, and the optimal advisor.
 *
 * What it promises:
 * - Pure C, no I/O, no globals that change, no printing. Every function that can fail returns
 *   a yz_status and fills a yz_rules_error whose message names the field at fault.
 * - A profile (yz_profile) is one rulebook as data: its boxes, how each box scores, the upper
 *   bonus, what happens to a second five-of-a-kind, the tiebreak order.
 * - A card (yz_card) is one player's scorecard. yz_rules_options() lists exactly the boxes a
 *   roll may legally go into, with the points each scores and any extra-Yahtzee bonus;
 *   yz_rules_score() fills one of them and refuses anything else without changing the card.
 * - yz_strategy is the exact solitaire optimum of a profile (dynamic programming over
 *   scorecard states); the yz_advise_... functions answer "what keeps / which box" from it.
 */
#ifndef YZ_RULES_H
#define YZ_RULES_H

#include <stddef.h>
#include <stdint.h>

#define YZ_N_DICE 5
#define YZ_N_FACES 6
#define YZ_MAX_PLAYERS 6
#define YZ_N_DISTINCT_ROLLS 252

typedef enum {
    YZ_OK = 0,
    YZ_ERR_USAGE = 1,  /* a malformed argument (roll string, box name, profile name) */
    YZ_ERR_DATA = 2,   /* well-formed but impossible or illegal (a filled box, a Fours of 7) */
    YZ_ERR_NOMEM = 3,  /* an allocation failed */
    YZ_ERR_FORMAT = 4, /* a serialized table that is truncated, corrupt or of another version */
} yz_status;

typedef struct {
    yz_status code;
    char message[256];
} yz_rules_error;

/* Every box any profile knows. A profile uses a subset, in its own display order. */
typedef enum {
    YZ_BOX_ONES,
    YZ_BOX_TWOS,
    YZ_BOX_THREES,
    YZ_BOX_FOURS,
    YZ_BOX_FIVES,
    YZ_BOX_SIXES,
    YZ_BOX_ONE_PAIR,
    YZ_BOX_TWO_PAIRS,
    YZ_BOX_THREE_KIND,
    YZ_BOX_FOUR_KIND,
    YZ_BOX_FULL_HOUSE,
    YZ_BOX_SMALL_STRAIGHT,
    YZ_BOX_LARGE_STRAIGHT,
    YZ_BOX_YAHTZEE,
    YZ_BOX_CHANCE,
    YZ_BOX_COUNT
} yz_box;

#define YZ_BOX_IS_UPPER(box) ((box) <= YZ_BOX_SIXES)

/* How the lower boxes score; each profile picks one of each. */
typedef enum {
    YZ_KIND_SUM_ALL,      /* 3/4 of a Kind score the total of all five dice (Yahtzee) */
    YZ_KIND_SUM_MATCHING, /* ...score only the matching dice, highest qualifying face (Yatzy) */
} yz_kind_scoring;

typedef enum {
    YZ_HOUSE_FIXED, /* Full House scores house_points */
    YZ_HOUSE_SUM,   /* Full House scores the total of the dice (Scandinavian) */
} yz_house_scoring;

typedef enum {
    YZ_STRAIGHT_RUNS,  /* small = any four in a row, large = any five in a row */
    YZ_STRAIGHT_FIXED, /* small = exactly 1-2-3-4-5, large = exactly 2-3-4-5-6 (Scandinavian) */
} yz_straight_scoring;

/* What happens to a five-of-a-kind once the Yahtzee box is filled. */
typedef enum {
    YZ_EXTRA_NONE,   /* no bonus, no joker: score it like any roll (Yatzy) */
    YZ_EXTRA_FREE,   /* bonus; any open box; joker in a lower box if its upper box is filled */
    YZ_EXTRA_FORCED, /* bonus; matching upper box if open, else any lower box as a joker,
                        else a zero in an upper box (Hasbro's rule sheet) */
    YZ_EXTRA_TLG,    /* bonus; matching upper box if open, else a zero in an upper box, no joker */
    YZ_EXTRA_BELKNAP /* bonus; matching upper box if open; after a scratched Yahtzee box only
                        open upper boxes or Chance */
} yz_extra_policy;

/* One key of a tiebreak order: a box's score, the upper total, or "who went first". */
typedef enum { YZ_TIE_BOX, YZ_TIE_UPPER_TOTAL, YZ_TIE_FIRST_PLAYER, YZ_TIE_END } yz_tie_kind;

typedef struct {
    yz_tie_kind kind;
    yz_box box; /* for YZ_TIE_BOX */
} yz_tiebreak;

typedef struct {
    const char *name;  /* "yahtzee", the --rules name */
    const char *title; /* one line: the rulebook it follows */
    int n_boxes;
    yz_box boxes[YZ_BOX_COUNT];           /* display order */
    const char *box_labels[YZ_BOX_COUNT]; /* indexed by yz_box: "Aces", "House", ... */
    yz_kind_scoring kinds;
    yz_house_scoring house;
    int house_points;
    yz_straight_scoring straights;
    int small_straight_points, large_straight_points;
    int yahtzee_points;
    int upper_bonus_threshold, upper_bonus;
    yz_extra_policy extra;
    int extra_yahtzee_bonus;
    int min_players, max_players;
    yz_tiebreak tiebreak[10]; /* ends with YZ_TIE_END; none = ties stand */
    const char *notes[8];     /* the special rules and silent-rulebook choices, in words */
} yz_profile;

/* The profiles, in a fixed order; the first is the default. */
size_t yz_rules_profile_count(void);
const yz_profile *yz_rules_profile_at(size_t index);
/* NULL if no profile has this name. */
const yz_profile *yz_rules_profile_find(const char *name);
const yz_profile *yz_rules_profile_default(void);

/* Box names as used in cards and JSON: "aces", ..., "three_kind", "yahtzee", "one_pair".
 * yz_rules_box_name() takes the profile's own spelling into account only through labels;
 * the machine names are the same for every profile. */
const char *yz_rules_box_name(yz_box box);
/* Returns YZ_OK and sets *box if name is a box of this profile: its machine name, any profile's
 * label ("Threes", "Full House", "3 of a Kind", "Lg Straight"), or a short name ("3k", "fh",
 * "ss", "lg", "6s"), ignoring case, spaces, underscores and hyphens. Otherwise YZ_ERR_USAGE, the
 * message suggesting the nearest box on a typo and listing the profile's boxes. */
yz_status yz_rules_box_parse(const yz_profile *profile, const char *name, yz_box *box,
                             yz_rules_error *err);
int yz_rules_profile_has_box(const yz_profile *profile, yz_box box);
/* Edit distance (insertions, deletions, substitutions, swaps of neighbours) between two names of
 * at most 31 characters (99 for a longer one): how far a typo is, for every "did you mean". */
int yz_rules_name_distance(const char *a, const char *b);

typedef struct {
    uint8_t dice[YZ_N_DICE]; /* each 1..6, in the order thrown */
} yz_roll;

/* Parses "5,2,5,6,5" (commas or spaces). what names the argument in error messages. */
yz_status yz_rules_roll_parse(const char *text, const char *what, yz_roll *roll,
                              yz_rules_error *err);
int yz_rules_roll_is_yahtzee(const yz_roll *roll);

#define YZ_OPEN (-1)
typedef struct {
    int16_t points[YZ_BOX_COUNT]; /* YZ_OPEN, or the points written in the box */
    int16_t extra_yahtzees;       /* extra-Yahtzee bonuses earned so far */
} yz_card;

void yz_rules_card_init(yz_card *card);
int yz_rules_card_is_open(const yz_card *card, yz_box box);
/* Writes a value read from a file into the card, checking that the profile has the box, that
 * it is still open, and that some roll could have scored value there. */
yz_status yz_rules_card_set(const yz_profile *profile, yz_card *card, yz_box box, int value,
                            yz_rules_error *err);
/* Checks what yz_rules_card_set cannot see box by box (the extra-Yahtzee count). */
yz_status yz_rules_card_check(const yz_profile *profile, const yz_card *card, yz_rules_error *err);
int yz_rules_card_is_full(const yz_profile *profile, const yz_card *card);

/* Points one box gives a roll on its own, without joker or forced-box rules. */
int yz_rules_box_points(const yz_profile *profile, yz_box box, const yz_roll *roll);

typedef struct {
    yz_box box;
    int points; /* written in the box */
    int bonus;  /* extra-Yahtzee bonus earned by this throw (same for every option) */
    int joker;  /* points come from the joker rule */
} yz_option;

/* Fills out[] with every box this roll may legally be scored in, in the profile's display
 * order, and returns how many (0 only when the card is full). */
int yz_rules_options(const yz_profile *profile, const yz_card *card, const yz_roll *roll,
                     yz_option out[YZ_BOX_COUNT]);

/* Scores roll in box. Refuses (YZ_ERR_DATA, card untouched) a box that is not a legal option. */
yz_status yz_rules_score(const yz_profile *profile, yz_card *card, const yz_roll *roll, yz_box box,
                         yz_option *scored, yz_rules_error *err);

typedef struct {
    int upper; /* sum of the upper boxes */
    int upper_bonus;
    int lower;         /* sum of the other boxes */
    int yahtzee_bonus; /* extra-Yahtzee bonuses */
    int total;
} yz_totals;

void yz_rules_totals(const yz_profile *profile, const yz_card *card, yz_totals *totals);

/* Ranks players by total, then by the profile's tiebreak. order[] receives player indices,
 * best first; place[i] the 1-based place of player i (equal places for a tie that stands). */
void yz_rules_standings(const yz_profile *profile, const yz_card *cards, int n_players, int order[],
                        int place[]);

/* ---- A game: players taking turns ------------------------------------------------------- */

#define YZ_MAX_THROWS 3
#define YZ_NAME_MAX 32

/* Whose turn, which throw, the dice, and every player's card. Changed only through the
 * yz_game_... calls below, each of which refuses an illegal move and leaves the game as it was. */
typedef struct {
    const yz_profile *profile;
    int n_players;
    char names[YZ_MAX_PLAYERS][YZ_NAME_MAX];
    yz_card cards[YZ_MAX_PLAYERS];
    int current;             /* whose turn */
    int throws;              /* throws made this turn, 0..YZ_MAX_THROWS */
    yz_roll dice;            /* after the last throw, when throws > 0 */
    uint8_t kept[YZ_N_DICE]; /* dice set aside for the next throw, ascending */
    int n_kept;
} yz_game;

/* Names must be 1-31 printable characters, different from each other; the number of players
 * must be within the profile's min_players..max_players. */
yz_status yz_game_init(yz_game *game, const yz_profile *profile, const char *const names[],
                       int n_players, yz_rules_error *err);
/* A throw of all five dice as they now lie; after a keep the kept dice must be among them. */
yz_status yz_game_throw(yz_game *game, const yz_roll *dice, yz_rules_error *err);
/* Sets dice aside before the next throw; they must be among the dice thrown. */
yz_status yz_game_keep(yz_game *game, const uint8_t *kept, int n_kept, yz_rules_error *err);
/* Scores the dice in box for the current player, then the turn passes. */
yz_status yz_game_score(yz_game *game, yz_box box, yz_option *scored, yz_rules_error *err);
int yz_game_is_over(const yz_game *game);
/* 1-based round of the current turn (1..number of boxes). */
int yz_game_round(const yz_game *game);
/* Index of the player with this name, or -1. */
int yz_game_player(const yz_game *game, const char *name);
/* Throws the current player may still make this turn: YZ_MAX_THROWS before the first throw, 0
 * after the last. With after_next, the throws left once the throw being made now (a photo not
 * yet recorded) is counted: 2 before the first throw, never below 0. */
int yz_game_throws_left(const yz_game *game, int after_next);

/* ---- The optimal advisor --------------------------------------------------------------- */

typedef struct yz_strategy yz_strategy;

/* Options for building a strategy; zero-initialise, then set what you need. */
typedef struct {
    int n_threads;                                /* 0 = 2 */
    void (*progress)(void *ctx, double fraction); /* called from the calling thread */
    void *progress_ctx;
    int no_extra_rules; /* test switch: ignore extra-Yahtzee bonus and jokers */
} yz_strategy_options;

/* Solves the profile: the expected future score of every scorecard state under optimal play. */
yz_status yz_strategy_build(const yz_profile *profile, const yz_strategy_options *options,
                            yz_strategy **out, yz_rules_error *err);
void yz_strategy_free(yz_strategy *strategy);
const yz_profile *yz_strategy_profile(const yz_strategy *strategy);

/* Expected final score (points already on the card plus optimal future play) before a turn. */
double yz_strategy_expected_total(const yz_strategy *strategy, const yz_card *card);

/* Serialized table: a versioned header, the states, a checksum. See strategy.c for the layout.
 * yz_strategy_serialize allocates *buf (free() it). */
yz_status yz_strategy_serialize(const yz_strategy *strategy, uint8_t **buf, size_t *len,
                                yz_rules_error *err);
yz_status yz_strategy_deserialize(const yz_profile *profile, const uint8_t *buf, size_t len,
                                  yz_strategy **out, yz_rules_error *err);
/* The same without copying the values: they are read in place from buf (8-byte aligned at
 * offset 64, e.g. a file mapped with mmap), which must stay valid and unchanged until
 * yz_strategy_free, which then calls release(ctx) when release is not NULL. On an error buf is
 * not kept and release is not called. */
yz_status yz_strategy_deserialize_borrowed(const yz_profile *profile, const uint8_t *buf,
                                           size_t len, void (*release)(void *ctx), void *ctx,
                                           yz_strategy **out, yz_rules_error *err);

typedef struct {
    uint8_t keep[YZ_N_DICE]; /* the dice to keep, ascending */
    int n_keep;
    double expected; /* expected final score of the game */
} yz_keep_advice;

typedef struct {
    yz_option option;
    double expected; /* expected final score of the game after scoring here */
} yz_box_advice;

/* With throws_left 1 or 2: every distinct keep, best first. Returns how many were written. */
int yz_advise_keeps(const yz_strategy *strategy, const yz_card *card, const yz_roll *roll,
                    int throws_left, yz_keep_advice *out, int max_out);
/* With no throws left: every legal box, best first. Returns how many were written. */
int yz_advise_boxes(const yz_strategy *strategy, const yz_card *card, const yz_roll *roll,
                    yz_box_advice *out, int max_out);

/* The turn decision: keep dice and throw the rest again, or score now. */
typedef struct {
    int keeping;         /* 1: set keep.keep aside and throw the others; 0: score box */
    int throws_left;     /* as asked */
    yz_keep_advice keep; /* meaningful when keep */
    yz_box_advice box;   /* meaningful when !keep */
} yz_turn_advice;

/* What to do with roll: with a throw left, keep the best keep's dice and throw again, unless the
 * best keep is all five dice (then score, as after the last throw); with none left, score the
 * best box. Returns 1, or 0 when the card is full (nothing to advise, *out zeroed). */
int yz_advise_turn(const yz_strategy *strategy, const yz_card *card, const yz_roll *roll,
                   int throws_left, yz_turn_advice *out);

/* ---- Reviewing a game ------------------------------------------------------------------ */

/* One turn of one player as it was played: each throw (all five dice as they lay), the dice
 * set aside before each next throw, and the box scored. keeps[i] was set aside after throw
 * i + 1 (empty: every die thrown again). A turn still being played has scored = 0 and may end
 * with a keep whose throw has not come yet (n_keeps == n_throws). */
typedef struct {
    int n_throws; /* 1..YZ_MAX_THROWS */
    yz_roll throws[YZ_MAX_THROWS];
    int n_keeps; /* n_throws - 1, or n_throws when a keep waits for its throw */
    uint8_t keeps[YZ_MAX_THROWS - 1][YZ_N_DICE];
    int n_kept[YZ_MAX_THROWS - 1];
    int scored; /* 1: the turn ended with the dice of the last throw in box */
    yz_box box;
} yz_review_turn;

/* How much a decision gave up: fine < 0.5 <= slip < 3 <= mistake < 10 <= blunder points. */
typedef enum {
    YZ_REVIEW_FINE,
    YZ_REVIEW_SLIP,
    YZ_REVIEW_MISTAKE,
    YZ_REVIEW_BLUNDER
} yz_review_class;
#define YZ_REVIEW_N_CLASSES 4

/* "fine", "slip", "mistake", "blunder". */
const char *yz_review_class_name(yz_review_class verdict);

/* One way to answer a throw: set dice aside and throw the rest, or score a box. */
typedef struct {
    int is_box;
    yz_box box;
    int points;              /* box: written in it plus any extra-Yahtzee bonus */
    uint8_t keep[YZ_N_DICE]; /* keep: the dice set aside, ascending (all five: stand pat) */
    int n_keep;
    double expected; /* expected final score of the game after this choice, optimal play on */
} yz_review_choice;

/* One decision: the answer to one throw. With throws left the choices are every keep and
 * every box (scoring early); with none, every box. */
typedef struct {
    int round;                     /* the player's turn, 1-based */
    int throw_number;              /* 1..3: the throw answered */
    int throws_left;               /* YZ_MAX_THROWS - throw_number */
    yz_roll dice;                  /* as thrown */
    yz_review_choice chosen, best; /* best is chosen when the choice was optimal */
    double given_up;               /* best.expected - chosen.expected, >= 0 */
    yz_review_class verdict;
    double before; /* expected final score before the throw */
    double luck;   /* best.expected - before: what the throw's dice did to the expectation */
} yz_review_decision;

#define YZ_REVIEW_MAX_DECISIONS (YZ_BOX_COUNT * YZ_MAX_THROWS)

/* One player's card reviewed as solitaire play: expectations are the solitaire optimum of the
 * strategy, which maximises the expected score, not the chance to beat the other players.
 * Every throw answered is a decision; a throw not answered yet (a game in progress) is not
 * reviewed yet. Summed over the decisions, in floating point to within 1e-6:
 *     optimum - given_up + luck == expected,
 * and expected == score once the card is full (its upper and extra-Yahtzee bonuses are in
 * every expectation, as in yz_strategy_expected_total). */
typedef struct {
    double optimum;  /* expected final score from an empty card */
    double given_up; /* summed over the decisions */
    double luck;     /* summed over the decisions */
    double expected; /* expected final score after the last decision reviewed */
    int score;       /* the card's total now */
    int complete;    /* the card is full */
    int counts[YZ_REVIEW_N_CLASSES];
    int n_decisions;
    yz_review_decision decisions[YZ_REVIEW_MAX_DECISIONS];
    int n_worst;  /* decisions that gave up something, at most 3 */
    int worst[3]; /* their indices in decisions[], the biggest first */
} yz_review;

/* Replays turns (one player's, from an empty card) through the rules and reviews each
 * decision with strategy's table. Refuses (YZ_ERR_DATA, naming the round and throw) a turn
 * the rules do not allow, and a turn left unscored that is not the last. Allocates nothing. */
yz_status yz_review_player(const yz_strategy *strategy, const yz_review_turn *turns, int n_turns,
                           yz_review *out, yz_rules_error *err);

#endif
