/* test_cards.h - rolls and score cards written plainly in the C tests of the rules ("1,2,3,4,5",
 * "aces=3 chance=25"). Include after <cmocka.h> and "rules.h". */
#ifndef YZ_TEST_CARDS_H
#define YZ_TEST_CARDS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline yz_roll roll_of(const char *text)
{
    yz_roll roll;
    yz_rules_error err;
    if (yz_rules_roll_parse(text, "test", &roll, &err) != YZ_OK) fail_msg("%s", err.message);
    return roll;
}

/* "aces=3 chance=25": a card written box by box, the other boxes open; "extra=N" sets the
 * count of extra Yahtzees scored. */
static inline yz_card card_of(const char *spec)
{
    yz_card card;
    yz_rules_card_init(&card);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *item = strtok(copy, " "); item; item = strtok(NULL, " ")) {
        char *eq = strchr(item, '=');
        if (!eq) fail_msg("'%s' is not BOX=POINTS", item);
        *eq = '\0';
        if (strcmp(item, "extra") == 0) {
            card.extra_yahtzees = (int16_t)atoi(eq + 1);
            continue;
        }
        int found = 0;
        for (int b = 0; b < YZ_BOX_COUNT; b++)
            if (strcmp(yz_rules_box_name((yz_box)b), item) == 0)
                card.points[b] = (int16_t)atoi(eq + 1), found = 1;
        if (!found) fail_msg("no box '%s'", item);
    }
    return card;
}

#endif
