/* cmd_batch.c - `yardzee batch DIR...`: every photo under the folders, one row each.
 *
 * Photos are read by --jobs threads, but rows are written in sorted file order, so the output
 * is the same whatever the number of jobs. One bad file is one "unreadable" row, never the end
 * of the batch. The output files are replaced atomically; --resume keeps the rows already in
 * them and reads only the photos they lack. */
#include <dirent.h>
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_PHOTOS 1000000
#define MAX_DEPTH 32

static const char batch_help[] =
    "usage: yardzee batch (DIR | PHOTO)... [--jobs N] [--csv OUT.csv] [--json OUT.json]\n"
    "                    [--rules P] [--resume]\n"
    "Reads the photos named and every JPEG, PNG and HEIC under the folders (recursively, in\n"
    "sorted order) and writes one row per photo: file, status (ok, refused, unreadable), reason,\n"
    "roll, per-die confidence (of every die found, also when refused), the box that scores most\n"
    "points now with its points, and the advisor's box on an empty card with its points. CSV\n"
    "goes to stdout without --csv/--json; both may be given. --jobs defaults to the number of\n"
    "cores; the output does not depend on it. --resume skips photos already in the output\n"
    "files. A summary goes to stderr, and a progress bar on a terminal.\n";

/* The CSV header: --resume refuses a file with another. */
static const char csv_header[] =
    "file,status,reason,roll,confidence,most_points_box,most_points,advisor_box,advisor_points\n";

typedef struct {
    char **paths;
    size_t n_paths, capacity;
} path_list;

typedef struct {
    int done;   /* read in this run */
    int status; /* 0 ok, 1 refused, 2 unreadable */
    char reason[256];
    int roll[YZ_N_DICE];
    int n_dice; /* found, ok or refused */
    double confidence[YZ_VISION_MAX_DICE];
    yz_box most_box, advisor_box; /* most points now; the advisor's pick, on an empty card */
    int most_points, advisor_points;
} photo_row;

static const char *const status_names[] = {"ok", "refused", "unreadable"};

static int is_photo_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0 ||
                   strcasecmp(dot, ".png") == 0 || strcasecmp(dot, ".heic") == 0 ||
                   strcasecmp(dot, ".heif") == 0);
}

static int add_path(path_list *list, const char *path)
{
    if (list->n_paths == MAX_PHOTOS) return -1;
    if (list->n_paths == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 256;
        char **paths = realloc(list->paths, capacity * sizeof *paths);
        if (!paths) return -1;
        list->paths = paths;
        list->capacity = capacity;
    }
    if (!(list->paths[list->n_paths] = strdup(path))) return -1;
    list->n_paths++;
    return 0;
}

static int collect_photos(const char *dir, int depth, path_list *list)
{
    if (depth > MAX_DEPTH) return 0; /* symlink loops end here */
    DIR *d = opendir(dir);
    if (!d) return yz_cli_fail(YZ_EXIT_DATA, "%s: cannot open the folder", dir);
    struct dirent *entry;
    int code = YZ_EXIT_OK;
    while (code == YZ_EXIT_OK && (entry = readdir(d))) {
        if (entry->d_name[0] == '.') continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, entry->d_name) >= (int)sizeof path) continue;
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode))
            code = collect_photos(path, depth + 1, list);
        else if (S_ISREG(st.st_mode) && is_photo_name(entry->d_name) && add_path(list, path) != 0)
            code = yz_cli_fail(YZ_EXIT_INTERNAL, "too many photos (at most %d) or out of memory",
                               MAX_PHOTOS);
    }
    closedir(d);
    return code;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- reading, on several threads ----------------------------------------------------------- */

typedef struct {
    const path_list *photos;
    photo_row *rows;
    const long *earlier_row; /* per photo: its row from an earlier run, or -1 to read it */
    const yz_strategy *strategy;
    const yz_profile *profile;
    atomic_size_t next;
    atomic_int finished;
} batch_job;

