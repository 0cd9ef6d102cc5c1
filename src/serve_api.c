/* serve_api.c - the HTTP API of `yardzee serve`: photos in, the same JSON as the commands out,
 * and the game moved one step at a time through game_file.c.
 *
 *   GET  /, /page.js, ...          the page and its files (src/page/, embedded at build time)
 *   POST /api/read[?throws_left=N] body: a JPEG, PNG or HEIC (raw, or a form's "photo" field);
 *                                  `read --json` plus "id" and "advice"
 *   POST /api/verify?claim=R       body: a JPEG, PNG or HEIC; `verify --json` plus "id"
 *   GET  /api/annotated/ID.jpg     the photo of a recent read with the dice drawn on it
 *   GET  /api/game[?since=TAG]     the scoreboard (`game show --json`) plus "tag", "moves",
 *                                  "last", "boxes", "options", "advice"; {"tag", "same": true}
 *                                  when the game's tag is still TAG (a cheap poll)
 *   POST /api/game/throw           {"tag", "roll": [..]} or {"tag", "photo": ID}; "corrected"
 *   POST /api/game/keep            {"tag", "keep": [..]}
 *   POST /api/game/score           {"tag", "box": "threes"}
 *   POST /api/game/undo            {"tag"} (or ?tag=)
 *   POST /api/game/new             {"tag"}: once the game is over, the same players start again
 *                                  in the same file; the finished game is kept as NAME-N.json
 *   GET  /api/review               `game review --json` of the game (its shape: cmd_review.c)
 *
 * Every error is a 4xx or 5xx with {"error": "..."}. A request that changes the game must carry
 * the join code (X-Join-Code header or ?code=); it is checked before the body is read. It must
 * also carry the tag of the state it was made on: a repeated tap, or a phone that has not seen
 * another's move, gets 409 "already recorded" with the game as it is ("game"), and nothing
 * changes. A photo is recorded in at most one throw. Bodies
 * held in memory share one budget (503 when it is spent), and a body must arrive whole within
 * the server's request timeout. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "game_file.h"
#include "review.h"
#include "serve.h"

typedef enum {
    ROUTE_ASSET,
    ROUTE_READ,
    ROUTE_VERIFY,
    ROUTE_ANNOTATED,
    ROUTE_GAME,
    ROUTE_THROW,
    ROUTE_KEEP,
    ROUTE_SCORE,
    ROUTE_UNDO,
    ROUTE_NEW,
    ROUTE_REVIEW
} route;

static const struct {
    const char *method, *url;
    route route;
    size_t max_body;
    int changes_game;
} routes[] = {
    {"GET", "/", ROUTE_ASSET, 0, 0}, /* any file of the page: see find_asset */
    {"POST", "/api/read", ROUTE_READ, YZ_SERVE_MAX_PHOTO_BYTES, 0},
    {"POST", "/api/verify", ROUTE_VERIFY, YZ_SERVE_MAX_PHOTO_BYTES, 0},
    {"GET", "/api/annotated/", ROUTE_ANNOTATED, 0, 0}, /* a prefix: ID.png follows */
    {"GET", "/api/game", ROUTE_GAME, 0, 0},
    {"POST", "/api/game/throw", ROUTE_THROW, YZ_SERVE_MAX_JSON_BYTES, 1},
    {"POST", "/api/game/keep", ROUTE_KEEP, YZ_SERVE_MAX_JSON_BYTES, 1},
    {"POST", "/api/game/score", ROUTE_SCORE, YZ_SERVE_MAX_JSON_BYTES, 1},
    {"POST", "/api/game/undo", ROUTE_UNDO, YZ_SERVE_MAX_JSON_BYTES, 1},
    {"POST", "/api/game/new", ROUTE_NEW, YZ_SERVE_MAX_JSON_BYTES, 1},
    {"GET", "/api/review", ROUTE_REVIEW, 0, 0},
};

/* One request: its route and its body as it arrives. */
typedef struct {
    yz_serve *server;
    size_t route_index;
    struct timespec started;        /* when its headers were in */
    struct MHD_PostProcessor *form; /* multipart/form-data: the body is its "photo" field */
    char *body;
    size_t len, cap; /* cap bytes are counted in server->buffered_bytes */
    int too_big;     /* more than max_body arrived: the rest is dropped, the answer is 413 */
    int no_memory;   /* the server's buffer budget was spent: the rest is dropped, 503 */
    int broken_form;
} request;

static enum MHD_Result respond(struct MHD_Connection *connection, unsigned status, const char *type,
                               char *text, size_t len)
{
    struct MHD_Response *response =
        MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (!response) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(response, "Content-Type", type);
    MHD_add_response_header(response, "Cache-Control", "no-store");
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

/* Sends root (stealing the reference). */
static enum MHD_Result respond_json(struct MHD_Connection *connection, unsigned status,
                                    json_t *root)
{
    char *text = root ? json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(4)) : NULL;
    json_decref(root);
    if (!text) return MHD_NO;
    return respond(connection, status, "application/json", text, strlen(text));
}

