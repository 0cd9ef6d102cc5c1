/* test_vision_decode.c - photo loading: every JPEG and PNG flavour to the same RGB, EXIF
 * orientations 1-8 to the same upright pixels, limits refused before allocation, broken files
 * to clean one-line errors, a JPEG's scan decoded in parts to libjpeg's very pixels. Test
 * images are made here with libjpeg and libpng directly. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jpeglib.h>
#include <png.h>
#include <zlib.h>

#include "internal.h"
#include "vision.h"
#include "vision_testing.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif

/* ---- making test files ----------------------------------------------------------------- */

typedef struct {
    uint8_t *bytes;
    size_t size;
} buffer;

typedef enum { PLAIN, GRAY, CMYK_ADOBE, PROGRESSIVE } jpeg_kind;

/* An upright test picture: 16 px flat blocks of distinct colours, so JPEG keeps them. */
static void pattern_colour(int x, int y, uint8_t rgb[3])
{
    int block = (y / 16) * 7 + x / 16;
    rgb[0] = (uint8_t)(40 + (block * 67) % 200);
    rgb[1] = (uint8_t)(30 + (block * 113) % 210);
    rgb[2] = (uint8_t)(20 + (block * 29) % 220);
}

/* Where stored pixel (sx, sy) appears in the upright picture, from the EXIF 2.3 table that
 * says where the stored 0th row and 0th column are seen ("row 0 = visual right side", ...). */
static void visual_position(int orientation, int sw, int sh, int sx, int sy, int *vx, int *vy)
{
    switch (orientation) {
    case 1:
        *vx = sx;
        *vy = sy;
        break; /* row0 top,    col0 left */
    case 2:
        *vx = sw - 1 - sx;
        *vy = sy;
        break; /* row0 top,    col0 right */
    case 3:
        *vx = sw - 1 - sx;
        *vy = sh - 1 - sy;
        break; /* row0 bottom, col0 right */
    case 4:
        *vx = sx;
        *vy = sh - 1 - sy;
        break; /* row0 bottom, col0 left */
    case 5:
        *vx = sy;
        *vy = sx;
        break; /* row0 left,   col0 top */
    case 6:
        *vx = sh - 1 - sy;
        *vy = sx;
        break; /* row0 right,  col0 top */
    case 7:
        *vx = sh - 1 - sy;
        *vy = sw - 1 - sx;
        break; /* row0 right,  col0 bottom */
    default:
        *vx = sy;
        *vy = sw - 1 - sx;
        break; /* 8: row0 left, col0 bottom */
    }
}

/* An APP1 EXIF payload with one IFD entry: Orientation. */
static size_t exif_block(uint8_t *out, int orientation, int big_endian)
{
    static const uint8_t le[] = {'E',  'x',  'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0,
                                 0x12, 0x01, 3,   0,   1, 0, 0,   0,   0,  0, 0, 0, 0, 0, 0, 0};
    static const uint8_t be[] = {'E',  'x',  'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1,
                                 0x01, 0x12, 0,   3,   0, 0, 0,   1,   0, 0,  0, 0, 0, 0, 0, 0};
    memcpy(out, big_endian ? be : le, sizeof le);
    out[big_endian ? 25 : 24] = (uint8_t)orientation;
    return sizeof le;
}

/* A compressor into a buffer libjpeg grows: *out and *out_size once it has finished. */
static void start_memory_jpeg(struct jpeg_compress_struct *cinfo, struct jpeg_error_mgr *jerr,
                              unsigned char **out, unsigned long *out_size)
{
    cinfo->err = jpeg_std_error(jerr);
    jpeg_create_compress(cinfo);
    *out = NULL;
    *out_size = 0;
    jpeg_mem_dest(cinfo, out, out_size);
}

