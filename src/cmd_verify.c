/* cmd_verify.c - `yardzee verify PHOTO --claim 5,5,5,2,4`: settles a disputed roll. */
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "cli.h"

static const char verify_help[] =
    "usage: yardzee verify PHOTO --claim 5,5,5,2,4 [--annotate OUT.png]\n"
    "Says whether the photo shows the claimed roll (in any order), which dice differ and how sure\n"
    "it is. Exit 0: the photo shows the claim; 4: it does not; 3: the dice cannot be read with\n"
    "confidence, so the photo settles nothing.\n";

int yz_cmd_verify(int argc, char **argv)
{
    static const struct option long_options[] = {{"claim", required_argument, NULL, 'c'},
                                                 {"annotate", required_argument, NULL, 'a'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    const char *claim_text = NULL, *annotate = NULL;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        if (opt == 'c') claim_text = optarg;
        else if (opt == 'a') annotate = optarg;
        else if (opt == 'h') return fputs(verify_help, stdout), YZ_EXIT_OK;
        else return yz_cli_fail(YZ_EXIT_USAGE, "verify: bad option %s", argv[optind - 1]);
    }
    if (optind != argc - 1) return yz_cli_fail(YZ_EXIT_USAGE, "verify: expected one photo");
    if (!claim_text) return yz_cli_fail(YZ_EXIT_USAGE, "verify: --claim 5,5,5,2,4 is required");
    yz_roll claim;
    yz_rules_error rules_err;
    if (yz_rules_roll_parse(claim_text, "--claim", &claim, &rules_err) != YZ_OK)
        return yz_cli_fail_rules(&rules_err);

    yz_vision_result result;
    yz_vision_error err;
    int code = yz_cli_read_photo(argv[optind], YZ_N_DICE, annotate, 0, &result, &err);
    if (code != YZ_EXIT_OK) return code;
    if (result.status != YZ_VISION_READ_OK) {
        printf("Cannot settle it: %s.\n", result.reason);
        return YZ_EXIT_REFUSED;
    }
    /* Unmatched counts: what the photo shows beyond the claim, and the other way round. */
    int shown_extra[YZ_N_FACES + 1] = {0}, claimed_extra[YZ_N_FACES + 1] = {0}, n_differ = 0;
    for (int i = 0; i < YZ_N_DICE; i++) shown_extra[result.roll[i]]++, claimed_extra[claim.dice[i]]++;
    for (int face = 1; face <= YZ_N_FACES; face++) {
        int common = shown_extra[face] < claimed_extra[face] ? shown_extra[face] : claimed_extra[face];
        shown_extra[face] -= common;
        claimed_extra[face] -= common;
        n_differ += shown_extra[face];
    }
    double sure = floor(yz_cli_roll_confidence(&result) * 100);
    printf("The photo shows ");
    for (int i = 0; i < YZ_N_DICE; i++) printf(i ? " %d" : "%d", result.roll[i]);
    if (n_differ == 0) {
        printf(": the claim %s holds (sure: %.0f%%).\n", claim_text, sure);
        return YZ_EXIT_OK;
    }
    printf(", not %s (sure: %.0f%%).\n", claim_text, sure);
    for (int i = 0; i < YZ_N_DICE; i++) {
        int value = result.roll[i];
        if (!shown_extra[value]) continue;
        shown_extra[value]--;
        int claimed = 0;
        for (int face = 1; face <= YZ_N_FACES && !claimed; face++)
            if (claimed_extra[face]) claimed = face, claimed_extra[face]--;
        printf("  die %d from the left shows %d, the claim has %d there\n", i + 1, value, claimed);
    }
    return YZ_EXIT_MISMATCH;
}