static enum MHD_Result respond_error(struct MHD_Connection *connection, unsigned status,
                                     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum MHD_Result respond_error(struct MHD_Connection *connection, unsigned status,
                                     const char *fmt, ...)
{
    char message[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    return respond_json(connection, status, json_pack("{s:s}", "error", message));
}

/* The join code, compared without an early exit so its time says nothing about the prefix. */
static int code_matches(const yz_serve *server, struct MHD_Connection *connection)
{
    const char *given = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "X-Join-Code");
    if (!given) given = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "code");
    if (!given || strlen(given) != YZ_SERVE_CODE_LEN) return 0;
    int differ = 0;
    for (int i = 0; i < YZ_SERVE_CODE_LEN; i++)
        differ |= toupper((unsigned char)given[i]) ^ server->join_code[i]; /* typed in any case */
    return differ == 0;
}

/* ---- photos ------------------------------------------------------------------------------ */

static void annotated_path(const yz_serve *server, unsigned id, char *path, size_t size)
{
    snprintf(path, size, "%s/%u.jpg", server->photo_dir, id);
}

/* Reads the dice in the uploaded photo, writes its annotated JPEG (a phone's screen needs no
 * more, and a PNG of grass is megabytes) and keeps the roll under *id.
 * Returns 0, or the HTTP status of the error with why filled in. */
static unsigned read_upload(yz_serve *server, const request *req, yz_vision_result *result,
                            unsigned *id, char *why, size_t size)
{
    if (!yz_vision_is_photo((const uint8_t *)req->body, req->len)) {
        snprintf(why, size, "not a photo: send a JPEG, PNG or HEIC");
        return MHD_HTTP_UNSUPPORTED_MEDIA_TYPE;
    }
    pthread_mutex_lock(&server->reads_lock);
    *id = ++server->next_id;
    pthread_mutex_unlock(&server->reads_lock);
    char name[32], path[128];
    snprintf(name, sizeof name, "upload-%u", *id);
    annotated_path(server, *id, path, sizeof path);

    /* One reading per core: more at once only make each slower and use more memory. */
    sem_wait(&server->readers);
    yz_vision_options options = yz_vision_default_options();
    yz_vision_photo photo;
    yz_vision_error err = {YZ_VISION_OK, ""};
    pthread_mutex_lock(&server->reads_lock);
    options.nets = server->n_idle_nets ? server->idle_nets[--server->n_idle_nets] : NULL;
    pthread_mutex_unlock(&server->reads_lock);
    yz_vision_status status =
        options.nets ? YZ_VISION_OK : yz_vision_nets_load(NULL, &options.nets, &err);
    if (status == YZ_VISION_OK)
        status = yz_vision_load_memory((const uint8_t *)req->body, req->len, name,
                                       options.max_long_side, &photo, &err);
    if (status == YZ_VISION_OK) {
        status = yz_vision_read_photo(&photo, &options, result, &err);
        if (status == YZ_VISION_OK)
            status = yz_vision_annotate_from((const uint8_t *)req->body, req->len, &photo, result,
                                             path, &err);
        yz_vision_photo_free(&photo);
    }
    if (options.nets) { /* the semaphore keeps the sets at most YZ_SERVE_MAX_READERS */
        pthread_mutex_lock(&server->reads_lock);
        server->idle_nets[server->n_idle_nets++] = options.nets;
        pthread_mutex_unlock(&server->reads_lock);
    }
    sem_post(&server->readers);
    if (status != YZ_VISION_OK) {
        snprintf(why, size, "%s", err.message);
        return status == YZ_VISION_ERR_FORMAT  ? MHD_HTTP_UNPROCESSABLE_CONTENT
               : status == YZ_VISION_ERR_LIMIT ? MHD_HTTP_CONTENT_TOO_LARGE
                                               : MHD_HTTP_INTERNAL_SERVER_ERROR;
    }

    yz_serve_read read = {*id, result->status == YZ_VISION_READ_OK, {{0}}};
    for (int i = 0; read.ok && i < YZ_N_DICE; i++)
        read.roll.dice[i] = (uint8_t)result->roll[i];
    pthread_mutex_lock(&server->reads_lock);
    yz_serve_read *slot = &server->reads[*id % YZ_SERVE_N_KEPT_READS];
    unsigned evicted = slot->id;
    *slot = read;
    pthread_mutex_unlock(&server->reads_lock);
    if (evicted) {
        annotated_path(server, evicted, path, sizeof path);
        unlink(path);
    }
    return 0;
}

