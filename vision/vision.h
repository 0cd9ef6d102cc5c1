/* vision.h - libyzvision: a photo of yard dice in, the values of their top faces out.
 *
 * What it promises:
 * - Pure C API. Never prints, never exits, keeps no mutable globals (except the test-only
 *   allocation hook in vision_testing.h). Every function that can fail returns a
 *   yz_vision_status and fills a yz_vision_error whose message names the file and the problem,
 *   e.g. "photo.jpg: not a JPEG or PNG file", "x.png: truncated",
 *   "big.jpg: 100000x100000 pixels is more than the 50 MP limit".
 * - Photos are JPEG (baseline, progressive, grayscale, CMYK/YCCK) or PNG (any bit depth,
 *   palette, alpha, grayscale). The EXIF Orientation tag is applied, so every coordinate this
 *   library returns is in the upright photo at its full stored resolution.
 * - Limits are checked before memory is asked for: YZ_VISION_MAX_FILE_BYTES,
 *   YZ_VISION_MAX_PIXELS and YZ_VISION_MAX_SIDE (see below).
 * - Reading dice is honest: a photo is "ok" only when the expected number of dice was found
 *   and every top face was read with confidence; otherwise it is "refused" with a reason.
 *   A refusal is not an error: the call returns YZ_VISION_OK and result->status says so.
 */
#ifndef YZ_VISION_H
#define YZ_VISION_H

#include <stddef.h>
#include <stdint.h>

/* Limits. A bigger file, more pixels in the header, or a longer side is refused. */
#define YZ_VISION_MAX_FILE_BYTES (64u * 1024u * 1024u)
#define YZ_VISION_MAX_PIXELS 50000000L /* 50 MP: 12 MP phones with room to spare */
#define YZ_VISION_MAX_SIDE 20000       /* also rules out 1 x 1000000 strips */
#define YZ_VISION_MAX_DICE 32

typedef enum {
    YZ_VISION_OK = 0,
    YZ_VISION_ERR_USAGE = 1,    /* a bad argument (NULL path, unknown option value) */
    YZ_VISION_ERR_IO = 2,       /* the file cannot be opened or read, or cannot be written */
    YZ_VISION_ERR_FORMAT = 3,   /* not a JPEG or PNG, truncated, corrupt */
    YZ_VISION_ERR_LIMIT = 4,    /* beyond one of the limits above */
    YZ_VISION_ERR_NOMEM = 5,    /* an allocation failed */
    YZ_VISION_ERR_INTERNAL = 6, /* an OpenCV primitive failed */
} yz_vision_status;

typedef struct {
    yz_vision_status code;
    char message[256];
} yz_vision_error;

/* ---- photos ---------------------------------------------------------------------------- */

/* An 8-bit RGB image, rows packed (stride = 3 * w). Owned by whoever holds it. */
typedef struct {
    int w, h;
    uint8_t *rgb;
} yz_vision_image;

/* A decoded photo, upright, at a working size chosen from its full size. */
typedef struct {
    yz_vision_image image; /* the working-size pixels, upright */
    int full_w, full_h;    /* the upright photo at its stored resolution */
    int orientation;       /* EXIF Orientation that was applied (1 when absent or malformed) */
} yz_vision_photo;

/* Decodes a JPEG, PNG or HEIC file to RGB, applies EXIF orientation (HEIC: its own irot and
 * imir boxes, which the HEIF standard puts before EXIF), and brings the long side down to about
 * max_long_side (0: the default, 1280). JPEGs are scaled while decoding, in steps of 1/8 (a
 * 4000x3000 photo decodes at 1000x750), never below a 1000 px long side when the photo has
 * more; PNGs and HEICs are shrunk by a whole factor after decoding. Never upscales. On success
 * the caller frees with yz_vision_photo_free. */
yz_vision_status yz_vision_load_file(const char *path, int max_long_side, yz_vision_photo *photo,
                                     yz_vision_error *err);
/* The same from bytes in memory; name is only used in error messages. */
yz_vision_status yz_vision_load_memory(const uint8_t *bytes, size_t n_bytes, const char *name,
                                       int max_long_side, yz_vision_photo *photo,
                                       yz_vision_error *err);
void yz_vision_photo_free(yz_vision_photo *photo);
/* Whether the bytes start like a file yz_vision_load_memory can decode (JPEG, PNG or HEIC). */
int yz_vision_is_photo(const uint8_t *bytes, size_t n_bytes);

/* ---- reading dice ---------------------------------------------------------------------- */

/* The learned nets, loaded once for many reads (loading costs about 15 ms a read). One
 * thread at a time may read with a set: give each worker thread its own. */
typedef struct yz_vision_nets yz_vision_nets;

/* Loads the nets from models_dir (NULL: as yz_vision_options.models_dir says). */
yz_vision_status yz_vision_nets_load(const char *models_dir, yz_vision_nets **nets,
                                     yz_vision_error *err);
void yz_vision_nets_free(yz_vision_nets *nets);

/* For a program that reads many photos (batch, serve, eval, a benchmark): asks the C library's
 * allocator to keep the memory a read frees for the next read, instead of handing it back to
 * the kernel and faulting it in again page by page. The process then holds on to its peak use
 * (tens of MB for a 12 MP photo). Call it once at startup; it changes the whole process. */
void yz_vision_reuse_memory(void);

/* How many cores one JPEG decode may use from now on (0, the default: every core the process
 * may run on). A program that reads as many photos at once as there are cores (batch) gives 1:
 * each decode then runs on its own core, and none pays for splitting its scan among cores that
 * are busy with the other photos. It changes the whole process. */
