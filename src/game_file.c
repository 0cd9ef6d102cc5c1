/* game_file.c - a game on disk: human-readable JSON, saved atomically after every move.
 *
 *   {
 *     "yardzee_game": 1,
 *     "rules": "yahtzee",
 *     "players": ["Ann", "Bob"],
 *     "join_code": "ZBUM6A",
 *     "moves": [
 *       {"player":"Ann","throw":[1,3,3,4,6],"photo":"IMG_0412.jpg"},
 *       {"player":"Ann","keep":[3,3]},
 *       {"player":"Ann","throw":[3,3,3,2,5]},
 *       {"player":"Ann","score":"threes","points":9}
 *     ],
 *     "state": {...}
 *   }
 *
 * The moves are the truth: loading replays them through the rules, so a hand-edited file with
 * an illegal move is refused, and undo is "replay all but the last". "state" (cards, totals,
 * whose turn) is written for people reading the file and ignored when loading. "join_code" is
 * optional: `yardzee serve` adds it so a restart asks phones for the same code. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "game_file.h"

#define GAME_MAX_BYTES (1024 * 1024)
#define GAME_MAX_MOVES 1000 /* 6 players x 15 boxes x 6 moves a turn is 540 */

/* NULL when memory runs out (jansson's allocations go through yz_cli_alloc). */
static json_t *dice_array(const uint8_t *dice, int n_dice)
{
    json_t *array = json_array();
    for (int i = 0; array && i < n_dice; i++) {
        if (json_array_append_new(array, json_integer(dice[i])) != 0) {
            json_decref(array);
            array = NULL;
        }
    }
    return array;
}

/* Reads [d, d, ...] of 1-6 values; returns the count or -1. */
static int read_dice(const json_t *array, uint8_t *dice, int max_dice)
{
    if (!json_is_array(array) || (int)json_array_size(array) > max_dice) return -1;
    for (size_t i = 0; i < json_array_size(array); i++) {
        const json_t *die = json_array_get(array, i);
        if (!json_is_integer(die) || json_integer_value(die) < 1 || json_integer_value(die) > 6)
            return -1;
        dice[i] = (uint8_t)json_integer_value(die);
    }
    return (int)json_array_size(array);
}

json_t *yz_game_move_throw(const yz_game *game, const yz_roll *roll, const char *photo)
{
    json_t *move = json_pack("{s:s, s:o}", "player", game->names[game->current], "throw",
                             dice_array(roll->dice, YZ_N_DICE));
    if (move && photo && json_object_set_new(move, "photo", json_string(photo)) != 0) {
        json_decref(move);
        move = NULL;
    }
    return move;
}

json_t *yz_game_move_keep(const yz_game *game, const uint8_t *kept, int n_kept)
{
    return json_pack("{s:s, s:o}", "player", game->names[game->current], "keep",
                     dice_array(kept, n_kept));
}

json_t *yz_game_move_score(const yz_game *game, yz_box box)
{
    return json_pack("{s:s, s:s}", "player", game->names[game->current], "score",
                     yz_rules_box_name(box));
}