/* The kept read with this id, or 0. */
static int find_read(yz_serve *server, unsigned id, yz_serve_read *read)
{
    pthread_mutex_lock(&server->reads_lock);
    *read = server->reads[id % YZ_SERVE_N_KEPT_READS];
    pthread_mutex_unlock(&server->reads_lock);
    return id != 0 && read->id == id;
}

static enum MHD_Result get_annotated(yz_serve *server, struct MHD_Connection *connection,
                                     const char *name)
{
    char *end;
    unsigned long id = strtoul(name, &end, 10);
    yz_serve_read read;
    if (name[0] < '1' || name[0] > '9' || strcmp(end, ".jpg") != 0 || id > 0xFFFFFFFFul ||
        !find_read(server, (unsigned)id, &read))
        return respond_error(connection, MHD_HTTP_NOT_FOUND,
                             "no such photo (only the last %d are kept)", YZ_SERVE_N_KEPT_READS);
    char path[128];
    annotated_path(server, (unsigned)id, path, sizeof path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        return respond_error(connection, MHD_HTTP_NOT_FOUND, "no such photo");
    }
    struct MHD_Response *response = MHD_create_response_from_fd((size_t)st.st_size, fd);
    if (!response) return close(fd), MHD_NO;
    MHD_add_response_header(response, "Content-Type", "image/jpeg");
    MHD_add_response_header(response, "Cache-Control", "private, max-age=600");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

/* ---- advice and the game ----------------------------------------------------------------- */

/* {"throws_left", "keep": [..], "expected"} or {"throws_left", "box", "label", "points",
 * "expected"}; null when the card is full. */
static json_t *advice_json(const yz_serve *server, const yz_card *card, const yz_roll *roll,
                           int throws_left)
{
    yz_turn_advice turn;
    if (!yz_advise_turn(server->strategy, card, roll, throws_left, &turn)) return json_null();
    const yz_keep_advice keep = turn.keep;
    if (turn.keeping) {
        json_t *kept = json_array();
        for (int i = 0; i < keep.n_keep; i++)
            json_array_append_new(kept, json_integer(keep.keep[i]));
        return json_pack("{s:i, s:o, s:f}", "throws_left", throws_left, "keep", kept, "expected",
                         keep.expected);
    }
    const yz_box_advice box = turn.box;
    return json_pack("{s:i, s:s, s:s, s:i, s:f}", "throws_left", throws_left, "box",
                     yz_rules_box_name(box.option.box), "label",
                     yz_cli_box_label(server->profile, box.option.box), "points",
                     box.option.points + box.option.bonus, "expected", box.expected);
}

/* Every box the dice on the lawn may be scored in now, with its points, in the card's order;
 * "best" marks the advisor's box for scoring now. Empty before a throw. */
static json_t *options_json(const yz_serve *server, const yz_game *game)
{
    json_t *options = json_array();
    if (!game->throws || yz_game_is_over(game)) return options;
    const yz_card *card = &game->cards[game->current];
    yz_option legal[YZ_BOX_COUNT];
    int n_legal = yz_rules_options(game->profile, card, &game->dice, legal);
    yz_box_advice best;
    int have_best = yz_advise_boxes(server->strategy, card, &game->dice, &best, 1);
    for (int i = 0; i < n_legal; i++)
        json_array_append_new(options, json_pack("{s:s, s:s, s:i, s:b}", "box",
                                                 yz_rules_box_name(legal[i].box), "label",
                                                 yz_cli_box_label(game->profile, legal[i].box),
                                                 "points", legal[i].points + legal[i].bonus, "best",
                                                 have_best && best.option.box == legal[i].box));
    return options;
}

/* The scoreboard plus the state's tag, the number of moves and the last one, the profile's
 * boxes in order (with their labels), the boxes open to the dice on the lawn with their points,
 * and advice for those dice, if any. */
static json_t *game_json(const yz_serve *server, const yz_game_file *file)
{
    const yz_game *game = &file->game;
    char tag[YZ_GAME_TAG_SIZE];
    yz_game_file_tag(file, tag);
    size_t n_moves = json_array_size(file->moves);
    json_t *root = yz_game_scoreboard_json(game), *boxes = json_array();
    json_object_set_new(root, "tag", json_string(tag));
    json_object_set_new(root, "moves", json_integer((json_int_t)n_moves));
    json_object_set_new(root, "last",
                        n_moves ? json_deep_copy(json_array_get(file->moves, n_moves - 1))
                                : json_null());
    json_object_set_new(root, "options", options_json(server, game));
    for (int i = 0; i < game->profile->n_boxes; i++) {
        yz_box box = game->profile->boxes[i];
        json_array_append_new(boxes, json_pack("{s:s, s:s}", "name", yz_rules_box_name(box),
                                               "label", yz_cli_box_label(game->profile, box)));
    }
    json_object_set_new(root, "boxes", boxes);
    json_object_set_new(root, "advice",
                        game->throws && !yz_game_is_over(game)
                            ? advice_json(server, &game->cards[game->current], &game->dice,
                                          yz_game_throws_left(game, 0))
                            : json_null());
    return root;
}

/* Loads the game; the caller holds game_lock. A broken file is reported to the phone and on the
 * server's stderr. */
static unsigned load_game(yz_serve *server, yz_game_file *file, char *why, size_t size)
{
    if (!server->game_path) {
        snprintf(why, size, "no game: start the server with --game GAME.json");
        return MHD_HTTP_NOT_FOUND;
    }
    yz_cli_error error;
    if (yz_game_file_load(server->game_path, file, &error) != YZ_EXIT_OK) {
        yz_cli_report(&error);
        snprintf(why, size, "the game file cannot be read: %s", error.message);
        return MHD_HTTP_INTERNAL_SERVER_ERROR;
    }
    return 0;
}

static enum MHD_Result post_read(yz_serve *server, struct MHD_Connection *connection,
                                 const request *req)
{
    yz_vision_result *result = malloc(sizeof *result);
    if (!result) return MHD_NO;
    char why[300];
    unsigned id = 0, status = read_upload(server, req, result, &id, why, sizeof why);
    if (status) {
        free(result);
        return respond_error(connection, status, "%s", why);
    }
    char name[32];
    snprintf(name, sizeof name, "upload-%u", id);
    json_t *root = yz_cli_read_json(name, result);
    json_object_set_new(root, "id", json_integer(id));
    json_object_set_new(root, "confidence", json_real(yz_cli_roll_confidence(result)));
    json_object_set_new(root, "retake", result->retake ? json_string(result->retake) : json_null());

    /* Advice for the current player's card, with the throws left after this one. */
    yz_card card;
    yz_rules_card_init(&card);
    const char *asked =
        MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "throws_left");
    int throws_left =
        asked && strlen(asked) == 1 && asked[0] >= '0' && asked[0] <= '2' ? asked[0] - '0' : 0;
    json_t *player = json_null();
    if (server->game_path) {
        pthread_mutex_lock(&server->game_lock);
        yz_game_file file;
        if (load_game(server, &file, why, sizeof why) == 0) {
            const yz_game *game = &file.game;
            card = game->cards[game->current];
            throws_left = yz_game_throws_left(game, 1); /* after the throw in this photo */
            if (!yz_game_is_over(game)) player = json_string(game->names[game->current]);
            yz_game_file_free(&file);
        }
        pthread_mutex_unlock(&server->game_lock);
    }
    json_object_set_new(root, "player", player);
    if (result->status == YZ_VISION_READ_OK) {
        yz_roll roll;
        for (int i = 0; i < YZ_N_DICE; i++)
            roll.dice[i] = (uint8_t)result->roll[i];
        json_object_set_new(root, "advice", advice_json(server, &card, &roll, throws_left));
    } else {
        json_object_set_new(root, "advice", json_null());
    }
    free(result);
    return respond_json(connection, MHD_HTTP_OK, root);
}

