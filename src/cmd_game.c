/* cmd_game.c - `yardzee game`: a whole game for 1-6 players, kept in a file. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game_file.h"
#include "vision.h"

#define DEFAULT_GAME_FILE "yardzee-game.json"

static const char game_help[] =
    "usage: yardzee game new --players Ann,Bob [--rules P] [--file GAME.json] [--force]\n"
    "       yardzee game throw (PHOTO | --roll 1,3,3,4,6) [--player NAME] [--file GAME.json]\n"
    "       yardzee game keep 3,3 | none [--player NAME] [--file GAME.json]\n"
    "       yardzee game score BOX [--player NAME] [--file GAME.json]\n"
    "       yardzee game show [--json] [--file GAME.json]\n"
    "       yardzee game undo [--file GAME.json]\n"
    "       yardzee game review [--file GAME.json | DIR] [--json] [--verbose]\n"
    "Keeps a game in a JSON file (default " DEFAULT_GAME_FILE "), saved atomically after every\n"
    "move. After each throw it gives the optimal advice. An illegal move (a fourth throw, a\n"
    "filled box, --player out of turn) is refused and changes nothing (exit 1); a photo whose\n"
    "dice cannot be read with confidence is refused (exit 3).\n";

typedef struct {
    const char *file, *players, *rules, *roll, *player;
    int json, force, help;
    const char *argument; /* PHOTO, the kept dice or the box */
} game_args;

