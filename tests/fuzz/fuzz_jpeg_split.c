/* fuzz_jpeg_split.c - libFuzzer target: any bytes as a JPEG, its scan decoded in three parts
 * (vision/jpeg_split.c) wherever that decoder takes the file, however small. */
#include <stddef.h>
#include <stdint.h>

#include "vision.h"
#include "vision_testing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    yz_vision_testing_jpeg_parts(3);
    yz_vision_photo photo;
    yz_vision_error err;
    if (yz_vision_load_memory(data, size, "fuzz", 0, &photo, &err) == YZ_VISION_OK)
        yz_vision_photo_free(&photo);
    return 0;
}
