/* vision_plugin.c - the one exported entry of yardzee-vision.so (see vision_plugin.h). */
#include "vision_plugin.h"

__attribute__((visibility("default"))) const yz_vision_plugin *yz_vision_plugin_get(void);

const yz_vision_plugin *yz_vision_plugin_get(void)
{
    static const yz_vision_plugin table = {
        YZ_VISION_PLUGIN_ABI,     sizeof table,          YZ_VISION_PLUGIN_SIZES,
        yz_vision_load_file,      yz_vision_load_memory, yz_vision_photo_free,
        yz_vision_is_photo,       yz_vision_nets_load,   yz_vision_nets_free,
        yz_vision_reuse_memory,   yz_vision_default_options, yz_vision_read_file,
        yz_vision_read_photo,     yz_vision_annotate,    yz_vision_annotate_from,
        yz_vision_annotate_file,  yz_vision_write_png,
    };
    return &table;
}
