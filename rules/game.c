/* game.c - turns, throws and keeps of a game between 1-6 players. */
#include <string.h>

#include "internal.h"

static int name_is_valid(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= YZ_NAME_MAX) return 0;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) return 0;
    return 1;
}

yz_status yz_game_init(yz_game *game, const yz_profile *profile, const char *const names[],
                       int n_players, yz_rules_error *err)
{
    if (n_players < profile->min_players || n_players > profile->max_players) {
        yz_rules_set_error(err, YZ_ERR_USAGE, "the %s rules are for %d-%d players, not %d",
                           profile->name, profile->min_players, profile->max_players, n_players);
        return YZ_ERR_USAGE;
    }
    for (int i = 0; i < n_players; i++) {
        if (!name_is_valid(names[i])) {
            yz_rules_set_error(err, YZ_ERR_USAGE, "player %d: a name is 1-%d printable characters",
                               i + 1, YZ_NAME_MAX - 1);
            return YZ_ERR_USAGE;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0) {
                yz_rules_set_error(err, YZ_ERR_USAGE, "two players are called '%s'", names[i]);
                return YZ_ERR_USAGE;
            }
    }
    memset(game, 0, sizeof *game);
    game->profile = profile;
    game->n_players = n_players;
    for (int i = 0; i < n_players; i++) {
        strcpy(game->names[i], names[i]);
        yz_rules_card_init(&game->cards[i]);
    }
    return YZ_OK;
}

int yz_game_is_over(const yz_game *game)
{
    for (int i = 0; i < game->n_players; i++)
        if (!yz_rules_card_is_full(game->profile, &game->cards[i])) return 0;
    return 1;
}

int yz_game_throws_left(const yz_game *game, int after_next)
{
    int left = YZ_MAX_THROWS - game->throws - (after_next ? 1 : 0);
    return left > 0 ? left : 0;
}

int yz_game_round(const yz_game *game)
{
    const yz_card *card = &game->cards[game->current];
    int filled = 0;
    for (int i = 0; i < game->profile->n_boxes; i++)
        filled += !yz_rules_card_is_open(card, game->profile->boxes[i]);
    return filled + 1;
}

int yz_game_player(const yz_game *game, const char *name)
{
    for (int i = 0; i < game->n_players; i++)
        if (strcmp(game->names[i], name) == 0) return i;
    return -1;
}

/* 1 when every die of part is in whole (as multisets); part may hold up to five dice. */
static int dice_contain(const uint8_t *whole, int n_whole, const uint8_t *part, int n_part)
{
    int counts[YZ_N_FACES + 1] = {0};
    for (int i = 0; i < n_whole; i++)
        counts[whole[i]]++;
    for (int i = 0; i < n_part; i++)
        if (part[i] < 1 || part[i] > YZ_N_FACES || --counts[part[i]] < 0) return 0;
    return 1;
}

/* fmt holds one %s: the current player's name. */
static yz_status refuse(yz_rules_error *err, const char *fmt, const yz_game *game)
{
    yz_rules_set_error(err, YZ_ERR_DATA, fmt, game->names[game->current]);
    return YZ_ERR_DATA;
}

static yz_status refuse_if_over(const yz_game *game, yz_rules_error *err)
{
    if (!yz_game_is_over(game)) return YZ_OK;
    yz_rules_set_error(err, YZ_ERR_DATA, "the game is over");
    return YZ_ERR_DATA;
}

yz_status yz_game_throw(yz_game *game, const yz_roll *dice, yz_rules_error *err)
{
    if (refuse_if_over(game, err) != YZ_OK) return YZ_ERR_DATA;
    if (game->throws >= YZ_MAX_THROWS)
        return refuse(err, "%s has thrown three times: score a box", game);
    for (int i = 0; i < YZ_N_DICE; i++)
        if (dice->dice[i] < 1 || dice->dice[i] > YZ_N_FACES)
            return refuse(err, "%s: a die shows a value that is not 1-6", game);
    if (game->n_kept && !dice_contain(dice->dice, YZ_N_DICE, game->kept, game->n_kept))
        return refuse(err, "%s kept dice that are not in this throw", game);
    game->dice = *dice;
    game->throws++;
    game->n_kept = 0;
    return YZ_OK;
}

yz_status yz_game_keep(yz_game *game, const uint8_t *kept, int n_kept, yz_rules_error *err)
{
    if (refuse_if_over(game, err) != YZ_OK) return YZ_ERR_DATA;
    if (game->throws == 0) return refuse(err, "%s has not thrown yet", game);
    if (game->throws >= YZ_MAX_THROWS)
        return refuse(err, "%s has no throws left: score a box", game);
    if (n_kept < 0 || n_kept > YZ_N_DICE || !dice_contain(game->dice.dice, YZ_N_DICE, kept, n_kept))
        return refuse(err, "%s cannot keep dice that were not thrown", game);
    uint8_t sorted[YZ_N_DICE];
    memcpy(sorted, kept, (size_t)n_kept);
    for (int i = 1; i < n_kept; i++)
        for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
            uint8_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    memcpy(game->kept, sorted, (size_t)n_kept);
    game->n_kept = n_kept;
    return YZ_OK;
}

yz_status yz_game_score(yz_game *game, yz_box box, yz_option *scored, yz_rules_error *err)
{
    if (refuse_if_over(game, err) != YZ_OK) return YZ_ERR_DATA;
    if (game->throws == 0) return refuse(err, "%s has not thrown yet", game);
    yz_status status =
        yz_rules_score(game->profile, &game->cards[game->current], &game->dice, box, scored, err);
    if (status != YZ_OK) return status;
    game->current = (game->current + 1) % game->n_players;
    game->throws = 0;
    game->n_kept = 0;
    return YZ_OK;
}
