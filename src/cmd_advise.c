/* cmd_advise.c - `yardzee advise`: the optimal keep, or the optimal box. */
#include <jansson.h>
#include <stdlib.h>

#include "cli.h"

#define SHOWN 5

static const char advise_help[] =
    "usage: yardzee advise --roll 1,3,3,4,6 [--throws-left 0|1|2] [--rules PROFILE]\n"
    "                      [--card CARD.json] [--json]\n"
    "With throws left: which dice to keep (the best few keeps and the expected final score of\n"
    "each). With none left (the default): which box, with its points now and expected final\n"
    "score. Advice is exact optimal solitaire play, solved once per rules and cached.\n";

static json_t *dice_json(const uint8_t *dice, int n_dice)
{
    json_t *array = json_array();
    for (int i = 0; i < n_dice; i++)
        json_array_append_new(array, json_integer(dice[i]));
    return array;
}

static void print_keep(const yz_keep_advice *keep)
{
    char dice[32] = "nothing";
    int at = 0;
    for (int i = 0; i < keep->n_keep; i++)
        at += snprintf(dice + at, sizeof dice - (size_t)at, i ? " %d" : "%d", keep->keep[i]);
    printf("  keep %-10s reroll %d   expected final score %.2f\n", dice, YZ_N_DICE - keep->n_keep,
           keep->expected);
}

int yz_cmd_advise(int argc, char **argv)
{
    yz_cli_roll_args args;
    int code = yz_cli_parse_roll_args(argc, argv, "advise", 1, &args);
    if (code != YZ_EXIT_OK || args.help) {
        if (args.help) fputs(advise_help, stdout);
        return code;
    }
    const yz_profile *profile;
    yz_card card;
    yz_roll roll;
    code = yz_cli_load_game_state(&args, &profile, &card, &roll);
    if (code != YZ_EXIT_OK) return code;
    int throws_left = args.throws_left < 0 ? 0 : args.throws_left;
    yz_strategy *strategy = yz_cli_strategy(profile);
    if (!strategy) return YZ_EXIT_INTERNAL;
    yz_keep_advice keeps[SHOWN];
    yz_box_advice boxes[SHOWN];
    int n_keeps = 0, n_boxes = 0;
    if (throws_left > 0)
        n_keeps = yz_advise_keeps(strategy, &card, &roll, throws_left, keeps, SHOWN);
    else
        n_boxes = yz_advise_boxes(strategy, &card, &roll, boxes, SHOWN);
    yz_strategy_free(strategy);

    if (args.json) {
        json_t *root = json_pack("{s:s, s:o, s:i}", "rules", profile->name, "roll",
                                 dice_json(roll.dice, YZ_N_DICE), "throws_left", throws_left);
        json_t *list = json_array();
        for (int i = 0; i < n_keeps; i++)
            json_array_append_new(list, json_pack("{s:o, s:f}", "keep",
                                                  dice_json(keeps[i].keep, keeps[i].n_keep),
                                                  "expected", keeps[i].expected));
        for (int i = 0; i < n_boxes; i++)
            json_array_append_new(list, json_pack("{s:s, s:i, s:f}", "box",
                                                  yz_rules_box_name(boxes[i].option.box), "points",
                                                  boxes[i].option.points + boxes[i].option.bonus,
                                                  "expected", boxes[i].expected));
        json_object_set_new(root, throws_left ? "keeps" : "boxes", list);
        json_object_set(root, "best", json_array_get(list, 0));
        char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(10));
        json_decref(root);
        if (!text) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
        puts(text);
        free(text);
        return YZ_EXIT_OK;
    }

    printf("Roll ");
    yz_cli_print_roll(stdout, &roll);
    printf("  (%s rules, %d throw%s left)\n", profile->name, throws_left,
           throws_left == 1 ? "" : "s");
    if (throws_left > 0) {
        printf("Best: ");
        print_keep(&keeps[0]);
        if (n_keeps > 1) printf("Next best:\n");
        for (int i = 1; i < n_keeps; i++)
            print_keep(&keeps[i]);
        return YZ_EXIT_OK;
    }
    for (int i = 0; i < n_boxes; i++) {
        const yz_option *option = &boxes[i].option;
        printf("%s %-16s %3d points%s   expected final score %.2f\n",
               i ? "     " : "Best:", yz_cli_box_label(profile, option->box),
               option->points + option->bonus, option->bonus ? " (with bonus)" : "",
               boxes[i].expected);
    }
    return YZ_EXIT_OK;
}
