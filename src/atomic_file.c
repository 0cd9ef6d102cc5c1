/* atomic_file.c - replace a file so that a crash or a full disk at any moment leaves either the
 * old file or the new one, whole: write a temporary file beside it, flush it to the disk,
 * rename it over the old one, then flush the folder so the rename itself is on the disk.
 *
 * Fault points, for the tests (tests/test_game.sh) and always compiled in, since a getenv per
 * save costs nothing: YARDZEE_FAIL_AT=STEP makes that step fail as a refusing disk would (EIO),
 * and YARDZEE_FAIL_AT=STEP:crash kills the process there (SIGKILL), as a power cut would. STEP is
 * write (after half the bytes are written), fsync (the temporary file's), rename (just before
 * it) or dirsync (after the rename, the folder's fsync, whose failure is ignored: the new file
 * is already in place). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int fault_planned(const char *step)
{
    const char *at = getenv("YARDZEE_FAIL_AT");
    size_t n = strlen(step);
    return at && strncmp(at, step, n) == 0 && (at[n] == '\0' || strcmp(at + n, ":crash") == 0);
}

/* 1 with errno EIO when YARDZEE_FAIL_AT names step; never returns for STEP:crash. */
static int fault(const char *step)
{
    if (!fault_planned(step)) return 0;
    if (strchr(getenv("YARDZEE_FAIL_AT"), ':')) raise(SIGKILL);
    errno = EIO;
    return 1;
}

static int write_all(int fd, const char *bytes, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, bytes + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        done += (size_t)n;
    }
    return 1;
}

int yz_cli_write_atomically(const char *path, const void *bytes, size_t len, int *error_number)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        *error_number = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    size_t first = fault_planned("write") ? len / 2 : len;
    int ok = fd >= 0 && write_all(fd, bytes, first) && !(first < len && fault("write")) &&
             write_all(fd, (const char *)bytes + first, len - first);
    ok = ok && !fault("fsync") && fsync(fd) == 0;
    *error_number = errno;
    if (fd >= 0 && close(fd) != 0 && ok) ok = 0, *error_number = errno;
    if (ok && (fault("rename") || rename(tmp, path) != 0)) ok = 0, *error_number = errno;
    if (!ok) {
        unlink(tmp);
        return -1;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    int dir_fd = open(dirname(dir), O_RDONLY | O_DIRECTORY);
    if (dir_fd >= 0) {
        if (!fault("dirsync")) fsync(dir_fd);
        close(dir_fd);
    }
    return 0;
}