/* Applies one move; on success a score move gets its "points" filled in. */
static int apply_move(yz_game *game, json_t *move, char *why, size_t size)
{
    yz_rules_error err = {YZ_OK, ""};
    const char *player = json_string_value(json_object_get(move, "player"));
    if (!json_is_object(move) || !player) {
        snprintf(why, size, "a move is an object with a \"player\"");
        return YZ_EXIT_DATA;
    }
    if (yz_game_player(game, player) < 0) {
        snprintf(why, size, "'%s' is not playing", player);
        return YZ_EXIT_DATA;
    }
    if (yz_game_is_over(game)) {
        snprintf(why, size, "the game is over");
        return YZ_EXIT_DATA;
    }
    if (strcmp(player, game->names[game->current]) != 0) {
        snprintf(why, size, "it is %s's turn, not %s's", game->names[game->current], player);
        return YZ_EXIT_DATA;
    }
    json_t *thrown = json_object_get(move, "throw"), *kept = json_object_get(move, "keep");
    json_t *box_name = json_object_get(move, "score");
    yz_status status = YZ_OK;
    if (thrown && !kept && !box_name) {
        yz_roll roll;
        if (read_dice(thrown, roll.dice, YZ_N_DICE) != YZ_N_DICE) {
            snprintf(why, size, "\"throw\" must be five dice 1-6");
            return YZ_EXIT_DATA;
        }
        status = yz_game_throw(game, &roll, &err);
    } else if (kept && !thrown && !box_name) {
        uint8_t dice[YZ_N_DICE];
        int n_dice = read_dice(kept, dice, YZ_N_DICE);
        if (n_dice < 0) {
            snprintf(why, size, "\"keep\" must be up to five dice 1-6");
            return YZ_EXIT_DATA;
        }
        status = yz_game_keep(game, dice, n_dice, &err);
    } else if (box_name && !thrown && !kept) {
        yz_box box;
        if (!json_is_string(box_name) ||
            yz_rules_box_parse(game->profile, json_string_value(box_name), &box, &err) != YZ_OK) {
            snprintf(why, size, "\"score\" must name a box of the %s rules", game->profile->name);
            return YZ_EXIT_DATA;
        }
        yz_option scored;
        json_t *points = json_object_get(move, "points");
        status = yz_game_score(game, box, &scored, &err);
        if (status == YZ_OK && points && !json_is_integer(points)) {
            snprintf(why, size, "\"points\" must be a whole number");
            return YZ_EXIT_DATA;
        }
        if (status == YZ_OK && points && json_integer_value(points) != scored.points) {
            snprintf(why, size, "the roll scores %d in %s, not what the file says", scored.points,
                     json_string_value(box_name));
            return YZ_EXIT_DATA;
        }
        if (status == YZ_OK && !points &&
            json_object_set_new(move, "points", json_integer(scored.points)) != 0) {
            snprintf(why, size, "out of memory");
            return YZ_EXIT_INTERNAL;
        }
    } else {
        snprintf(why, size, "a move has exactly one of \"throw\", \"keep\", \"score\"");
        return YZ_EXIT_DATA;
    }
    if (status != YZ_OK) {
        snprintf(why, size, "%s", err.message);
        return status == YZ_ERR_USAGE ? YZ_EXIT_USAGE : YZ_EXIT_DATA;
    }
    return YZ_EXIT_OK;
}

int yz_game_file_new(yz_game_file *file, const yz_profile *profile, const char *const names[],
                     int n_players, yz_cli_error *error)
{
    yz_rules_error err;
    file->moves = NULL;
    file->join_code[0] = '\0';
    if (yz_game_init(&file->game, profile, names, n_players, &err) != YZ_OK)
        return yz_cli_set_rules_error(error, &err);
    file->moves = json_array();
    if (!file->moves) return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "out of memory");
    return YZ_EXIT_OK;
}

int yz_game_file_play(yz_game_file *file, json_t *move, char *why, size_t size)
{
    if (!move) {
        snprintf(why, size, "out of memory");
        return YZ_EXIT_INTERNAL;
    }
    yz_game before = file->game;
    int code = apply_move(&file->game, move, why, size);
    if (code == YZ_EXIT_OK && json_array_append_new(file->moves, move) != 0) {
        /* append_new let go of the move: the game must not be ahead of its moves. */
        snprintf(why, size, "out of memory");
        file->game = before;
        return YZ_EXIT_INTERNAL;
    }
    if (code != YZ_EXIT_OK) {
        file->game = before;
        json_decref(move);
    }
    return code;
}

static int read_players(const char *path, json_t *root, const yz_profile **profile,
                        const char *names[YZ_MAX_PLAYERS], int *n_players, yz_cli_error *error)
{
    const char *rules = json_string_value(json_object_get(root, "rules"));
    *profile = rules ? yz_rules_profile_find(rules) : NULL;
    if (!*profile)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: \"rules\" is not a known rules name",
                                path);
    json_t *players = json_object_get(root, "players");
    if (!json_is_array(players) || json_array_size(players) < 1 ||
        json_array_size(players) > YZ_MAX_PLAYERS)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: \"players\" must list 1-%d names", path,
                                YZ_MAX_PLAYERS);
    *n_players = (int)json_array_size(players);
    for (int i = 0; i < *n_players; i++) {
        names[i] = json_string_value(json_array_get(players, (size_t)i));
        if (!names[i])
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: players[%d] is not a name", path, i);
    }
    return YZ_EXIT_OK;
}

static int valid_join_code(const char *code)
{
    if (!code || strlen(code) != YZ_GAME_CODE_LEN) return 0;
    for (const char *c = code; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '2' && *c <= '9'))) return 0;
    return 1;
}

