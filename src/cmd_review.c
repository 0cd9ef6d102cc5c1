/* cmd_review.c - `yardzee game review`: how well each player played a recorded game, decision
 * by decision, against the optimal advisor (rules/review.c does the reviewing).
 *
 * `game review --json` and GET /api/review print the same JSON, on one line:
 *   {"profile": "yahtzee",
 *    "solitaire": true,      each card reviewed as if its player played alone
 *    "complete": true,       the game is over (else: the moves so far)
 *    "optimum": 254.59,      expected final score of optimal play from an empty card
 *    "players": [{
 *      "name": "Ann",
 *      "final": 231,         the card's total (so far, in a game in progress)
 *      "expected": 231.0,    optimum - given_up + luck: the final score once the card is full,
 *                            else the expected final score after the last decision
 *      "given_up": 37.4, "luck": 13.8,
 *      "counts": {"fine": 30, "slip": 3, "mistake": 2, "blunder": 1},
 *      "worst": [up to 3 decisions that gave up points, the biggest first],
 *      "decisions": [every decision, in order]}]}
 * A decision answers one throw (every throw answered is one decision, so it carries that
 * throw's luck; a throw not answered yet is not in the review):
 *   {"round": 4, "throw": 2, "kind": "keep" | "box", "dice": [3,3,4,5,6], "throws_left": 1,
 *    "chosen": CHOICE, "best": CHOICE, "chosen_expected": 240.1, "best_expected": 244.3,
 *    "given_up": 4.2, "class": "fine" | "slip" | "mistake" | "blunder", "luck": -1.3}
 * where CHOICE is {"keep": [3,3], "text": "keep 3 3"} or {"box": "chance", "label": "Chance",
 * "points": 25, "text": "Chance 25"}; "best" equals "chosen" when the choice was optimal, and
 * may be a box for a keep (or a keep for a box scored with throws left).
 * The folder form (`game review DIR --json`) prints {"games": [{"file", "review": the above}],
 * "players": [{"name", "games", "wins", "mean_final", "mean_given_up", "mean_luck",
 * "counts"}], "left_out": [{"file", "why"}]}. */
#include <dirent.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "review.h"

#define DEFAULT_GAME_FILE "yardzee-game.json" /* as in cmd_game.c */

static const char review_help[] =
    "usage: yardzee game review [--file GAME.json | GAME.json] [--json] [--verbose]\n"
    "       yardzee game review DIR [--json]\n"
    "For each player, every decision of the game (each keep with throws left, each box) beside\n"
    "the optimal one, the expected final points it gave up (0 when optimal), classed fine\n"
    "(< 0.5), slip (< 3), mistake (< 10) or blunder, and the luck of the dice: at each throw,\n"
    "the expected final score after it minus before it, so that\n"
    "    optimum - given up + luck = final score.\n"
    "Each card is reviewed as solitaire play (the advisor maximises a player's expected score,\n"
    "not the chance to beat the others). A game in progress is reviewed up to its last move.\n"
    "--verbose lists every decision. DIR: every finished game file (*.json) in the folder, and a\n"
    "table of the players over them, the least given up first.\n";

/* ---- the turns of each player, from the moves ------------------------------------------- */

typedef struct {
    int n_turns[YZ_MAX_PLAYERS];
    yz_review_turn turns[YZ_MAX_PLAYERS][YZ_BOX_COUNT];
} game_turns;

static int read_dice(const json_t *array, uint8_t *dice)
{
    size_t n = json_array_size(array);
    for (size_t i = 0; i < n && i < YZ_N_DICE; i++)
        dice[i] = (uint8_t)json_integer_value(json_array_get(array, i));
    return n <= YZ_N_DICE ? (int)n : -1;
}

/* The moves were replayed through the rules when the file loaded; this only regroups them,
 * checking the bounds it relies on. Returns 0 or -1 with why filled in. */