static buffer make_jpeg(jpeg_kind kind, int orientation, int big_endian)
{
    /* The stored picture: the upright 112x48 pattern turned so that EXIF turns it back. */
    int uw = 112, uh = 48;
    int sw = orientation >= 5 ? uh : uw, sh = orientation >= 5 ? uw : uh;
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    unsigned char *out;
    unsigned long out_size;
    start_memory_jpeg(&cinfo, &jerr, &out, &out_size);
    cinfo.image_width = (JDIMENSION)sw;
    cinfo.image_height = (JDIMENSION)sh;
    cinfo.input_components = kind == GRAY ? 1 : kind == CMYK_ADOBE ? 4 : 3;
    cinfo.in_color_space = kind == GRAY ? JCS_GRAYSCALE : kind == CMYK_ADOBE ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, 97, TRUE);
    for (int c = 0; c < cinfo.num_components; c++)
        cinfo.comp_info[c].h_samp_factor = cinfo.comp_info[c].v_samp_factor = 1;
    if (kind == PROGRESSIVE) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (orientation != 1) {
        uint8_t exif[64];
        size_t n = exif_block(exif, orientation, big_endian);
        jpeg_write_marker(&cinfo, JPEG_APP0 + 1, exif, (unsigned)n);
    }
    uint8_t row[4 * 112];
    for (int sy = 0; sy < sh; sy++) {
        for (int sx = 0; sx < sw; sx++) {
            int vx, vy;
            uint8_t rgb[3];
            visual_position(orientation, sw, sh, sx, sy, &vx, &vy);
            pattern_colour(vx, vy, rgb);
            if (kind == GRAY)
                row[sx] = rgb[1];
            else if (kind == CMYK_ADOBE) { /* Adobe's inverted CMYK: R = C * K / 255 */
                row[4 * sx] = rgb[0];
                row[4 * sx + 1] = rgb[1];
                row[4 * sx + 2] = rgb[2];
                row[4 * sx + 3] = 255;
            } else
                memcpy(row + 3 * sx, rgb, 3);
        }
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return (buffer){out, out_size};
}

typedef struct {
    buffer out;
} png_sink;

static void png_sink_write(png_structp png, png_bytep data, size_t length)
{
    png_sink *sink = png_get_io_ptr(png);
    sink->out.bytes = realloc(sink->out.bytes, sink->out.size + length);
    memcpy(sink->out.bytes + sink->out.size, data, length);
    sink->out.size += length;
}

static void png_sink_flush(png_structp png)
{
    (void)png;
}

typedef enum { PNG_RGB16, PNG_PALETTE, PNG_GRAY_ALPHA, PNG_RGBA, PNG_GRAY1 } png_kind;