static int parse_game_args(int argc, char **argv, game_args *args)
{
    static const struct option long_options[] = {{"file", required_argument, NULL, 'f'},
                                                 {"players", required_argument, NULL, 'P'},
                                                 {"rules", required_argument, NULL, 'R'},
                                                 {"roll", required_argument, NULL, 'r'},
                                                 {"player", required_argument, NULL, 'p'},
                                                 {"json", no_argument, NULL, 'j'},
                                                 {"force", no_argument, NULL, 'F'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    memset(args, 0, sizeof *args);
    args->file = DEFAULT_GAME_FILE;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (opt) {
        case 'f': args->file = optarg; break;
        case 'P': args->players = optarg; break;
        case 'R': args->rules = optarg; break;
        case 'r': args->roll = optarg; break;
        case 'p': args->player = optarg; break;
        case 'j': args->json = 1; break;
        case 'F': args->force = 1; break;
        case 'h': args->help = 1; break;
        default: return yz_cli_bad_option("game", opt, argv);
        }
    }
    if (optind < argc) args->argument = argv[optind++];
    if (optind < argc)
        return yz_cli_fail(YZ_EXIT_USAGE, "game: unexpected argument '%s'", argv[optind]);
    return YZ_EXIT_OK;
}

/* "3,3" or "none": up to five dice. */
static int parse_kept(const char *text, uint8_t *dice, int *n_dice)
{
    *n_dice = 0;
    if (strcmp(text, "none") == 0) return YZ_EXIT_OK;
    for (const char *p = text; *p; p++) {
        if (*p == ',' || *p == ' ') continue;
        if (*p < '1' || *p > '6' || (p[1] && p[1] != ',' && p[1] != ' ') || *n_dice == YZ_N_DICE)
            return yz_cli_fail(YZ_EXIT_USAGE, "keep: '%s' is not up to five dice 1-6 (or none)",
                               text);
        dice[(*n_dice)++] = (uint8_t)(*p - '0');
    }
    return YZ_EXIT_OK;
}

static void print_dice(const uint8_t *dice, int n_dice)
{
    for (int i = 0; i < n_dice; i++)
        printf(i ? " %d" : "%d", dice[i]);
}

static void print_whose_turn(const yz_game *game)
{
    if (yz_game_is_over(game)) return;
    printf("Round %d of %d: %s's turn", yz_game_round(game), game->profile->n_boxes,
           game->names[game->current]);
    if (game->throws) {
        printf(", %d of %d throws made: ", game->throws, YZ_MAX_THROWS);
        print_dice(game->dice.dice, YZ_N_DICE);
        if (game->n_kept) {
            printf(" (keeping ");
            print_dice(game->kept, game->n_kept);
            printf(")");
        }
    }
    printf(".\n");
}

static void print_advice(const yz_game *game)
{
    yz_strategy *strategy = yz_cli_strategy(game->profile);
    if (!strategy) return;
    const yz_card *card = &game->cards[game->current];
    int throws_left = yz_game_throws_left(game, 0);
    yz_turn_advice turn;
    int advised = yz_advise_turn(strategy, card, &game->dice, throws_left, &turn);
    const yz_keep_advice keep = turn.keep;
    if (turn.keeping) {
        printf("Advice: keep ");
        if (keep.n_keep)
            print_dice(keep.keep, keep.n_keep);
        else
            printf("nothing");
        printf(" and throw %d %s (expected final score %.1f).\n", YZ_N_DICE - keep.n_keep,
               YZ_N_DICE - keep.n_keep == 1 ? "die" : "dice", keep.expected);
    } else {
        const yz_box_advice box = turn.box;
        if (advised) {
            printf("Advice: %sscore %s for %d", throws_left ? "stop and " : "",
                   yz_cli_box_label(game->profile, box.option.box), box.option.points);
            if (box.option.bonus) printf(", +%d Yahtzee bonus", box.option.bonus);
            printf(" (expected final score %.1f).\n", box.expected);
        }
    }
    yz_strategy_free(strategy);
}

static void print_standings(const yz_game *game)
{
    int order[YZ_MAX_PLAYERS], place[YZ_MAX_PLAYERS];
    yz_rules_standings(game->profile, game->cards, game->n_players, order, place);
    printf("%s", yz_game_is_over(game) ? "Final standings:" : "Standings:");
    for (int i = 0; i < game->n_players; i++) {
        yz_totals totals;
        yz_rules_totals(game->profile, &game->cards[order[i]], &totals);
        printf("%s %d. %s %d", i ? "," : "", place[order[i]], game->names[order[i]], totals.total);
    }
    printf("\n");
    if (!yz_game_is_over(game)) return;
    int n_winners = 0;
    for (int i = 0; i < game->n_players; i++)
        n_winners += place[i] == 1;
    printf(n_winners > 1 ? "Game over: a tie between" : "Game over: the winner is");
    for (int i = 0, shown = 0; i < game->n_players; i++)
        if (place[order[i]] == 1)
            printf("%s %s", shown++ ? (shown == n_winners ? " and" : ",") : "",
                   game->names[order[i]]);
    printf(".\n");
}

static void print_cards(const yz_game *game)
{
    const yz_profile *profile = game->profile;
    printf("%-16s", "");
    for (int p = 0; p < game->n_players; p++)
        printf(" %8.8s", game->names[p]);
    printf("\n");
    yz_totals totals[YZ_MAX_PLAYERS];
    for (int p = 0; p < game->n_players; p++)
        yz_rules_totals(profile, &game->cards[p], &totals[p]);
    for (int i = 0; i < profile->n_boxes; i++) {
        yz_box box = profile->boxes[i];
        printf("%-16s", yz_cli_box_label(profile, box));
        for (int p = 0; p < game->n_players; p++) {
            if (yz_rules_card_is_open(&game->cards[p], box))
                printf(" %8s", ".");
            else
                printf(" %8d", game->cards[p].points[box]);
        }
        printf("\n");
        if (box == YZ_BOX_SIXES) {
            printf("%-16s", "Upper total");
            for (int p = 0; p < game->n_players; p++)
                printf(" %8d", totals[p].upper);
            printf("\n%-16s", "Upper bonus");
            for (int p = 0; p < game->n_players; p++)
                printf(" %8d", totals[p].upper_bonus);
            printf("\n");
        }
    }
    if (profile->extra != YZ_EXTRA_NONE) {
        printf("%-16s", "Yahtzee bonus");
        for (int p = 0; p < game->n_players; p++)
            printf(" %8d", totals[p].yahtzee_bonus);
        printf("\n");
    }
    printf("%-16s", "TOTAL");
    for (int p = 0; p < game->n_players; p++)
        printf(" %8d", totals[p].total);
    printf("\n");
}

static int show_json(const yz_game *game)
{
    json_t *root = yz_game_scoreboard_json(game);
    char *text = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (!text) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    puts(text);
    free(text);
    return YZ_EXIT_OK;
}

static int game_new(const game_args *args)
{
    if (!args->players)
        return yz_cli_fail(YZ_EXIT_USAGE, "game new: --players Ann,Bob is required");
    const yz_profile *profile =
        args->rules ? yz_rules_profile_find(args->rules) : yz_rules_profile_default();
    if (!profile)
        return yz_cli_fail(YZ_EXIT_USAGE, "--rules: unknown rules '%s' (see: yardzee rules)",
                           args->rules);
    if (!args->force && access(args->file, F_OK) == 0)
        return yz_cli_fail(YZ_EXIT_DATA, "%s: a game is already there (--force replaces it)",
                           args->file);
    char list[YZ_MAX_PLAYERS * YZ_NAME_MAX + 64];
    if (strlen(args->players) >= sizeof list)
        return yz_cli_fail(YZ_EXIT_USAGE, "--players: too long");
    strcpy(list, args->players);
    const char *names[YZ_MAX_PLAYERS + 1];
    int n_players = 0;
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        if (n_players > YZ_MAX_PLAYERS)
            return yz_cli_fail(YZ_EXIT_USAGE, "--players: at most %d players", YZ_MAX_PLAYERS);
        names[n_players++] = name;
    }
    if (n_players > YZ_MAX_PLAYERS)
        return yz_cli_fail(YZ_EXIT_USAGE, "--players: at most %d players", YZ_MAX_PLAYERS);
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_new(&file, profile, names, n_players, &error);
    if (code == YZ_EXIT_OK) code = yz_game_file_save(&file, args->file, &error);
    if (code != YZ_EXIT_OK) yz_cli_report(&error);
    if (code == YZ_EXIT_OK) {
        printf("New game of %s for %d player%s, saved in %s.\n", profile->name, n_players,
               n_players == 1 ? "" : "s", args->file);
        print_whose_turn(&file.game);
    }
    yz_game_file_free(&file);
    return code;
}

