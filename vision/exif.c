/* exif.c - the Orientation tag of an EXIF APP1 block, read with every offset bounds-checked.
 * EXIF is written by cameras and edited by anything; a malformed block is ignored (orientation
 * 1), never trusted. */
#include <string.h>

#include "internal.h"

#define TAG_ORIENTATION 0x0112
#define TYPE_SHORT 3

typedef struct {
    const uint8_t *tiff; /* the TIFF header; offsets in EXIF count from here */
    size_t size;
    int big_endian;
} tiff_view;

static int read_u16(const tiff_view *t, size_t at, unsigned *value)
{
    if (at > t->size || t->size - at < 2) return 0;
    const uint8_t *p = t->tiff + at;
    *value = t->big_endian ? (unsigned)(p[0] << 8 | p[1]) : (unsigned)(p[1] << 8 | p[0]);
    return 1;
}

static int read_u32(const tiff_view *t, size_t at, unsigned long *value)
{
    if (at > t->size || t->size - at < 4) return 0;
    const uint8_t *p = t->tiff + at;
    if (t->big_endian)
        *value =
            (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
    else
        *value =
            (unsigned long)p[3] << 24 | (unsigned long)p[2] << 16 | (unsigned long)p[1] << 8 | p[0];
    return 1;
}

int yz_vision_exif_orientation(const uint8_t *data, size_t n_bytes)
{
    static const uint8_t exif_id[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (!data || n_bytes < 6 + 8 || memcmp(data, exif_id, 6) != 0) return 1;
    tiff_view t = {data + 6, n_bytes - 6, 0};
    if (t.tiff[0] == 'M' && t.tiff[1] == 'M')
        t.big_endian = 1;
    else if (!(t.tiff[0] == 'I' && t.tiff[1] == 'I'))
        return 1;
    unsigned magic;
    unsigned long ifd0;
    if (!read_u16(&t, 2, &magic) || magic != 42 || !read_u32(&t, 4, &ifd0)) return 1;
    unsigned n_entries;
    if (ifd0 > t.size || !read_u16(&t, (size_t)ifd0, &n_entries)) return 1;
    for (unsigned i = 0; i < n_entries; i++) {
        size_t entry = (size_t)ifd0 + 2 + (size_t)i * 12;
        unsigned tag, type, value;
        unsigned long count;
        if (!read_u16(&t, entry, &tag) || !read_u16(&t, entry + 2, &type) ||
            !read_u32(&t, entry + 4, &count))
            return 1; /* the directory runs past the block */
        if (tag != TAG_ORIENTATION) continue;
        if (type != TYPE_SHORT || count != 1 || !read_u16(&t, entry + 8, &value)) return 1;
        return value >= 1 && value <= 8 ? (int)value : 1;
    }
    return 1;
}
