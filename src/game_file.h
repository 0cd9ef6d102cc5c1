/* game_file.h - a game and its moves, read from and saved to a JSON file (see game_file.c). */
#ifndef YZ_GAME_FILE_H
#define YZ_GAME_FILE_H

#include <jansson.h>

#include "cli.h"

#define YZ_GAME_CODE_LEN 6 /* a join code: letters A-Z and digits 2-9 */

typedef struct {
    yz_game game;  /* the state the moves lead to */
    json_t *moves; /* every move so far, in order */
    /* The code `yardzee serve` asks of phones that change this game, kept in the file as
     * "join_code" so a restarted server asks for the same one; "" when the game has none. */
    char join_code[YZ_GAME_CODE_LEN + 1];
} yz_game_file;

/* The last move already kept exactly these dice (in any order): keeping them again is a
 * repeat that changes nothing, refused by `game keep` and the server alike. */
int yz_game_file_repeats_keep(const yz_game_file *file, const uint8_t *kept, int n_kept);

#define YZ_GAME_TAG_SIZE 32
/* A tag of the game's state, "N-xxxxxxxx": the number of moves and a hash of them all. Any move
 * or undo changes it (an undo followed by a different move too), so a request made on one state
 * can be refused once the game has moved on. */
void yz_game_file_tag(const yz_game_file *file, char tag[YZ_GAME_TAG_SIZE]);

/* Each returns an exit code; on an error it fills *error with the code and one line naming the
 * file (and the move) at fault, and prints nothing: the command or the server says it. */
int yz_game_file_new(yz_game_file *file, const yz_profile *profile, const char *const names[],
                     int n_players, yz_cli_error *error);
/* Reads and replays a game. */
int yz_game_file_load(const char *path, yz_game_file *file, yz_cli_error *error);
/* Plays one move (taking ownership of it); an illegal move changes nothing and why says so. */
int yz_game_file_play(yz_game_file *file, json_t *move, char *why, size_t size);
/* Takes back the last move. */
int yz_game_file_undo(yz_game_file *file, const char *path, yz_cli_error *error);
/* Saves atomically: the old file stays whole until the new one is on disk. */
int yz_game_file_save(const yz_game_file *file, const char *path, yz_cli_error *error);
/* What `game show --json` prints: {"rules", "players": [{"name", "boxes": {box: points|null},
 * "upper", "upper_bonus", "yahtzee_bonus", "total", "place"}], "over", "turn", "round",
 * "throws", "dice", "kept"}. NULL when out of memory. */
json_t *yz_game_scoreboard_json(const yz_game *game);
void yz_game_file_free(yz_game_file *file);

/* Moves by the current player. */
json_t *yz_game_move_throw(const yz_game *game, const yz_roll *roll, const char *photo);
json_t *yz_game_move_keep(const yz_game *game, const uint8_t *kept, int n_kept);
json_t *yz_game_move_score(const yz_game *game, yz_box box);

#endif
