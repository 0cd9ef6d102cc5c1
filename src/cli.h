/* cli.h - what the subcommands of the yardzee command line share. */
#ifndef YZ_CLI_H
#define YZ_CLI_H

#include <stdio.h>

#include <jansson.h>

#include "rules.h"
#include "vision.h"

/* Exit codes, documented in README.md and in `yardzee --help`. */
enum {
    YZ_EXIT_OK = 0,
    YZ_EXIT_DATA = 1,    /* a file or value that is wrong: broken JSON, a filled box, ... */
    YZ_EXIT_USAGE = 2,   /* a malformed command line */
    YZ_EXIT_REFUSED = 3, /* read: the photo loaded but the dice could not be read with confidence */
    YZ_EXIT_MISMATCH = 4,   /* verify: the photo does not show the claimed roll */
    YZ_EXIT_EVAL_BELOW = 5, /* eval: a --min/--max requirement was not met */
    YZ_EXIT_INTERNAL = 70   /* out of memory, a cache that cannot be written, ... */
};

/* Prints "yardzee: <message>" on stderr, one line, and returns code. */
int yz_cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What getopt_long's ':' (an option without its value) or '?' (an unknown option) means, as one
 * line: "COMMAND: option --x needs a value" or "COMMAND: unknown option --x"; returns
 * YZ_EXIT_USAGE. Needs the optstring to start with ':'. command NULL: none. */
int yz_cli_bad_option(const char *command, int opt, char **argv);
/* Maps a librules status to an exit code after printing its message. */
int yz_cli_fail_rules(const yz_rules_error *err);

/* What a file reader found wrong, for its caller to print (a command) or send (the server). */
typedef struct {
    int code;          /* the exit code */
    char message[512]; /* one line naming the file (and field or move) at fault */
} yz_cli_error;
/* Fills err and returns code; prints nothing. */
int yz_cli_set_error(yz_cli_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same from a librules error (its code mapped as yz_cli_fail_rules does). */
int yz_cli_set_rules_error(yz_cli_error *err, const yz_rules_error *rules_err);
/* Prints "yardzee: <message>" on stderr, one line, and returns err->code. */
int yz_cli_report(const yz_cli_error *err);

/* The one allocator of the card and game file code (src/alloc.c): malloc underneath, so a
 * pointer from it may go to free() and the other way round. */
void *yz_cli_alloc(size_t size);
void yz_cli_free(void *ptr);
/* How many allocations yz_cli_alloc has refused so far: a parse that fails while this grows
 * ran out of memory, whatever jansson's message says. */
long yz_cli_allocation_failures(void);
/* Makes jansson allocate through yz_cli_alloc; the file readers call it, it may be called
 * any number of times. */
void yz_cli_install_json_allocator(void);
/* Brackets json_load*(): no failure is injected while jansson parses (see src/alloc.c). */
void yz_cli_json_parsing(int parsing);
/* Tests only: make the nth yz_cli_alloc from now on fail (1 = the next); 0 turns it off. */
void yz_cli_testing_fail_allocation(long nth);

/* The options score and advise share. */
typedef struct {
    const char *roll_text;
    const char *rules_name;
    const char *card_path;
    int throws_left; /* -1 when not given */
    int json;
    int help;
} yz_cli_roll_args;

/* Parses argv (after the subcommand); returns YZ_EXIT_OK or prints and returns an exit code. */
int yz_cli_parse_roll_args(int argc, char **argv, const char *command, int allow_throws,
                           yz_cli_roll_args *args);

/* Resolves --rules (or the card's "rules", or the default), reads --card, parses --roll. */
int yz_cli_load_game_state(const yz_cli_roll_args *args, const yz_profile **profile, yz_card *card,
                           yz_roll *roll);

/* Reads a scorecard file (format in README.md). *profile may be NULL on entry: the card's own
 * "rules" then chooses; a card for other rules than *profile is refused (error filled, nothing
 * printed). */
int yz_cli_read_card(const char *path, const yz_profile **profile, yz_card *card,
                     yz_cli_error *error);

/* The optimal strategy for a profile: loaded from the cache, or built (with a progress bar on a
 * terminal) and cached. NULL after printing an error. */
yz_strategy *yz_cli_strategy(const yz_profile *profile);
/* Builds afresh and caches; *seconds receives the build time. */
yz_strategy *yz_cli_strategy_rebuild(const yz_profile *profile, double *seconds);

const char *yz_cli_box_label(const yz_profile *profile, yz_box box);
void yz_cli_print_roll(FILE *out, const yz_roll *roll);
double yz_cli_now(void);

/* Replaces path with bytes so that a crash leaves the old file or the new one, whole.
 * Returns 0, or -1 with *error_number set (the old file is untouched). */
int yz_cli_write_atomically(const char *path, const void *bytes, size_t len, int *error_number);

/* Reads the dice in a photo (expect: the number of dice, 0 = any) and writes the annotated
 * picture when annotate is set. A refusal is YZ_EXIT_OK with result->status saying so; a photo
 * that cannot be loaded returns its exit code (printed unless quiet). nets: loaded once by the
 * caller for many reads, or NULL to load them for this one. */
int yz_cli_read_photo(const char *path, int expect, yz_vision_nets *nets, const char *annotate,
                      int quiet, yz_vision_result *result, yz_vision_error *err);
/* The same for verify: five dice, and the annotated picture shows the claim beside the roll. */
int yz_cli_read_photo_claim(const char *path, const yz_roll *claim, const char *annotate,
                            yz_vision_result *result, yz_vision_error *err);
/* For a photo read with confidence: claimed_at[i] is the claim's value in the place of die i
 * where the die differs from the claim, 0 where it agrees (equal values are matched first, in
 * any order). Returns how many dice differ. */
int yz_cli_claim_differences(const yz_vision_result *result, const yz_roll *claim,
                             int claimed_at[YZ_N_DICE]);
int yz_cli_vision_exit_code(const yz_vision_error *err);
/* The least confident die: how sure the whole roll is. */
double yz_cli_roll_confidence(const yz_vision_result *result);
/* What `read --json` prints: {"file", "status": "ok"|"refused", "reason", "dice": [{"value"
 * (null when uncertain), "box", "confidence"}], "roll"}. NULL when out of memory. */
json_t *yz_cli_read_json(const char *file, const yz_vision_result *result);
/* What `verify --json` prints for a photo read with confidence: {"verdict": "match"|"mismatch",
 * "roll", "claim", "confidence", "differ": [{"die", "shows", "claimed"}]}. */
json_t *yz_cli_verdict_json(const yz_vision_result *result, const yz_roll *claim);

int yz_cmd_score(int argc, char **argv);
int yz_cmd_advise(int argc, char **argv);
int yz_cmd_strategy(int argc, char **argv);
int yz_cmd_rules(int argc, char **argv);
int yz_cmd_eval(int argc, char **argv);
int yz_cmd_game(int argc, char **argv);
int yz_cmd_game_review(int argc, char **argv); /* cmd_review.c */
int yz_cmd_snap(int argc, char **argv);
int yz_cmd_verify(int argc, char **argv);
int yz_cmd_batch(int argc, char **argv);
int yz_cmd_read(int argc, char **argv);
int yz_cmd_serve(int argc, char **argv);

#endif
