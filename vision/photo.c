/* photo.c - a file in, an upright RGB photo at working size out: reading, sniffing, limits,
 * EXIF orientation and shrinking. The codecs are in jpeg.c, png.c and heic.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "internal.h"

double yz_vision_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

yz_vision_status yz_vision_check_size(long w, long h, const char *name, yz_vision_error *err)
{
    if (w <= 0 || h <= 0)
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "%ldx%ld pixels is not an image", w,
                              h);
    if (w > YZ_VISION_MAX_SIDE || h > YZ_VISION_MAX_SIDE)
        return yz_vision_fail(err, YZ_VISION_ERR_LIMIT, name,
                              "%ldx%ld pixels has a side longer than the %d px limit", w, h,
                              YZ_VISION_MAX_SIDE);
    if ((double)w * (double)h > (double)YZ_VISION_MAX_PIXELS)
        return yz_vision_fail(err, YZ_VISION_ERR_LIMIT, name,
                              "%ldx%ld pixels is more than the %ld MP limit", w, h,
                              YZ_VISION_MAX_PIXELS / 1000000L);
    return YZ_VISION_OK;
}

yz_vision_status yz_vision_image_new(int w, int h, yz_vision_image *image)
{
    image->w = w;
    image->h = h;
    image->rgb = yz_vision_alloc((size_t)w * (size_t)h * 3);
    return image->rgb ? YZ_VISION_OK : YZ_VISION_ERR_NOMEM;
}

void yz_vision_image_free(yz_vision_image *image)
{
    if (!image) return;
    yz_vision_release(image->rgb);
    image->rgb = NULL;
    image->w = image->h = 0;
}

/* Where the upright pixel (ox, oy) comes from in the stored w x h image, per the EXIF table:
 * 2 mirror, 3 rotate 180, 4 flip, 5 transpose, 6 rotate 90 CW, 7 transverse, 8 rotate 90 CCW. */
static void stored_position(int orientation, int w, int h, int ox, int oy, int *sx, int *sy)
{
    switch (orientation) {
    case 2:
        *sx = w - 1 - ox;
        *sy = oy;
        break;
    case 3:
        *sx = w - 1 - ox;
        *sy = h - 1 - oy;
        break;
    case 4:
        *sx = ox;
        *sy = h - 1 - oy;
        break;
    case 5:
        *sx = oy;
        *sy = ox;
        break;
    case 6:
        *sx = oy;
        *sy = h - 1 - ox;
        break;
    case 7:
        *sx = w - 1 - oy;
        *sy = h - 1 - ox;
        break;
    case 8:
        *sx = w - 1 - oy;
        *sy = ox;
        break;
    default:
        *sx = ox;
        *sy = oy;
        break;
    }
}

yz_vision_status yz_vision_apply_orientation(yz_vision_image *image, int orientation)
{
    if (orientation < 2 || orientation > 8) return YZ_VISION_OK;
    int swaps = orientation >= 5;
    yz_vision_image upright;
    if (yz_vision_image_new(swaps ? image->h : image->w, swaps ? image->w : image->h, &upright))
        return YZ_VISION_ERR_NOMEM;
    for (int oy = 0; oy < upright.h; oy++) {
        uint8_t *out = upright.rgb + (size_t)oy * upright.w * 3;
        for (int ox = 0; ox < upright.w; ox++) {
            int sx, sy;
            stored_position(orientation, image->w, image->h, ox, oy, &sx, &sy);
            memcpy(out + ox * 3, image->rgb + ((size_t)sy * image->w + sx) * 3, 3);
        }
    }
    yz_vision_image_free(image);
    *image = upright;
    return YZ_VISION_OK;
}

yz_vision_status yz_vision_shrink(yz_vision_image *image, int factor)
{
    if (factor <= 1) return YZ_VISION_OK;
    yz_vision_image small;
    if (yz_vision_image_new(image->w / factor, image->h / factor, &small))
        return YZ_VISION_ERR_NOMEM;
    int area = factor * factor;
    for (int y = 0; y < small.h; y++)
        for (int x = 0; x < small.w; x++)
            for (int c = 0; c < 3; c++) {
                int sum = 0;
                for (int dy = 0; dy < factor; dy++) {
                    const uint8_t *row = image->rgb + ((size_t)(y * factor + dy) * image->w) * 3;
                    for (int dx = 0; dx < factor; dx++)
                        sum += row[(x * factor + dx) * 3 + c];
                }
                small.rgb[((size_t)y * small.w + x) * 3 + c] = (uint8_t)((sum + area / 2) / area);
            }
    yz_vision_image_free(image);
    *image = small;
    return YZ_VISION_OK;
}

static int is_jpeg(const uint8_t *b, size_t n)
{
    return n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF;
}

static int is_png(const uint8_t *b, size_t n)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    return n >= 8 && memcmp(b, signature, 8) == 0;
}

