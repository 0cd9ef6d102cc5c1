/* cmd_verify.c - `yardzee verify PHOTO --claim 5,5,5,2,4`: settles a disputed roll. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "cli.h"

static const char verify_help[] =
    "usage: yardzee verify PHOTO --claim 5,5,5,2,4 [--annotate OUT.png] [--json]\n"
    "Says whether the photo shows the claimed roll (in any order), which dice differ and how sure\n"
    "it is. Exit 0: the photo shows the claim; 4: it does not; 3: the dice cannot be read with\n"
    "confidence, so the photo settles nothing.\n";

int yz_cli_claim_differences(const yz_vision_result *result, const yz_roll *claim,
                             int claimed_at[YZ_N_DICE])
{
    /* Unmatched counts: what the photo shows beyond the claim, and the other way round. */
    int shown_extra[YZ_N_FACES + 1] = {0}, claimed_extra[YZ_N_FACES + 1] = {0}, n_differ = 0;
    for (int i = 0; i < YZ_N_DICE; i++)
        shown_extra[result->roll[i]]++, claimed_extra[claim->dice[i]]++;
    for (int face = 1; face <= YZ_N_FACES; face++) {
        int common =
            shown_extra[face] < claimed_extra[face] ? shown_extra[face] : claimed_extra[face];
        shown_extra[face] -= common;
        claimed_extra[face] -= common;
    }
    for (int i = 0; i < YZ_N_DICE; i++) {
        int value = result->roll[i];
        claimed_at[i] = 0;
        if (!shown_extra[value]) continue;
        shown_extra[value]--;
        for (int face = 1; face <= YZ_N_FACES && !claimed_at[i]; face++)
            if (claimed_extra[face]) claimed_at[i] = face, claimed_extra[face]--;
        n_differ++;
    }
    return n_differ;
}

json_t *yz_cli_verdict_json(const yz_vision_result *result, const yz_roll *claim)
{
    int claimed_at[YZ_N_DICE];
    yz_cli_claim_differences(result, claim, claimed_at);
    json_t *roll = json_array(), *claimed = json_array(), *differ = json_array();
    for (int i = 0; i < YZ_N_DICE; i++) {
        json_array_append_new(roll, json_integer(result->roll[i]));
        json_array_append_new(claimed, json_integer(claim->dice[i]));
    }
    for (int i = 0; i < YZ_N_DICE; i++)
        if (claimed_at[i])
            json_array_append_new(differ, json_pack("{s:i, s:i, s:i}", "die", i + 1, "shows",
                                                    result->roll[i], "claimed", claimed_at[i]));
    return json_pack("{s:s, s:o, s:o, s:f, s:o}", "verdict",
                     json_array_size(differ) ? "mismatch" : "match", "roll", roll, "claim", claimed,
                     "confidence", yz_cli_roll_confidence(result), "differ", differ);
}

static void print_json(json_t *root)
{
    char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(6));
    if (text) puts(text);
    free(text);
}

int yz_cmd_verify(int argc, char **argv)
{
    static const struct option long_options[] = {{"claim", required_argument, NULL, 'c'},
                                                 {"annotate", required_argument, NULL, 'a'},
                                                 {"json", no_argument, NULL, 'j'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    const char *claim_text = NULL, *annotate = NULL;
    int opt, json = 0;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        if (opt == 'c')
            claim_text = optarg;
        else if (opt == 'a')
            annotate = optarg;
        else if (opt == 'j')
            json = 1;
        else if (opt == 'h')
            return fputs(verify_help, stdout), YZ_EXIT_OK;
        else
            return yz_cli_bad_option("verify", opt, argv);
    }
    if (optind != argc - 1) return yz_cli_fail(YZ_EXIT_USAGE, "verify: expected one photo");
    if (!claim_text) return yz_cli_fail(YZ_EXIT_USAGE, "verify: --claim 5,5,5,2,4 is required");
    yz_roll claim;
    yz_rules_error rules_err;
    if (yz_rules_roll_parse(claim_text, "--claim", &claim, &rules_err) != YZ_OK)
        return yz_cli_fail_rules(&rules_err);

    yz_vision_result result;
    yz_vision_error err;
    int code = yz_cli_read_photo_claim(argv[optind], &claim, annotate, &result, &err);
    if (code != YZ_EXIT_OK) return code;
    if (result.status != YZ_VISION_READ_OK) {
        if (json) {
            json_t *root = json_pack("{s:s, s:s, s:s}", "verdict", "unreadable", "reason",
                                     result.reason, "retake", result.retake);
            print_json(root);
            json_decref(root);
        } else
            printf("Cannot settle it: %s.\n%s\n", result.reason, result.retake);
        return YZ_EXIT_REFUSED;
    }
    json_t *verdict = yz_cli_verdict_json(&result, &claim);
    if (!verdict) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    json_t *differ = json_object_get(verdict, "differ");
    code = json_array_size(differ) ? YZ_EXIT_MISMATCH : YZ_EXIT_OK;
    double sure = floor(yz_cli_roll_confidence(&result) * 100);
    if (json) {
        print_json(verdict);
    } else {
        printf("The photo shows ");
        for (int i = 0; i < YZ_N_DICE; i++)
            printf(i ? " %d" : "%d", result.roll[i]);
        if (code == YZ_EXIT_OK)
            printf(": the claim %s holds (sure: %.0f%%).\n", claim_text, sure);
        else
            printf(", not %s (sure: %.0f%%).\n", claim_text, sure);
        for (size_t i = 0; i < json_array_size(differ); i++) {
            json_t *die = json_array_get(differ, i);
            printf("  die %d from the left shows %d, the claim has %d there\n",
                   (int)json_integer_value(json_object_get(die, "die")),
                   (int)json_integer_value(json_object_get(die, "shows")),
                   (int)json_integer_value(json_object_get(die, "claimed")));
        }
    }
    json_decref(verdict);
    return code;
}
