/* fuzz_image.c - libFuzzer target: any bytes as a photo (JPEG/PNG/HEIC decoding, EXIF, limits). */
#include <stddef.h>
#include <stdint.h>

#include "vision.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    yz_vision_photo photo;
    yz_vision_error err;
    if (yz_vision_load_memory(data, size, "fuzz", 0, &photo, &err) == YZ_VISION_OK)
        yz_vision_photo_free(&photo);
    return 0;
}