static enum MHD_Result post_verify(yz_serve *server, struct MHD_Connection *connection,
                                   const request *req)
{
    const char *claim_text =
        MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "claim");
    yz_roll claim;
    yz_rules_error rules_err;
    if (!claim_text)
        return respond_error(connection, MHD_HTTP_BAD_REQUEST, "?claim=5,5,5,2,4 is required");
    if (yz_rules_roll_parse(claim_text, "claim", &claim, &rules_err) != YZ_OK)
        return respond_error(connection, MHD_HTTP_BAD_REQUEST, "%s", rules_err.message);
    yz_vision_result *result = malloc(sizeof *result);
    if (!result) return MHD_NO;
    char why[300];
    unsigned id = 0, status = read_upload(server, req, result, &id, why, sizeof why);
    json_t *root = NULL;
    if (!status)
        root = result->status == YZ_VISION_READ_OK
                   ? yz_cli_verdict_json(result, &claim)
                   : json_pack("{s:s, s:s, s:s}", "verdict", "unreadable", "reason", result->reason,
                               "retake", result->retake);
    free(result);
    if (status) return respond_error(connection, status, "%s", why);
    json_object_set_new(root, "id", json_integer(id));
    return respond_json(connection, MHD_HTTP_OK, root);
}

/* Reads up to five dice 1-6 from a JSON array; the count, or -1. */
static int json_dice(const json_t *array, uint8_t *dice)
{
    if (!json_is_array(array) || json_array_size(array) > YZ_N_DICE) return -1;
    for (size_t i = 0; i < json_array_size(array); i++) {
        json_int_t value = json_integer_value(json_array_get(array, i));
        if (!json_is_integer(json_array_get(array, i)) || value < 1 || value > YZ_N_FACES)
            return -1;
        dice[i] = (uint8_t)value;
    }
    return (int)json_array_size(array);
}

