/* fuzz_roll.c - libFuzzer target: any text as a --roll argument, then scored in every profile. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    yz_roll roll;
    yz_rules_error err;
    if (yz_rules_roll_parse(text, "--roll", &roll, &err) == YZ_OK) {
        for (size_t p = 0; p < yz_rules_profile_count(); p++) {
            yz_card card;
            yz_rules_card_init(&card);
            yz_option options[YZ_BOX_COUNT];
            yz_rules_options(yz_rules_profile_at(p), &card, &roll, options);
        }
    }
    free(text);
    return 0;
}
