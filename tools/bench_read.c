/* bench_read.c - median latency of photo -> roll, with the stage breakdown (decode, detect,
 * read), with the nets loaded once as batch and serve do; the one-off load is timed apart (a
 * single `yardzee read` pays it once). Built as build/tools/bench_read; tools/bench_read.sh
 * runs it on one core.
 * usage: bench_read PHOTO [RUNS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vision.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, by_value);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_read PHOTO [RUNS]\n");
        return 2;
    }
    yz_vision_reuse_memory(); /* as the yardzee program does */
    int runs = argc > 2 ? atoi(argv[2]) : 21;
    if (runs < 1 || runs > 1000) runs = 21;
    double *total = calloc((size_t)runs, sizeof *total),
           *decode = calloc((size_t)runs, sizeof *decode);
    double *detect = calloc((size_t)runs, sizeof *detect),
           *read = calloc((size_t)runs, sizeof *read);
    yz_vision_result *result = malloc(sizeof *result);
    if (!total || !decode || !detect || !read || !result) return 70;
    yz_vision_options options = yz_vision_default_options();
    options.expect = 0;
    yz_vision_error err;
    double load_started = now_ms();
    if (yz_vision_nets_load(NULL, &options.nets, &err)) {
        fprintf(stderr, "bench_read: %s\n", err.message);
        return 1;
    }
    double load_ms = now_ms() - load_started;
    for (int i = -2; i < runs; i++) { /* two warm-up runs: page cache, lazy binding */
        double started = now_ms();
        if (yz_vision_read_file(argv[1], &options, result, &err)) {
            fprintf(stderr, "bench_read: %s\n", err.message);
            return 1;
        }
        if (i < 0) continue;
        total[i] = now_ms() - started;
        decode[i] = result->ms_decode;
        detect[i] = result->ms_detect;
        read[i] = result->ms_read;
    }
    printf("loading the nets (once): %.1f ms\n", load_ms);
    printf("%s: %dx%d, %d dice, %s\n", argv[1], result->image_w, result->image_h, result->n_dice,
           result->status == YZ_VISION_READ_OK ? "ok" : result->reason);
    printf("median of %d runs: total %.1f ms = decode %.1f + detect %.1f + read %.1f\n", runs,
           median(total, runs), median(decode, runs), median(detect, runs), median(read, runs));
    /* median() sorted total: the 95th percentile is an index away. */
    printf("p95 total %.1f ms\n", total[(runs * 95) / 100 < runs ? (runs * 95) / 100 : runs - 1]);
    yz_vision_nets_free(options.nets);
    free(total);
    free(decode);
    free(detect);
    free(read);
    free(result);
    return 0;
}