static int replay(const char *path, json_t *root, yz_game_file *file, yz_cli_error *error)
{
    json_t *version = json_object_get(root, "yardzee_game");
    if (!json_is_object(root) || !json_is_integer(version) || json_integer_value(version) != 1)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: not a yardzee game file (version 1)",
                                path);
    const yz_profile *profile;
    const char *names[YZ_MAX_PLAYERS];
    int n_players = 0;
    int code = read_players(path, root, &profile, names, &n_players, error);
    if (code != YZ_EXIT_OK) return code;
    json_t *join_code = json_object_get(root, "join_code");
    if (join_code && !valid_join_code(json_string_value(join_code)))
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: \"join_code\" must be %d letters A-Z or digits 2-9", path,
                                YZ_GAME_CODE_LEN);
    json_t *moves = json_object_get(root, "moves");
    if (!json_is_array(moves) || json_array_size(moves) > GAME_MAX_MOVES)
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: \"moves\" must be a list of at most %d moves", path,
                                GAME_MAX_MOVES);
    yz_rules_error err;
    if (yz_game_init(&file->game, profile, names, n_players, &err) != YZ_OK)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: %s", path, err.message);
    file->moves = json_array();
    if (!file->moves) return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "%s: out of memory", path);
    snprintf(file->join_code, sizeof file->join_code, "%s",
             join_code ? json_string_value(join_code) : "");
    for (size_t i = 0; i < json_array_size(moves); i++) {
        char why[300];
        json_t *move = json_deep_copy(json_array_get(moves, i));
        code = yz_game_file_play(file, move, why, sizeof why);
        if (code != YZ_EXIT_OK) {
            json_decref(file->moves);
            file->moves = NULL;
            if (code == YZ_EXIT_INTERNAL) return yz_cli_set_error(error, code, "%s: %s", path, why);
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: move %zu: %s", path, i + 1, why);
        }
    }
    return YZ_EXIT_OK;
}

int yz_game_file_load(const char *path, yz_game_file *file, yz_cli_error *error)
{
    yz_cli_install_json_allocator();
    memset(file, 0, sizeof *file);
    FILE *in = fopen(path, "rb");
    if (!in)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: cannot open: %s%s", path, strerror(errno),
                                errno == ENOENT ? " (start one with: yardzee game new)" : "");
    struct stat st;
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(in);
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: not a regular file", path);
    }
    if (st.st_size > GAME_MAX_BYTES) {
        fclose(in);
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: %lld bytes, more than the %d a game file may have", path,
                                (long long)st.st_size, GAME_MAX_BYTES);
    }
    /* jansson's own message for a BOM quotes the invisible bytes. */
    unsigned char head[3] = {0};
    size_t n_head = fread(head, 1, sizeof head, in);
    if (n_head == 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) {
        fclose(in);
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: starts with a byte order mark (save it as UTF-8 without BOM)",
                                path);
    }
    rewind(in);
    json_error_t json_err;
    long failures_before = yz_cli_allocation_failures();
    yz_cli_json_parsing(1);
    json_t *root = json_loadf(in, JSON_REJECT_DUPLICATES, &json_err);
    yz_cli_json_parsing(0);
    fclose(in);
    /* jansson reports some of its failed allocations as syntax errors, or not at all. */
    if (!root && yz_cli_allocation_failures() != failures_before)
        return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "%s: out of memory", path);
    if (!root)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: line %d: %s", path, json_err.line,
                                json_err.text);
    int code = replay(path, root, file, error);
    json_decref(root);
    return code;
}

int yz_game_file_undo(yz_game_file *file, const char *path, yz_cli_error *error)
{
    size_t n_moves = json_array_size(file->moves);
    if (n_moves == 0) return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: nothing to undo", path);
    json_t *players = json_array();
    for (int i = 0; players && i < file->game.n_players; i++) {
        if (json_array_append_new(players, json_string(file->game.names[i])) != 0) {
            json_decref(players);
            players = NULL;
        }
    }
    json_t *moves = json_array();
    if (json_array_extend(moves, file->moves) != 0 || json_array_remove(moves, n_moves - 1) != 0) {
        json_decref(moves);
        moves = NULL;
    }
    json_t *root = players && moves
                       ? json_pack("{s:i, s:s, s:o, s:o}", "yardzee_game", 1, "rules",
                                   file->game.profile->name, "players", players, "moves", moves)
                       : NULL;
    if (!root) {
        if (!players || !moves) {
            json_decref(players);
            json_decref(moves);
        }
        return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "%s: out of memory", path);
    }
    if (file->join_code[0]) json_object_set_new(root, "join_code", json_string(file->join_code));
    yz_game_file_free(file);
    int code = replay(path, root, file, error);
    json_decref(root);
    return code;
}

