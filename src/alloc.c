/* alloc.c - the one allocator of the command line's file readers and writers (scorecards,
 * game files) and of jansson, so tests can make the Nth allocation fail. */
#include <jansson.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "cli.h"

/* Fault injection for tests only: fail the Nth allocation from now (0 = never). Nothing but
 * tests ever sets it. */
static atomic_long allocations_until_failure;
static atomic_flag json_allocator_installed = ATOMIC_FLAG_INIT;
/* Allocations refused so far, injected or real: jansson reports some of its own as syntax
 * errors ("string or '}' expected"), so readers compare this before and after a parse. */
static atomic_long allocations_failed;
/* jansson 2.14's parser does not survive a failed allocation: lex_save() drops the error and
 * the lexer then reads past its buffer (heap corruption, or assert(c == d); upstream issue
 * akheron/jansson#362). While it parses, no failure is injected into it. */
static atomic_int json_parsing;

void yz_cli_testing_fail_allocation(long nth)
{
    atomic_store(&allocations_until_failure, nth);
}

void *yz_cli_alloc(size_t size)
{
    long left = atomic_load(&allocations_until_failure);
    if (left > 0) {
        left = atomic_fetch_sub(&allocations_until_failure, 1);
        if (left == 1) {
            atomic_fetch_add(&allocations_failed, 1);
            return NULL;
        }
    }
    void *ptr = malloc(size ? size : 1);
    if (!ptr) atomic_fetch_add(&allocations_failed, 1);
    return ptr;
}

long yz_cli_allocation_failures(void)
{
    return atomic_load(&allocations_failed);
}

void yz_cli_free(void *ptr)
{
    free(ptr);
}

static void *json_alloc(size_t size)
{
    if (!atomic_load(&json_parsing)) return yz_cli_alloc(size);
    void *ptr = malloc(size ? size : 1);
    if (!ptr) atomic_fetch_add(&allocations_failed, 1);
    return ptr;
}

void yz_cli_json_parsing(int parsing)
{
    atomic_store(&json_parsing, parsing);
}

/* Both allocators are malloc underneath, so a value jansson made before this ran may be freed
 * after it: installing late (or twice, from two threads) is harmless. */
void yz_cli_install_json_allocator(void)
{
    if (!atomic_flag_test_and_set(&json_allocator_installed))
        json_set_alloc_funcs(json_alloc, yz_cli_free);
}
