/* atomic_file.c - replace a file so that a crash or a full disk at any moment leaves either the
 * old file or the new one, whole: write a temporary file beside it, flush it to the disk,
 * rename it over the old one, then flush the folder so the rename itself is on the disk. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int yz_cli_write_atomically(const char *path, const void *bytes, size_t len, int *error_number)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        *error_number = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    size_t done = 0;
    int ok = fd >= 0;
    while (ok && done < len) {
        ssize_t n = write(fd, (const char *)bytes + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += (size_t)n;
    }
    ok = ok && fsync(fd) == 0;
    *error_number = errno;
    if (fd >= 0 && close(fd) != 0 && ok) ok = 0, *error_number = errno;
    if (ok && rename(tmp, path) != 0) ok = 0, *error_number = errno;
    if (!ok) {
        unlink(tmp);
        return -1;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    int dir_fd = open(dirname(dir), O_RDONLY | O_DIRECTORY);
    if (dir_fd >= 0) {
        fsync(dir_fd);
        close(dir_fd);
    }
    return 0;
}
