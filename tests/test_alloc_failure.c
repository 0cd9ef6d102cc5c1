/* test_alloc_failure.c - the command line's file code when memory runs out: the 1st, 2nd, ...
 * allocation (its own and jansson's) fails in turn during a full read of a scorecard and a
 * load + save of a game, until one run needs no more. Every failing run must end with the
 * "internal" exit code and leave nothing behind: no half-written game file, and no leak
 * (ASan's leak check sees that in tools/test.sh's sanitizer pass). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "game_file.h"
#include "review.h"

/* Ten moves by two players; the points are what the rules give (the oracle is arithmetic:
 * three 3s = 9, a full house = 25, five 6s = 50, a large straight = 40). */
static const char game_text[] =
    "{\"yardzee_game\": 1, \"rules\": \"yahtzee\", \"players\": [\"Ann\", \"Bob\"], \"moves\": [\n"
    "  {\"player\": \"Ann\", \"throw\": [1, 3, 3, 4, 6]},\n"
    "  {\"player\": \"Ann\", \"keep\": [3, 3]},\n"
    "  {\"player\": \"Ann\", \"throw\": [3, 3, 3, 2, 5], \"photo\": \"IMG_0412.jpg\"},\n"
    "  {\"player\": \"Ann\", \"score\": \"threes\", \"points\": 9},\n"
    "  {\"player\": \"Bob\", \"throw\": [2, 2, 3, 3, 3]},\n"
    "  {\"player\": \"Bob\", \"score\": \"full_house\"},\n"
    "  {\"player\": \"Ann\", \"throw\": [6, 6, 6, 6, 6]},\n"
    "  {\"player\": \"Ann\", \"score\": \"yahtzee\", \"points\": 50},\n"
    "  {\"player\": \"Bob\", \"throw\": [1, 2, 3, 4, 5]},\n"
    "  {\"player\": \"Bob\", \"score\": \"large_straight\", \"points\": 40}\n"
    "]}\n";

static char dir[64], game_path[128], saved_path[128];

static int file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* A failure's error says so, naming the file, in one line and with the code returned. */
static void check_error(int code, const yz_cli_error *error, const char *path)
{
    if (code == YZ_EXIT_OK) return;
    assert_int_equal(error->code, code);
    if (!strstr(error->message, path) || strchr(error->message, '\n'))
        fail_msg("error '%s' does not name %s in one line", error->message, path);
    if (code == YZ_EXIT_INTERNAL && !strstr(error->message, "out of memory"))
        fail_msg("error '%s' does not say out of memory", error->message);
}

/* Each operation returns an exit code; on success it also checks what it produced. */
static int read_card(void)
{
    const yz_profile *profile = NULL;
    yz_card card;
    yz_cli_error error;
    int code = yz_cli_read_card(YZ_SAMPLES_DIR "/cards/midgame.json", &profile, &card, &error);
    check_error(code, &error, "midgame.json");
    if (code == YZ_EXIT_OK) {
        yz_cli_testing_fail_allocation(0);
        yz_totals totals;
        yz_rules_totals(profile, &card, &totals);
        /* midgame.json: 3 + 6 + 24 upper, 22 + 30 + 21 lower. */
        assert_int_equal(totals.total, 3 + 6 + 24 + 22 + 30 + 21);
    }
    return code;
}

static int load_and_save_game(void)
{
    remove(saved_path);
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(game_path, &file, &error);
    check_error(code, &error, game_path);
    if (code == YZ_EXIT_OK) {
        code = yz_game_file_save(&file, saved_path, &error);
        check_error(code, &error, saved_path);
    }
    yz_game_file_free(&file);
    yz_cli_testing_fail_allocation(0);
    if (code != YZ_EXIT_OK) {
        /* Saving is atomic: a save that ran out of memory wrote nothing. */
        assert_false(file_exists(saved_path));
        return code;
    }
    yz_game_file reloaded;
    assert_int_equal(yz_game_file_load(saved_path, &reloaded, &error), YZ_EXIT_OK);
    assert_int_equal(json_array_size(reloaded.moves), 10);
    assert_int_equal(reloaded.game.current, 0); /* Ann's turn again */
    json_t *full_house = json_array_get(reloaded.moves, 5);
    assert_int_equal(json_integer_value(json_object_get(full_house, "points")), 25);
    yz_game_file_free(&reloaded);
    return code;
}

static yz_strategy *review_strategy; /* loaded once (malloc and librules: never made to fail) */

static int review_game(void)
{
    if (!review_strategy) review_strategy = yz_cli_strategy(yz_rules_profile_find("yahtzee"));
    assert_non_null(review_strategy);
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(game_path, &file, &error);
    check_error(code, &error, game_path);
    if (code != YZ_EXIT_OK) return code;
    char why[300] = "";
    json_t *root = yz_review_game_json(&file, review_strategy, why, sizeof why);
    char *text = root ? yz_review_json_text(root) : NULL;
    yz_cli_testing_fail_allocation(0);
    json_decref(root);
    yz_game_file_free(&file);
    if (!text) {
        assert_true(strstr(why, "out of memory") || root);
        return YZ_EXIT_INTERNAL;
    }
    /* Ten moves: two turns each, the game far from over. */
    assert_non_null(strstr(text, "\"complete\":false"));
    free(text);
    return YZ_EXIT_OK;
}

static void every_failed_allocation_gives_a_clean_error(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int (*run)(void);
    } cases[] = {
        {"read a scorecard", read_card},
        {"load and save a game", load_and_save_game},
        {"review a game", review_game},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int finished = 0;
        long nth;
        for (nth = 1; nth < 100000 && !finished; nth++) {
            yz_cli_testing_fail_allocation(nth);
            int code = cases[i].run();
            yz_cli_testing_fail_allocation(0);
            if (code == YZ_EXIT_OK)
                finished = 1;
            else if (code != YZ_EXIT_INTERNAL)
                fail_msg("%s, allocation %ld failing: exit %d, not %d (out of memory)",
                         cases[i].name, nth, code, YZ_EXIT_INTERNAL);
        }
        if (!finished) fail_msg("%s never finished", cases[i].name);
        /* At least one allocation was made to fail, or the test proved nothing. */
        if (nth <= 2) fail_msg("%s made no allocation through yz_cli_alloc", cases[i].name);
        printf("%s: %ld allocations failed in turn, each cleanly\n", cases[i].name, nth - 2);
    }
}

static int set_up(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/yz_alloc_XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(game_path, sizeof game_path, "%s/game.json", dir);
    snprintf(saved_path, sizeof saved_path, "%s/saved.json", dir);
    FILE *out = fopen(game_path, "w");
    if (!out) return -1;
    fputs(game_text, out);
    return fclose(out);
}

static int tear_down(void **state)
{
    (void)state;
    remove(game_path);
    remove(saved_path);
    yz_strategy_free(review_strategy);
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_failed_allocation_gives_a_clean_error),
    };
    return cmocka_run_group_tests(tests, set_up, tear_down);
}
