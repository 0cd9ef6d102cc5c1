/* bench_advisor.c - how long the optimal advisor takes: building one profile's table (median
 * of several builds, all cores), its peak memory, and one piece of advice once loaded.
 * Run through tools/bench_advisor.sh, one process per profile so peak memory is per profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "rules.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* A random card part-way through a game, and a random roll. */
static void random_position(const yz_profile *profile, unsigned *seed, yz_card *card, yz_roll *roll)
{
    yz_rules_card_init(card);
    int n_filled = rand_r(seed) % profile->n_boxes;
    for (int i = 0; i < n_filled; i++) {
        yz_roll r;
        for (int d = 0; d < YZ_N_DICE; d++)
            r.dice[d] = (uint8_t)(rand_r(seed) % 6 + 1);
        yz_option options[YZ_BOX_COUNT];
        int n = yz_rules_options(profile, card, &r, options);
        yz_rules_error err;
        yz_rules_score(profile, card, &r, options[rand_r(seed) % n].box, NULL, &err);
    }
    for (int d = 0; d < YZ_N_DICE; d++)
        roll->dice[d] = (uint8_t)(rand_r(seed) % 6 + 1);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_advisor PROFILE BUILDS\n");
        return 2;
    }
    const yz_profile *profile = yz_rules_profile_find(argv[1]);
    int n_builds = atoi(argv[2]);
    if (!profile || n_builds < 1 || n_builds > 50) {
        fprintf(stderr, "bench_advisor: bad profile or build count\n");
        return 2;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    yz_strategy_options options = {0};
    options.n_threads = cores > 0 ? (int)cores : 2;
    double build_seconds[50];
    yz_strategy *strategy = NULL;
    for (int i = 0; i < n_builds; i++) {
        yz_strategy_free(strategy);
        yz_rules_error err;
        double start = now();
        if (yz_strategy_build(profile, &options, &strategy, &err) != YZ_OK) {
            fprintf(stderr, "bench_advisor: %s\n", err.message);
            return 1;
        }
        build_seconds[i] = now() - start;
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);

    enum { N_QUERIES = 2000 };
    static double query_seconds[N_QUERIES];
    unsigned seed = 12345;
    for (int i = 0; i < N_QUERIES; i++) {
        yz_card card;
        yz_roll roll;
        random_position(profile, &seed, &card, &roll);
        int throws_left = i % 3;
        double start = now();
        if (throws_left) {
            yz_keep_advice keeps[5];
            yz_advise_keeps(strategy, &card, &roll, throws_left, keeps, 5);
        } else {
            yz_box_advice boxes[5];
            yz_advise_boxes(strategy, &card, &roll, boxes, 5);
        }
        query_seconds[i] = now() - start;
    }
    yz_card empty;
    yz_rules_card_init(&empty);
    double advise_median = median(query_seconds, N_QUERIES); /* sorts them */
    printf("%-20s %10.4f %9.3f s %8.1f MB %9.1f us %9.1f us\n", profile->name,
           yz_strategy_expected_total(strategy, &empty), median(build_seconds, n_builds),
           usage.ru_maxrss / 1024.0, advise_median * 1e6,
           query_seconds[N_QUERIES * 95 / 100] * 1e6);
    yz_strategy_free(strategy);
    return 0;
}