/* The 1-based number of the move that recorded the photo with this name, or 0. */
static size_t photo_recorded(const json_t *moves, const char *name)
{
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const char *photo = json_string_value(json_object_get(json_array_get(moves, i), "photo"));
        if (photo && strcmp(photo, name) == 0) return i + 1;
    }
    return 0;
}

/* The move a POST /api/game/... body asks for, or NULL with why and *status set. */
static json_t *requested_move(yz_serve *server, route route, const yz_game_file *file, json_t *body,
                              unsigned *status, char *why, size_t size)
{
    const yz_game *game = &file->game;
    const json_t *moves = file->moves;
    *status = MHD_HTTP_BAD_REQUEST;
    if (route == ROUTE_THROW) {
        yz_roll roll;
        json_t *photo = json_object_get(body, "photo"), *dice = json_object_get(body, "roll");
        yz_serve_read read;
        if (photo && (!json_is_integer(photo) || json_integer_value(photo) <= 0 ||
                      json_integer_value(photo) > 0xFFFFFFFF ||
                      !find_read(server, (unsigned)json_integer_value(photo), &read))) {
            snprintf(why, size, "\"photo\" is not one of the last %d photos read",
                     YZ_SERVE_N_KEPT_READS);
            return NULL;
        }
        if (dice) {
            if (json_dice(dice, roll.dice) != YZ_N_DICE) {
                snprintf(why, size, "\"roll\" must be five dice 1-6");
                return NULL;
            }
        } else if (photo && read.ok) {
            roll = read.roll;
        } else {
            snprintf(why, size,
                     photo ? "that photo was refused: send the \"roll\" by hand"
                           : "send {\"roll\": [5 dice]} or {\"photo\": id}");
            return NULL;
        }
        char name[32];
        snprintf(name, sizeof name, "upload-%u", photo ? (unsigned)json_integer_value(photo) : 0);
        size_t recorded = photo ? photo_recorded(moves, name) : 0;
        if (recorded) {
            *status = MHD_HTTP_CONFLICT;
            snprintf(why, size, "already recorded: this photo is move %zu of the game", recorded);
            return NULL;
        }
        json_t *move = yz_game_move_throw(game, &roll, photo ? name : NULL);
        if (json_is_true(json_object_get(body, "corrected")))
            json_object_set_new(move, "corrected", json_true());
        return move;
    }
    if (route == ROUTE_KEEP) {
        uint8_t kept[YZ_N_DICE];
        int n_kept = json_dice(json_object_get(body, "keep"), kept);
        if (n_kept < 0) {
            snprintf(why, size, "\"keep\" must be up to five dice 1-6");
            return NULL;
        }
        if (yz_game_file_repeats_keep(file, kept, n_kept)) {
            *status = MHD_HTTP_CONFLICT;
            snprintf(why, size, "already recorded: %s already keeps these dice",
                     game->names[game->current]);
            return NULL;
        }
        return yz_game_move_keep(game, kept, n_kept);
    }
    const char *box_name = json_string_value(json_object_get(body, "box"));
    yz_box box;
    yz_rules_error err;
    if (!box_name || yz_rules_box_parse(game->profile, box_name, &box, &err) != YZ_OK) {
        snprintf(why, size, "\"box\" must name a box of the %s rules", game->profile->name);
        return NULL;
    }
    return yz_game_move_score(game, box);
}

/* Once the game is over: keeps it as NAME-N.json (the first N free) and starts the same players
 * again in the game's file, with the same join code. Returns 0 or the HTTP status with why. */