int yz_vision_is_photo(const uint8_t *bytes, size_t n_bytes)
{
    return is_jpeg(bytes, n_bytes) || is_png(bytes, n_bytes) || yz_vision_is_heic(bytes, n_bytes);
}

yz_vision_status yz_vision_load_memory(const uint8_t *bytes, size_t n_bytes, const char *name,
                                       int max_long_side, yz_vision_photo *photo,
                                       yz_vision_error *err)
{
    memset(photo, 0, sizeof *photo);
    if (!name) name = "(photo)";
    if (max_long_side <= 0) max_long_side = YZ_VISION_DEFAULT_LONG_SIDE;
    if (n_bytes == 0) return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "empty file");
    if (n_bytes > YZ_VISION_MAX_FILE_BYTES)
        return yz_vision_fail(err, YZ_VISION_ERR_LIMIT, name,
                              "%zu bytes is more than the %u MB limit", n_bytes,
                              YZ_VISION_MAX_FILE_BYTES >> 20);
    yz_vision_decoded decoded;
    memset(&decoded, 0, sizeof decoded);
    yz_vision_status status;
    if (is_jpeg(bytes, n_bytes))
        status = yz_vision_decode_jpeg(bytes, n_bytes, name, max_long_side, &decoded, err);
    else if (is_png(bytes, n_bytes))
        status = yz_vision_decode_png(bytes, n_bytes, name, &decoded, err);
    else if (yz_vision_is_heic(bytes, n_bytes))
        status = yz_vision_decode_heic(bytes, n_bytes, name, &decoded, err);
    else
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "not a JPEG, PNG or HEIC file");
    if (status != YZ_VISION_OK) return status;

    /* PNGs, HEICs (and JPEGs that 1/8 steps could not bring down) are shrunk by a whole factor. */
    int long_side = decoded.image.w > decoded.image.h ? decoded.image.w : decoded.image.h;
    int factor = 1;
    while (long_side / (factor + 1) >= YZ_VISION_MIN_LONG_SIDE &&
           long_side / factor > max_long_side)
        factor++;
    if (yz_vision_shrink(&decoded.image, factor) ||
        yz_vision_apply_orientation(&decoded.image, decoded.orientation)) {
        yz_vision_image_free(&decoded.image);
        return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
    }
    int swaps = decoded.orientation >= 5;
    photo->image = decoded.image;
    photo->full_w = swaps ? decoded.stored_h : decoded.stored_w;
    photo->full_h = swaps ? decoded.stored_w : decoded.stored_h;
    photo->orientation = decoded.orientation;
    return YZ_VISION_OK;
}

yz_vision_status yz_vision_read_whole_file(const char *path, uint8_t **bytes, size_t *n_bytes,
                                           yz_vision_error *err)
{
    *bytes = NULL;
    *n_bytes = 0;
    if (!path) return yz_vision_fail(err, YZ_VISION_ERR_USAGE, "(photo)", "no file name");
    FILE *file = fopen(path, "rb");
    if (!file) return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "%s", strerror(errno));
    struct stat info;
    if (fstat(fileno(file), &info) != 0 || !S_ISREG(info.st_mode)) {
        fclose(file);
        return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "not a regular file");
    }
    if ((unsigned long long)info.st_size > YZ_VISION_MAX_FILE_BYTES) {
        fclose(file);
        return yz_vision_fail(err, YZ_VISION_ERR_LIMIT, path,
                              "%lld bytes is more than the %u MB limit", (long long)info.st_size,
                              YZ_VISION_MAX_FILE_BYTES >> 20);
    }
    size_t size = (size_t)info.st_size;
    uint8_t *data = yz_vision_alloc(size);
    if (!data) {
        fclose(file);
        return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, path, "out of memory");
    }
    size_t got = size ? fread(data, 1, size, file) : 0;
    int read_failed = ferror(file);
    fclose(file);
    if (read_failed || got != size) {
        yz_vision_release(data);
        return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "read error");
    }
    *bytes = data;
    *n_bytes = size;
    return YZ_VISION_OK;
}

yz_vision_status yz_vision_load_file(const char *path, int max_long_side, yz_vision_photo *photo,
                                     yz_vision_error *err)
{
    memset(photo, 0, sizeof *photo);
    uint8_t *bytes;
    size_t n_bytes;
    yz_vision_status status = yz_vision_read_whole_file(path, &bytes, &n_bytes, err);
    if (status != YZ_VISION_OK) return status;
    status = yz_vision_load_memory(bytes, n_bytes, path, max_long_side, photo, err);
    yz_vision_release(bytes);
    return status;
}

void yz_vision_photo_free(yz_vision_photo *photo)
{
    if (!photo) return;
    yz_vision_image_free(&photo->image);
}

/* Here rather than in pipeline.c: a command sets the options of the load (max_long_side)
 * before the photo reader plugin, which holds the pipeline, has been opened. */
yz_vision_options yz_vision_default_options(void)
{
    yz_vision_options options = {5, 0, NULL, NULL};
    return options;
}
