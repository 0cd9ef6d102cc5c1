/* heic.c - HEIC (HEIF with HEVC, iPhones' default photo format) with libheif.
 *
 * libheif is opened with dlopen the first time a file starts like one ("ftyp" at byte 4), not
 * linked: it brings four video codecs (x265, libde265, dav1d, aom) whose loading and start-up
 * cost every JPEG read about 6 ms, a tenth of a 12 MP photo's whole read.
 *
 * libheif applies the file's own rotation and mirroring (the irot and imir boxes) while it
 * decodes, so the image comes out upright. The HEIF standard makes those boxes, not an EXIF
 * Orientation tag, say how to show the image, and iPhones write both in agreement: the EXIF
 * tag is not applied again (orientation 1). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <libheif/heif.h>

#include "internal.h"

/* The libheif functions used here, found once by name in libheif.so.1. */
#define HEIF_FUNCTIONS(X)                                                                          \
    X(heif_check_filetype)                                                                         \
    X(heif_context_alloc)                                                                          \
    X(heif_context_free)                                                                           \
    X(heif_context_read_from_memory_without_copy)                                                  \
    X(heif_context_get_primary_image_handle)                                                       \
    X(heif_image_handle_get_width)                                                                 \
    X(heif_image_handle_get_height)                                                                \
    X(heif_image_handle_release)                                                                   \
    X(heif_decode_image)                                                                           \
    X(heif_image_get_plane_readonly)                                                               \
    X(heif_image_get_primary_width)                                                                \
    X(heif_image_get_primary_height)                                                               \
    X(heif_image_release)

static struct {
#define HEIF_POINTER(name) __typeof__(name) *name;
    HEIF_FUNCTIONS(HEIF_POINTER)
#undef HEIF_POINTER
} heif;
static int heif_loaded;
static pthread_once_t heif_once = PTHREAD_ONCE_INIT;

static void load_libheif(void)
{
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define HEIF_FIND(name)                                                                            \
    if (!(*(void **)&heif.name = dlsym(library, #name))) return;
    HEIF_FUNCTIONS(HEIF_FIND)
#undef HEIF_FIND
    heif_loaded = 1; /* kept open: the process may read more HEICs */
}

static int have_libheif(void)
{
    pthread_once(&heif_once, load_libheif);
    return heif_loaded;
}

/* "ftyp" at byte 4 and a HEIF brand: what every HEIC file starts with. Without libheif a file
 * that starts so is still taken for HEIC, and decoding it says libheif is missing. */
int yz_vision_is_heic(const uint8_t *bytes, size_t n_bytes)
{
    if (n_bytes < 12 || memcmp(bytes + 4, "ftyp", 4) != 0) return 0;
    if (!have_libheif()) return 1;
    return heif.heif_check_filetype(bytes, n_bytes > 64 ? 64 : (int)n_bytes) != heif_filetype_no;
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
    if (!have_libheif())
        return yz_vision_fail(
            err, YZ_VISION_ERR_FORMAT, name,
            "HEIC needs libheif.so.1, which is not installed (apt install libheif1)");
    struct heif_context *context = heif.heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    yz_vision_status status = YZ_VISION_OK;
    char line[200];
    if (!context) return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, name, "out of memory");

    struct heif_error e =
        heif.heif_context_read_from_memory_without_copy(context, bytes, n_bytes, NULL);
    if (e.code == heif_error_Ok) e = heif.heif_context_get_primary_image_handle(context, &handle);
    if (e.code != heif_error_Ok) {
        status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, name, "not a readable HEIC file (%s)",
                                one_line(&e, line, sizeof line));
        goto done;
    }
    /* Refuse the size before the pixels are decoded and allocated. */
    status = yz_vision_check_size(heif.heif_image_handle_get_width(handle),
                                  heif.heif_image_handle_get_height(handle), name, err);
    if (status) goto done;
    e = heif.heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB,
                               NULL);
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
    const uint8_t *plane =
        heif.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int w = heif.heif_image_get_primary_width(image), h = heif.heif_image_get_primary_height(image);
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
    heif.heif_image_release(image);
    heif.heif_image_handle_release(handle);
    heif.heif_context_free(context);
    return status;
}
