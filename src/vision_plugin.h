/* vision_plugin.h - the photo reader as a plugin: libyzvision's pipeline, the OpenCV shim and
 * OpenCV itself live in yardzee-vision.so, which the yardzee binary opens only when a photo is
 * read, so a command that reads no photo (score, advise, game keep, ...) never maps OpenCV's
 * libraries.
 *
 * The plugin exports one symbol, yz_vision_plugin_get, returning this table. The binary links
 * the part of vision.h that needs no OpenCV itself (libyzphoto: loading, decoding and writing
 * photos, the default options, the allocator), so it decodes a photo while the plugin opens on
 * another thread; it defines the rest (src/vision_loader.c), each forwarding through the table,
 * so the commands call libvision as if it were linked in. Change YZ_VISION_PLUGIN_ABI whenever
 * vision.h or this table changes in a way an older plugin would misread. */
#ifndef YZ_VISION_PLUGIN_H
#define YZ_VISION_PLUGIN_H

#include "vision.h"

#define YZ_VISION_PLUGIN_ABI 3
#define YZ_VISION_PLUGIN_FILE "yardzee-vision.so"
#define YZ_VISION_PLUGIN_SYMBOL "yz_vision_plugin_get"

typedef struct {
    int abi;         /* YZ_VISION_PLUGIN_ABI as the plugin was built */
    size_t size;     /* sizeof(yz_vision_plugin) as the plugin was built */
    size_t sizes[4]; /* sizeof options, result, photo, error: a changed struct is refused */
    yz_vision_status (*nets_load)(const char *, yz_vision_nets **, yz_vision_error *);
    void (*nets_free)(yz_vision_nets *);
    yz_vision_status (*read_file)(const char *, const yz_vision_options *, yz_vision_result *,
                                  yz_vision_error *);
    yz_vision_status (*read_photo)(const yz_vision_photo *, const yz_vision_options *,
                                   yz_vision_result *, yz_vision_error *);
    yz_vision_status (*annotate)(const yz_vision_photo *, const yz_vision_result *, const char *,
                                 yz_vision_error *);
    yz_vision_status (*annotate_from)(const uint8_t *, size_t, const yz_vision_photo *,
                                      const yz_vision_result *, const char *, yz_vision_error *);
    yz_vision_status (*annotate_file)(const char *, const yz_vision_photo *,
                                      const yz_vision_result *, const char *, yz_vision_error *);
    yz_vision_status (*annotate_claim_file)(const char *, const yz_vision_photo *,
                                            const yz_vision_result *, const yz_vision_claim *,
                                            const char *, yz_vision_error *);
} yz_vision_plugin;

#define YZ_VISION_PLUGIN_SIZES                                                                     \
    {                                                                                              \
        sizeof(yz_vision_options), sizeof(yz_vision_result), sizeof(yz_vision_photo),              \
            sizeof(yz_vision_error)                                                                \
    }

typedef const yz_vision_plugin *(*yz_vision_plugin_get_fn)(void);

#endif