int yz_game_file_repeats_keep(const yz_game_file *file, const uint8_t *kept, int n_kept)
{
    size_t n_moves = json_array_size(file->moves);
    const json_t *last =
        n_moves ? json_object_get(json_array_get(file->moves, n_moves - 1), "keep") : NULL;
    if (!json_is_array(last) || (int)json_array_size(last) != n_kept) return 0;
    int counts[YZ_N_FACES + 1] = {0};
    for (int i = 0; i < n_kept; i++) {
        counts[kept[i]]++;
        json_int_t value = json_integer_value(json_array_get(last, (size_t)i));
        if (value >= 1 && value <= YZ_N_FACES) counts[value]--;
    }
    for (int face = 1; face <= YZ_N_FACES; face++)
        if (counts[face]) return 0;
    return 1;
}

void yz_game_file_tag(const yz_game_file *file, char tag[YZ_GAME_TAG_SIZE])
{
    /* FNV-1a over each move's compact text: the same moves give the same tag after a reload. */
    uint32_t hash = 2166136261u;
    size_t n_moves = json_array_size(file->moves);
    for (size_t i = 0; i < n_moves; i++) {
        char *text = json_dumps(json_array_get(file->moves, i), JSON_COMPACT | JSON_SORT_KEYS);
        for (const char *c = text ? text : "?"; *c; c++)
            hash = (hash ^ (unsigned char)*c) * 16777619u;
        hash = (hash ^ '\n') * 16777619u;
        yz_cli_free(text);
    }
    snprintf(tag, YZ_GAME_TAG_SIZE, "%zu-%08x", n_moves, (unsigned)hash);
}

json_t *yz_game_scoreboard_json(const yz_game *game)
{
    int order[YZ_MAX_PLAYERS], place[YZ_MAX_PLAYERS];
    yz_rules_standings(game->profile, game->cards, game->n_players, order, place);
    json_t *players = json_array();
    for (int p = 0; p < game->n_players; p++) {
        json_t *boxes = json_object();
        for (int i = 0; i < game->profile->n_boxes; i++) {
            yz_box box = game->profile->boxes[i];
            json_object_set_new(boxes, yz_rules_box_name(box),
                                yz_rules_card_is_open(&game->cards[p], box)
                                    ? json_null()
                                    : json_integer(game->cards[p].points[box]));
        }
        yz_totals t;
        yz_rules_totals(game->profile, &game->cards[p], &t);
        json_array_append_new(players,
                              json_pack("{s:s, s:o, s:i, s:i, s:i, s:i, s:i}", "name",
                                        game->names[p], "boxes", boxes, "upper", t.upper,
                                        "upper_bonus", t.upper_bonus, "yahtzee_bonus",
                                        t.yahtzee_bonus, "total", t.total, "place", place[p]));
    }
    int over = yz_game_is_over(game);
    json_t *dice = json_array(), *kept = json_array();
    for (int i = 0; game->throws && i < YZ_N_DICE; i++)
        json_array_append_new(dice, json_integer(game->dice.dice[i]));
    for (int i = 0; i < game->n_kept; i++)
        json_array_append_new(kept, json_integer(game->kept[i]));
    json_t *root = json_pack("{s:s, s:o, s:b, s:o, s:i, s:i, s:o, s:o}", "rules",
                             game->profile->name, "players", players, "over", over, "turn",
                             over ? json_null() : json_string(game->names[game->current]), "round",
                             over ? game->profile->n_boxes : yz_game_round(game), "throws",
                             game->throws, "dice", dice, "kept", kept);
    return root;
}

void yz_game_file_free(yz_game_file *file)
{
    json_decref(file->moves);
    file->moves = NULL;
}

