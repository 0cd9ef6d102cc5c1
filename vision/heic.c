/* heic.c - HEIC (HEIF with HEVC, iPhones' default photo format) with libheif.
 *
 * libheif applies the file's own rotation and mirroring (the irot and imir boxes) while it
 * decodes, so the image comes out upright. The HEIF standard makes those boxes, not an EXIF
 * Orientation tag, say how to show the image, and iPhones write both in agreement: the EXIF
 * tag is not applied again (orientation 1). */
#include <stdio.h>
#include <string.h>

#include <libheif/heif.h>

#include "internal.h"

/* "ftyp" at byte 4 and a HEIF brand: what every HEIC file starts with. */
int yz_vision_is_heic(const uint8_t *bytes, size_t n_bytes)
{
    if (n_bytes < 12 || memcmp(bytes + 4, "ftyp", 4) != 0) return 0;
    return heif_check_filetype(bytes, n_bytes > 64 ? 64 : (int)n_bytes) != heif_filetype_no;
}

/* libheif's message as one line: some end in a newline, and a file's error is one line. */
static const char *one_line(const struct heif_error *e, char *line, size_t size)
{
    snprintf(line, size, "%s", e->message ? e->message : "unknown error");
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < ' ') *c = ' ';
    for (size_t n = strlen(line); n > 0 && line[n - 1] == ' '; n--)
        line[n - 1] = '\0';
    return line;
}

yz_vision_status yz_vision_decode_heic(const uint8_t *bytes, size_t n_bytes, const char *name,
                                       yz_vision_decoded *out, yz_vision_error *err)
{
    memset(out, 0, sizeof *out);
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    yz_vision_status status = YZ_VISION_OK;
    char line[200];
    if (!context) return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");

    struct heif_error e = heif_context_read_from_memory_without_copy(context, bytes, n_bytes, NULL);
    if (e.code == heif_error_Ok) e = heif_context_get_primary_image_handle(context, &handle);
    if (e.code != heif_error_Ok) {
        status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "not a readable HEIC file (%s)",
                                one_line(&e, line, sizeof line));
        goto done;
    }
    /* Refuse the size before the pixels are decoded and allocated. */
    status = yz_vision_check_size(heif_image_handle_get_width(handle),
                                  heif_image_handle_get_height(handle), name, err);
    if (status) goto done;
    e = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL);
    if (e.code == heif_error_Memory_allocation_error) {
        status = yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
        goto done;
    }
    if (e.code != heif_error_Ok) {
        status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "corrupt HEIC image (%s)",
                                one_line(&e, line, sizeof line));
        goto done;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int w = heif_image_get_primary_width(image), h = heif_image_get_primary_height(image);
    if (!plane || stride < 3 * w) {
        status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "corrupt HEIC image");
        goto done;
    }
    /* Checked again: the image libheif made is the one whose pixels get copied. */
    status = yz_vision_check_size(w, h, name, err);
    if (status) goto done;
    if (yz_vision_image_new(w, h, &out->image)) {
        status = yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");
        goto done;
    }
    for (int y = 0; y < h; y++)
        memcpy(out->image.rgb + (size_t)y * w * 3, plane + (size_t)y * stride, (size_t)w * 3);
    out->stored_w = w;
    out->stored_h = h;
    out->orientation = 1;
done:
    heif_image_release(image);
    heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}