static unsigned new_game(yz_serve *server, yz_game_file *file, char *why, size_t size)
{
    if (!yz_game_is_over(&file->game)) {
        snprintf(why, size, "the game is not over: finish it (or undo) before a new one");
        return MHD_HTTP_CONFLICT;
    }
    const char *path = server->game_path, *dot = strrchr(path, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - path) : strlen(path);
    char kept[4096];
    /* A hard link keeps the file as it is, byte for byte, and fails on a name already taken;
     * where links are not possible the game is saved under the new name. */
    int kept_ok = 0;
    yz_cli_error error = {YZ_EXIT_INTERNAL, "no free name"};
    for (int n = 1; n < 10000 && !kept_ok; n++) {
        snprintf(kept, sizeof kept, "%.*s-%d.json", (int)stem, path, n);
        struct stat st;
        if (link(path, kept) == 0) {
            kept_ok = 1;
        } else if (errno != EEXIST && stat(kept, &st) != 0) { /* no hard links here */
            if (yz_game_file_save(file, kept, &error) != YZ_EXIT_OK) break;
            kept_ok = 1;
        }
    }
    if (!kept_ok) {
        yz_cli_report(&error); /* the server's log too */
        snprintf(why, size, "the finished game cannot be kept: %s; nothing changed", error.message);
        return MHD_HTTP_INTERNAL_SERVER_ERROR;
    }
    const char *names[YZ_MAX_PLAYERS];
    for (int i = 0; i < file->game.n_players; i++)
        names[i] = file->game.names[i];
    yz_game_file fresh;
    if (yz_game_file_new(&fresh, file->game.profile, names, file->game.n_players, &error) !=
        YZ_EXIT_OK) {
        snprintf(why, size, "a new game cannot be started: %s", error.message);
        return MHD_HTTP_INTERNAL_SERVER_ERROR;
    }
    memcpy(fresh.join_code, file->join_code, sizeof fresh.join_code);
    yz_game_file_free(file);
    *file = fresh;
    return 0;
}

/* The tag of the state a change was made on: the body's "tag", or ?tag=. */
static const char *request_tag(struct MHD_Connection *connection, const json_t *body)
{
    const char *tag = json_string_value(json_object_get(body, "tag"));
    return tag ? tag : MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "tag");
}

/* GET /api/game and every POST /api/game/...: load, check the tag, change, save, all under
 * game_lock, so two phones acting on one state cannot both succeed. */
static enum MHD_Result game_request(yz_serve *server, struct MHD_Connection *connection,
                                    route route, const request *req)
{
    json_t *body = NULL;
    if (route != ROUTE_GAME) {
        json_error_t json_err;
        /* An undo may come with no body at all (its tag in ?tag=). */
        body = (route == ROUTE_UNDO || route == ROUTE_NEW) && req->len == 0
                   ? json_object()
                   : json_loadb(req->body ? req->body : "", req->len, JSON_REJECT_DUPLICATES,
                                &json_err);
        if (!json_is_object(body)) {
            json_decref(body);
            return respond_error(connection, MHD_HTTP_BAD_REQUEST,
                                 "the body must be a JSON object");
        }
        if (!request_tag(connection, body)) {
            json_decref(body);
            return respond_error(connection, MHD_HTTP_BAD_REQUEST,
                                 "send the game's \"tag\" (from GET /api/game) with each change, "
                                 "so a repeated tap is not recorded twice");
        }
    }
    const char *since = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "since");
    char why[600] = "", tag[YZ_GAME_TAG_SIZE] = "";
    yz_game_file file;
    yz_cli_error error;
    memset(&file, 0, sizeof file);
    pthread_mutex_lock(&server->game_lock);
    unsigned status = load_game(server, &file, why, sizeof why);
    if (status == 0) yz_game_file_tag(&file, tag);
    if (status == 0 && route != ROUTE_GAME && strcmp(request_tag(connection, body), tag) != 0) {
        status = MHD_HTTP_CONFLICT;
        snprintf(why, sizeof why,
                 "already recorded: the game has moved on since this phone saw it (it is at "
                 "move %zu now); nothing changed",
                 json_array_size(file.moves));
    } else if (status == 0 && route == ROUTE_UNDO) {
        if (json_array_size(file.moves) == 0) {
            status = MHD_HTTP_CONFLICT;
            snprintf(why, sizeof why, "nothing to undo");
        } else if (yz_game_file_undo(&file, server->game_path, &error) != YZ_EXIT_OK) {
            status = MHD_HTTP_INTERNAL_SERVER_ERROR;
            yz_cli_report(&error);
            snprintf(why, sizeof why, "the game cannot be replayed: %s", error.message);
        }
    } else if (status == 0 && route == ROUTE_NEW) {
        status = new_game(server, &file, why, sizeof why);
    } else if (status == 0 && route != ROUTE_GAME) {
        json_t *move = requested_move(server, route, &file, body, &status, why, sizeof why);
        if (move && yz_game_file_play(&file, move, why, sizeof why) != YZ_EXIT_OK)
            status = MHD_HTTP_CONFLICT; /* an illegal move: nothing changed */
        else if (move)
            status = 0;
    }
    if (status == 0 && route != ROUTE_GAME &&
        yz_game_file_save(&file, server->game_path, &error) != YZ_EXIT_OK) {
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        yz_cli_report(&error);
        snprintf(why, sizeof why, "the game cannot be saved: %s", error.message);
    }
    json_t *root = NULL;
    if (status == 0 && route == ROUTE_GAME && since && strcmp(since, tag) == 0)
        root = json_pack("{s:s, s:b}", "tag", tag, "same", 1);
    else if (status == 0)
        root = game_json(server, &file);
    else if (status == MHD_HTTP_CONFLICT) /* the phone shows the game as it is */
        root = json_pack("{s:s, s:o}", "error", why, "game", game_json(server, &file));
    if (file.moves) yz_game_file_free(&file);
    pthread_mutex_unlock(&server->game_lock);
    json_decref(body);
    if (root) return respond_json(connection, status ? status : MHD_HTTP_OK, root);
    return respond_error(connection, status ? status : MHD_HTTP_INTERNAL_SERVER_ERROR, "%s",
                         status ? why : "out of memory");
}

