/* cmd_snap.c - `yardzee PHOTO`: the roll in a photo and what to do with it, at a glance. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "cli.h"

static const char snap_help[] =
    "usage: yardzee PHOTO [--rules P] [--card CARD.json] [--throws-left 0|1|2]\n"
    "                     [--annotate OUT.png] [--json]\n"
    "Reads the roll in the photo and says what to do: which dice to keep (with throws left) or\n"
    "which box to score (the default: after the last throw). When the dice cannot be read with\n"
    "confidence it says why and exits 3; it never prints a guessed roll as if it were sure.\n";

/* {"file", "status", "reason", "roll", "confidence", "advice": {"keep": [..]} | {"box", "points"},
 *  "retake"} */
static int print_snap_json(const char *photo, const yz_vision_result *result,
                           const yz_profile *profile, const yz_keep_advice *keep,
                           const yz_box_advice *box)
{
    int ok = result->status == YZ_VISION_READ_OK;
    json_t *roll = json_array(), *advice = json_null();
    for (int i = 0; ok && i < result->n_dice; i++)
        json_array_append_new(roll, json_integer(result->roll[i]));
    if (keep) {
        json_t *kept = json_array();
        for (int i = 0; i < keep->n_keep; i++)
            json_array_append_new(kept, json_integer(keep->keep[i]));
        advice = json_pack("{s:o, s:f}", "keep", kept, "expected", keep->expected);
    } else if (box) {
        advice = json_pack("{s:s, s:i, s:f}", "box", yz_rules_box_name(box->option.box), "points",
                           box->option.points + box->option.bonus, "expected", box->expected);
    }
    json_t *root =
        json_pack("{s:s, s:s, s:s, s:o, s:f, s:o}", "file", photo, "status", ok ? "ok" : "refused",
                  "reason", result->reason, "roll", roll, "confidence",
                  ok ? yz_cli_roll_confidence(result) : 0.0, "advice", advice);
    json_object_set_new(root, "retake", ok ? json_null() : json_string(result->retake));
    if (profile) json_object_set_new(root, "rules", json_string(profile->name));
    char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(root);
    if (text) puts(text);
    free(text);
    return YZ_EXIT_OK;
}

int yz_cmd_snap(int argc, char **argv)
{
    static const struct option long_options[] = {{"rules", required_argument, NULL, 'R'},
                                                 {"card", required_argument, NULL, 'c'},
                                                 {"throws-left", required_argument, NULL, 't'},
                                                 {"annotate", required_argument, NULL, 'a'},
                                                 {"json", no_argument, NULL, 'j'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    yz_cli_roll_args args;
    memset(&args, 0, sizeof args);
    const char *annotate = NULL;
    int throws_left = 0, json = 0, opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (opt) {
        case 'R': args.rules_name = optarg; break;
        case 'c': args.card_path = optarg; break;
        case 'a': annotate = optarg; break;
        case 'j': json = 1; break;
        case 'h': fputs(snap_help, stdout); return YZ_EXIT_OK;
        case 't':
            if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2')
                return yz_cli_fail(YZ_EXIT_USAGE, "--throws-left: '%s' is not 0, 1 or 2", optarg);
            throws_left = optarg[0] - '0';
            break;
        default: return yz_cli_bad_option(NULL, opt, argv);
        }
    }
    if (optind != argc - 1)
        return yz_cli_fail(YZ_EXIT_USAGE, "expected one photo (see: yardzee --help)");
    const char *photo = argv[optind];

    yz_vision_result result;
    yz_vision_error err;
    int code = yz_cli_read_photo(photo, YZ_N_DICE, NULL, annotate, 0, &result, &err);
    if (code != YZ_EXIT_OK) return code;
    if (result.status != YZ_VISION_READ_OK) {
        if (json) return print_snap_json(photo, &result, NULL, NULL, NULL), YZ_EXIT_REFUSED;
        printf("Could not read the dice with confidence: %s.\n%s\n", result.reason, result.retake);
        return YZ_EXIT_REFUSED;
    }
    /* The roll as text, for the same card and rules handling as score and advise. */
    char roll_text[32];
    snprintf(roll_text, sizeof roll_text, "%d,%d,%d,%d,%d", result.roll[0], result.roll[1],
             result.roll[2], result.roll[3], result.roll[4]);
    args.roll_text = roll_text;
    const yz_profile *profile;
    yz_card card;
    yz_roll roll;
    code = yz_cli_load_game_state(&args, &profile, &card, &roll);
    if (code != YZ_EXIT_OK) return code;
    yz_strategy *strategy = yz_cli_strategy(profile);
    if (!strategy) return YZ_EXIT_INTERNAL;
    yz_turn_advice turn;
    yz_advise_turn(strategy, &card, &roll, throws_left, &turn);
    const int keeping = turn.keeping;
    const yz_keep_advice keep = turn.keep;
    const yz_box_advice box = turn.box;
    yz_strategy_free(strategy);
    if (json)
        return print_snap_json(photo, &result, profile, keeping ? &keep : NULL,
                               keeping ? NULL : &box);

    printf("Roll: ");
    yz_cli_print_roll(stdout, &roll);
    printf("   (sure: %.0f%%)\n", floor(yz_cli_roll_confidence(&result) * 100));
    if (keeping) {
        printf("Keep:");
        for (int i = 0; i < keep.n_keep; i++)
            printf(" %d", keep.keep[i]);
        printf("%s and throw %d %s again.\n", keep.n_keep ? "" : " nothing",
               YZ_N_DICE - keep.n_keep, YZ_N_DICE - keep.n_keep == 1 ? "die" : "dice");
    } else {
        printf("Score: %s for %d points%s.\n", yz_cli_box_label(profile, box.option.box),
               box.option.points + box.option.bonus,
               box.option.bonus ? " (with the extra-Yahtzee bonus)" : "");
        if (!throws_left)
            printf("(After your last throw; with throws left add --throws-left 1 or 2.)\n");
    }
    return YZ_EXIT_OK;
}
