/* strategy_cache.c - the advisor's tables live in a cache folder and are rebuilt when missing
 * or stale: $YARDZEE_CACHE, else $XDG_CACHE_HOME/yardzee, else ~/.cache/yardzee. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static int cache_dir(char *dir, size_t size)
{
    const char *env = getenv("YARDZEE_CACHE");
    if (env && *env) return snprintf(dir, size, "%s", env) < (int)size;
    env = getenv("XDG_CACHE_HOME");
    if (env && *env) return snprintf(dir, size, "%s/yardzee", env) < (int)size;
    env = getenv("HOME");
    if (env && *env) return snprintf(dir, size, "%s/.cache/yardzee", env) < (int)size;
    return 0;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int table_path(const yz_profile *profile, char *path, size_t size)
{
    char dir[4000];
    if (!cache_dir(dir, sizeof dir)) return 0;
    return snprintf(path, size, "%s/strategy-%s.bin", dir, profile->name) < (int)size;
}

typedef struct {
    void *addr;
    size_t len;
} mapping;

static void unmap_table(void *ctx)
{
    mapping *map = ctx;
    munmap(map->addr, map->len);
    free(map);
}

/* The table is mapped, not read: the advisor touches a few of its pages, and the checksum reads
 * the rest from the page cache at memory speed (rules/strategy.c). */
static yz_strategy *load_table(const yz_profile *profile, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    yz_strategy *strategy = NULL;
    struct stat st;
    mapping *map = malloc(sizeof *map);
    if (map && fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < (1 << 28)) {
        map->len = (size_t)st.st_size;
        map->addr = mmap(NULL, map->len, PROT_READ, MAP_PRIVATE, fd, 0);
        yz_rules_error err;
        if (map->addr == MAP_FAILED) {
            /* unmappable (a pipe, an odd file system): rebuilt like a missing one */
        } else if (yz_strategy_deserialize_borrowed(profile, map->addr, map->len, unmap_table, map,
                                                    &strategy, &err) == YZ_OK) {
            map = NULL; /* the strategy owns the mapping now */
        } else {
            fprintf(stderr, "yardzee: %s: %s; rebuilding it\n", path, err.message);
            munmap(map->addr, map->len);
        }
    }
    free(map);
    close(fd);
    return strategy;
}

/* A table that cannot be saved only costs time next run: a warning, not an error. */
static void save_table(const yz_strategy *strategy, const char *path)
{
    uint8_t *bytes;
    size_t len;
    yz_rules_error err;
    if (yz_strategy_serialize(strategy, &bytes, &len, &err) != YZ_OK) return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    int error_number = 0;
    if (make_dirs(dir) != 0 || yz_cli_write_atomically(path, bytes, len, &error_number) != 0)
        fprintf(stderr, "yardzee: warning: cannot save %s: %s\n", path,
                strerror(error_number ? error_number : errno));
    free(bytes);
}

static void progress_bar(void *ctx, double fraction)
{
    const char *name = ctx;
    int width = 30, filled = (int)(fraction * width + 0.5);
    fprintf(stderr, "\rsolving %s rules [%.*s%*s] %3d%%", name, filled,
            "##############################", width - filled, "", (int)(fraction * 100 + 0.5));
    if (fraction >= 1.0) fputc('\n', stderr);
    fflush(stderr);
}

static yz_strategy *build_and_save(const yz_profile *profile, const char *path, double *seconds)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    yz_strategy_options options = {0};
    options.n_threads = cores > 0 ? (int)cores : 2;
    if (isatty(fileno(stderr))) {
        options.progress = progress_bar;
        options.progress_ctx = (void *)profile->name;
    }
    yz_strategy *strategy;
    yz_rules_error err;
    double start = yz_cli_now();
    if (yz_strategy_build(profile, &options, &strategy, &err) != YZ_OK) {
        yz_cli_fail_rules(&err);
        return NULL;
    }
    if (seconds) *seconds = yz_cli_now() - start;
    if (path) save_table(strategy, path);
    return strategy;
}

yz_strategy *yz_cli_strategy(const yz_profile *profile)
{
    char path[4096];
    int have_path = table_path(profile, path, sizeof path);
    yz_strategy *strategy = have_path ? load_table(profile, path) : NULL;
    if (strategy) return strategy;
    if (isatty(fileno(stderr)))
        fprintf(stderr, "yardzee: first use of the %s rules: solving them (a few seconds)\n",
                profile->name);
    return build_and_save(profile, have_path ? path : NULL, NULL);
}

yz_strategy *yz_cli_strategy_rebuild(const yz_profile *profile, double *seconds)
{
    char path[4096];
    int have_path = table_path(profile, path, sizeof path);
    return build_and_save(profile, have_path ? path : NULL, seconds);
}