/* How many values "2,4,5" or "2 4 5" holds. */
static int count_values(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p != ',' && *p != ' ' && (p == text || p[-1] == ',' || p[-1] == ' ');
    return n;
}

/* Reads the dice from a photo, or from --roll: all five, or after a keep only the dice thrown
 * again (the kept ones are added to them), as players say it. */
static int thrown_dice(const game_args *args, const yz_game *game, yz_roll *roll)
{
    if ((args->roll != NULL) == (args->argument != NULL))
        return yz_cli_fail(YZ_EXIT_USAGE, "game throw: give a PHOTO or --roll, not both");
    yz_rules_error err;
    if (args->roll && game->n_kept && count_values(args->roll) == YZ_N_DICE - game->n_kept) {
        char whole[64];
        int at = 0;
        for (int i = 0; i < game->n_kept; i++)
            at += snprintf(whole + at, sizeof whole - (size_t)at, "%d,", game->kept[i]);
        snprintf(whole + at, sizeof whole - (size_t)at, "%.40s", args->roll);
        return yz_rules_roll_parse(whole, "--roll", roll, &err) == YZ_OK ? YZ_EXIT_OK
                                                                         : yz_cli_fail_rules(&err);
    }
    if (args->roll && game->n_kept && count_values(args->roll) != YZ_N_DICE)
        return yz_cli_fail(YZ_EXIT_USAGE,
                           "game throw: --roll: give the %d dice, or the %d %s thrown again "
                           "besides the kept ones (%d given)",
                           YZ_N_DICE, YZ_N_DICE - game->n_kept,
                           YZ_N_DICE - game->n_kept == 1 ? "die" : "dice",
                           count_values(args->roll));
    if (args->roll)
        return yz_rules_roll_parse(args->roll, "--roll", roll, &err) == YZ_OK
                   ? YZ_EXIT_OK
                   : yz_cli_fail_rules(&err);
    yz_vision_result result;
    yz_vision_error vision_err;
    int code = yz_cli_read_photo(args->argument, YZ_N_DICE, NULL, NULL, 0, &result, &vision_err);
    if (code != YZ_EXIT_OK) return code;
    if (result.status != YZ_VISION_READ_OK)
        return yz_cli_fail(YZ_EXIT_REFUSED,
                           "%s: could not read the dice: %s (nothing was recorded). %s",
                           args->argument, result.reason, result.retake);
    for (int i = 0; i < YZ_N_DICE; i++)
        roll->dice[i] = (uint8_t)result.roll[i];
    return YZ_EXIT_OK;
}

