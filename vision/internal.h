/* internal.h - what the parts of libyzvision share and nobody else sees. */
#ifndef YZ_VISION_INTERNAL_H
#define YZ_VISION_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "vision.h"

void *yz_vision_alloc(size_t size);
void yz_vision_release(void *ptr);

/* Fills err with "name: <formatted problem>" and returns code. */
yz_vision_status yz_vision_fail(yz_vision_error *err, yz_vision_status code, const char *name,
                                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Refuses a header size before anything is allocated for it. */
yz_vision_status yz_vision_check_size(long w, long h, const char *name, yz_vision_error *err);

/* The area boxes a and b share, each (x, y, w, h): its top-left corner and its size. */
static inline double yz_vision_common_area(const double a[4], const double b[4])
{
    double w = fmin(a[0] + a[2], b[0] + b[2]) - fmax(a[0], b[0]);
    double h = fmin(a[1] + a[3], b[1] + b[3]) - fmax(a[1], b[1]);
    return w > 0 && h > 0 ? w * h : 0;
}

/* The share of box a (x, y, w, h) that lies inside box b. */
static inline double yz_vision_inside_share(const double a[4], const double b[4])
{
    double area = a[2] * a[3];
    return area > 0 ? yz_vision_common_area(a, b) / area : 0;
}

/* Working-size target when the caller passes 0, and the floor a JPEG's 1/8 steps keep. */
#define YZ_VISION_DEFAULT_LONG_SIDE 1280
#define YZ_VISION_MIN_LONG_SIDE 1000

/* A decoder's output before orientation: RGB, packed rows, plus what EXIF said. */
typedef struct {
    yz_vision_image image;
    int stored_w, stored_h; /* the full size as stored (before orientation) */
    int orientation;        /* 1..8 */
} yz_vision_decoded;

yz_vision_status yz_vision_decode_jpeg(const uint8_t *bytes, size_t n_bytes, const char *name,
                                       int max_long_side, yz_vision_decoded *out,
                                       yz_vision_error *err);
/* jpeg_split.c: the scan of a baseline 4:2:0 or 4:4:4 YCbCr JPEG scaled to 1/8 to 3/8, decoded
 * on every core into rgb (cinfo's output size), the same pixels libjpeg gives. cinfo has read
 * the header and calculated the output size; the scan's bytes follow. 0 when the file is not of
 * that kind or its data are off in any way: libjpeg then decodes it and says what is wrong. */
struct jpeg_decompress_struct;
int yz_vision_jpeg_split_decode(struct jpeg_decompress_struct *cinfo, const uint8_t *scan,
                                size_t n_scan, uint8_t *rgb);
/* jpeg_idct.c: libjpeg's scaled IDCTs and YCbCr to RGB, integer for integer, for jpeg_split.c.
 * prepare once before the others (its tables). The coefficients (natural order) the IDCT of
 * size (1, 2, 3, 4 or 6) reads, a bit each; a block (natural order, quantised, with its table) to
 * size x size pixels, rows stride apart, dc_only when nothing but coef[0] can be nonzero; one
 * row of full-size YCbCr planes to packed RGB. */
void yz_vision_idct_prepare(void);
uint64_t yz_vision_idct_reads(int size);
void yz_vision_idct_scaled(int size, const int16_t coef[64], const uint16_t quant[64], int dc_only,
                           uint8_t *out, size_t stride);
void yz_vision_ycc_row_to_rgb(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, int width,
                              uint8_t *rgb);
yz_vision_status yz_vision_decode_png(const uint8_t *bytes, size_t n_bytes, const char *name,
                                      yz_vision_decoded *out, yz_vision_error *err);
/* HEIC comes out upright and at full size (orientation 1): HEVC has no cheap scaled decode. */
int yz_vision_is_heic(const uint8_t *bytes, size_t n_bytes);
yz_vision_status yz_vision_decode_heic(const uint8_t *bytes, size_t n_bytes, const char *name,
                                       yz_vision_decoded *out, yz_vision_error *err);

/* The EXIF Orientation (1..8) in an APP1 payload (starting at "Exif\0\0"); 1 when the block
 * is absent, malformed or says something out of range. Never reads outside [data, data+n). */
int yz_vision_exif_orientation(const uint8_t *data, size_t n_bytes);

/* A regular file's whole contents (at most YZ_VISION_MAX_FILE_BYTES), released by the caller
 * with yz_vision_release. */
yz_vision_status yz_vision_read_whole_file(const char *path, uint8_t **bytes, size_t *n_bytes,
                                           yz_vision_error *err);

/* New image of w x h (uninitialised pixels); NULL data on failure. */
yz_vision_status yz_vision_image_new(int w, int h, yz_vision_image *image);
void yz_vision_image_free(yz_vision_image *image);

/* Replaces *image by its upright version for EXIF orientation 1..8. */
yz_vision_status yz_vision_apply_orientation(yz_vision_image *image, int orientation);

/* Replaces *image by a box-filtered copy shrunk by an integer factor. */
yz_vision_status yz_vision_shrink(yz_vision_image *image, int factor);

double yz_vision_now_ms(void);

/* The models directory to load from: chosen when set, else $YARDZEE_MODELS, else found from
 * the running program's location (models_dir.c). May return buf, filled. */
const char *yz_vision_models_dir(const char *chosen, char *buf, size_t size);

#endif
