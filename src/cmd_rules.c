/* cmd_rules.c - `yardzee rules [PROFILE]`: the profiles, or one profile's boxes in words. */
#include <string.h>

#include "cli.h"

static void describe_box(const yz_profile *p, yz_box box, char *text, size_t size)
{
    int matching = p->kinds == YZ_KIND_SUM_MATCHING;
    switch (box) {
    case YZ_BOX_ONE_PAIR:
        snprintf(text, size, "two dice of a face: their sum (highest pair)");
        break;
    case YZ_BOX_TWO_PAIRS: snprintf(text, size, "two pairs of different faces: their sum"); break;
    case YZ_BOX_THREE_KIND:
    case YZ_BOX_FOUR_KIND:
        snprintf(text, size, "%s%d dice of a face: %s", matching ? "" : "at least ",
                 box == YZ_BOX_THREE_KIND ? 3 : 4,
                 matching ? "the sum of those dice (highest face)" : "the sum of all dice");
        break;
    case YZ_BOX_FULL_HOUSE:
        if (p->house == YZ_HOUSE_SUM)
            snprintf(text, size, "three of one face and two of another: the sum of the dice");
        else
            snprintf(text, size, "three of one face and two of another: %d", p->house_points);
        break;
    case YZ_BOX_SMALL_STRAIGHT:
        if (p->straights == YZ_STRAIGHT_FIXED)
            snprintf(text, size, "1-2-3-4-5: %d", p->small_straight_points);
        else
            snprintf(text, size, "four in a row: %d", p->small_straight_points);
        break;
    case YZ_BOX_LARGE_STRAIGHT:
        if (p->straights == YZ_STRAIGHT_FIXED)
            snprintf(text, size, "2-3-4-5-6: %d", p->large_straight_points);
        else
            snprintf(text, size, "five in a row: %d", p->large_straight_points);
        break;
    case YZ_BOX_YAHTZEE: snprintf(text, size, "five of a kind: %d", p->yahtzee_points); break;
    case YZ_BOX_CHANCE: snprintf(text, size, "anything: the sum of the dice"); break;
    default: snprintf(text, size, "the sum of the dice showing %d", (int)box + 1); break;
    }
}

int yz_cmd_rules(int argc, char **argv)
{
    if (argc > 2) return yz_cli_fail(YZ_EXIT_USAGE, "rules: expected at most one profile name");
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        puts("usage: yardzee rules [PROFILE]\nLists the rules yardzee knows, or one profile's "
             "boxes and special rules.");
        return YZ_EXIT_OK;
    }
    if (argc < 2) {
        for (size_t i = 0; i < yz_rules_profile_count(); i++) {
            const yz_profile *p = yz_rules_profile_at(i);
            printf("%-20s %s%s\n", p->name, p->title, i == 0 ? " [default]" : "");
        }
        return YZ_EXIT_OK;
    }
    const yz_profile *p = yz_rules_profile_find(argv[1]);
    if (!p)
        return yz_cli_fail(YZ_EXIT_USAGE, "rules: unknown rules '%s' (see: yardzee rules)",
                           argv[1]);
    printf("%s: %s\n%d boxes, %d-%d players\n", p->name, p->title, p->n_boxes, p->min_players,
           p->max_players);
    for (int i = 0; i < p->n_boxes; i++) {
        char text[160];
        describe_box(p, p->boxes[i], text, sizeof text);
        printf("  %-16s %-15s %s\n", yz_cli_box_label(p, p->boxes[i]),
               yz_rules_box_name(p->boxes[i]), text);
    }
    printf("Special rules:\n");
    for (int i = 0; i < 8 && p->notes[i]; i++)
        printf("  - %s\n", p->notes[i]);
    return YZ_EXIT_OK;
}