/* throw, keep, score: load, play one move, save, say what happened and what next. */
static int game_move(const char *command, const game_args *args)
{
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(args->file, &file, &error);
    if (code != YZ_EXIT_OK) return yz_cli_report(&error);
    yz_game *game = &file.game;
    json_t *move = NULL;
    yz_roll roll;
    if (args->player && yz_game_player(game, args->player) < 0)
        code = yz_cli_fail(YZ_EXIT_DATA, "%s: '%s' is not playing", args->file, args->player);
    else if (args->player && !yz_game_is_over(game) &&
             strcmp(args->player, game->names[game->current]) != 0)
        code = yz_cli_fail(YZ_EXIT_DATA, "%s: it is %s's turn, not %s's", args->file,
                           game->names[game->current], args->player);
    else if (strcmp(command, "throw") == 0) {
        code = thrown_dice(args, game, &roll);
        if (code == YZ_EXIT_OK)
            move = yz_game_move_throw(game, &roll, args->roll ? NULL : args->argument);
    } else if (!args->argument) {
        code = yz_cli_fail(YZ_EXIT_USAGE, "game %s: which %s?", command,
                           strcmp(command, "keep") == 0 ? "dice (e.g. 3,3 or none)" : "box");
    } else if (strcmp(command, "keep") == 0) {
        uint8_t kept[YZ_N_DICE];
        int n_kept;
        code = parse_kept(args->argument, kept, &n_kept);
        if (code == YZ_EXIT_OK && yz_game_file_repeats_keep(&file, kept, n_kept))
            code = yz_cli_fail(YZ_EXIT_DATA,
                               "%s: %s already keeps these dice: nothing changed (throw the "
                               "other %d next)",
                               args->file, game->names[game->current], YZ_N_DICE - n_kept);
        if (code == YZ_EXIT_OK) move = yz_game_move_keep(game, kept, n_kept);
    } else {
        yz_box box;
        yz_rules_error err;
        if (yz_rules_box_parse(game->profile, args->argument, &box, &err) != YZ_OK)
            code = yz_cli_fail_rules(&err);
        else
            move = yz_game_move_score(game, box);
    }
    const char *player = game->names[game->current];
    char who[YZ_NAME_MAX];
    snprintf(who, sizeof who, "%s", player);
    int bonuses_before = game->cards[game->current].extra_yahtzees;
    char why[300];
    if (code == YZ_EXIT_OK &&
        (code = yz_game_file_play(&file, move, why, sizeof why)) != YZ_EXIT_OK)
        code = yz_cli_fail(code, "%s: %s (nothing changed)", args->file, why);
    if (code == YZ_EXIT_OK && (code = yz_game_file_save(&file, args->file, &error)) != YZ_EXIT_OK)
        yz_cli_report(&error);
    if (code == YZ_EXIT_OK) {
        json_t *played = json_array_get(file.moves, json_array_size(file.moves) - 1);
        if (strcmp(command, "throw") == 0) {
            printf("%s, throw %d of %d: ", who, game->throws, YZ_MAX_THROWS);
            yz_cli_print_roll(stdout, &game->dice);
            printf("\n");
            print_advice(game);
        } else if (strcmp(command, "keep") == 0) {
            printf("%s keeps ", who);
            if (game->n_kept)
                print_dice(game->kept, game->n_kept);
            else
                printf("nothing");
            printf(" and throws %d %s.\n", YZ_N_DICE - game->n_kept,
                   YZ_N_DICE - game->n_kept == 1 ? "die" : "dice");
        } else {
            yz_box box;
            yz_rules_box_parse(game->profile, args->argument, &box, NULL);
            yz_totals totals;
            const yz_card *card = &game->cards[yz_game_player(game, who)];
            yz_rules_totals(game->profile, card, &totals);
            printf("%s scores %d in %s", who,
                   (int)json_integer_value(json_object_get(played, "points")),
                   yz_cli_box_label(game->profile, box));
            if (card->extra_yahtzees > bonuses_before)
                printf(", +%d Yahtzee bonus", (card->extra_yahtzees - bonuses_before) *
                                                  game->profile->extra_yahtzee_bonus);
            printf(" (total %d).\n", totals.total);
            if (yz_game_is_over(game))
                print_standings(game);
            else
                print_whose_turn(game);
        }
    }
    yz_game_file_free(&file);
    return code;
}