static void read_one(const batch_job *job, yz_vision_nets *nets, size_t index)
{
    photo_row *row = &job->rows[index];
    yz_vision_result result;
    yz_vision_error err;
    row->done = 1;
    if (yz_cli_read_photo(job->photos->paths[index], YZ_N_DICE, nets, NULL, 1, &result, &err) !=
        YZ_EXIT_OK) {
        row->status = 2;
        snprintf(row->reason, sizeof row->reason, "%s", err.message);
        return;
    }
    /* Every die's confidence, also on a refused photo: it shows which die was in doubt. */
    row->n_dice = result.n_dice;
    for (int i = 0; i < result.n_dice; i++)
        row->confidence[i] = result.dice[i].confidence;
    if (result.status != YZ_VISION_READ_OK) {
        row->status = 1;
        snprintf(row->reason, sizeof row->reason, "%s", result.reason);
        return;
    }
    yz_roll roll;
    for (int i = 0; i < YZ_N_DICE; i++) {
        row->roll[i] = result.roll[i];
        roll.dice[i] = (uint8_t)result.roll[i];
    }
    yz_card empty;
    yz_rules_card_init(&empty);
    /* What a tournament counts: the most points this roll scores now (the first such box in
     * the card's order on a tie); and apart from it, what the advisor would score for the
     * game ahead. */
    yz_option options[YZ_BOX_COUNT];
    int n_options = yz_rules_options(job->profile, &empty, &roll, options);
    row->most_points = -1;
    for (int i = 0; i < n_options; i++)
        if (options[i].points + options[i].bonus > row->most_points) {
            row->most_box = options[i].box;
            row->most_points = options[i].points + options[i].bonus;
        }
    yz_box_advice best;
    yz_advise_boxes(job->strategy, &empty, &roll, &best, 1);
    row->advisor_box = best.option.box;
    row->advisor_points = best.option.points + best.option.bonus;
}

/* Each worker loads its own nets (a set serves one thread), when it first has a photo to read:
 * a worker left nothing to read (every photo taken, or kept from an earlier run by --resume)
 * loads none. If they cannot be loaded, every read tries again and its row says why. */
static void *batch_worker(void *arg)
{
    batch_job *job = arg;
    yz_vision_nets *nets = NULL;
    int tried_loading = 0;
    for (;;) {
        size_t index = atomic_fetch_add(&job->next, 1);
        if (index >= job->photos->n_paths) break;
        if (job->earlier_row[index] < 0) {
            if (!tried_loading) {
                yz_vision_error err;
                tried_loading = 1;
                if (yz_vision_nets_load(NULL, &nets, &err) != YZ_VISION_OK) nets = NULL;
            }
            read_one(job, nets, index);
        }
        atomic_fetch_add(&job->finished, 1);
    }
    yz_vision_nets_free(nets);
    return NULL;
}

static void show_progress(int done, int total, double seconds)
{
    double rate = seconds > 0 ? done / seconds : 0;
    int left = rate > 0 ? (int)((total - done) / rate) : 0;
    int width = 30, filled = total ? done * width / total : width;
    fprintf(stderr, "\r[%.*s%*s] %d/%d photos, %.1f/s, %dm%02ds left ", filled,
            "##############################", width - filled, "", done, total, rate, left / 60,
            left % 60);
    fflush(stderr);
}

/* ---- output ---------------------------------------------------------------------------------- */

static void csv_quoted(FILE *out, const char *text)
{
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"') fputc('"', out);
        fputc(*c == '\n' ? ' ' : *c, out);
    }
    fputc('"', out);
}

static void write_csv_row(FILE *out, const char *file, const photo_row *row)
{
    csv_quoted(out, file);
    fprintf(out, ",%s,", status_names[row->status]);
    csv_quoted(out, row->reason);
    fputc(',', out);
    for (int i = 0; row->status == 0 && i < YZ_N_DICE; i++)
        fprintf(out, i ? " %d" : "%d", row->roll[i]);
    fputc(',', out);
    for (int i = 0; row->status != 2 && i < row->n_dice; i++)
        fprintf(out, i ? " %.2f" : "%.2f", row->confidence[i]);
    if (row->status == 0)
        fprintf(out, ",%s,%d,%s,%d\n", yz_rules_box_name(row->most_box), row->most_points,
                yz_rules_box_name(row->advisor_box), row->advisor_points);
    else
        fprintf(out, ",,,,\n");
}