/* GET /api/review: the text `game review --json` prints, for the game as it is now. */
static enum MHD_Result get_review(yz_serve *server, struct MHD_Connection *connection)
{
    char why[300] = "";
    yz_game_file file;
    memset(&file, 0, sizeof file);
    pthread_mutex_lock(&server->game_lock);
    unsigned status = load_game(server, &file, why, sizeof why);
    json_t *root = NULL;
    if (status == 0 && !(root = yz_review_game_json(&file, server->strategy, why, sizeof why)))
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
    if (file.moves) yz_game_file_free(&file);
    pthread_mutex_unlock(&server->game_lock);
    char *text = root ? yz_review_json_text(root) : NULL;
    json_decref(root);
    if (status) return respond_error(connection, status, "%s", why);
    if (!text) return MHD_NO;
    return respond(connection, MHD_HTTP_OK, "application/json", text, strlen(text));
}

/* ---- the handler ------------------------------------------------------------------------- */

/* The page's file at this address ("/" is index.html), or NULL. */
static const yz_serve_asset *find_asset(const char *url)
{
    if (strcmp(url, "/") == 0) url = "/index.html";
    for (int i = 0; i < yz_serve_n_assets; i++)
        if (url[0] == '/' && strcmp(url + 1, yz_serve_assets[i].name) == 0)
            return &yz_serve_assets[i];
    return NULL;
}