static int game_show(const game_args *args)
{
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(args->file, &file, &error);
    if (code != YZ_EXIT_OK) return yz_cli_report(&error);
    if (args->json) {
        code = show_json(&file.game);
    } else {
        printf("%s rules, %d player%s.\n", file.game.profile->name, file.game.n_players,
               file.game.n_players == 1 ? "" : "s");
        print_whose_turn(&file.game);
        print_cards(&file.game);
        print_standings(&file.game);
    }
    yz_game_file_free(&file);
    return code;
}

/* "Took back Ann's throw 3 3 2 4 5.", "... Ann's keep of 3 3.", "... Ann's 9 in Threes." */
static void print_undone(const yz_game *game, const json_t *move)
{
    const char *player = json_string_value(json_object_get(move, "player"));
    json_t *thrown = json_object_get(move, "throw"), *kept = json_object_get(move, "keep");
    const char *box_name = json_string_value(json_object_get(move, "score"));
    printf("Took back %s's ", player ? player : "the last player");
    if (thrown || kept) {
        json_t *dice = thrown ? thrown : kept;
        printf(thrown ? "throw" : json_array_size(dice) ? "keep of" : "keep of nothing");
        for (size_t i = 0; i < json_array_size(dice); i++)
            printf(" %d", (int)json_integer_value(json_array_get(dice, i)));
        if (thrown && json_string_value(json_object_get(move, "photo")))
            printf(" (from %s)", json_string_value(json_object_get(move, "photo")));
    } else {
        yz_box box;
        int known = box_name && yz_rules_box_parse(game->profile, box_name, &box, NULL) == YZ_OK;
        printf("%d in %s", (int)json_integer_value(json_object_get(move, "points")),
               known ? yz_cli_box_label(game->profile, box) : "a box");
    }
    printf(".\n");
}

static int game_undo(const game_args *args)
{
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(args->file, &file, &error);
    if (code != YZ_EXIT_OK) return yz_cli_report(&error);
    json_t *last = json_incref(json_array_get(file.moves, json_array_size(file.moves) - 1));
    code = yz_game_file_undo(&file, args->file, &error);
    if (code == YZ_EXIT_OK) code = yz_game_file_save(&file, args->file, &error);
    if (code != YZ_EXIT_OK) yz_cli_report(&error);
    if (code == YZ_EXIT_OK) {
        print_undone(&file.game, last);
        print_whose_turn(&file.game);
    }
    json_decref(last);
    yz_game_file_free(&file);
    return code;
}

int yz_cmd_game(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(game_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? YZ_EXIT_USAGE : YZ_EXIT_OK;
    }
    const char *command = argv[1];
    if (strcmp(command, "review") == 0) return yz_cmd_game_review(argc - 1, argv + 1);
    game_args args;
    int code = parse_game_args(argc - 1, argv + 1, &args);
    if (code != YZ_EXIT_OK) return code;
    if (args.help) return fputs(game_help, stdout), YZ_EXIT_OK;
    if (strcmp(command, "new") == 0) return game_new(&args);
    if (strcmp(command, "throw") == 0 || strcmp(command, "keep") == 0 ||
        strcmp(command, "score") == 0)
        return game_move(command, &args);
    if (strcmp(command, "show") == 0) return game_show(&args);
    if (strcmp(command, "undo") == 0) return game_undo(&args);
    return yz_cli_fail(YZ_EXIT_USAGE,
                       "game: unknown command '%s' (new, throw, keep, score, show, undo)", command);
}
