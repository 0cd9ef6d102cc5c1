/* internal.h - shared between librules' own files; not part of the public API. */
#ifndef YZ_RULES_INTERNAL_H
#define YZ_RULES_INTERNAL_H

#include <stddef.h>

#include "rules.h"

void yz_rules_set_error(yz_rules_error *err, yz_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The 252 distinct rolls, as sorted dice, in lexicographic order (1-1-1-1-1 is index 0). */
void yz_rules_roll_from_index(int index, yz_roll *roll);
void yz_rules_roll_counts(const yz_roll *roll, int counts[YZ_N_FACES + 1]);

/* The one allocator of librules, so tests can make the Nth allocation fail. */
void *yz_rules_alloc(size_t size);
void yz_rules_release(void *ptr);

#endif
