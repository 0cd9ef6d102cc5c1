/* jpeg.c - JPEG to RGB with libjpeg-turbo, scaled in the DCT domain straight to working size.
 *
 * Decoding a 12 MP photo and then shrinking it costs four times the work of asking the IDCT
 * for 1/4 of the size; scale_num/scale_denom do that. libjpeg reports errors by calling
 * error_exit, which here longjmps back to decode with the message; warnings are kept quiet
 * (a library never prints) except "premature end of data", which means a truncated file. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "internal.h"

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    int truncated;
    char message[JMSG_LENGTH_MAX];
} quiet_errors;

static void escape_on_error(j_common_ptr cinfo)
{
    quiet_errors *errors = (quiet_errors *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, errors->message);
    longjmp(errors->escape, 1);
}

static void note_warning(j_common_ptr cinfo, int msg_level)
{
    quiet_errors *errors = (quiet_errors *)cinfo->err;
    if (msg_level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) errors->truncated = 1;
}

static void stay_quiet(j_common_ptr cinfo)
{
    (void)cinfo;
}

/* libjpeg's error manager for decoding and encoding: quiet, escaping to errors->escape. */
static struct jpeg_error_mgr *quiet_error_manager(quiet_errors *errors)
{
    memset(errors, 0, sizeof *errors);
    struct jpeg_error_mgr *manager = jpeg_std_error(&errors->base);
    errors->base.error_exit = escape_on_error;
    errors->base.emit_message = note_warning;
    errors->base.output_message = stay_quiet;
    return manager;
}

/* The eighths to decode at: the smallest scale that keeps YZ_VISION_MIN_LONG_SIDE, unless
 * max_long_side is already met at a larger one. Never more than 8/8: no upscaling. */
static int choose_eighths(long long_side, int max_long_side)
{
    for (int eighths = 8; eighths >= 1; eighths--) {
        long scaled = (long_side * eighths + 7) / 8;
        if (scaled <= max_long_side) {
            /* Too small for the pips? Go back up one step if the full size allows. */
            while (eighths < 8 && (long_side * eighths + 7) / 8 < YZ_VISION_MIN_LONG_SIDE)
                eighths++;
            return eighths;
        }
    }
    return 1;
}

/* CMYK as Adobe writes it (inverted, saw_Adobe_marker) or as the standard says. */
static void cmyk_row_to_rgb(const uint8_t *cmyk, uint8_t *rgb, int width, int adobe_inverted)
{
    for (int x = 0; x < width; x++) {
        int c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!adobe_inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgb[3 * x] = (uint8_t)((c * k + 127) / 255);
        rgb[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgb[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
    }
}

static int orientation_from_markers(j_decompress_ptr cinfo)
{
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1) {
            int orientation = yz_vision_exif_orientation(m->data, m->data_length);
            if (orientation != 1) return orientation;
        }
    return 1;
}

yz_vision_status yz_vision_decode_jpeg(const uint8_t *bytes, size_t n_bytes, const char *name,
                                       int max_long_side, yz_vision_decoded *out,
                                       yz_vision_error *err)
{
    struct jpeg_decompress_struct cinfo;
    quiet_errors errors;
    cinfo.err = quiet_error_manager(&errors);
    /* volatile: these change between setjmp and a longjmp back to it. */
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile cmyk_row = NULL;
    volatile yz_vision_status status = YZ_VISION_OK;
    if (setjmp(errors.escape)) {
        jpeg_destroy_decompress(&cinfo);
        yz_vision_release(pixels);
        yz_vision_release(cmyk_row);
        if (status != YZ_VISION_OK) return status;
        if (errors.truncated || strstr(errors.message, "end of"))
            return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "truncated");
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "corrupt JPEG (%s)", errors.message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, bytes, (unsigned long)n_bytes);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);

    /* Limits before anything is allocated for the pixels. */
    if (yz_vision_check_size((long)cinfo.image_width, (long)cinfo.image_height, name, err)) {
        status = err ? err->code : YZ_VISION_ERR_LIMIT;
        longjmp(errors.escape, 1);
    }
    out->stored_w = (int)cinfo.image_width;
    out->stored_h = (int)cinfo.image_height;
    out->orientation = orientation_from_markers(&cinfo);

    long long_side =
        cinfo.image_width > cinfo.image_height ? cinfo.image_width : cinfo.image_height;
    cinfo.scale_num = (unsigned)choose_eighths(long_side, max_long_side);
    cinfo.scale_denom = 8;
    int is_cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = is_cmyk ? JCS_CMYK : JCS_RGB;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_calc_output_dimensions(&cinfo);

    int width = (int)cinfo.output_width, height = (int)cinfo.output_height;
    pixels = yz_vision_alloc((size_t)width * (size_t)height * 3);
    if (is_cmyk) cmyk_row = yz_vision_alloc((size_t)width * 4);
    if (!pixels || (is_cmyk && !cmyk_row)) {
        status = yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
        longjmp(errors.escape, 1);
    }
    /* A phone's photo: its scan undone on every core (jpeg_split.c); else libjpeg's loop. */
    if (!is_cmyk && yz_vision_jpeg_split_decode(&cinfo, cinfo.src->next_input_byte,
                                                cinfo.src->bytes_in_buffer, pixels)) {
        jpeg_destroy_decompress(&cinfo);
        out->image.w = width;
        out->image.h = height;
        out->image.rgb = pixels;
        return YZ_VISION_OK;
    }
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *row = pixels + (size_t)cinfo.output_scanline * (size_t)width * 3;
        JSAMPROW target = is_cmyk ? cmyk_row : row;
        jpeg_read_scanlines(&cinfo, &target, 1);
        if (is_cmyk) cmyk_row_to_rgb(cmyk_row, row, width, cinfo.saw_Adobe_marker);
        if (errors.truncated) longjmp(errors.escape, 1);
    }
    jpeg_finish_decompress(&cinfo);
    if (errors.truncated) longjmp(errors.escape, 1);
    jpeg_destroy_decompress(&cinfo);
    yz_vision_release(cmyk_row);
    out->image.w = width;
    out->image.h = height;
    out->image.rgb = pixels;
    return YZ_VISION_OK;
}

yz_vision_status yz_vision_write_jpeg(const yz_vision_image *image, const char *path, int quality,
                                      yz_vision_error *err)
{
    FILE *volatile file = fopen(path, "wb");
    if (!file) return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "%s", strerror(errno));
    struct jpeg_compress_struct cinfo;
    quiet_errors errors;
    cinfo.err = quiet_error_manager(&errors);
    if (setjmp(errors.escape)) {
        jpeg_destroy_compress(&cinfo);
        fclose(file);
        return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "cannot write JPEG (%s)",
                              errors.message);
    }
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, file);
    cinfo.image_width = (JDIMENSION)image->w;
    cinfo.image_height = (JDIMENSION)image->h;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = image->rgb + (size_t)cinfo.next_scanline * (size_t)image->w * 3;
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    if (fclose(file) != 0) return yz_vision_fail(err, YZ_VISION_ERR_IO, path, "write error");
    return YZ_VISION_OK;
}
