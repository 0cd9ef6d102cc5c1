/* cmd_eval.c - `yardzee eval`: how well the reader does on photos whose truth is known.
 *
 * Truth is a CSV with the header file,value,x,y,w,h[,top_visible]: one row per die, the box in
 * upright pixels (samples/lawn/truth.csv and ../shared/data/ labels.csv both fit). A reported
 * die matches a true die when either box holds the other's centre; the nearest centres pair
 * first. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vision.h"

#define MAX_TRUTH_BYTES (16 * 1024 * 1024)
#define MAX_PHOTOS 20000

typedef struct {
    int value;
    int box[4];
    int top_visible;
} truth_die;

typedef struct {
    char *file;
    int n_dice;
    truth_die dice[YZ_VISION_MAX_DICE];
} truth_photo;

typedef struct {
    truth_photo *photos;
    int n_photos;
} truth_set;

static const char eval_help[] =
    "usage: yardzee eval --truth TRUTH.csv DIR [--expect 5|any|truth] [--json]\n"
    "                    [--photos OUT.csv] [--min-die-accuracy PCT] [--min-roll-accuracy PCT]\n"
    "                    [--max-wrong-ok N] [--min-odd-refused PCT]\n"
    "Reads every photo named in TRUTH.csv from DIR and reports photos read, refused and wrongly\n"
    "read as ok; per-die accuracy with a 6x6 confusion matrix, and of the dice missed those\n"
    "inside a found die's box (taken for one with it); whole-roll accuracy; refusals of photos\n"
    "that are not five readable dice; time per photo; and names each photo wrongly read as ok,\n"
    "with the roll read and the true one. --expect truth gives the reader each photo's\n"
    "true number of dice, as a player who says how many dice were thrown (`read --expect N`).\n"
    "--photos writes one row per photo: file, dice in the truth, dice found, status, dice\n"
    "right, missed, left without a value and read wrong, wrong_ok (1: read as ok, roll wrong),\n"
    "and the refusal's reason; for break-downs (e.g. by a render folder's scenes.csv).\n"
    "The --min/--max options turn the report into a check: exit 5 when one is not met.\n"
    "$YARDZEE_TUNE=NAME=VALUE,... changes the reader's thresholds for a sweep\n"
    "(tools/sweep_thresholds.sh).\n";

static void truth_free(truth_set *truth)
{
    for (int i = 0; i < truth->n_photos; i++)
        free(truth->photos[i].file);
    free(truth->photos);
}

static truth_photo *photo_named(truth_set *truth, const char *file)
{
    /* Rows of one photo are consecutive in every set we know; search from the end first. */
    for (int i = truth->n_photos - 1; i >= 0; i--)
        if (strcmp(truth->photos[i].file, file) == 0) return &truth->photos[i];
    if (truth->n_photos >= MAX_PHOTOS) return NULL;
    truth_photo *photo = &truth->photos[truth->n_photos++];
    memset(photo, 0, sizeof *photo);
    photo->file = strdup(file);
    return photo->file ? photo : NULL;
}

static int parse_truth_line(truth_set *truth, char *line, const char *path, int line_no)
{
    char *fields[8];
    int n_fields = 0;
    for (char *field = strtok(line, ",\r\n"); field && n_fields < 8; field = strtok(NULL, ",\r\n"))
        fields[n_fields++] = field;
    if (n_fields != 6 && n_fields != 7)
        return yz_cli_fail(YZ_EXIT_DATA, "%s: line %d: expected 6 or 7 fields", path, line_no);
    truth_die die = {0, {0, 0, 0, 0}, 1};
    long numbers[6];
    for (int i = 1; i < n_fields; i++) {
        char *end;
        numbers[i - 1] = strtol(fields[i], &end, 10);
        if (end == fields[i] || *end || numbers[i - 1] < 0 || numbers[i - 1] > 100000)
            return yz_cli_fail(YZ_EXIT_DATA, "%s: line %d: '%s' is not a whole number", path,
                               line_no, fields[i]);
    }
    if (numbers[0] < 1 || numbers[0] > 6)
        return yz_cli_fail(YZ_EXIT_DATA, "%s: line %d: value %ld is not 1-6", path, line_no,
                           numbers[0]);
    die.value = (int)numbers[0];
    for (int i = 0; i < 4; i++)
        die.box[i] = (int)numbers[i + 1];
    if (n_fields == 7) die.top_visible = numbers[5] != 0;
    truth_photo *photo = photo_named(truth, fields[0]);
    if (!photo) return yz_cli_fail(YZ_EXIT_DATA, "%s: more than %d photos", path, MAX_PHOTOS);
    if (photo->n_dice >= YZ_VISION_MAX_DICE)
        return yz_cli_fail(YZ_EXIT_DATA, "%s: line %d: more than %d dice in %s", path, line_no,
                           YZ_VISION_MAX_DICE, fields[0]);
    photo->dice[photo->n_dice++] = die;
    return YZ_EXIT_OK;
}

