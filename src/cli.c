/* cli.c - argument parsing and error reporting shared by the subcommands. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int yz_cli_fail(int code, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("yardzee: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    return code;
}

int yz_cli_bad_option(const char *command, int opt, char **argv)
{
    const char *option = argv[optind - 1];
    if (opt == ':')
        return yz_cli_fail(YZ_EXIT_USAGE, "%s%soption %s needs a value", command ? command : "",
                           command ? ": " : "", option);
    return yz_cli_fail(YZ_EXIT_USAGE, "%s%sunknown option %s (see: yardzee %s%s--help)",
                       command ? command : "", command ? ": " : "", option, command ? command : "",
                       command ? " " : "");
}

static int rules_exit_code(const yz_rules_error *err)
{
    return err->code == YZ_ERR_USAGE  ? YZ_EXIT_USAGE
           : err->code == YZ_ERR_DATA ? YZ_EXIT_DATA
                                      : YZ_EXIT_INTERNAL;
}

int yz_cli_fail_rules(const yz_rules_error *err)
{
    return yz_cli_fail(rules_exit_code(err), "%s", err->message);
}

int yz_cli_set_error(yz_cli_error *err, int code, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
    return code;
}

int yz_cli_set_rules_error(yz_cli_error *err, const yz_rules_error *rules_err)
{
    return yz_cli_set_error(err, rules_exit_code(rules_err), "%s", rules_err->message);
}

int yz_cli_report(const yz_cli_error *err)
{
    return yz_cli_fail(err->code, "%s", err->message);
}

int yz_cli_parse_roll_args(int argc, char **argv, const char *command, int allow_throws,
                           yz_cli_roll_args *args)
{
    static const struct option long_options[] = {{"roll", required_argument, NULL, 'r'},
                                                 {"rules", required_argument, NULL, 'R'},
                                                 {"card", required_argument, NULL, 'c'},
                                                 {"throws-left", required_argument, NULL, 't'},
                                                 {"json", no_argument, NULL, 'j'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    memset(args, 0, sizeof *args);
    args->throws_left = -1;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (opt) {
        case 'r': args->roll_text = optarg; break;
        case 'R': args->rules_name = optarg; break;
        case 'c': args->card_path = optarg; break;
        case 'j': args->json = 1; break;
        case 'h': args->help = 1; return YZ_EXIT_OK;
        case 't': {
            if (!allow_throws)
                return yz_cli_fail(YZ_EXIT_USAGE, "%s: unknown option --throws-left", command);
            char *end;
            long value = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || value < 0 || value > 2)
                return yz_cli_fail(YZ_EXIT_USAGE, "--throws-left: '%s' is not 0, 1 or 2", optarg);
            args->throws_left = (int)value;
            break;
        }
        default: return yz_cli_bad_option(command, opt, argv);
        }
    }
    if (optind < argc)
        return yz_cli_fail(YZ_EXIT_USAGE, "%s: unexpected argument '%s'", command, argv[optind]);
    if (!args->roll_text) return yz_cli_fail(YZ_EXIT_USAGE, "%s: --roll is required", command);
    return YZ_EXIT_OK;
}

int yz_cli_load_game_state(const yz_cli_roll_args *args, const yz_profile **profile, yz_card *card,
                           yz_roll *roll)
{
    *profile = NULL;
    if (args->rules_name) {
        *profile = yz_rules_profile_find(args->rules_name);
        if (!*profile)
            return yz_cli_fail(YZ_EXIT_USAGE, "--rules: unknown rules '%s' (see: yardzee rules)",
                               args->rules_name);
    }
    yz_rules_error err;
    if (yz_rules_roll_parse(args->roll_text, "--roll", roll, &err) != YZ_OK)
        return yz_cli_fail_rules(&err);
    yz_rules_card_init(card);
    if (args->card_path) {
        yz_cli_error error;
        if (yz_cli_read_card(args->card_path, profile, card, &error) != YZ_EXIT_OK)
            return yz_cli_report(&error);
    }
    if (!*profile) *profile = yz_rules_profile_default();
    if (yz_rules_card_is_full(*profile, card))
        return yz_cli_fail(YZ_EXIT_DATA, "%s: the card is full: the game is over",
                           args->card_path ? args->card_path : "card");
    return YZ_EXIT_OK;
}

const char *yz_cli_box_label(const yz_profile *profile, yz_box box)
{
    return profile->box_labels[box] ? profile->box_labels[box] : yz_rules_box_name(box);
}

void yz_cli_print_roll(FILE *out, const yz_roll *roll)
{
    for (int i = 0; i < YZ_N_DICE; i++)
        fprintf(out, i ? " %d" : "%d", roll->dice[i]);
}

double yz_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
