/* cmd_strategy.c - `yardzee strategy`: solve a profile afresh, time it, cache the table. */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char strategy_help[] =
    "usage: yardzee strategy [--rules PROFILE] [--no-extra-rules] [--json]\n"
    "Solves the rules exactly (optimal solitaire play), prints the optimal expected score from an\n"
    "empty card and the time the table took, and caches the table for advise and score.\n"
    "--no-extra-rules solves without the extra-Yahtzee bonus and jokers (not cached).\n";

int yz_cmd_strategy(int argc, char **argv)
{
    static const struct option long_options[] = {{"rules", required_argument, NULL, 'R'},
                                                 {"no-extra-rules", no_argument, NULL, 'n'},
                                                 {"json", no_argument, NULL, 'j'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    const char *rules_name = NULL;
    int json = 0, no_extra = 0, opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        if (opt == 'R')
            rules_name = optarg;
        else if (opt == 'n')
            no_extra = 1;
        else if (opt == 'j')
            json = 1;
        else if (opt == 'h')
            return fputs(strategy_help, stdout), YZ_EXIT_OK;
        else
            return yz_cli_bad_option("strategy", opt, argv);
    }
    if (optind < argc)
        return yz_cli_fail(YZ_EXIT_USAGE, "strategy: unexpected argument '%s'", argv[optind]);
    const yz_profile *profile =
        rules_name ? yz_rules_profile_find(rules_name) : yz_rules_profile_default();
    if (!profile)
        return yz_cli_fail(YZ_EXIT_USAGE, "--rules: unknown rules '%s' (see: yardzee rules)",
                           rules_name);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double seconds = 0;
    yz_strategy *strategy;
    if (no_extra) {
        yz_strategy_options options = {0};
        options.n_threads = cores > 0 ? (int)cores : 2;
        options.no_extra_rules = 1;
        yz_rules_error err;
        double start = yz_cli_now();
        if (yz_strategy_build(profile, &options, &strategy, &err) != YZ_OK)
            return yz_cli_fail_rules(&err);
        seconds = yz_cli_now() - start;
    } else {
        strategy = yz_cli_strategy_rebuild(profile, &seconds);
        if (!strategy) return YZ_EXIT_INTERNAL;
    }
    yz_card empty;
    yz_rules_card_init(&empty);
    double expected = yz_strategy_expected_total(strategy, &empty);
    yz_strategy_free(strategy);
    if (json)
        printf("{\"rules\":\"%s\",\"extra_rules\":%s,\"expected\":%.6f,\"seconds\":%.3f,"
               "\"threads\":%ld}\n",
               profile->name, no_extra ? "false" : "true", expected, seconds, cores);
    else
        printf("%s%s: optimal expected score %.4f from an empty card (solved in %.2f s on %ld "
               "threads)\n",
               profile->name, no_extra ? " without extra-Yahtzee rules" : "", expected, seconds,
               cores);
    return YZ_EXIT_OK;
}