/* A 112x48 PNG of the pattern (or, for 1-bit gray, of black and white blocks). */
static buffer make_png(png_kind kind)
{
    png_sink sink = {{NULL, 0}};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, &sink, png_sink_write, png_sink_flush);
    int w = 112, h = 48;
    int types[] = {PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_PALETTE, PNG_COLOR_TYPE_GRAY_ALPHA,
                   PNG_COLOR_TYPE_RGB_ALPHA, PNG_COLOR_TYPE_GRAY};
    int depths[] = {16, 8, 8, 8, 1};
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depths[kind], types[kind],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_color palette[21];
    if (kind == PNG_PALETTE) {
        for (int i = 0; i < 21; i++) {
            uint8_t rgb[3];
            pattern_colour((i % 7) * 16, (i / 7) * 16, rgb);
            palette[i] = (png_color){rgb[0], rgb[1], rgb[2]};
        }
        png_set_PLTE(png, info, palette, 21);
    }
    png_write_info(png, info);
    uint8_t row[112 * 8];
    for (int y = 0; y < h; y++) {
        memset(row, 0, sizeof row);
        for (int x = 0; x < w; x++) {
            uint8_t rgb[3];
            pattern_colour(x, y, rgb);
            switch (kind) {
            case PNG_RGB16:
                for (int c = 0; c < 3; c++)
                    row[6 * x + 2 * c] = row[6 * x + 2 * c + 1] = rgb[c];
                break;
            case PNG_PALETTE: row[x] = (uint8_t)((y / 16) * 7 + x / 16); break;
            case PNG_GRAY_ALPHA:
                row[2 * x] = rgb[1];
                row[2 * x + 1] = 255;
                break;
            case PNG_RGBA:
                memcpy(row + 4 * x, rgb, 3);
                row[4 * x + 3] = 255;
                break;
            case PNG_GRAY1:
                if (((x / 16) + (y / 16)) % 2) row[x / 8] |= (uint8_t)(0x80 >> (x % 8));
                break;
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return sink.out;
}

/* ---- checking pixels ----------------------------------------------------------------- */

/* Compares the centre of each 16 px block with the pattern (JPEG is lossy at the edges). */
static void assert_upright_pattern(const yz_vision_photo *photo, int gray, int tolerance)
{
    assert_int_equal(photo->image.w, 112);
    assert_int_equal(photo->image.h, 48);
    for (int y = 8; y < 48; y += 16)
        for (int x = 8; x < 112; x += 16) {
            uint8_t want[3];
            pattern_colour(x, y, want);
            const uint8_t *got = photo->image.rgb + ((size_t)y * 112 + x) * 3;
            for (int c = 0; c < 3; c++) {
                int expected = gray ? want[1] : want[c];
                if (abs(got[c] - expected) > tolerance)
                    fail_msg("pixel %d,%d channel %d: got %d, want %d", x, y, c, got[c], expected);
            }
        }
}

static void jpeg_flavours_decode_to_the_same_pixels(void **state)
{
    (void)state;
    static const struct {
        jpeg_kind kind;
        const char *what;
    } cases[] = {{PLAIN, "baseline"},
                 {GRAY, "grayscale"},
                 {CMYK_ADOBE, "Adobe CMYK"},
                 {PROGRESSIVE, "progressive"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buffer jpeg = make_jpeg(cases[i].kind, 1, 0);
        yz_vision_photo photo;
        yz_vision_error err;
        assert_int_equal(
            yz_vision_load_memory(jpeg.bytes, jpeg.size, cases[i].what, 0, &photo, &err),
            YZ_VISION_OK);
        assert_upright_pattern(&photo, cases[i].kind == GRAY, 10);
        assert_int_equal(photo.full_w, 112);
        yz_vision_photo_free(&photo);
        free(jpeg.bytes);
    }
}

static void every_exif_orientation_gives_the_same_upright_pixels(void **state)
{
    (void)state;
    for (int orientation = 1; orientation <= 8; orientation++)
        for (int big_endian = 0; big_endian <= 1; big_endian++) {
            buffer jpeg = make_jpeg(PLAIN, orientation, big_endian);
            yz_vision_photo photo;
            yz_vision_error err;
            assert_int_equal(yz_vision_load_memory(jpeg.bytes, jpeg.size, "o.jpg", 0, &photo, &err),
                             YZ_VISION_OK);
            assert_int_equal(photo.orientation, orientation);
            assert_int_equal(photo.full_w, 112);
            assert_int_equal(photo.full_h, 48);
            assert_upright_pattern(&photo, 0, 10);
            yz_vision_photo_free(&photo);
            free(jpeg.bytes);
        }
}

static void png_flavours_decode_to_8_bit_rgb(void **state)
{
    (void)state;
    for (png_kind kind = PNG_RGB16; kind <= PNG_GRAY1; kind++) {
        buffer png = make_png(kind);
        yz_vision_photo photo;
        yz_vision_error err;
        assert_int_equal(yz_vision_load_memory(png.bytes, png.size, "p.png", 0, &photo, &err),
                         YZ_VISION_OK);
        if (kind == PNG_GRAY1) {
            assert_int_equal(photo.image.rgb[0], 0);
            assert_int_equal(photo.image.rgb[16 * 3], 255);
            assert_int_equal(photo.image.rgb[16 * 3 + 2], 255);
        } else {
            assert_upright_pattern(&photo, kind == PNG_GRAY_ALPHA, 0);
        }
        yz_vision_photo_free(&photo);
        free(png.bytes);
    }
}

/* ---- limits and broken files ------------------------------------------------------------ */

/* Rewrites a JPEG's SOF dimensions. */
static void patch_sof(buffer *jpeg, int w, int h)
{
    for (size_t i = 2; i + 9 < jpeg->size; i++)
        if (jpeg->bytes[i] == 0xFF && (jpeg->bytes[i + 1] == 0xC0 || jpeg->bytes[i + 1] == 0xC2)) {
            jpeg->bytes[i + 5] = (uint8_t)(h >> 8);
            jpeg->bytes[i + 6] = (uint8_t)h;
            jpeg->bytes[i + 7] = (uint8_t)(w >> 8);
            jpeg->bytes[i + 8] = (uint8_t)w;
            return;
        }
    fail_msg("no SOF marker");
}

/* A PNG that is only a signature and an IHDR claiming w x h (with a correct CRC). */
static buffer png_header_only(uint32_t w, uint32_t h)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    buffer out = {malloc(33), 33};
    memcpy(out.bytes, signature, 8);
    uint8_t chunk[17] = {'I',
                         'H',
                         'D',
                         'R',
                         (uint8_t)(w >> 24),
                         (uint8_t)(w >> 16),
                         (uint8_t)(w >> 8),
                         (uint8_t)w,
                         (uint8_t)(h >> 24),
                         (uint8_t)(h >> 16),
                         (uint8_t)(h >> 8),
                         (uint8_t)h,
                         8,
                         2,
                         0,
                         0,
                         0};
    uint8_t length[4] = {0, 0, 0, 13};
    memcpy(out.bytes + 8, length, 4);
    memcpy(out.bytes + 12, chunk, 17);
    uint32_t crc = (uint32_t)crc32(0, chunk, 17);
    uint8_t crc_bytes[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8),
                            (uint8_t)crc};
    memcpy(out.bytes + 29, crc_bytes, 4);
    return out;
}

static void bomb_headers_are_refused_before_allocating(void **state)
{
    (void)state;
    static const struct {
        int png, w, h;
        const char *message;
    } cases[] = {
        {0, 60000, 60000, "bomb.jpg: 60000x60000 pixels has a side longer than the 20000 px limit"},
        {0, 10000, 10000, "bomb.jpg: 10000x10000 pixels is more than the 50 MP limit"},
        {0, 1, 60000, "bomb.jpg: 1x60000 pixels has a side longer than the 20000 px limit"},
        {1, 100000, 100000,
         "bomb.png: 100000x100000 pixels has a side longer than the 20000 px limit"},
        {1, 1, 1000000, "bomb.png: 1x1000000 pixels has a side longer than the 20000 px limit"},
        {1, 9000, 9000, "bomb.png: 9000x9000 pixels is more than the 50 MP limit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buffer file;
        if (cases[i].png) {
            file = png_header_only((uint32_t)cases[i].w, (uint32_t)cases[i].h);
        } else {
            file = make_jpeg(PLAIN, 1, 0);
            patch_sof(&file, cases[i].w, cases[i].h);
            /* The JPEG decoder's first allocation of ours is the pixels: make it fail, so a
             * limit checked too late would show up as "out of memory". */
            yz_vision_testing_fail_allocation(1);
        }
        yz_vision_photo photo;
        yz_vision_error err;
        yz_vision_status status = yz_vision_load_memory(
            file.bytes, file.size, cases[i].png ? "bomb.png" : "bomb.jpg", 0, &photo, &err);
        yz_vision_testing_fail_allocation(0);
        if (status != YZ_VISION_ERR_LIMIT) fail_msg("case %zu: %s", i, err.message);
        assert_string_equal(err.message, cases[i].message);
        free(file.bytes);
    }
}

static void broken_files_give_clean_errors(void **state)
{
    (void)state;
    buffer jpeg = make_jpeg(PLAIN, 1, 0), png = make_png(PNG_RGBA);
    uint8_t garbage[600];
    memcpy(garbage, jpeg.bytes, 40); /* a JPEG start, then noise */
    for (size_t i = 40; i < sizeof garbage; i++)
        garbage[i] = (uint8_t)(i * 7919 % 251);
    const char text[] = "this is not a photo\n";
    static const uint8_t empty[1] = {0};
    const struct {
        const uint8_t *bytes;
        size_t size;
        const char *name;
        const char *message;
    } cases[] = {
        {jpeg.bytes, jpeg.size / 2, "x.jpg", "x.jpg: truncated"},
        {png.bytes, png.size / 2, "x.png", "x.png: truncated"},
        {png.bytes, 20, "x.png", "x.png: truncated"},
        {jpeg.bytes, 3, "x.jpg", "x.jpg: "},
        {empty, 0, "zero.jpg", "zero.jpg: empty file"},
        {(const uint8_t *)text, sizeof text - 1, "photo.jpg",
         "photo.jpg: not a JPEG, PNG or HEIC file"},
        {garbage, sizeof garbage, "noise.jpg", "noise.jpg: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        yz_vision_photo photo;
        yz_vision_error err;
        yz_vision_status status =
            yz_vision_load_memory(cases[i].bytes, cases[i].size, cases[i].name, 0, &photo, &err);
        if (status == YZ_VISION_OK) fail_msg("case %zu (%s) loaded", i, cases[i].message);
        assert_int_equal(status, YZ_VISION_ERR_FORMAT);
        if (strncmp(err.message, cases[i].message, strlen(cases[i].message)) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, err.message, cases[i].message);
        assert_null(strchr(err.message, '\n'));
    }
    free(jpeg.bytes);
    free(png.bytes);
}

/* ---- the scan decoded in parts (vision/jpeg_split.c) ------------------------------------- */

typedef struct {
    int w, h;
    int chroma_halved; /* 4:2:0, else 4:4:4 */
    int quality, optimize, progressive;
    int restart_rows, restart_mcus; /* restart markers every so many MCU rows, or MCUs */
} split_case;

/* A wide strip, wide enough that it is read at 3/8, 2/8 or 1/8: busy noise on the left, where
 * every block has many coefficients, flat tiles on the right, where most have a DC alone. */
static buffer make_wide_jpeg(const split_case *c)
{
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    unsigned char *out;
    unsigned long out_size;
    start_memory_jpeg(&cinfo, &jerr, &out, &out_size);
    cinfo.image_width = (JDIMENSION)c->w;
    cinfo.image_height = (JDIMENSION)c->h;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, c->quality, TRUE);
    cinfo.optimize_coding = c->optimize ? TRUE : FALSE;
    cinfo.restart_in_rows = c->restart_rows;
    cinfo.restart_interval = (unsigned)c->restart_mcus;
    if (!c->chroma_halved) cinfo.comp_info[0].h_samp_factor = cinfo.comp_info[0].v_samp_factor = 1;
    if (c->progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    uint8_t *row = malloc((size_t)c->w * 3);
    assert_non_null(row);
    for (int y = 0; y < c->h; y++) {
        for (int x = 0; x < c->w; x++) {
            uint32_t noise = (uint32_t)(x * 73856093u) ^ (uint32_t)(y * 19349663u);
            noise = (noise ^ (noise >> 13)) * 0x5bd1e995u;
            for (int ch = 0; ch < 3; ch++)
                row[3 * x + ch] = x < c->w / 2
                                      ? (uint8_t)((x + 3 * y) * (ch + 1) + (noise >> (8 * ch)) % 90)
                                      : (uint8_t)(((x / 24) * 37 + (y / 24) * 53) * (ch + 2));
        }
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    free(row);
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return (buffer){out, out_size};
}

/* libjpeg's own decode at scale/8, RGB, the IDCT jpeg.c asks for. */
static uint8_t *libjpeg_pixels(const buffer *jpeg, int scale, int *w, int *h)
{
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, jpeg->bytes, jpeg->size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = (unsigned)scale;
    cinfo.scale_denom = 8;
    cinfo.out_color_space = JCS_RGB;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&cinfo);
    *w = (int)cinfo.output_width;
    *h = (int)cinfo.output_height;
    uint8_t *pixels = malloc((size_t)*w * (size_t)*h * 3);
    assert_non_null(pixels);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * (size_t)*w * 3;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return pixels;
}

/* Decodes as the reader does (the long side brought to 1000-1280) in n_parts (1: libjpeg);
 * says whether jpeg_split.c took it. */
static yz_vision_status decode_in_parts(const buffer *jpeg, int n_parts, yz_vision_decoded *out,
                                        yz_vision_error *err, int *split)
{
    yz_vision_testing_jpeg_parts(n_parts);
    long before = yz_vision_testing_jpeg_split_decodes();
    memset(out, 0, sizeof *out);
    yz_vision_status status =
        yz_vision_decode_jpeg(jpeg->bytes, jpeg->size, "wide.jpg", 1280, out, err);
    *split = yz_vision_testing_jpeg_split_decodes() > before;
    yz_vision_testing_jpeg_parts(0);
    return status;
}

static void split_scans_give_libjpegs_pixels(void **state)
{
    (void)state;
    static const split_case cases[] = {
        {4003, 157, 1, 90, 0, 0, 0, 0}, /* 4:2:0, partial MCUs on both edges */
        {4003, 157, 0, 95, 1, 0, 0, 0}, /* 4:4:4, optimised Huffman tables */
        {4000, 96, 1, 60, 1, 0, 0, 0},  {8005, 77, 1, 85, 0, 0, 0, 0}, /* read at 1/8 */
        {4003, 157, 1, 90, 0, 0, 1, 0}, /* restart markers every MCU row */
        {4003, 157, 0, 85, 1, 0, 0, 7}, /* every 7 MCUs, across rows */
        {3265, 97, 1, 90, 0, 0, 0, 0},  /* read at 3/8 (8 MP photos are) */
        {3265, 97, 0, 80, 1, 0, 0, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buffer jpeg = make_wide_jpeg(&cases[i]);
        int w, h;
        /* The scale jpeg.c picks: the smallest that keeps 1000 px, at most 1280. */
        int scale = cases[i].w > 8000 ? 1 : cases[i].w >= 4000 ? 2 : 3;
        uint8_t *want = libjpeg_pixels(&jpeg, scale, &w, &h);
        static const int parts[] = {2, 3, 8, 1};
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
            yz_vision_decoded got;
            yz_vision_error err;
            int split;
            assert_int_equal(decode_in_parts(&jpeg, parts[p], &got, &err, &split), YZ_VISION_OK);
            if (split != (parts[p] > 1))
                fail_msg("case %zu in %d parts: split %d", i, parts[p], split);
            assert_int_equal(got.image.w, w);
            assert_int_equal(got.image.h, h);
            if (memcmp(got.image.rgb, want, (size_t)w * (size_t)h * 3) != 0)
                fail_msg("case %zu in %d parts: pixels differ from libjpeg's", i, parts[p]);
            yz_vision_release(got.image.rgb);
        }
        free(want);
        free(jpeg.bytes);
    }
}

/* The IDCTs in 32-bit lanes give what libjpeg's 64-bit arithmetic gives, on random blocks: a
 * photo's, and blocks with every coefficient at the lanes' bound or up to four times past it,
 * signed row by row and column by column so that the passes' sums, over the blocks, come to
 * their largest. Past the bound the block must go to the 64-bit code. (A bound set too loose
 * overflows the lanes' second pass on these blocks, which UBSan reports in tools/test.sh.) */
static void lane_idcts_give_the_64_bit_pixels(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    long taken = 0, passed_on = 0;
    for (int size = 2; size <= 4; size += 2) {
        int bound = size == 2 ? 2048 : 1024;
        for (int i = 0; i < 200000; i++) {
            int16_t coef[64];
            uint16_t quant[64];
            int kind = i % 3, largest = 0;
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            unsigned row_signs = (unsigned)(seed >> 40) & 0xFF,
                     column_signs = (unsigned)(seed >> 48) & 0xFF;
            for (int k = 0; k < 64; k++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                uint32_t r = (uint32_t)(seed >> 32);
                quant[k] = (uint16_t)(1 + r % (kind == 0 ? 16 : 255));
                int value, negative;
                if (kind == 0) { /* a photo's: small, many of them zero */
                    value = (r >> 4) % 3 ? (int)((r >> 8) % 61) : 0;
                    negative = (int)(r >> 31);
                } else { /* at the bound, or past it */
                    int magnitude =
                        kind == 1 ? bound - 1 : bound + (int)((r >> 8) % (uint32_t)(3 * bound));
                    value = magnitude / quant[k];
                    negative = (int)((row_signs >> (k / 8) ^ column_signs >> (k % 8)) & 1);
                }
                coef[k] = (int16_t)(negative ? -value : value);
                int dequantized = abs(coef[k] * quant[k]);
                if (dequantized > largest) largest = dequantized;
            }
            uint8_t out[3][64];
            int lanes = yz_vision_testing_idct_paths(size, coef, quant, out);
            if (lanes < 0)
                fail_msg("size %d block %d: the two lane paths disagree on taking it", size, i);
            if (largest < 1024 && !lanes)
                fail_msg("size %d block %d: under the bound, not taken", size, i);
            if (lanes && (memcmp(out[1], out[0], 64) || memcmp(out[2], out[0], 64)))
                fail_msg("size %d block %d (largest %d): pixels differ", size, i, largest);
            if (lanes)
                taken++;
            else
                passed_on++;
        }
    }
    /* both ways were taken, often */
    assert_true(taken > 200000);
    assert_true(passed_on > 100000);
}

/* yz_vision_decode_cores caps the parts a scan is cut into: at one core libjpeg decodes it,
 * at two it is split again; the pixels are libjpeg's either way. */
static void decode_cores_cap_the_parts(void **state)
{
    (void)state;
    static const split_case plain = {4003, 157, 1, 90, 0, 0, 0, 0};
    buffer jpeg = make_wide_jpeg(&plain);
    int w, h;
    uint8_t *want = libjpeg_pixels(&jpeg, 2, &w, &h);
    static const struct {
        int cores, split;
    } caps[] = {{1, 0}, {2, 1}, {0, 1}};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        yz_vision_decode_cores(caps[i].cores);
        yz_vision_decoded got;
        yz_vision_error err;
        int split;
        assert_int_equal(decode_in_parts(&jpeg, 3, &got, &err, &split), YZ_VISION_OK);
        if (split != caps[i].split)
            fail_msg("%d cores allowed: split %d, expected %d", caps[i].cores, split,
                     caps[i].split);
        assert_int_equal(memcmp(got.image.rgb, want, (size_t)w * (size_t)h * 3), 0);
        yz_vision_release(got.image.rgb);
    }
    yz_vision_decode_cores(0);
    free(want);
    free(jpeg.bytes);
}

/* Kinds it does not take, and broken scans, go to libjpeg and come out as libjpeg gives them. */
static void split_scans_leave_the_rest_to_libjpeg(void **state)
{
    (void)state;
    static const split_case progressive = {4003, 157, 1, 90, 0, 1, 0, 0},
                            plain = {4003, 157, 1, 90, 0, 0, 0, 0},
                            restarts = {4003, 157, 1, 90, 0, 0, 1, 0};
    buffer jpeg = make_wide_jpeg(&progressive);
    yz_vision_decoded got;
    yz_vision_error err;
    int split;
    assert_int_equal(decode_in_parts(&jpeg, 3, &got, &err, &split), YZ_VISION_OK);
    assert_false(split);
    yz_vision_release(got.image.rgb);
    free(jpeg.bytes);

    const split_case *kinds[] = {&plain, &restarts};
    for (size_t kind = 0; kind < 2; kind++) {
        jpeg = make_wide_jpeg(kinds[kind]);
        /* Cut in the scan; a run of bytes in it replaced; a restart marker out of its turn. */
        buffer cut = {jpeg.bytes, jpeg.size * 2 / 3};
        buffer damaged = {malloc(jpeg.size), jpeg.size},
               renumbered = {malloc(jpeg.size), jpeg.size};
        assert_non_null(damaged.bytes);
        assert_non_null(renumbered.bytes);
        memcpy(damaged.bytes, jpeg.bytes, jpeg.size);
        memcpy(renumbered.bytes, jpeg.bytes, jpeg.size);
        for (size_t k = 0; k < 40; k++)
            damaged.bytes[jpeg.size / 2 + k] = (uint8_t)(k * 37 % 255);
        for (size_t k = jpeg.size / 2; k + 1 < jpeg.size; k++)
            if (renumbered.bytes[k] == 0xFF && (renumbered.bytes[k + 1] & 0xF8) == 0xD0) {
                renumbered.bytes[k + 1] ^= 0x03;
                break;
            }
        const buffer *broken[] = {&cut, &damaged, &renumbered};
        for (size_t i = 0; i < 3; i++) {
            yz_vision_decoded by_parts, by_libjpeg;
            yz_vision_error err_parts, err_libjpeg;
            yz_vision_status parts = decode_in_parts(broken[i], 3, &by_parts, &err_parts, &split);
            yz_vision_status whole =
                decode_in_parts(broken[i], 1, &by_libjpeg, &err_libjpeg, &split);
            if (parts != whole)
                fail_msg("kind %zu, case %zu: %d against %d", kind, i, parts, whole);
            if (parts == YZ_VISION_OK) {
                if (memcmp(by_parts.image.rgb, by_libjpeg.image.rgb,
                           (size_t)by_parts.image.w * (size_t)by_parts.image.h * 3) != 0)
                    fail_msg("kind %zu, case %zu: pixels differ from libjpeg's", kind, i);
                yz_vision_release(by_parts.image.rgb);
                yz_vision_release(by_libjpeg.image.rgb);
            } else {
                assert_string_equal(err_parts.message, err_libjpeg.message);
            }
        }
        free(damaged.bytes);
        free(renumbered.bytes);
        free(jpeg.bytes);
    }
}

/* The split decoder's fuzz seeds and every input its fuzzer ever crashed on
 * (tests/fuzz/corpus), decoded in three parts: each ends in pixels or a clean error, and the
 * sanitizer passes of tools/test.sh see that nothing is read or written out of bounds. */
static void split_scans_take_what_the_fuzzer_found(void **state)
{
    (void)state;
    static const char *const folders[] = {YZ_FUZZ_CORPUS "/fuzz_jpeg_split",
                                          YZ_FUZZ_CORPUS "/regressions"};
    int replayed = 0;
    for (size_t f = 0; f < 2; f++) {
        DIR *dir = opendir(folders[f]);
        assert_non_null(dir);
        for (struct dirent *entry; (entry = readdir(dir));) {
            if (f == 1 && strncmp(entry->d_name, "fuzz_jpeg_split-", 16) != 0) continue;
            if (entry->d_name[0] == '.') continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", folders[f], entry->d_name);
            uint8_t *bytes;
            size_t size;
            yz_vision_error err;
            assert_int_equal(yz_vision_read_whole_file(path, &bytes, &size, &err), YZ_VISION_OK);
            yz_vision_testing_jpeg_parts(3);
            yz_vision_photo photo;
            yz_vision_status status = yz_vision_load_memory(bytes, size, path, 0, &photo, &err);
            yz_vision_testing_jpeg_parts(0);
            if (status == YZ_VISION_OK)
                yz_vision_photo_free(&photo);
            else
                assert_null(strchr(err.message, '\n'));
            yz_vision_release(bytes);
            replayed++;
        }
        closedir(dir);
    }
    assert_true(replayed >= 3);
}

static void missing_file_names_the_file(void **state)
{
    (void)state;
    yz_vision_photo photo;
    yz_vision_error err;
    assert_int_equal(yz_vision_load_file("no/such/photo.jpg", 0, &photo, &err), YZ_VISION_ERR_IO);
    assert_string_equal(err.message, "no/such/photo.jpg: No such file or directory");
}

/* Every prefix, and every single-byte corruption, of a valid EXIF block: never read outside
 * it (ASan watches: each copy is exactly as long as the block), and only ever answer 1..8.
 * Then the same corruptions inside a JPEG, which must still load. */
static void malformed_exif_is_ignored_safely(void **state)
{
    (void)state;
    for (int big_endian = 0; big_endian <= 1; big_endian++) {
        uint8_t block[64];
        size_t size = exif_block(block, 6, big_endian);
        for (size_t cut = 0; cut <= size; cut++) {
            uint8_t *copy = malloc(cut ? cut : 1);
            memcpy(copy, block, cut);
            int orientation = yz_vision_exif_orientation(copy, cut);
            assert_int_equal(orientation, cut >= 26 ? 6 : 1);
            free(copy);
        }
        for (size_t at = 0; at < size; at++)
            for (int value = 0; value < 256; value += 17) {
                uint8_t *bad = malloc(size);
                memcpy(bad, block, size);
                bad[at] = (uint8_t)value;
                int orientation = yz_vision_exif_orientation(bad, size);
                assert_in_range(orientation, 1, 8);
                free(bad);
            }
    }
    /* Offsets pointing past the end, and a directory claiming 65535 entries. */
    uint8_t block[64];
    size_t size = exif_block(block, 6, 0);
    block[10] = 0xF0; /* IFD0 offset far past the block */
    assert_int_equal(yz_vision_exif_orientation(block, size), 1);
    size = exif_block(block, 6, 0);
    block[14] = 0xFF;
    block[15] = 0xFF;
    block[16] = 0;
    block[17] = 0; /* 65535 entries, tag 0 */
    assert_int_equal(yz_vision_exif_orientation(block, size), 1);
}

int main(void)
{
#ifdef RUNNING_ON_VALGRIND
    /* libjpeg's SIMD scaled IDCTs read vector lanes valgrind cannot prove defined, though the
     * pixels come out the same as its C code's: under valgrind that is the reference. */
    if (RUNNING_ON_VALGRIND) setenv("JSIMD_FORCENONE", "1", 1);
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jpeg_flavours_decode_to_the_same_pixels),
        cmocka_unit_test(every_exif_orientation_gives_the_same_upright_pixels),
        cmocka_unit_test(png_flavours_decode_to_8_bit_rgb),
        cmocka_unit_test(bomb_headers_are_refused_before_allocating),
        cmocka_unit_test(broken_files_give_clean_errors),
        cmocka_unit_test(missing_file_names_the_file),
        cmocka_unit_test(malformed_exif_is_ignored_safely),
        cmocka_unit_test(split_scans_give_libjpegs_pixels),
        cmocka_unit_test(lane_idcts_give_the_64_bit_pixels),
        cmocka_unit_test(decode_cores_cap_the_parts),
        cmocka_unit_test(split_scans_leave_the_rest_to_libjpeg),
        cmocka_unit_test(split_scans_take_what_the_fuzzer_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
