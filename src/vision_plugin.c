/* vision_plugin.c - the one exported entry of yardzee-vision.so (see vision_plugin.h). */
#include "vision_plugin.h"

__attribute__((visibility("default"))) const yz_vision_plugin *yz_vision_plugin_get(void);

const yz_vision_plugin *yz_vision_plugin_get(void)
{
    static const yz_vision_plugin table = {
        .abi = YZ_VISION_PLUGIN_ABI,
        .size = sizeof table,
        .sizes = YZ_VISION_PLUGIN_SIZES,
        .nets_load = yz_vision_nets_load,
        .nets_free = yz_vision_nets_free,
        .read_file = yz_vision_read_file,
        .read_photo = yz_vision_read_photo,
        .annotate = yz_vision_annotate,
        .annotate_from = yz_vision_annotate_from,
        .annotate_file = yz_vision_annotate_file,
        .annotate_claim_file = yz_vision_annotate_claim_file,
    };
    return &table;
}
