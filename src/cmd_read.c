/* cmd_read.c - `yardzee read PHOTO`: the dice in a photo, or an honest refusal. The reading is
 * libyzvision's; this file parses options and prints. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "vision.h"

typedef struct {
    const char *photo;
    const char *annotate;
    int expect;
    int json;
} read_args;

static const char read_usage[] =
    "usage: yardzee read PHOTO [--json] [--annotate OUT.png] [--expect 5|any]\n"
    "Reads the top faces of the dice in a JPEG, PNG or HEIC photo. By default exactly 5 dice must\n"
    "be found and every one read with confidence; otherwise the photo is refused (exit 3) with\n"
    "the reason. --expect any reports every die found. --annotate writes the photo with each\n"
    "die's outline, top face and value drawn on it, and a close-up below when the dice are "
    "small.\n";

static int parse_read_args(int argc, char **argv, read_args *args)
{
    static const struct option long_options[] = {{"json", no_argument, NULL, 'j'},
                                                 {"annotate", required_argument, NULL, 'a'},
                                                 {"expect", required_argument, NULL, 'e'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    memset(args, 0, sizeof *args);
    args->expect = 5;
    optind = 1;
    opterr = 0;
    int option;
    while ((option = getopt_long(argc, argv, ":", long_options, NULL)) != -1) {
        switch (option) {
        case 'j': args->json = 1; break;
        case 'a': args->annotate = optarg; break;
        case 'e':
            if (strcmp(optarg, "any") == 0)
                args->expect = 0;
            else if (strspn(optarg, "0123456789") == strlen(optarg) && atoi(optarg) >= 1 &&
                     atoi(optarg) <= YZ_VISION_MAX_DICE)
                args->expect = atoi(optarg);
            else
                return yz_cli_fail(YZ_EXIT_USAGE,
                                   "read: --expect takes a number of dice or 'any', not '%s'",
                                   optarg);
            break;
        case 'h': fputs(read_usage, stdout); return -1;
        default: return yz_cli_bad_option("read", option, argv);
        }
    }
    if (optind != argc - 1)
        return yz_cli_fail(YZ_EXIT_USAGE, "read: expected one photo (see: yardzee read --help)");
    args->photo = argv[optind];
    return YZ_EXIT_OK;
}

static int print_json(const char *file, const yz_vision_result *result)
{
    json_t *root = yz_cli_read_json(file, result);
    char *text = root ? json_dumps(root, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4)) : NULL;
    json_decref(root);
    if (!text) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    puts(text);
    free(text);
    return YZ_EXIT_OK;
}

static void print_human(const yz_vision_result *result)
{
    if (result->status == YZ_VISION_READ_OK) {
        printf("Roll");
        for (int i = 0; i < result->n_dice; i++)
            printf(" %d", result->roll[i]);
        printf("  (%d %s, left to right)\n", result->n_dice, result->n_dice == 1 ? "die" : "dice");
    } else {
        printf("Refused: %s\n%s\n", result->reason, result->retake);
    }
    for (int i = 0; i < result->n_dice; i++) {
        const yz_vision_die *die = &result->dice[i];
        char value[4] = "?";
        if (die->value) snprintf(value, sizeof value, "%d", die->value);
        printf("  die %d: %s  confidence %.2f%s  at %d,%d %dx%d\n", i + 1, value, die->confidence,
               die->certain ? "" : " (uncertain)", die->box[0], die->box[1], die->box[2],
               die->box[3]);
    }
}

int yz_cmd_read(int argc, char **argv)
{
    read_args args;
    int parsed = parse_read_args(argc, argv, &args);
    if (parsed != YZ_EXIT_OK) return parsed < 0 ? YZ_EXIT_OK : parsed;
    yz_vision_result *result = malloc(sizeof *result);
    if (!result) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    yz_vision_error err = {YZ_VISION_OK, ""};
    int code = yz_cli_read_photo(args.photo, args.expect, NULL, args.annotate, 0, result, &err);
    if (code == YZ_EXIT_OK) {
        code = args.json ? print_json(args.photo, result) : (print_human(result), YZ_EXIT_OK);
        if (code == YZ_EXIT_OK && result->status == YZ_VISION_READ_REFUSED) code = YZ_EXIT_REFUSED;
    }
    free(result);
    return code;
}