static int collect_turns(const yz_game_file *file, game_turns *out, char *why, size_t size)
{
    memset(out, 0, sizeof *out);
    const yz_game *game = &file->game;
    for (size_t i = 0; i < json_array_size(file->moves); i++) {
        const json_t *move = json_array_get(file->moves, i);
        int p = yz_game_player(game, json_string_value(json_object_get(move, "player")));
        const json_t *thrown = json_object_get(move, "throw"),
                     *kept = json_object_get(move, "keep");
        const char *box_name = json_string_value(json_object_get(move, "score"));
        int n = p >= 0 ? out->n_turns[p] : 0;
        yz_review_turn *turn = n > 0 ? &out->turns[p][n - 1] : NULL;
        int ok = p >= 0;
        if (ok && thrown) {
            if (!turn || turn->scored) {
                ok = n < YZ_BOX_COUNT;
                turn = ok ? &out->turns[p][out->n_turns[p]++] : NULL;
            } else if (turn->n_keeps < turn->n_throws) { /* thrown again without a keep */
                ok = turn->n_keeps < YZ_MAX_THROWS - 1;
                if (ok) turn->n_kept[turn->n_keeps++] = 0;
            }
            ok = ok && turn->n_throws < YZ_MAX_THROWS &&
                 read_dice(thrown, turn->throws[turn->n_throws].dice) == YZ_N_DICE;
            if (ok) turn->n_throws++;
        } else if (ok && kept) {
            ok = turn && !turn->scored && turn->n_throws < YZ_MAX_THROWS;
            if (ok && turn->n_keeps == turn->n_throws) turn->n_keeps--; /* a keep changed */
            int n_kept = ok ? read_dice(kept, turn->keeps[turn->n_keeps]) : -1;
            ok = n_kept >= 0;
            if (ok) turn->n_kept[turn->n_keeps++] = n_kept;
        } else if (ok && box_name) {
            yz_rules_error err;
            ok = turn && !turn->scored &&
                 yz_rules_box_parse(game->profile, box_name, &turn->box, &err) == YZ_OK;
            if (ok) turn->scored = 1;
        } else {
            ok = 0;
        }
        if (!ok) {
            snprintf(why, size, "move %zu cannot be reviewed", i + 1);
            return -1;
        }
    }
    return 0;
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void describe(const yz_profile *profile, const yz_review_choice *choice, char *text,
                     size_t size)
{
    if (choice->is_box) {
        snprintf(text, size, "%s %d", yz_cli_box_label(profile, choice->box), choice->points);
        return;
    }
    if (choice->n_keep == 0) {
        snprintf(text, size, "keep nothing");
        return;
    }
    size_t at = (size_t)snprintf(text, size, "keep");
    for (int i = 0; i < choice->n_keep && at < size; i++)
        at += (size_t)snprintf(text + at, size - at, " %d", choice->keep[i]);
}

static json_t *dice_json(const uint8_t *dice, int n_dice)
{
    json_t *array = json_array();
    for (int i = 0; array && i < n_dice; i++)
        if (json_array_append_new(array, json_integer(dice[i])) != 0) {
            json_decref(array);
            return NULL;
        }
    return array;
}

static json_t *choice_json(const yz_profile *profile, const yz_review_choice *choice)
{
    char text[64];
    describe(profile, choice, text, sizeof text);
    if (choice->is_box)
        return json_pack("{s:s, s:s, s:i, s:s}", "box", yz_rules_box_name(choice->box), "label",
                         yz_cli_box_label(profile, choice->box), "points", choice->points, "text",
                         text);
    return json_pack("{s:o, s:s}", "keep", dice_json(choice->keep, choice->n_keep), "text", text);
}

static json_t *decision_json(const yz_profile *profile, const yz_review_decision *d)
{
    return json_pack("{s:i, s:i, s:s, s:o, s:i, s:o, s:o, s:f, s:f, s:f, s:s, s:f}", "round",
                     d->round, "throw", d->throw_number, "kind", d->chosen.is_box ? "box" : "keep",
                     "dice", dice_json(d->dice.dice, YZ_N_DICE), "throws_left", d->throws_left,
                     "chosen", choice_json(profile, &d->chosen), "best",
                     choice_json(profile, &d->best), "chosen_expected", d->chosen.expected,
                     "best_expected", d->best.expected, "given_up", d->given_up, "class",
                     yz_review_class_name(d->verdict), "luck", d->luck);
}

static json_t *counts_json(const int counts[YZ_REVIEW_N_CLASSES])
{
    json_t *object = json_object();
    for (int c = 0; object && c < YZ_REVIEW_N_CLASSES; c++)
        if (json_object_set_new(object, yz_review_class_name((yz_review_class)c),
                                json_integer(counts[c])) != 0) {
            json_decref(object);
            return NULL;
        }
    return object;
}

static json_t *player_json(const yz_profile *profile, const char *name, const yz_review *review)
{
    json_t *worst = json_array(), *decisions = json_array();
    int ok = worst && decisions;
    for (int i = 0; ok && i < review->n_worst; i++)
        ok = json_array_append_new(
                 worst, decision_json(profile, &review->decisions[review->worst[i]])) == 0;
    for (int i = 0; ok && i < review->n_decisions; i++)
        ok = json_array_append_new(decisions, decision_json(profile, &review->decisions[i])) == 0;
    if (!ok) {
        json_decref(worst);
        json_decref(decisions);
        return NULL;
    }
    return json_pack("{s:s, s:i, s:f, s:f, s:f, s:o, s:o, s:o}", "name", name, "final",
                     review->score, "expected", review->expected, "given_up", review->given_up,
                     "luck", review->luck, "counts", counts_json(review->counts), "worst", worst,
                     "decisions", decisions);
}

/* Reviews every player; reviews[] receives them. Returns 0 or -1 with why filled in. */
static int review_players(const yz_game_file *file, const yz_strategy *strategy, yz_review *reviews,
                          char *why, size_t size)
{
    game_turns *turns = yz_cli_alloc(sizeof *turns);
    if (!turns) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    int failed = collect_turns(file, turns, why, size);
    for (int p = 0; !failed && p < file->game.n_players; p++) {
        yz_rules_error err;
        if (yz_review_player(strategy, turns->turns[p], turns->n_turns[p], &reviews[p], &err) !=
            YZ_OK) {
            snprintf(why, size, "%s: %s", file->game.names[p], err.message);
            failed = 1;
        }
    }
    yz_cli_free(turns);
    return failed ? -1 : 0;
}

static json_t *game_json(const yz_game *game, const yz_review *reviews)
{
    json_t *players = json_array();
    for (int p = 0; players && p < game->n_players; p++)
        if (json_array_append_new(players,
                                  player_json(game->profile, game->names[p], &reviews[p])) != 0) {
            json_decref(players);
            players = NULL;
        }
    if (!players) return NULL;
    return json_pack("{s:s, s:b, s:b, s:f, s:o}", "profile", game->profile->name, "solitaire", 1,
                     "complete", yz_game_is_over(game), "optimum", reviews[0].optimum, "players",
                     players);
}

json_t *yz_review_game_json(const yz_game_file *file, const yz_strategy *strategy, char *why,
                            size_t size)
{
    yz_review *reviews = yz_cli_alloc(sizeof *reviews * YZ_MAX_PLAYERS);
    json_t *root = NULL;
    if (!reviews)
        snprintf(why, size, "out of memory");
    else if (review_players(file, strategy, reviews, why, size) == 0 &&
             !(root = game_json(&file->game, reviews)))
        snprintf(why, size, "out of memory");
    yz_cli_free(reviews);
    return root;
}

char *yz_review_json_text(const json_t *root)
{
    return json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
}

/* ---- text ---------------------------------------------------------------------------------- */

static void print_dice(const uint8_t *dice, int n_dice)
{
    for (int i = 0; i < n_dice; i++)
        printf(i ? " %d" : "%d", dice[i]);
}

/* "Round 4, throw 2: 3 3 4 5 6, kept 3 3; best keep 3 4 5 6, gave up 4.2 (mistake)" */
static void print_decision(const yz_profile *profile, const yz_review_decision *d, int luck)
{
    char chosen[64], best[64];
    describe(profile, &d->chosen, chosen, sizeof chosen);
    describe(profile, &d->best, best, sizeof best);
    printf("    Round %d, throw %d: ", d->round, d->throw_number);
    print_dice(d->dice.dice, YZ_N_DICE);
    if (luck) printf(" (luck %+.1f)", d->luck);
    if (d->chosen.is_box)
        printf(", scored %s%s", chosen, d->throws_left ? " early" : "");
    else
        printf(", kept %s", chosen + strlen("keep "));
    if (d->given_up > 0)
        printf("; best %s, gave up %.1f (%s)\n", best, d->given_up,
               yz_review_class_name(d->verdict));
    else
        printf(" (best)\n");
}

static void print_player(const yz_game *game, int p, const yz_review *review, int verbose)
{
    const yz_profile *profile = game->profile;
    if (review->complete)
        printf("%s: %d = optimum %.1f - given up %.1f + luck %+.1f\n", game->names[p],
               review->score, review->optimum, review->given_up, review->luck);
    else
        printf("%s: %d so far; expected %.1f = optimum %.1f - given up %.1f + luck %+.1f\n",
               game->names[p], review->score, review->expected, review->optimum, review->given_up,
               review->luck);
    printf("  %d decision%s:", review->n_decisions, review->n_decisions == 1 ? "" : "s");
    for (int c = 0; c < YZ_REVIEW_N_CLASSES; c++)
        printf("%s %d %s%s", c ? "," : "", review->counts[c],
               yz_review_class_name((yz_review_class)c),
               review->counts[c] == 1 || c == YZ_REVIEW_FINE ? "" : "s");
    printf("\n");
    if (verbose) {
        for (int i = 0; i < review->n_decisions; i++)
            print_decision(profile, &review->decisions[i], 1);
        return;
    }
    if (review->n_worst) printf("  biggest:\n");
    for (int i = 0; i < review->n_worst; i++)
        print_decision(profile, &review->decisions[review->worst[i]], 0);
}

/* How much of the gap between the leader and each other player came from choices and how
 * much from the dice: final_a - final_b = (given_up_b - given_up_a) + (luck_a - luck_b). */
static void print_gaps(const yz_game *game, const yz_review *reviews)
{
    int order[YZ_MAX_PLAYERS], place[YZ_MAX_PLAYERS];
    yz_rules_standings(game->profile, game->cards, game->n_players, order, place);
    const yz_review *a = &reviews[order[0]];
    for (int i = 1; i < game->n_players; i++) {
        const yz_review *b = &reviews[order[i]];
        printf("%s %d, %s %d: of the %d between them, %+.1f came from choices and %+.1f from the "
               "dice.\n",
               game->names[order[0]], a->score, game->names[order[i]], b->score,
               a->score - b->score, b->given_up - a->given_up, a->luck - b->luck);
    }
}

static void print_review(const yz_game_file *file, const yz_review *reviews, int verbose)
{
    const yz_game *game = &file->game;
    int over = yz_game_is_over(game);
    printf("Review of a %s game, %d player%s, %s.\n"
           "Each card is reviewed as solitaire play: the advisor maximises a player's expected\n"
           "score, not the chance to beat the others.\n"
           "Optimal play from an empty card scores %.2f on average.\n\n",
           game->profile->name, game->n_players, game->n_players == 1 ? "" : "s",
           over ? "over" : "in progress (the moves so far)", reviews[0].optimum);
    for (int p = 0; p < game->n_players; p++) {
        print_player(game, p, &reviews[p], verbose);
        printf("\n");
    }
    if (over && game->n_players > 1) print_gaps(game, reviews);
}

/* ---- one game ------------------------------------------------------------------------------ */

static int review_file(const char *path, int json, int verbose)
{
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(path, &file, &error);
    if (code != YZ_EXIT_OK) return yz_cli_report(&error);
    yz_strategy *strategy = yz_cli_strategy(file.game.profile);
    yz_review *reviews = yz_cli_alloc(sizeof *reviews * YZ_MAX_PLAYERS);
    char why[300] = "out of memory";
    if (!strategy) {
        code = YZ_EXIT_INTERNAL; /* yz_cli_strategy said why */
    } else if (!reviews || review_players(&file, strategy, reviews, why, sizeof why) != 0) {
        code = yz_cli_fail(reviews ? YZ_EXIT_DATA : YZ_EXIT_INTERNAL, "%s: %s", path, why);
    } else if (json) {
        json_t *root = game_json(&file.game, reviews);
        char *text = root ? yz_review_json_text(root) : NULL;
        json_decref(root);
        if (text)
            puts(text);
        else
            code = yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
        free(text);
    } else {
        print_review(&file, reviews, verbose);
    }
    yz_cli_free(reviews);
    yz_strategy_free(strategy);
    yz_game_file_free(&file);
    return code;
}

/* ---- a folder of games --------------------------------------------------------------------- */

typedef struct {
    char name[YZ_NAME_MAX];
    int games, wins;
    double final, given_up, luck; /* sums */
    int counts[YZ_REVIEW_N_CLASSES];
} player_row;

typedef struct {
    player_row rows[256];
    int n_rows;
    yz_strategy *strategies[16]; /* by profile index, loaded on first need */
    json_t *games, *left_out;
    int n_games, broken;
} folder;

static int is_json_file(const struct dirent *entry)
{
    size_t len = strlen(entry->d_name);
    return entry->d_name[0] != '.' && len > 5 && strcmp(entry->d_name + len - 5, ".json") == 0;
}

static const yz_strategy *strategy_of(folder *f, const yz_profile *profile)
{
    for (size_t i = 0; i < yz_rules_profile_count() && i < 16; i++)
        if (yz_rules_profile_at(i) == profile) {
            if (!f->strategies[i]) f->strategies[i] = yz_cli_strategy(profile);
            return f->strategies[i];
        }
    return NULL;
}

static void left_out(folder *f, const char *path, const char *why)
{
    json_array_append_new(f->left_out, json_pack("{s:s, s:s}", "file", path, "why", why));
}

static int add_game(folder *f, const char *path, int json)
{
    yz_game_file file;
    yz_cli_error error;
    if (yz_game_file_load(path, &file, &error) != YZ_EXIT_OK) {
        f->broken = 1;
        yz_cli_report(&error);
        left_out(f, path, error.message);
        return YZ_EXIT_OK;
    }
    int code = YZ_EXIT_OK;
    const yz_game *game = &file.game;
    const yz_strategy *strategy = strategy_of(f, game->profile);
    yz_review *reviews = yz_cli_alloc(sizeof *reviews * YZ_MAX_PLAYERS);
    char why[300] = "out of memory";
    if (!strategy || !reviews) {
        code = strategy ? yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory") : YZ_EXIT_INTERNAL;
    } else if (!yz_game_is_over(game)) {
        left_out(f, path, "in progress");
    } else if (review_players(&file, strategy, reviews, why, sizeof why) != 0) {
        yz_cli_fail(YZ_EXIT_DATA, "%s: %s", path, why);
        f->broken = 1;
        left_out(f, path, why);
    } else {
        int order[YZ_MAX_PLAYERS], place[YZ_MAX_PLAYERS];
        yz_rules_standings(game->profile, game->cards, game->n_players, order, place);
        for (int p = 0; p < game->n_players; p++) {
            int r = 0;
            while (r < f->n_rows && strcmp(f->rows[r].name, game->names[p]) != 0)
                r++;
            if (r == f->n_rows && f->n_rows == (int)(sizeof f->rows / sizeof f->rows[0])) {
                code = yz_cli_fail(YZ_EXIT_DATA, "%s: more than %d players in the folder", path,
                                   f->n_rows);
                break;
            }
            if (r == f->n_rows) {
                memset(&f->rows[r], 0, sizeof f->rows[r]);
                snprintf(f->rows[r].name, sizeof f->rows[r].name, "%s", game->names[p]);
                f->n_rows++;
            }
            player_row *row = &f->rows[r];
            row->games++;
            row->wins += place[p] == 1 && game->n_players > 1;
            row->final += reviews[p].score;
            row->given_up += reviews[p].given_up;
            row->luck += reviews[p].luck;
            for (int c = 0; c < YZ_REVIEW_N_CLASSES; c++)
                row->counts[c] += reviews[p].counts[c];
        }
        f->n_games++;
        if (json && code == YZ_EXIT_OK)
            json_array_append_new(f->games, json_pack("{s:s, s:o}", "file", path, "review",
                                                      game_json(game, reviews)));
    }
    yz_cli_free(reviews);
    yz_game_file_free(&file);
    return code;
}

static int compare_rows(const void *a, const void *b)
{
    const player_row *x = a, *y = b;
    double gx = x->given_up / x->games, gy = y->given_up / y->games;
    return gx < gy ? -1 : gx > gy ? 1 : strcmp(x->name, y->name);
}

static int print_folder(folder *f, int json)
{
    qsort(f->rows, (size_t)f->n_rows, sizeof f->rows[0], compare_rows);
    if (json) {
        json_t *players = json_array();
        for (int r = 0; r < f->n_rows; r++) {
            const player_row *row = &f->rows[r];
            json_array_append_new(
                players,
                json_pack("{s:s, s:i, s:i, s:f, s:f, s:f, s:o}", "name", row->name, "games",
                          row->games, "wins", row->wins, "mean_final", row->final / row->games,
                          "mean_given_up", row->given_up / row->games, "mean_luck",
                          row->luck / row->games, "counts", counts_json(row->counts)));
        }
        json_t *root = json_pack("{s:O, s:o, s:O}", "games", f->games, "players", players,
                                 "left_out", f->left_out);
        char *text = root ? yz_review_json_text(root) : NULL;
        json_decref(root);
        if (!text) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
        puts(text);
        free(text);
        return YZ_EXIT_OK;
    }
    printf("%d finished game%s reviewed; each card as solitaire play. Per game:\n", f->n_games,
           f->n_games == 1 ? "" : "s");
    printf("%-16s %5s %4s %7s %8s %7s %8s %8s %6s\n", "player", "games", "wins", "score",
           "given_up", "luck", "blunders", "mistakes", "slips");
    for (int r = 0; r < f->n_rows; r++) {
        const player_row *row = &f->rows[r];
        double games = row->games;
        printf("%-16.16s %5d %4d %7.1f %8.1f %+7.1f %8.2f %8.2f %6.2f\n", row->name, row->games,
               row->wins, row->final / games, row->given_up / games, row->luck / games,
               row->counts[YZ_REVIEW_BLUNDER] / games, row->counts[YZ_REVIEW_MISTAKE] / games,
               row->counts[YZ_REVIEW_SLIP] / games);
    }
    for (size_t i = 0; i < json_array_size(f->left_out); i++) {
        const json_t *item = json_array_get(f->left_out, i);
        printf("Left out %s: %s.\n", json_string_value(json_object_get(item, "file")),
               json_string_value(json_object_get(item, "why")));
    }
    return YZ_EXIT_OK;
}

static int review_folder(const char *dir, int json)
{
    struct dirent **entries;
    int n_entries = scandir(dir, &entries, is_json_file, alphasort);
    if (n_entries < 0) return yz_cli_fail(YZ_EXIT_DATA, "%s: cannot read the folder", dir);
    folder *f = yz_cli_alloc(sizeof *f);
    if (f) memset(f, 0, sizeof *f);
    int code = f && (f->games = json_array()) && (f->left_out = json_array())
                   ? YZ_EXIT_OK
                   : yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    for (int i = 0; i < n_entries; i++) {
        char path[4096];
        if (code == YZ_EXIT_OK &&
            snprintf(path, sizeof path, "%s/%s", dir, entries[i]->d_name) < (int)sizeof path)
            code = add_game(f, path, json);
        free(entries[i]);
    }
    free(entries);
    if (code == YZ_EXIT_OK && f->n_games == 0 && !f->broken)
        code = yz_cli_fail(YZ_EXIT_DATA, "%s: no finished game files (*.json) in it", dir);
    if (code == YZ_EXIT_OK) code = print_folder(f, json);
    if (code == YZ_EXIT_OK && f->broken) code = YZ_EXIT_DATA;
    for (int i = 0; f && i < 16; i++)
        yz_strategy_free(f->strategies[i]);
    if (f) {
        json_decref(f->games);
        json_decref(f->left_out);
    }
    yz_cli_free(f);
    return code;
}

/* ---- the command --------------------------------------------------------------------------- */

int yz_cmd_game_review(int argc, char **argv)
{
    static const struct option long_options[] = {{"file", required_argument, NULL, 'f'},
                                                 {"json", no_argument, NULL, 'j'},
                                                 {"verbose", no_argument, NULL, 'v'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    const char *path = NULL;
    int json = 0, verbose = 0, opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":hv", long_options, NULL)) != -1) {
        switch (opt) {
        case 'f': path = optarg; break;
        case 'j': json = 1; break;
        case 'v': verbose = 1; break;
        case 'h': fputs(review_help, stdout); return YZ_EXIT_OK;
        case ':':
            return yz_cli_fail(YZ_EXIT_USAGE, "game review: %s needs a value", argv[optind - 1]);
        default:
            return yz_cli_fail(YZ_EXIT_USAGE, "game review: unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc && path)
        return yz_cli_fail(YZ_EXIT_USAGE, "game review: give --file or a path, not both");
    if (optind < argc) path = argv[optind++];
    if (optind < argc)
        return yz_cli_fail(YZ_EXIT_USAGE, "game review: unexpected argument '%s'", argv[optind]);
    if (!path) path = DEFAULT_GAME_FILE;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return review_folder(path, json);
    return review_file(path, json, verbose);
}
