/* alloc.c - the one allocator of librules. */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"
#include "rules_testing.h"

/* Fault injection for tests only: fail the Nth allocation from now (0 = never). This is the
 * single piece of mutable state in librules, and nothing but tests ever sets it. */
static atomic_long allocations_until_failure;

void yz_rules_testing_fail_allocation(long nth)
{
    atomic_store(&allocations_until_failure, nth);
}

void *yz_rules_alloc(size_t size)
{
    long left = atomic_load(&allocations_until_failure);
    if (left > 0) {
        left = atomic_fetch_sub(&allocations_until_failure, 1);
        if (left == 1) return NULL;
    }
    return malloc(size);
}

void yz_rules_release(void *ptr)
{
    free(ptr);
}
