/* bench_review.c - how long `yardzee game review` takes once the advisor's table is loaded:
 * the median of RUNS reviews of a game file (the moves regrouped per player, every decision
 * reviewed, the JSON built and printed to a string), as the CLI and GET /api/review do it.
 * usage: bench_review GAME.json [RUNS] */
#include <stdio.h>
#include <stdlib.h>

#include "review.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_review GAME.json [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 101;
    if (runs < 1 || runs > 100000) runs = 101;
    yz_game_file file;
    yz_cli_error error;
    if (yz_game_file_load(argv[1], &file, &error) != YZ_EXIT_OK) return yz_cli_report(&error);
    double start = yz_cli_now();
    yz_strategy *strategy = yz_cli_strategy(file.game.profile);
    if (!strategy) return 1;
    double load_ms = (yz_cli_now() - start) * 1e3;
    double *ms = malloc(sizeof *ms * (size_t)runs);
    int n_decisions = 0;
    for (int i = 0; ms && i < runs; i++) {
        char why[300];
        start = yz_cli_now();
        json_t *root = yz_review_game_json(&file, strategy, why, sizeof why);
        char *text = root ? yz_review_json_text(root) : NULL;
        ms[i] = (yz_cli_now() - start) * 1e3;
        if (!text) {
            fprintf(stderr, "bench_review: %s: %s\n", argv[1], root ? "out of memory" : why);
            return 1;
        }
        n_decisions = 0;
        for (size_t p = 0; p < json_array_size(json_object_get(root, "players")); p++)
            n_decisions += (int)json_array_size(
                json_object_get(json_array_get(json_object_get(root, "players"), p), "decisions"));
        free(text);
        json_decref(root);
    }
    if (!ms) return 1;
    qsort(ms, (size_t)runs, sizeof *ms, compare_doubles);
    printf("%s: %d players, %d rounds, %d decisions; table loaded in %.0f ms; review median "
           "%.2f ms, fastest %.2f, slowest %.2f over %d runs\n",
           argv[1], file.game.n_players, file.game.profile->n_boxes, n_decisions, load_ms,
           ms[runs / 2], ms[0], ms[runs - 1], runs);
    free(ms);
    yz_strategy_free(strategy);
    yz_game_file_free(&file);
    return 0;
}