static json_t *row_json(const char *file, const photo_row *row)
{
    json_t *roll = json_array(), *confidence = json_array();
    for (int i = 0; row->status == 0 && i < YZ_N_DICE; i++)
        json_array_append_new(roll, json_integer(row->roll[i]));
    for (int i = 0; row->status != 2 && i < row->n_dice; i++)
        json_array_append_new(confidence,
                              json_real((double)(int)(row->confidence[i] * 100 + 0.5) / 100));
    json_t *entry =
        json_pack("{s:s, s:s, s:s, s:o, s:o}", "file", file, "status", status_names[row->status],
                  "reason", row->reason, "roll", roll, "confidence", confidence);
    json_object_set_new(entry, "most_points",
                        row->status == 0
                            ? json_pack("{s:s, s:i}", "box", yz_rules_box_name(row->most_box),
                                        "points", row->most_points)
                            : json_null());
    json_object_set_new(entry, "advisor",
                        row->status == 0
                            ? json_pack("{s:s, s:i}", "box", yz_rules_box_name(row->advisor_box),
                                        "points", row->advisor_points)
                            : json_null());
    return entry;
}

/* Rows kept from an earlier run (--resume), by file name: a CSV line or a JSON object. */
typedef struct {
    char **files;
    char **csv_lines;
    json_t *json_rows;
    size_t n;
} earlier_rows;

static long earlier_index(const earlier_rows *earlier, const char *file)
{
    for (size_t i = 0; i < earlier->n; i++)
        if (strcmp(earlier->files[i], file) == 0) return (long)i;
    return -1;
}

/* The first CSV field, unquoted. */
static char *csv_first_field(const char *line)
{
    char *field = malloc(strlen(line) + 1);
    if (!field) return NULL;
    size_t at = 0;
    if (line[0] == '"') {
        for (const char *c = line + 1; *c; c++) {
            if (*c == '"' && c[1] == '"')
                field[at++] = '"', c++;
            else if (*c == '"')
                break;
            else
                field[at++] = *c;
        }
    } else {
        for (const char *c = line; *c && *c != ',' && *c != '\n'; c++)
            field[at++] = *c;
    }
    field[at] = '\0';
    return field;
}

static int read_earlier(const char *path, int json, earlier_rows *earlier)
{
    memset(earlier, 0, sizeof *earlier);
    if (access(path, F_OK) != 0) return YZ_EXIT_OK;
    if (json) {
        json_error_t json_err;
        json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &json_err);
        json_t *rows = json_object_get(root, "photos");
        if (!json_is_array(rows)) {
            json_decref(root);
            return yz_cli_fail(YZ_EXIT_DATA, "%s: not a batch report to resume", path);
        }
        earlier->json_rows = json_incref(rows);
        json_decref(root);
        earlier->n = json_array_size(rows);
        earlier->files = calloc(earlier->n + 1, sizeof *earlier->files);
        for (size_t i = 0; earlier->files && i < earlier->n; i++) {
            const char *file = json_string_value(json_object_get(json_array_get(rows, i), "file"));
            earlier->files[i] = strdup(file ? file : "");
        }
        return earlier->files ? YZ_EXIT_OK : yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    }
    FILE *in = fopen(path, "r");
    if (!in) return yz_cli_fail(YZ_EXIT_DATA, "%s: cannot open", path);
    char line[8192];
    size_t capacity = 0;
    int line_no = 0, code = YZ_EXIT_OK;
    while (code == YZ_EXIT_OK && fgets(line, sizeof line, in)) {
        if (line_no++ == 0) {
            if (strncmp(line, "file,status,", 12) != 0)
                code = yz_cli_fail(YZ_EXIT_DATA, "%s: not a batch report to resume", path);
            else if (strcmp(line, csv_header) != 0)
                code = yz_cli_fail(YZ_EXIT_DATA,
                                   "%s: a report with other columns (an older "
                                   "yardzee): write a new one, without --resume",
                                   path);
            continue;
        }
        if (earlier->n == capacity) {
            capacity = capacity ? capacity * 2 : 256;
            char **files = realloc(earlier->files, capacity * sizeof *files);
            char **lines = realloc(earlier->csv_lines, capacity * sizeof *lines);
            if (files) earlier->files = files;
            if (lines) earlier->csv_lines = lines;
            if (!files || !lines) code = yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
        }
        if (code == YZ_EXIT_OK) {
            earlier->files[earlier->n] = csv_first_field(line);
            earlier->csv_lines[earlier->n] = strdup(line);
            earlier->n++;
        }
    }
    fclose(in);
    return code;
}

static void free_earlier(earlier_rows *earlier)
{
    for (size_t i = 0; i < earlier->n; i++) {
        free(earlier->files[i]);
        if (earlier->csv_lines) free(earlier->csv_lines[i]);
    }
    free(earlier->files);
    free(earlier->csv_lines);
    json_decref(earlier->json_rows);
}

/* The whole report as text: rows in sorted file order, a photo not read in this run from the
 * earlier report. */
