/* cmd_score.c - `yardzee score`: every legal box for a roll, by points now, and the box the
 * optimal advisor prefers when that is another. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char score_help[] =
    "usage: yardzee score --roll 5,2,5,6,5 [--rules PROFILE] [--card CARD.json] [--json]\n"
    "Lists every open box the roll may legally go into, most points first, marks the best,\n"
    "and marks the box the optimal advisor prefers when it differs.\n";

/* Stable: equal points keep the profile's display order. */
static void sort_by_points(yz_option *options, int n_options)
{
    for (int i = 1; i < n_options; i++)
        for (int j = i; j > 0 && options[j].points > options[j - 1].points; j--) {
            yz_option tmp = options[j];
            options[j] = options[j - 1];
            options[j - 1] = tmp;
        }
}

/* One line on why the advisor passes over the most points now. */
static void advice_reason(const yz_profile *profile, const yz_option *now, const yz_option *advised,
                          char *why, size_t size)
{
    const char *now_label = yz_cli_box_label(profile, now->box);
    if (YZ_BOX_IS_UPPER(advised->box) && !YZ_BOX_IS_UPPER(now->box) && advised->points > 0)
        snprintf(why, size, "keeps the upper bonus in reach");
    else if (now->box == YZ_BOX_CHANCE)
        snprintf(why, size, "saves Chance for a roll that fits nowhere else");
    else if (advised->points == 0)
        snprintf(why, size, "scratches %s, the box least likely to pay later, and keeps %s open",
                 yz_cli_box_label(profile, advised->box), now_label);
    else
        snprintf(why, size, "saves %s for a roll that scores more there", now_label);
}

int yz_cmd_score(int argc, char **argv)
{
    yz_cli_roll_args args;
    int code = yz_cli_parse_roll_args(argc, argv, "score", 0, &args);
    if (code != YZ_EXIT_OK || args.help) {
        if (args.help) fputs(score_help, stdout);
        return code;
    }
    const yz_profile *profile;
    yz_card card;
    yz_roll roll;
    code = yz_cli_load_game_state(&args, &profile, &card, &roll);
    if (code != YZ_EXIT_OK) return code;

    yz_option options[YZ_BOX_COUNT];
    int n_options = yz_rules_options(profile, &card, &roll, options);
    sort_by_points(options, n_options);
    yz_strategy *strategy = yz_cli_strategy(profile);
    if (!strategy) return YZ_EXIT_INTERNAL;
    yz_box_advice advice[1];
    yz_advise_boxes(strategy, &card, &roll, advice, 1);
    yz_strategy_free(strategy);
    const yz_option *advised = &advice[0].option;
    /* Among boxes tied on points, the one the advisor prefers is the best. */
    for (int i = 1; i < n_options && options[i].points == options[0].points; i++)
        if (options[i].box == advised->box) {
            yz_option tmp = options[i];
            memmove(&options[1], &options[0], sizeof options[0] * (size_t)i);
            options[0] = tmp;
        }
    const yz_option *best = &options[0];
    int differs = advised->box != best->box;
    char why[200] = "";
    if (differs) advice_reason(profile, best, advised, why, sizeof why);

    if (args.json) {
        json_t *root = json_object(), *dice = json_array(), *list = json_array();
        for (int i = 0; i < YZ_N_DICE; i++)
            json_array_append_new(dice, json_integer(roll.dice[i]));
        for (int i = 0; i < n_options; i++) {
            json_t *option = json_pack("{s:s, s:i}", "box", yz_rules_box_name(options[i].box),
                                       "points", options[i].points);
            if (options[i].bonus)
                json_object_set_new(option, "bonus", json_integer(options[i].bonus));
            if (options[i].joker) json_object_set_new(option, "joker", json_true());
            json_array_append_new(list, option);
        }
        json_object_set_new(root, "rules", json_string(profile->name));
        json_object_set_new(root, "roll", dice);
        json_object_set_new(root, "options", list);
        json_object_set_new(
            root, "best",
            json_pack("{s:s, s:i}", "box", yz_rules_box_name(best->box), "points", best->points));
        json_object_set_new(root, "advice",
                            json_pack("{s:s, s:i, s:f, s:s}", "box",
                                      yz_rules_box_name(advised->box), "points", advised->points,
                                      "expected", advice[0].expected, "why",
                                      differs ? why : "most points now"));
        char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(10));
        json_decref(root);
        if (!text) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
        puts(text);
        free(text);
        return YZ_EXIT_OK;
    }

    printf("Roll ");
    yz_cli_print_roll(stdout, &roll);
    printf("  (%s rules)\n", profile->name);
    for (int i = 0; i < n_options; i++) {
        const char *mark = i == 0                                      ? "  <- most points"
                           : differs && options[i].box == advised->box ? "  <- advisor's choice"
                                                                       : "";
        printf("  %-16s %3d%s%s\n", yz_cli_box_label(profile, options[i].box), options[i].points,
               options[i].joker ? " (joker)" : "", mark);
    }
    if (best->bonus) printf("  + %d extra-Yahtzee bonus\n", best->bonus);
    if (differs)
        printf("Advisor: score %s for %d: %s.\n", yz_cli_box_label(profile, advised->box),
               advised->points, why);
    return YZ_EXIT_OK;
}
