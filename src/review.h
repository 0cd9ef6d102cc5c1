/* review.h - the review of a game file, shared by `yardzee game review` (cmd_review.c) and
 * GET /api/review (serve_api.c), so that both print the same JSON (its shape: cmd_review.c). */
#ifndef YZ_REVIEW_H
#define YZ_REVIEW_H

#include "game_file.h"

/* Reviews every player of the game with strategy (the table of the game's rules). NULL with why
 * filled in when the moves cannot be reviewed or memory runs out. */
json_t *yz_review_game_json(const yz_game_file *file, const yz_strategy *strategy, char *why,
                            size_t size);
/* The JSON's text as both print it (one line; free() it). NULL when out of memory. */
char *yz_review_json_text(const json_t *root);

#endif