static char *report_text(const path_list *photos, const photo_row *rows,
                         const earlier_rows *earlier, const yz_profile *profile, int json,
                         size_t *len)
{
    char *text = NULL;
    if (json) {
        json_t *list = json_array();
        for (size_t i = 0; i < photos->n_paths; i++) {
            long earlier_row = rows[i].done ? -1 : earlier_index(earlier, photos->paths[i]);
            if (earlier_row >= 0)
                json_array_append(list, json_array_get(earlier->json_rows, (size_t)earlier_row));
            else
                json_array_append_new(list, row_json(photos->paths[i], &rows[i]));
        }
        json_t *root = json_pack("{s:s, s:o}", "rules", profile->name, "photos", list);
        text = json_dumps(root, JSON_INDENT(1));
        json_decref(root);
        if (text) {
            *len = strlen(text);
            return text;
        }
        return NULL;
    }
    FILE *out = open_memstream(&text, len);
    if (!out) return NULL;
    fputs(csv_header, out);
    for (size_t i = 0; i < photos->n_paths; i++) {
        long earlier_row = rows[i].done ? -1 : earlier_index(earlier, photos->paths[i]);
        if (earlier_row >= 0)
            fputs(earlier->csv_lines[earlier_row], out);
        else
            write_csv_row(out, photos->paths[i], &rows[i]);
    }
    fclose(out);
    return text;
}