void yz_vision_decode_cores(int n_cores);

typedef struct {
    int expect;        /* number of dice that must be found, 5 by default; 0 = any number */
    int max_long_side; /* working size, 0 = default */
    /* Directory holding dice_detector.onnx, second_detector.onnx, top_reader.onnx,
     * top_face.onnx, face_reader.onnx and die_or_not.onnx (the learned nets, see
     * tools/train_reader.py, tools/train_top_face.py, tools/train_face_reader.py and
     * tools/train_die_or_not.py) and pipeline.json (the sizes they were trained with). NULL:
     * $YARDZEE_MODELS when set, else share/yardzee/models beside the running program's bin/
     * (installed), else models/ in or above its folder (the build tree's link to the source
     * models). Loading the nets also reads $YARDZEE_TUNE, for threshold sweeps only
     * (tools/sweep_thresholds.sh): NAME=VALUE,... changes the reader's thresholds. */
    const char *models_dir;
    yz_vision_nets *nets; /* loaded nets to read with; NULL: load them for this one read */
} yz_vision_options;

/* Options as the CLI uses them by default: expect 5. */
yz_vision_options yz_vision_default_options(void);

typedef struct {
    int value;         /* 1..6, or 0 when the top face could not be read */
    double confidence; /* 0..1; below the reader's threshold the die is "uncertain" */
    int certain;       /* value is trusted */
    int box[4];        /* x, y, w, h of the whole die, full-size upright pixels */
    double top[4][2];  /* the corners of its top face, clockwise on screen, full-size
                          upright pixels (meaningful when value > 0) */
    int top_completed; /* part of the top face lay outside the photo and was read
                          through its twin across the face's centre */
} yz_vision_die;

typedef enum { YZ_VISION_READ_OK = 0, YZ_VISION_READ_REFUSED = 1 } yz_vision_read_status;

typedef struct {
    yz_vision_read_status status;
    char reason[200];     /* empty when ok; one sentence saying why when refused */
    const char *retake;   /* when refused: how to take a photo that reads, one sentence (a
                             string constant); NULL when ok */
    int image_w, image_h; /* full-size upright */
    int n_dice;           /* dice found, sorted left to right by box centre */
    yz_vision_die dice[YZ_VISION_MAX_DICE];
    int roll[YZ_VISION_MAX_DICE]; /* the values, in the same order; meaningful when ok */
    /* Stage timings in milliseconds, for benchmarks (ms_load: 0 when the nets were given). */
    double ms_decode, ms_load, ms_detect, ms_read;
} yz_vision_result;

/* Reads the dice in the photo at path. Returns an error only when the photo or the models
 * cannot be loaded (or memory runs out); a photo that loads always gives YZ_VISION_OK, with
 * result->status READ_OK or READ_REFUSED and a reason. opts may be NULL for the defaults. */
yz_vision_status yz_vision_read_file(const char *path, const yz_vision_options *opts,
                                     yz_vision_result *result, yz_vision_error *err);
/* The same on a photo already loaded (coordinates scaled back to photo->full_w x full_h). */
yz_vision_status yz_vision_read_photo(const yz_vision_photo *photo, const yz_vision_options *opts,
                                      yz_vision_result *result, yz_vision_error *err);

/* Writes a PNG of the photo (at working size) with every die's box and its value drawn large;
 * uncertain dice in orange, a refused photo's banner in red. Dice small in the photo get a
 * close-up below it, enlarged 1.5 to 4 times and drawn on the same way (so the PNG is taller).
 * An out_png ending in ".jpg" is written as a JPEG instead: a tenth of the bytes, for phones. */
yz_vision_status yz_vision_annotate(const yz_vision_photo *photo, const yz_vision_result *result,
                                    const char *out_png, yz_vision_error *err);
/* The same, with the close-up cut from the photo decoded again, from its file's bytes or its
 * file, at the size that shows it without enlarging (at most the photo's own): sharper than the
 * working size. Without the bytes (an unreadable file), as yz_vision_annotate. */
yz_vision_status yz_vision_annotate_from(const uint8_t *bytes, size_t n_bytes,
                                         const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err);
yz_vision_status yz_vision_annotate_file(const char *path, const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err);

/* What verify draws beside the roll read: the roll a player claims (claim, n_claim values, in the
 * player's order) and, for each die of the result in its order, the value the claim has in its
 * place where the die differs from it (differs[i]), 0 where it agrees. */
typedef struct {
    int n_claim;
    int claim[YZ_VISION_MAX_DICE];
    int differs[YZ_VISION_MAX_DICE];
} yz_vision_claim;

/* As yz_vision_annotate_file (path may be NULL: no sharper close-up), with the claim beside the
 * roll in the banner, and each die that differs drawn red and labelled "claim 5, photo 6".
 * claim NULL: as yz_vision_annotate_file. */
yz_vision_status yz_vision_annotate_claim_file(const char *path, const yz_vision_photo *photo,
                                               const yz_vision_result *result,
                                               const yz_vision_claim *claim, const char *out_png,
                                               yz_vision_error *err);

/* Writes an RGB image as a baseline JPEG of quality 1-100. */
yz_vision_status yz_vision_write_jpeg(const yz_vision_image *image, const char *path, int quality,
                                      yz_vision_error *err);
/* Writes an RGB image as an 8-bit PNG. */
yz_vision_status yz_vision_write_png(const yz_vision_image *image, const char *path,
                                     yz_vision_error *err);

#endif