static int read_truth(const char *path, truth_set *truth)
{
    memset(truth, 0, sizeof *truth);
    FILE *file = fopen(path, "r");
    if (!file) return yz_cli_fail(YZ_EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    truth->photos = calloc(MAX_PHOTOS, sizeof *truth->photos);
    if (!truth->photos) {
        fclose(file);
        return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    }
    char line[1024];
    int line_no = 0, code = YZ_EXIT_OK;
    long bytes = 0;
    while (code == YZ_EXIT_OK && fgets(line, sizeof line, file)) {
        line_no++;
        bytes += (long)strlen(line);
        if (bytes > MAX_TRUTH_BYTES)
            code = yz_cli_fail(YZ_EXIT_DATA, "%s: more than %d bytes", path, MAX_TRUTH_BYTES);
        else if (line_no == 1) {
            if (strncmp(line, "file,value,x,y,w,h", 18) != 0)
                code = yz_cli_fail(YZ_EXIT_DATA,
                                   "%s: line 1: expected the header "
                                   "file,value,x,y,w,h[,top_visible]",
                                   path);
        } else if (line[0] != '\n' && line[0] != '\r')
            code = parse_truth_line(truth, line, path, line_no);
    }
    fclose(file);
    if (code == YZ_EXIT_OK && truth->n_photos == 0)
        code = yz_cli_fail(YZ_EXIT_DATA, "%s: no dice", path);
    if (code != YZ_EXIT_OK) truth_free(truth);
    return code;
}

static int contains(const int box[4], double x, double y)
{
    return x >= box[0] && x <= box[0] + box[2] && y >= box[1] && y <= box[1] + box[3];
}

static void box_centre(const int box[4], double *x, double *y)
{
    *x = box[0] + box[2] / 2.0;
    *y = box[1] + box[3] / 2.0;
}

/* matched[t] = index of the reported die paired with true die t, or -1. */
static void match_dice(const truth_photo *truth, const yz_vision_result *result, int matched[])
{
    int taken[YZ_VISION_MAX_DICE] = {0};
    for (int t = 0; t < truth->n_dice; t++)
        matched[t] = -1;
    for (;;) {
        double best = INFINITY;
        int best_t = -1, best_r = -1;
        for (int t = 0; t < truth->n_dice; t++) {
            if (matched[t] >= 0) continue;
            const int *tb = truth->dice[t].box;
            double tx, ty, rx, ry;
            box_centre(tb, &tx, &ty);
            for (int r = 0; r < result->n_dice; r++) {
                if (taken[r]) continue;
                const int *rb = result->dice[r].box;
                box_centre(rb, &rx, &ry);
                if (!contains(tb, rx, ry) && !contains(rb, tx, ty)) continue;
                double d = hypot(rx - tx, ry - ty);
                if (d < best) best = d, best_t = t, best_r = r;
            }
        }
        if (best_t < 0) return;
        matched[best_t] = best_r;
        taken[best_r] = 1;
    }
}

/* Whether the true die's centre lies in the box of a die read: when the die was missed, the
 * detector took it and that die for one (mostly a die half behind another). */
static int inside_a_found_box(const truth_die *die, const yz_vision_result *result)
{
    double tx, ty;
    box_centre(die->box, &tx, &ty);
    for (int r = 0; r < result->n_dice; r++)
        if (contains(result->dice[r].box, tx, ty)) return 1;
    return 0;
}

static int same_roll(const truth_photo *truth, const yz_vision_result *result)
{
    int counts[7] = {0};
    if (truth->n_dice != result->n_dice) return 0;
    for (int i = 0; i < truth->n_dice; i++)
        counts[truth->dice[i].value]++;
    for (int i = 0; i < result->n_dice; i++) {
        int v = result->dice[i].value;
        if (v < 1 || v > 6 || --counts[v] < 0) return 0;
    }
    return 1;
}

/* A photo read as ok whose roll is wrong: the worst outcome, so the report names each one. */
typedef struct {
    const truth_photo *truth;
    int n_read;
    int read[YZ_VISION_MAX_DICE]; /* the roll read (yz_vision_result.roll), left to right */
} wrong_ok_photo;

typedef struct {
    int photos, read_ok, refused, unreadable, wrong_ok;
    int dice, dice_right, dice_missed, dice_no_value, dice_hidden;
    int dice_merged;     /* of the missed: inside the box of a die found (taken for one with it) */
    int confusion[7][7]; /* [true][read] */
    int photos_right;    /* read ok with the true roll */
    int five_photos, five_right; /* photos of five readable dice */
    int odd_photos, odd_refused; /* photos that are not five readable dice */
    double *ms;                  /* per photo */
    wrong_ok_photo *wrong;       /* the wrong_ok photos, in truth order; room for all */
} eval_stats;

/* The dice whose top face shows: those the report counts. */
static int tops_in_view(const truth_photo *truth)
{
    int n = 0;
    for (int i = 0; i < truth->n_dice; i++)
        n += truth->dice[i].top_visible;
    return n;
}

/* A photo that is not five readable dice must be refused when five are expected. */
static int is_five_readable(const truth_photo *truth)
{
    return truth->n_dice == 5 && tops_in_view(truth) == 5;
}

/* How one photo went, for --photos. */
typedef struct {
    int dice, right, missed, no_value, wrong_value, wrong_ok;
} photo_outcome;

static void eval_photo(const truth_photo *truth, const yz_vision_result *result, int expect_five,
                       eval_stats *stats, photo_outcome *outcome)
{
    memset(outcome, 0, sizeof *outcome);
    int matched[YZ_VISION_MAX_DICE];
    match_dice(truth, result, matched);
    int ok = result->status == YZ_VISION_READ_OK;
    stats->read_ok += ok;
    stats->refused += !ok;
    int right_roll = same_roll(truth, result);
    stats->photos_right += ok && right_roll;
    if (ok && (!right_roll || (expect_five && !is_five_readable(truth)))) {
        outcome->wrong_ok = 1;
        wrong_ok_photo *wrong = &stats->wrong[stats->wrong_ok++];
        wrong->truth = truth;
        wrong->n_read = result->n_dice;
        memcpy(wrong->read, result->roll, sizeof wrong->read);
    }
    for (int t = 0; t < truth->n_dice; t++) {
        const truth_die *die = &truth->dice[t];
        if (!die->top_visible) {
            stats->dice_hidden++;
            continue;
        }
        outcome->dice++;
        if (matched[t] < 0) {
            outcome->missed++;
            stats->dice_merged += inside_a_found_box(die, result);
            continue;
        }
        int value = result->dice[matched[t]].value;
        if (value < 1 || value > 6 || !result->dice[matched[t]].certain) {
            outcome->no_value++;
            continue;
        }
        stats->confusion[die->value][value]++;
        outcome->right += value == die->value;
        outcome->wrong_value += value != die->value;
    }
    stats->dice += outcome->dice;
    stats->dice_missed += outcome->missed;
    stats->dice_no_value += outcome->no_value;
    stats->dice_right += outcome->right;
    if (is_five_readable(truth)) {
        stats->five_photos++;
        stats->five_right += ok && right_roll;
    } else {
        stats->odd_photos++;
        stats->odd_refused += !ok;
    }
}

/* One --photos row; the reason quoted as CSV wants (its own quotes doubled). */
static void write_photo_row(FILE *out, const char *file, int n_found, const char *status,
                            const photo_outcome *o, const char *reason)
{
    fprintf(out, "%s,%d,%d,%s,%d,%d,%d,%d,%d,\"", file, o->dice, n_found, status, o->right,
            o->missed, o->no_value, o->wrong_value, o->wrong_ok);
    for (const char *c = reason; *c; c++) {
        if (*c == '"') fputc('"', out);
        fputc(*c, out);
    }
    fputs("\"\n", out);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percent(int part, int whole)
{
    return whole ? 100.0 * part / whole : 0.0;
}

/* "read 1 5 2 2 6; truth 2 6 2 6 1 5" (truth in the CSV's order, ? for a hidden top). */
static void print_wrong_ok(const wrong_ok_photo *wrong)
{
    printf("  %s: read", wrong->truth->file);
    for (int i = 0; i < wrong->n_read; i++)
        printf(" %d", wrong->read[i]);
    printf("; truth");
    for (int t = 0; t < wrong->truth->n_dice; t++) {
        const truth_die *die = &wrong->truth->dice[t];
        if (die->top_visible)
            printf(" %d", die->value);
        else
            printf(" ?");
    }
    putchar('\n');
}

static json_t *wrong_ok_json(const eval_stats *s)
{
    json_t *photos = json_array();
    for (int w = 0; w < s->wrong_ok; w++) {
        const wrong_ok_photo *wrong = &s->wrong[w];
        json_t *read = json_array(), *truth = json_array();
        for (int i = 0; i < wrong->n_read; i++)
            json_array_append_new(read, json_integer(wrong->read[i]));
        for (int t = 0; t < wrong->truth->n_dice; t++) {
            const truth_die *die = &wrong->truth->dice[t];
            json_array_append_new(truth, die->top_visible ? json_integer(die->value) : json_null());
        }
        json_array_append_new(photos, json_pack("{s:s, s:o, s:o}", "file", wrong->truth->file,
                                                "read", read, "truth", truth));
    }
    return photos;
}

static void print_report(const char *dir, const eval_stats *s, double median_ms, double p95_ms)
{
    printf("%s: %d photos: %d read ok, %d refused, %d unreadable; %d WRONG but reported ok\n", dir,
           s->photos, s->read_ok, s->refused, s->unreadable, s->wrong_ok);
    printf("dice: %d/%d right (%.1f%%), %d missed (%d inside another die's box), %d without a "
           "value, %d with a hidden top\n",
           s->dice_right, s->dice, percent(s->dice_right, s->dice), s->dice_missed, s->dice_merged,
           s->dice_no_value, s->dice_hidden);
    printf("photos entirely right: %d/%d (%.1f%%)\n", s->photos_right, s->photos,
           percent(s->photos_right, s->photos));
    printf("five-dice photos entirely right: %d/%d (%.1f%%)\n", s->five_right, s->five_photos,
           percent(s->five_right, s->five_photos));
    printf("other photos (not five readable dice) refused: %d/%d\n", s->odd_refused, s->odd_photos);
    printf("time per photo: median %.1f ms, p95 %.1f ms\n", median_ms, p95_ms);
    printf("confusion (rows: true value, columns: value read)\n      1    2    3    4    5    6\n");
    for (int t = 1; t <= 6; t++) {
        printf("%d", t);
        for (int r = 1; r <= 6; r++)
            printf(" %4d", s->confusion[t][r]);
        putchar('\n');
    }
    if (s->wrong_ok)
        printf("wrong but reported ok (truth in the CSV's order, ? for a hidden top):\n");
    for (int w = 0; w < s->wrong_ok; w++)
        print_wrong_ok(&s->wrong[w]);
}

static json_t *report_json(const char *dir, const eval_stats *s, double median_ms, double p95_ms)
{
    json_t *confusion = json_array();
    for (int t = 1; t <= 6; t++) {
        json_t *row = json_array();
        for (int r = 1; r <= 6; r++)
            json_array_append_new(row, json_integer(s->confusion[t][r]));
        json_array_append_new(confusion, row);
    }
    return json_pack(
        "{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:i, s:f, "
        "s:i, s:i, s:f, s:i, s:i, s:f, s:f, s:o, s:o}",
        "dir", dir, "photos", s->photos, "read_ok", s->read_ok, "refused", s->refused, "unreadable",
        s->unreadable, "wrong_ok", s->wrong_ok, "dice", s->dice, "dice_right", s->dice_right,
        "dice_missed", s->dice_missed, "dice_merged", s->dice_merged, "dice_no_value",
        s->dice_no_value, "dice_hidden", s->dice_hidden, "die_accuracy",
        percent(s->dice_right, s->dice), "photos_right", s->photos_right, "photo_accuracy",
        percent(s->photos_right, s->photos), "five_photos", s->five_photos, "five_right",
        s->five_right, "roll_accuracy", percent(s->five_right, s->five_photos), "odd_photos",
        s->odd_photos, "odd_refused", s->odd_refused, "median_ms", median_ms, "p95_ms", p95_ms,
        "confusion", confusion, "wrong_ok_photos", wrong_ok_json(s));
}

typedef struct {
    double min_die_accuracy, min_roll_accuracy, min_odd_refused;
    int max_wrong_ok;
} eval_requirements;

static int check_requirements(const eval_requirements *req, const eval_stats *s)
{
    int code = YZ_EXIT_OK;
    if (req->min_die_accuracy >= 0 && percent(s->dice_right, s->dice) < req->min_die_accuracy)
        code = yz_cli_fail(YZ_EXIT_EVAL_BELOW, "eval: die accuracy %.1f%% is below %.1f%%",
                           percent(s->dice_right, s->dice), req->min_die_accuracy);
    if (req->min_roll_accuracy >= 0 &&
        percent(s->five_right, s->five_photos) < req->min_roll_accuracy)
        code = yz_cli_fail(YZ_EXIT_EVAL_BELOW, "eval: roll accuracy %.1f%% is below %.1f%%",
                           percent(s->five_right, s->five_photos), req->min_roll_accuracy);
    if (req->max_wrong_ok >= 0 && s->wrong_ok > req->max_wrong_ok)
        code = yz_cli_fail(YZ_EXIT_EVAL_BELOW, "eval: %d wrong rolls reported ok (at most %d)",
                           s->wrong_ok, req->max_wrong_ok);
    if (req->min_odd_refused >= 0 && percent(s->odd_refused, s->odd_photos) < req->min_odd_refused)
        code = yz_cli_fail(YZ_EXIT_EVAL_BELOW,
                           "eval: %d of %d photos of other than five dice "
                           "refused (%.1f%% is below %.1f%%)",
                           s->odd_refused, s->odd_photos, percent(s->odd_refused, s->odd_photos),
                           req->min_odd_refused);
    return code;
}

static int parse_percent(const char *text, const char *option, double *out)
{
    char *end;
    double value = strtod(text, &end);
    if (end == text || *end || value < 0 || value > 100)
        return yz_cli_fail(YZ_EXIT_USAGE, "%s: '%s' is not a percentage", option, text);
    *out = value;
    return YZ_EXIT_OK;
}

int yz_cmd_eval(int argc, char **argv)
{
    static const struct option long_options[] = {
        {"truth", required_argument, NULL, 't'},
        {"expect", required_argument, NULL, 'e'},
        {"json", no_argument, NULL, 'j'},
        {"photos", required_argument, NULL, 'p'},
        {"min-die-accuracy", required_argument, NULL, 'd'},
        {"min-roll-accuracy", required_argument, NULL, 'r'},
        {"max-wrong-ok", required_argument, NULL, 'w'},
        {"min-odd-refused", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *truth_path = NULL, *photos_path = NULL;
    int json = 0, expect_truth = 0, code = YZ_EXIT_OK, opt;
    yz_vision_options options = yz_vision_default_options();
    eval_requirements req = {-1, -1, -1, -1};
    optind = 1;
    opterr = 0;
    while (code == YZ_EXIT_OK && (opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (opt) {
        case 't': truth_path = optarg; break;
        case 'j': json = 1; break;
        case 'p': photos_path = optarg; break;
        case 'h': fputs(eval_help, stdout); return YZ_EXIT_OK;
        case 'e':
            if (strcmp(optarg, "any") == 0)
                options.expect = 0;
            else if (strcmp(optarg, "5") == 0)
                options.expect = 5;
            else if (strcmp(optarg, "truth") == 0)
                expect_truth = 1;
            else
                code = yz_cli_fail(YZ_EXIT_USAGE, "--expect: '%s' is not 5, any or truth", optarg);
            break;
        case 'd': code = parse_percent(optarg, "--min-die-accuracy", &req.min_die_accuracy); break;
        case 'r':
            code = parse_percent(optarg, "--min-roll-accuracy", &req.min_roll_accuracy);
            break;
        case 'o': code = parse_percent(optarg, "--min-odd-refused", &req.min_odd_refused); break;
        case 'w': {
            char *end;
            long value = strtol(optarg, &end, 10);
            if (end == optarg || *end || value < 0)
                code = yz_cli_fail(YZ_EXIT_USAGE, "--max-wrong-ok: '%s' is not a count", optarg);
            req.max_wrong_ok = (int)value;
            break;
        }
        default: code = yz_cli_bad_option("eval", opt, argv);
        }
    }
    if (code != YZ_EXIT_OK) return code;
    if (!truth_path) return yz_cli_fail(YZ_EXIT_USAGE, "eval: --truth is required");
    if (optind != argc - 1) return yz_cli_fail(YZ_EXIT_USAGE, "eval: expected one photo folder");
    const char *dir = argv[optind];

    truth_set truth;
    code = read_truth(truth_path, &truth);
    if (code != YZ_EXIT_OK) return code;
    eval_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.ms = calloc((size_t)truth.n_photos, sizeof *stats.ms);
    stats.wrong = calloc((size_t)truth.n_photos, sizeof *stats.wrong);
    if (!stats.ms || !stats.wrong) {
        free(stats.ms);
        free(stats.wrong);
        truth_free(&truth);
        return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    }
    FILE *photos_out = NULL;
    if (photos_path && !(photos_out = fopen(photos_path, "w"))) {
        free(stats.ms);
        free(stats.wrong);
        truth_free(&truth);
        return yz_cli_fail(YZ_EXIT_DATA, "%s: cannot write: %s", photos_path, strerror(errno));
    }
    if (photos_out)
        fputs("file,dice,found,status,right,missed,no_value,wrong_value,wrong_ok,reason\n",
              photos_out);
    yz_vision_error load_err;
    if (yz_vision_nets_load(NULL, &options.nets, &load_err) != YZ_VISION_OK) {
        if (photos_out) fclose(photos_out);
        free(stats.ms);
        free(stats.wrong);
        truth_free(&truth);
        return yz_cli_fail(yz_cli_vision_exit_code(&load_err), "%s", load_err.message);
    }
    int n_timed = 0;
    for (int i = 0; i < truth.n_photos; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, truth.photos[i].file);
        yz_vision_result result;
        yz_vision_error err;
        stats.photos++;
        if (expect_truth) options.expect = truth.photos[i].n_dice;
        double start = yz_cli_now();
        if (yz_vision_read_file(path, &options, &result, &err) != YZ_VISION_OK) {
            fprintf(stderr, "yardzee: %s\n", err.message);
            stats.unreadable++;
            photo_outcome none = {.dice = tops_in_view(&truth.photos[i])};
            if (photos_out)
                write_photo_row(photos_out, truth.photos[i].file, 0, "unreadable", &none, "");
            continue;
        }
        stats.ms[n_timed++] = (yz_cli_now() - start) * 1000;
        photo_outcome outcome;
        eval_photo(&truth.photos[i], &result, options.expect == 5, &stats, &outcome);
        if (photos_out)
            write_photo_row(photos_out, truth.photos[i].file, result.n_dice,
                            result.status == YZ_VISION_READ_OK ? "ok" : "refused", &outcome,
                            result.reason);
    }
    if (photos_out && fclose(photos_out) != 0 && code == YZ_EXIT_OK)
        code = yz_cli_fail(YZ_EXIT_DATA, "%s: cannot write: %s", photos_path, strerror(errno));
    qsort(stats.ms, (size_t)n_timed, sizeof *stats.ms, compare_doubles);
    double median_ms = n_timed ? stats.ms[n_timed / 2] : 0;
    double p95_ms =
        n_timed ? stats.ms[(n_timed * 95) / 100 < n_timed ? (n_timed * 95) / 100 : n_timed - 1] : 0;
    if (json) {
        json_t *report = report_json(dir, &stats, median_ms, p95_ms);
        char *text = json_dumps(report, JSON_COMPACT | JSON_REAL_PRECISION(6));
        json_decref(report);
        if (text) puts(text);
        free(text);
    } else {
        print_report(dir, &stats, median_ms, p95_ms);
    }
    if (code == YZ_EXIT_OK) code = check_requirements(&req, &stats);
    yz_vision_nets_free(options.nets);
    free(stats.ms);
    free(stats.wrong);
    truth_free(&truth);
    return code;
}