int yz_cmd_batch(int argc, char **argv)
{
    static const struct option long_options[] = {{"jobs", required_argument, NULL, 'j'},
                                                 {"csv", required_argument, NULL, 'c'},
                                                 {"json", required_argument, NULL, 'J'},
                                                 {"rules", required_argument, NULL, 'R'},
                                                 {"resume", no_argument, NULL, 'r'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n_jobs = cores > 0 ? (int)cores : 1, resume = 0, opt;
    const char *out_paths[2] = {NULL, NULL}, *rules_name = NULL; /* CSV, JSON */
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (opt) {
        case 'j': {
            char *end;
            long value = strtol(optarg, &end, 10);
            if (end == optarg || *end || value < 1 || value > 256)
                return yz_cli_fail(YZ_EXIT_USAGE, "--jobs: '%s' is not 1-256", optarg);
            n_jobs = (int)value;
            break;
        }
        case 'c': out_paths[0] = optarg; break;
        case 'J': out_paths[1] = optarg; break;
        case 'R': rules_name = optarg; break;
        case 'r': resume = 1; break;
        case 'h': fputs(batch_help, stdout); return YZ_EXIT_OK;
        default: return yz_cli_bad_option("batch", opt, argv);
        }
    }
    if (optind >= argc)
        return yz_cli_fail(YZ_EXIT_USAGE, "batch: give at least one folder or photo");
    if (resume && !out_paths[0] && !out_paths[1])
        return yz_cli_fail(YZ_EXIT_USAGE, "batch: --resume needs --csv or --json");
    if (out_paths[0] && out_paths[1] && strcmp(out_paths[0], out_paths[1]) == 0)
        return yz_cli_fail(YZ_EXIT_USAGE, "batch: --csv and --json name the same file");
    const yz_profile *profile =
        rules_name ? yz_rules_profile_find(rules_name) : yz_rules_profile_default();
    if (!profile) return yz_cli_fail(YZ_EXIT_USAGE, "--rules: unknown rules '%s'", rules_name);

    path_list photos = {0};
    int code = YZ_EXIT_OK;
    for (int i = optind; code == YZ_EXIT_OK && i < argc; i++) {
        /* A file named is read whatever its name (one that is no photo gets its row); a
         * folder is searched for photos. */
        struct stat st;
        if (stat(argv[i], &st) != 0)
            code = yz_cli_fail(YZ_EXIT_DATA, "%s: no such file or folder", argv[i]);
        else if (!S_ISDIR(st.st_mode) && add_path(&photos, argv[i]) != 0)
            code = yz_cli_fail(YZ_EXIT_INTERNAL, "too many photos (at most %d) or out of memory",
                               MAX_PHOTOS);
        else if (S_ISDIR(st.st_mode))
            code = collect_photos(argv[i], 0, &photos);
    }
    if (photos.n_paths) qsort(photos.paths, photos.n_paths, sizeof *photos.paths, compare_strings);
    /* A photo named twice (or a folder and a photo in it) is one row. */
    size_t n_unique = 0;
    for (size_t i = 0; i < photos.n_paths; i++) {
        if (n_unique && strcmp(photos.paths[n_unique - 1], photos.paths[i]) == 0)
            free(photos.paths[i]);
        else
            photos.paths[n_unique++] = photos.paths[i];
    }
    photos.n_paths = n_unique;
    earlier_rows earlier[2] = {{0}, {0}};
    for (int k = 0; k < 2; k++)
        if (code == YZ_EXIT_OK && resume && out_paths[k])
            code = read_earlier(out_paths[k], k, &earlier[k]);
    photo_row *rows = calloc(photos.n_paths + 1, sizeof *rows);
    long *earlier_row = calloc(photos.n_paths + 1, sizeof *earlier_row);
    yz_strategy *strategy = code == YZ_EXIT_OK ? yz_cli_strategy(profile) : NULL;
    if (code == YZ_EXIT_OK && (!rows || !earlier_row || !strategy))
        code = strategy ? yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory") : YZ_EXIT_INTERNAL;

    double start = yz_cli_now();
    int n_skipped = 0;
    if (code == YZ_EXIT_OK) {
        for (size_t i = 0; i < photos.n_paths; i++) {
            /* Skipped only when every report asked for has its row. */
            earlier_row[i] = 0;
            for (int k = 0; k < 2; k++)
                if (out_paths[k] && (!resume || earlier_index(&earlier[k], photos.paths[i]) < 0))
                    earlier_row[i] = -1;
            if (!out_paths[0] && !out_paths[1]) earlier_row[i] = -1;
            n_skipped += earlier_row[i] >= 0;
        }
        batch_job job = {&photos, rows, earlier_row, strategy, profile, 0, 0};
        /* The jobs share the cores: a photo's decode splitting its scan among cores busy with
         * other photos would only add work. */
        int share = cores > n_jobs ? (int)(cores / n_jobs) : 1;
        yz_vision_decode_cores(share);
        /* On a terminal this thread draws the progress bar while n_jobs threads read;
           otherwise it is one of the readers. */
        int progress = isatty(fileno(stderr));
        pthread_t threads[256];
        int started = 0;
        for (int i = progress ? 0 : 1; i < n_jobs; i++)
            if (pthread_create(&threads[started], NULL, batch_worker, &job) == 0) started++;
        while (progress && started && atomic_load(&job.finished) < (int)photos.n_paths) {
            show_progress(atomic_load(&job.finished), (int)photos.n_paths, yz_cli_now() - start);
            nanosleep(&(struct timespec){0, 200000000}, NULL);
        }
        batch_worker(&job); /* finishes the work if no thread could be started */
        for (int i = 0; i < started; i++)
            pthread_join(threads[i], NULL);
        if (progress) {
            show_progress((int)photos.n_paths, (int)photos.n_paths, yz_cli_now() - start);
            fputc('\n', stderr);
        }
        for (int k = 0; k < 2 && code == YZ_EXIT_OK; k++) {
            if (!out_paths[k] && (k == 1 || out_paths[1])) continue; /* stdout: CSV, alone */
            size_t len = 0;
            char *text = report_text(&photos, rows, &earlier[k], profile, k, &len);
            int error_number = 0;
            if (!text)
                code = yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
            else if (!out_paths[k])
                fwrite(text, 1, len, stdout);
            else if (yz_cli_write_atomically(out_paths[k], text, len, &error_number) != 0)
                code = yz_cli_fail(YZ_EXIT_DATA, "%s: cannot write: %s", out_paths[k],
                                   strerror(error_number));
            free(text);
        }
    }
    if (code == YZ_EXIT_OK) {
        int counts[3] = {0};
        for (size_t i = 0; i < photos.n_paths; i++)
            if (rows[i].done) counts[rows[i].status]++;
        double seconds = yz_cli_now() - start;
        int n_read = counts[0] + counts[1] + counts[2];
        fprintf(stderr,
                "%zu photos: %d ok, %d refused, %d unreadable, %d already done; %.1f s "
                "(%.1f photos/s on %d jobs)\n",
                photos.n_paths, counts[0], counts[1], counts[2], n_skipped, seconds,
                seconds > 0 ? n_read / seconds : 0, n_jobs);
    }
    yz_strategy_free(strategy);
    free(rows);
    free(earlier_row);
    free_earlier(&earlier[0]);
    free_earlier(&earlier[1]);
    for (size_t i = 0; i < photos.n_paths; i++)
        free(photos.paths[i]);
    free(photos.paths);
    return code;
}
