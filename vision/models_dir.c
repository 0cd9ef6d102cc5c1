/* models_dir.c - where the learned nets are when the caller does not say: $YARDZEE_MODELS, else
 * beside the running program as installed (bin/../share/yardzee/models), else as built (the
 * build tree links build/models to the source tree's models/, found from build/ and from its
 * subfolders). Nothing of the machine the library was built on is compiled in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int has_models(const char *dir)
{
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/dice_detector.onnx", dir);
    return access(probe, F_OK) == 0;
}

const char *yz_vision_models_dir(const char *chosen, char *buf, size_t size)
{
    if (chosen && chosen[0]) return chosen;
    const char *env = getenv("YARDZEE_MODELS");
    if (env && env[0]) return env;
    char exe[4000];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (!slash) {
        snprintf(buf, size, "models"); /* no /proc: the working directory's */
        return buf;
    }
    *slash = '\0';
    static const char *const relative[] = {"/../share/yardzee/models", "/models", "/../models"};
    for (size_t i = 0; i < sizeof relative / sizeof relative[0]; i++) {
        snprintf(buf, size, "%s%s", exe, relative[i]);
        if (has_models(buf)) return buf;
    }
    snprintf(buf, size, "%s%s", exe, relative[0]); /* named in the "model missing" error */
    return buf;
}
