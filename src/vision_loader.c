/* vision_loader.c - the yardzee binary's libvision: every public function of vision.h that needs
 * OpenCV (loading the nets, reading, annotating), opening the photo reader plugin
 * (vision_plugin.h) on the first call that needs it and forwarding to it. The rest of vision.h
 * (loading and writing photos) is linked into the binary from libyzphoto. Commands that read no
 * photo never get here, so they never map OpenCV (about 35 ms).
 *
 * The plugin is looked for, in order: $YARDZEE_VISION_PLUGIN (a file, for tests), beside the
 * binary (the build tree), then in YZ_PLUGIN_RELDIR relative to the binary (the install:
 * bin/../lib/yardzee). When it cannot be opened, every call that needs it fails with
 * YZ_VISION_ERR_INTERNAL and a message naming the plugin; nothing else is affected. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vision.h"
#include "vision_plugin.h"

#ifndef YZ_PLUGIN_RELDIR
#define YZ_PLUGIN_RELDIR "../lib/yardzee"
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const yz_vision_plugin *plugin;
static char load_error[sizeof(((yz_vision_error *)0)->message)];

static int exe_dir(char *dir, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    if (n <= 0) return 0;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = '\0';
    return 1;
}

/* Opens path and checks its table; NULL with load_error filled when it does not fit. */
static const yz_vision_plugin *open_plugin(const char *path)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load the photo reader: %s",
                 why ? why : path);
        return NULL;
    }
    yz_vision_plugin_get_fn get;
    *(void **)&get = dlsym(handle, YZ_VISION_PLUGIN_SYMBOL);
    const yz_vision_plugin *table = get ? get() : NULL;
    static const size_t sizes[4] = YZ_VISION_PLUGIN_SIZES;
    if (!table || table->abi != YZ_VISION_PLUGIN_ABI || table->size != sizeof *table ||
        memcmp(table->sizes, sizes, sizeof sizes) != 0) {
        snprintf(load_error, sizeof load_error,
                 "%.160s: not a photo reader plugin of this yardzee version", path);
        dlclose(handle);
        return NULL;
    }
    return table; /* stays open until the process ends */
}

static void load_plugin(void)
{
    const char *env = getenv("YARDZEE_VISION_PLUGIN");
    if (env && *env) {
        plugin = open_plugin(env);
    } else {
        char dir[PATH_MAX], path[PATH_MAX + 64];
        if (!exe_dir(dir, sizeof dir)) {
            snprintf(load_error, sizeof load_error,
                     "cannot find the photo reader: /proc/self/exe unreadable (set "
                     "YARDZEE_VISION_PLUGIN to %s)",
                     YZ_VISION_PLUGIN_FILE);
            return;
        }
        snprintf(path, sizeof path, "%s/%s", dir, YZ_VISION_PLUGIN_FILE);
        if (access(path, F_OK) != 0)
            snprintf(path, sizeof path, "%s/%s/%s", dir, YZ_PLUGIN_RELDIR, YZ_VISION_PLUGIN_FILE);
        if (access(path, F_OK) != 0)
            snprintf(load_error, sizeof load_error,
                     "%.180s: photo reader not installed (yardzee was installed without it?)",
                     path);
        else
            plugin = open_plugin(path);
    }
}

/* The plugin, or NULL after filling err (when given) with why it cannot be loaded. */
static const yz_vision_plugin *vision(yz_vision_error *err)
{
    pthread_once(&load_once, load_plugin);
    if (!plugin && err) {
        err->code = YZ_VISION_ERR_INTERNAL;
        snprintf(err->message, sizeof err->message, "%s", load_error);
    }
    return plugin;
}

yz_vision_status yz_vision_nets_load(const char *models_dir, yz_vision_nets **nets,
                                     yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->nets_load(models_dir, nets, err) : YZ_VISION_ERR_INTERNAL;
}

void yz_vision_nets_free(yz_vision_nets *nets)
{
    const yz_vision_plugin *p = nets ? vision(NULL) : NULL;
    if (p) p->nets_free(nets);
}

yz_vision_status yz_vision_read_file(const char *path, const yz_vision_options *opts,
                                     yz_vision_result *result, yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->read_file(path, opts, result, err) : YZ_VISION_ERR_INTERNAL;
}

yz_vision_status yz_vision_read_photo(const yz_vision_photo *photo, const yz_vision_options *opts,
                                      yz_vision_result *result, yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->read_photo(photo, opts, result, err) : YZ_VISION_ERR_INTERNAL;
}

yz_vision_status yz_vision_annotate(const yz_vision_photo *photo, const yz_vision_result *result,
                                    const char *out_png, yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->annotate(photo, result, out_png, err) : YZ_VISION_ERR_INTERNAL;
}

yz_vision_status yz_vision_annotate_from(const uint8_t *bytes, size_t n_bytes,
                                         const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->annotate_from(bytes, n_bytes, photo, result, out_png, err)
             : YZ_VISION_ERR_INTERNAL;
}

yz_vision_status yz_vision_annotate_file(const char *path, const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->annotate_file(path, photo, result, out_png, err) : YZ_VISION_ERR_INTERNAL;
}

yz_vision_status yz_vision_annotate_claim_file(const char *path, const yz_vision_photo *photo,
                                               const yz_vision_result *result,
                                               const yz_vision_claim *claim, const char *out_png,
                                               yz_vision_error *err)
{
    const yz_vision_plugin *p = vision(err);
    return p ? p->annotate_claim_file(path, photo, result, claim, out_png, err)
             : YZ_VISION_ERR_INTERNAL;
}