static enum MHD_Result get_asset(struct MHD_Connection *connection, const char *url)
{
    const yz_serve_asset *asset = find_asset(url);
    struct MHD_Response *response =
        MHD_create_response_from_buffer(asset->size, (void *)asset->data, MHD_RESPMEM_PERSISTENT);
    if (!response) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", asset->type);
    /* The phone asks again each time (a changed page shows at once), and may keep it meanwhile. */
    MHD_add_response_header(response, "Cache-Control", "no-cache");
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

static int route_matches(size_t i, const char *url)
{
    if (routes[i].route == ROUTE_ASSET) return find_asset(url) != NULL;
    if (routes[i].route == ROUTE_ANNOTATED)
        return strncmp(url, routes[i].url, strlen(routes[i].url)) == 0;
    return strcmp(url, routes[i].url) == 0;
}

/* Takes bytes out of the budget that all connections' bodies share; 0 when too few are left. */
static int take_buffer_bytes(yz_serve *server, size_t bytes)
{
    pthread_mutex_lock(&server->buffers_lock);
    int ok = bytes <= YZ_SERVE_MAX_BUFFERED_BYTES - server->buffered_bytes;
    if (ok) server->buffered_bytes += bytes;
    pthread_mutex_unlock(&server->buffers_lock);
    return ok;
}

static void give_buffer_bytes(yz_serve *server, size_t bytes)
{
    pthread_mutex_lock(&server->buffers_lock);
    server->buffered_bytes -= bytes;
    pthread_mutex_unlock(&server->buffers_lock);
}

/* Grows the body's buffer to cap bytes, within the shared budget. */
static int grow_body(request *req, size_t cap)
{
    if (!take_buffer_bytes(req->server, cap - req->cap)) return 0;
    char *grown = realloc(req->body, cap);
    if (!grown) { /* memory is the limit that was hit: answered as the budget being spent */
        give_buffer_bytes(req->server, cap - req->cap);
        return 0;
    }
    req->body = grown, req->cap = cap;
    return 1;
}

static void append_body(request *req, const char *data, size_t size)
{
    size_t max_body = routes[req->route_index].max_body;
    if (req->too_big || req->no_memory) return;
    if (size > max_body - req->len) {
        req->too_big = 1;
        return;
    }
    if (req->len + size > req->cap) {
        size_t cap = req->cap ? req->cap : 64 * 1024;
        while (cap < req->len + size)
            cap *= 2;
        if (cap > max_body) cap = max_body;
        if (!grow_body(req, cap)) {
            req->no_memory = 1;
            return;
        }
    }
    memcpy(req->body + req->len, data, size);
    req->len += size;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* The form's "photo" field is the photo; other fields are ignored. */
static enum MHD_Result form_field(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *filename, const char *content_type,
                                  const char *transfer_encoding, const char *data, uint64_t offset,
                                  size_t size)
{
    (void)kind, (void)filename, (void)content_type, (void)transfer_encoding, (void)offset;
    if (strcmp(key, "photo") == 0) append_body(cls, data, size);
    return MHD_YES;
}

/* First call for a request: find its route, refuse what can be refused before the body. */
static enum MHD_Result start_request(yz_serve *server, struct MHD_Connection *connection,
                                     const char *url, const char *method, void **request_state)
{
    size_t n_routes = sizeof routes / sizeof routes[0], i, url_matched = 0;
    for (i = 0; i < n_routes; i++) {
        if (!route_matches(i, url)) continue;
        url_matched = 1;
        if (strcmp(method, routes[i].method) == 0) break;
    }
    if (i == n_routes)
        return url_matched ? respond_error(connection, MHD_HTTP_METHOD_NOT_ALLOWED,
                                           "%s %s is not allowed", method, url)
                           : respond_error(connection, MHD_HTTP_NOT_FOUND, "no such page: %s", url);
    if (routes[i].changes_game && !code_matches(server, connection))
        return respond_error(connection, MHD_HTTP_FORBIDDEN,
                             "the join code is missing or wrong: the game was not changed");
    const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    unsigned long long declared = length ? strtoull(length, NULL, 10) : 0;
    if (declared > routes[i].max_body)
        return respond_error(connection, MHD_HTTP_CONTENT_TOO_LARGE,
                             "the body is larger than %zu bytes", routes[i].max_body);
    request *req = calloc(1, sizeof *req);
    if (!req) return MHD_NO;
    req->server = server;
    req->route_index = i;
    clock_gettime(CLOCK_MONOTONIC, &req->started);
    *request_state = req;
    /* A body of known length is given its memory now, so a full budget is answered before
     * the client sends it (MHD cannot answer in the middle of a body). */
    if (declared > 0 && !grow_body(req, (size_t)declared))
        return respond_error(connection, MHD_HTTP_SERVICE_UNAVAILABLE,
                             "the server is busy with other uploads: try again in a moment");
    const char *type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Type");
    if (routes[i].max_body == YZ_SERVE_MAX_PHOTO_BYTES && type &&
        strncasecmp(type, "multipart/form-data", strlen("multipart/form-data")) == 0 &&
        !(req->form = MHD_create_post_processor(connection, 64 * 1024, form_field, req)))
        return respond_error(connection, MHD_HTTP_BAD_REQUEST, "a form without a boundary");
    return MHD_YES;
}

enum MHD_Result yz_serve_handle(void *cls, struct MHD_Connection *connection, const char *url,
                                const char *method, const char *version, const char *upload_data,
                                size_t *upload_data_size, void **request_state)
{
    (void)version;
    yz_serve *server = cls;
    request *req = *request_state;
    if (!req) return start_request(server, connection, url, method, request_state);
    if (*upload_data_size) {
        /* MHD's timeout closes only idle connections, so a body trickled a byte at a time could
         * hold one forever. MHD cannot answer while a body is still coming: drop it. */
        if (seconds_since(&req->started) > server->request_timeout) return MHD_NO;
        if (!req->form)
            append_body(req, upload_data, *upload_data_size);
        else if (MHD_post_process(req->form, upload_data, *upload_data_size) != MHD_YES)
            req->broken_form = 1;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (req->too_big)
        return respond_error(connection, MHD_HTTP_CONTENT_TOO_LARGE,
                             "the body is larger than %zu bytes",
                             routes[req->route_index].max_body);
    if (req->no_memory)
        return respond_error(connection, MHD_HTTP_SERVICE_UNAVAILABLE,
                             "the server is busy with other uploads: try again in a moment");
    if (req->broken_form)
        return respond_error(connection, MHD_HTTP_BAD_REQUEST, "a broken multipart/form-data body");
    route route = routes[req->route_index].route;
    switch (route) {
    case ROUTE_ASSET: return get_asset(connection, url);
    case ROUTE_READ: return post_read(server, connection, req);
    case ROUTE_VERIFY: return post_verify(server, connection, req);
    case ROUTE_ANNOTATED: return get_annotated(server, connection, url + strlen("/api/annotated/"));
    case ROUTE_REVIEW: return get_review(server, connection);
    default: return game_request(server, connection, route, req);
    }
}

void yz_serve_request_done(void *cls, struct MHD_Connection *connection, void **request_state,
                           enum MHD_RequestTerminationCode code)
{
    (void)cls, (void)connection, (void)code;
    request *req = *request_state;
    if (req && req->form) MHD_destroy_post_processor(req->form);
    if (req) give_buffer_bytes(req->server, req->cap);
    if (req) free(req->body);
    free(req);
    *request_state = NULL;
}
