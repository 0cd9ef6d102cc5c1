/* png.c - PNG to 8-bit RGB with libpng (any depth, palette, alpha, grayscale), and RGB to PNG
 * for annotations. libpng's own memory goes through yz_vision_alloc too, so the allocation
 * failure tests reach inside it; its errors longjmp back here with the message. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <png.h>
#include <zlib.h>

#include "internal.h"

typedef struct {
    const uint8_t *bytes;
    size_t size, at;
    int truncated;
    char message[128];
} png_source;

static void read_from_memory(png_structp png, png_bytep data, size_t length)
{
    png_source *source = png_get_io_ptr(png);
    if (source->size - source->at < length) {
        source->truncated = 1;
        png_error(png, "truncated");
    }
    memcpy(data, source->bytes + source->at, length);
    source->at += length;
}

static void keep_error(png_structp png, png_const_charp message)
{
    png_source *source = png_get_error_ptr(png);
    if (source) snprintf(source->message, sizeof source->message, "%s", message);
    png_longjmp(png, 1);
}

static void ignore_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

static png_voidp png_alloc(png_structp png, png_alloc_size_t size)
{
    (void)png;
    return yz_vision_alloc(size);
}

static void png_release(png_structp png, png_voidp ptr)
{
    (void)png;
    yz_vision_release(ptr);
}

/* Asks libpng for 8-bit RGB whatever the file holds; alpha is composited on black, which is
 * what a transparent area of a photo is worth to the reader. */
static void ask_for_rgb8(png_structp png, png_infop info)
{
    int color_type = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    png_set_strip_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

yz_vision_status yz_vision_decode_png(const uint8_t *bytes, size_t n_bytes, const char *name,
                                      yz_vision_decoded *out, yz_vision_error *err)
{
    /* The size is checked from IHDR (always the first chunk) before libpng exists: it reads
     * on past IHDR before telling, and a header-only bomb would look merely truncated. */
    if (n_bytes < 33 || memcmp(bytes + 12, "IHDR", 4) != 0)
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name,
                              n_bytes < 33 ? "truncated" : "corrupt PNG (no IHDR)");
    /* A size read from a damaged header would be a wrong reason: check IHDR's CRC first. */
    uint32_t stored_crc = (uint32_t)bytes[29] << 24 | (uint32_t)bytes[30] << 16 |
                          (uint32_t)bytes[31] << 8 | bytes[32];
    if (crc32(crc32(0L, Z_NULL, 0), bytes + 12, 17) != stored_crc)
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "corrupt PNG (IHDR: CRC error)");
    uint32_t claimed_w = (uint32_t)bytes[16] << 24 | (uint32_t)bytes[17] << 16 |
                         (uint32_t)bytes[18] << 8 | bytes[19];
    uint32_t claimed_h = (uint32_t)bytes[20] << 24 | (uint32_t)bytes[21] << 16 |
                         (uint32_t)bytes[22] << 8 | bytes[23];
    yz_vision_status too_big = yz_vision_check_size((long)claimed_w, (long)claimed_h, name, err);
    if (too_big) return too_big;
    png_source source = {bytes, n_bytes, 0, 0, ""};
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &source, keep_error,
                                               ignore_warning, NULL, png_alloc, png_release);
    if (!png) return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
    }
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile yz_vision_status status = YZ_VISION_OK;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        yz_vision_release(pixels);
        yz_vision_release(rows);
        if (status != YZ_VISION_OK) return status;
        if (source.truncated) return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "truncated");
        if (strstr(source.message, "memory"))
            return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "corrupt PNG (%s)", source.message);
    }
    png_set_read_fn(png, &source, read_from_memory);
    /* Our own limits are stricter; lift libpng's so the message is ours. */
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (yz_vision_check_size((long)width, (long)height, name, err)) {
        status = err ? err->code : YZ_VISION_ERR_LIMIT;
        png_longjmp(png, 1);
    }
    ask_for_rgb8(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 3) {
        status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "unsupported PNG pixel layout");
        png_longjmp(png, 1);
    }
    pixels = yz_vision_alloc((size_t)width * height * 3);
    rows = yz_vision_alloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        status = yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < height; y++)
        rows[y] = pixels + (size_t)y * width * 3;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    yz_vision_release(rows);
    out->image.w = (int)width;
    out->image.h = (int)height;
    out->image.rgb = pixels;
    out->stored_w = (int)width;
    out->stored_h = (int)height;
    out->orientation = 1;
    return YZ_VISION_OK;
}

yz_vision_status yz_vision_write_png(const yz_vision_image *image, const char *path,
                                     yz_vision_error *err)
{
    FILE *file = fopen(path, "wb");
    if (!file) return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "%s", strerror(errno));
    png_source quiet = {NULL, 0, 0, 0, ""};
    png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &quiet, keep_error,
                                                ignore_warning, NULL, png_alloc, png_release);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        fclose(file);
        return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, path, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(file);
        if (strstr(quiet.message, "memory"))
            return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, path, "out of memory");
        return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "cannot write PNG (%s)", quiet.message);
    }
    png_init_io(png, file);
    png_set_compression_level(png, 3);
    png_set_IHDR(png, info, (png_uint_32)image->w, (png_uint_32)image->h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < image->h; y++)
        png_write_row(png, image->rgb + (size_t)y * image->w * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(file) != 0) return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "write error");
    return YZ_VISION_OK;
}