/* NULL when memory runs out: a state with a hole in it is never written. */
static json_t *state_json(const yz_game *game)
{
    json_t *cards = json_object();
    int ok = cards != NULL;
    for (int p = 0; ok && p < game->n_players; p++) {
        json_t *card = json_object();
        ok = card != NULL;
        for (int i = 0; ok && i < game->profile->n_boxes; i++) {
            yz_box box = game->profile->boxes[i];
            if (!yz_rules_card_is_open(&game->cards[p], box))
                ok = json_object_set_new(card, yz_rules_box_name(box),
                                         json_integer(game->cards[p].points[box])) == 0;
        }
        yz_totals totals;
        yz_rules_totals(game->profile, &game->cards[p], &totals);
        ok = ok && json_object_set_new(card, "yahtzee_bonus",
                                       json_integer(game->cards[p].extra_yahtzees)) == 0;
        ok = ok && json_object_set_new(card, "total", json_integer(totals.total)) == 0;
        if (!ok) json_decref(card);
        ok = ok && json_object_set_new(cards, game->names[p], card) == 0;
    }
    if (!ok) {
        json_decref(cards);
        return NULL;
    }
    int over = yz_game_is_over(game);
    return json_pack("{s:b, s:o, s:i, s:o, s:o, s:o}", "over", over, "turn",
                     over ? json_null() : json_string(game->names[game->current]), "throws",
                     game->throws, "dice",
                     game->throws ? dice_array(game->dice.dice, YZ_N_DICE) : json_array(), "kept",
                     dice_array(game->kept, game->n_kept), "cards", cards);
}

/* The file's text: one move per line, so a person can read a game from top to bottom. */
static char *game_text(const yz_game_file *file)
{
    json_t *players = json_array();
    int players_ok = players != NULL;
    for (int i = 0; players_ok && i < file->game.n_players; i++)
        players_ok = json_array_append_new(players, json_string(file->game.names[i])) == 0;
    json_t *rules = json_string(file->game.profile->name), *state = state_json(&file->game);
    char *players_text = players_ok ? json_dumps(players, JSON_COMPACT) : NULL,
         *rules_text = json_dumps(rules, JSON_ENCODE_ANY);
    char *state_text = json_dumps(state, JSON_INDENT(2));
    json_decref(players);
    json_decref(rules);
    json_decref(state);
    size_t n_moves = json_array_size(file->moves), size = 256;
    char **move_texts = yz_cli_alloc((n_moves + 1) * sizeof *move_texts);
    if (move_texts) memset(move_texts, 0, (n_moves + 1) * sizeof *move_texts);
    int ok = players_text && rules_text && state_text && move_texts;
    for (size_t i = 0; ok && i < n_moves; i++) {
        move_texts[i] =
            json_dumps(json_array_get(file->moves, i), JSON_COMPACT | JSON_PRESERVE_ORDER);
        ok = move_texts[i] != NULL;
        if (ok) size += strlen(move_texts[i]) + 8;
    }
    char *text = NULL;
    if (ok) size += strlen(players_text) + strlen(rules_text) + strlen(state_text) * 2 + 32;
    if (ok && (text = yz_cli_alloc(size))) {
        size_t at = (size_t)snprintf(text, size,
                                     "{\n  \"yardzee_game\": 1,\n  \"rules\": %s,\n  \"players\": "
                                     "%s,\n%s%s%s  \"moves\": [",
                                     rules_text, players_text,
                                     file->join_code[0] ? "  \"join_code\": \"" : "",
                                     file->join_code, file->join_code[0] ? "\",\n" : "");
        for (size_t i = 0; i < n_moves; i++)
            at += (size_t)snprintf(text + at, size - at, "%s\n    %s", i ? "," : "", move_texts[i]);
        /* Indent the state object under its key. */
        at += (size_t)snprintf(text + at, size - at, "%s],\n  \"state\": ", n_moves ? "\n  " : "");
        for (const char *c = state_text; *c; c++) {
            text[at++] = *c;
            if (*c == '\n') text[at++] = ' ', text[at++] = ' ';
        }
        snprintf(text + at, size - at, "\n}\n");
    }
    for (size_t i = 0; move_texts && i < n_moves; i++)
        yz_cli_free(move_texts[i]);
    yz_cli_free(move_texts);
    yz_cli_free(players_text);
    yz_cli_free(rules_text);
    yz_cli_free(state_text);
    return text;
}

int yz_game_file_save(const yz_game_file *file, const char *path, yz_cli_error *error)
{
    char *text = game_text(file);
    if (!text) return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "%s: out of memory", path);
    int error_number = 0;
    int failed = yz_cli_write_atomically(path, text, strlen(text), &error_number);
    yz_cli_free(text);
    if (failed)
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: cannot save the game: %s (the file is as it was)", path,
                                strerror(error_number));
    return YZ_EXIT_OK;
}
