/* alloc.c - the one allocator of libyzvision, and error reporting. */
#include <malloc.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "vision_testing.h"

/* Fault injection for tests only: fail the Nth allocation from now (0 = never). This is the
 * single piece of mutable state in libyzvision, and nothing but tests ever sets it. */
static atomic_long allocations_until_failure;

void yz_vision_testing_fail_allocation(long nth)
{
    atomic_store(&allocations_until_failure, nth);
}

void *yz_vision_alloc(size_t size)
{
    long left = atomic_load(&allocations_until_failure);
    if (left > 0) {
        left = atomic_fetch_sub(&allocations_until_failure, 1);
        if (left == 1) return NULL;
    }
    return malloc(size ? size : 1);
}

/* A read allocates and frees blocks of megabytes (the file, the decoded photo, the crops, the
 * nets' buffers). glibc maps blocks over its mmap threshold afresh each time and returns freed
 * heap tops over its trim threshold, so every photo faulted its memory in again; on this
 * project's virtual machines that cost more than the decoding (tools/bench_read.sh: 12 MP
 * photo 57 -> 37-42 ms median). 32 MB is the largest mmap threshold glibc accepts. */
void yz_vision_reuse_memory(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

void yz_vision_release(void *ptr)
{
    free(ptr);
}

yz_vision_status yz_vision_fail(yz_vision_error *err, yz_vision_status code, const char *name,
                                const char *fmt, ...)
{
    if (!err) return code;
    err->code = code;
    int at = snprintf(err->message, sizeof err->message, "%s: ", name ? name : "(photo)");
    if (at < 0 || (size_t)at >= sizeof err->message) return code;
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->message + at, sizeof err->message - (size_t)at, fmt, args);
    va_end(args);
    return code;
}
