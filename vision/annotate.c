/* annotate.c - the picture that settles a dispute: the photo with each die's box, the top face
 * its value was read from, and that value drawn large. Certain dice in green, uncertain ones
 * in orange; a refused photo gets its reason in red across the top or the bottom. When the dice
 * are small in the photo (a photo from standing height often shows them a few dozen pixels
 * wide, their pips a few pixels), a close-up of them, drawn the same way, goes below it: there a
 * referee sees the pips that were counted. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv.h"
#include "internal.h"

static const uint8_t GREEN[3] = {40, 220, 60}, ORANGE[3] = {255, 150, 0}, RED[3] = {240, 30, 30},
                     WHITE[3] = {255, 255, 255};

#define BANNER_ROWS 8
/* The close-up: drawn when it shows the dice CLOSE_UP_WORTH times larger or more; enlarging the
 * working-size photo at most CLOSE_UP_MAX times (it has no finer detail: beyond, more lawn shows
 * instead); CLOSE_UP_MARGIN die sides of lawn around the dice; as wide as the photo, and as high
 * as the dice need, between CLOSE_UP_FLAT (16:9) and CLOSE_UP_TALL (square) times that. */
#define CLOSE_UP_WORTH 1.5
#define CLOSE_UP_MAX 4.0
#define CLOSE_UP_MARGIN 0.6
#define CLOSE_UP_FLAT 0.5625
#define CLOSE_UP_TALL 1.0

/* Where a point of the full-size photo lands in the picture: x * ax + bx, y * ay + by. */
typedef struct {
    double ax, bx, ay, by;
} placement;

/* A banner's text cut into rows that fit the picture's width, at whole words (at least one word
 * a row). Returns the number of rows. */
static int banner_rows(const yz_cv_image *target, const char *text, double height, int line,
                       char rows[BANNER_ROWS][260])
{
    int n = 0;
    while (*text && n < BANNER_ROWS) {
        size_t fits = 0, at = 0;
        do {
            while (text[at] == ' ')
                at++;
            while (text[at] && text[at] != ' ')
                at++;
            snprintf(rows[n], sizeof rows[n], "%.*s", (int)at, text);
            if (fits && yz_cv_text_width(rows[n], height, line) > target->w - 20) break;
            fits = at;
        } while (text[at]);
        snprintf(rows[n++], sizeof rows[0], "%.*s", (int)fits, text);
        text += fits;
        while (*text == ' ')
            text++;
    }
    return n;
}

/* How many dice's boxes reach into the band of rows y0..y1 of the picture. */
static int dice_in_band(const yz_vision_result *result, double sy, double y0, double y1)
{
    int n = 0;
    for (int i = 0; i < result->n_dice; i++) {
        const int *box = result->dice[i].box;
        n += box[1] * sy < y1 && (box[1] + box[3]) * sy > y0;
    }
    return n;
}

/* The banner, in as many rows as it takes to fit the width (up to BANNER_ROWS): a refusal's
 * reason is the point of the picture and must be read whole. It goes across the top, or across
 * the bottom when fewer dice stand there, so that it hides no die (a die the top edge cuts is
 * often the one refused). */
static int draw_banner(yz_cv_image *target, const yz_vision_result *result, double sy,
                       const char *text, int line, const uint8_t colour[3])
{
    double height = target->h / 30.0;
    if (height < 14) height = 14;
    char rows[BANNER_ROWS][260];
    int n = banner_rows(target, text, height, line, rows);
    double pitch = 1.4 * height, band = 10 + pitch * n;
    int y = 10 + (int)height;
    if (dice_in_band(result, sy, target->h - band, target->h) < dice_in_band(result, sy, 0, band))
        y = target->h - (int)band + (int)height;
    int failed = 0;
    for (int k = 0; k < n && !failed; k++)
        failed |= yz_cv_draw_text(target, rows[k], 10, y + (int)(k * pitch), height, colour, line);
    return failed;
}

/* Every die's box (thin), the top face it was read from (bold) and its value, placed by `at`. */
static int draw_dice(yz_cv_image *target, const yz_vision_result *result, placement at, int line)
{
    int failed = 0;
    for (int i = 0; i < result->n_dice; i++) {
        const yz_vision_die *die = &result->dice[i];
        const uint8_t *colour = die->certain ? GREEN : ORANGE;
        float x0 = (float)(die->box[0] * at.ax + at.bx), y0 = (float)(die->box[1] * at.ay + at.by);
        float x1 = (float)((die->box[0] + die->box[2]) * at.ax + at.bx),
              y1 = (float)((die->box[1] + die->box[3]) * at.ay + at.by);
        yz_cv_point outline[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
        char label[2] = {die->value ? (char)('0' + die->value) : '?', 0};
        /* Half the die high, but no higher than a 25th of the picture is wide: in a close-up
         * larger labels would cover the neighbours. */
        double text_height = fmax(18, fmin(0.5 * (y1 - y0), 0.04 * target->w));
        failed |= yz_cv_draw_polygon(target, outline, 4, colour, line > 2 ? line - 1 : 1);
        if (die->value) {
            yz_cv_point top[4];
            for (int k = 0; k < 4; k++)
                top[k] = (yz_cv_point){(float)(die->top[k][0] * at.ax + at.bx),
                                       (float)(die->top[k][1] * at.ay + at.by)};
            failed |= yz_cv_draw_polygon(target, top, 4, colour, line + 1);
        }
        failed |= yz_cv_draw_text(target, label, (int)x1 + 4, (int)(y0 + text_height), text_height,
                                  colour, line + 1);
    }
    return failed;
}

/* The window (x, y, w, h) of the working-size photo that the close-up shows, and the close-up's
 * height (its width is the photo's): every die with CLOSE_UP_MARGIN die sides to spare, enlarged
 * as much as that allows up to CLOSE_UP_MAX, the window kept inside the photo. Returns the
 * enlargement, or 0 when no close-up is worth drawing (the dice are large enough in the photo,
 * or spread too wide to show larger). */
static double close_up_window(const yz_vision_image *photo, const yz_vision_result *result,
                              double sx, double sy, int *close_up_h, double window[4])
{
    if (result->n_dice == 0) return 0;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, largest = 0;
    for (int i = 0; i < result->n_dice; i++) {
        const int *box = result->dice[i].box;
        x0 = fmin(x0, box[0] * sx);
        y0 = fmin(y0, box[1] * sy);
        x1 = fmax(x1, (box[0] + box[2]) * sx);
        y1 = fmax(y1, (box[1] + box[3]) * sy);
        largest = fmax(largest, fmax(box[2] * sx, box[3] * sy));
    }
    double margin = CLOSE_UP_MARGIN * largest;
    double need_w = x1 - x0 + 2 * margin, need_h = y1 - y0 + 2 * margin;
    double close_up_w = photo->w;
    *close_up_h = (int)lround(photo->w * fmin(fmax(need_h / need_w, CLOSE_UP_FLAT), CLOSE_UP_TALL));
    double fits = fmin(close_up_w / need_w, *close_up_h / need_h);
    /* The window must lie inside the photo, which may ask for more enlargement than fits. */
    double zoom =
        fmax(fmin(fits, CLOSE_UP_MAX), fmax(close_up_w / photo->w, (double)*close_up_h / photo->h));
    if (zoom < CLOSE_UP_WORTH || zoom > fits) return 0;
    double w = close_up_w / zoom, h = *close_up_h / zoom;
    window[0] = fmin(fmax(0.5 * (x0 + x1 - w), 0), photo->w - w);
    window[1] = fmin(fmax(0.5 * (y0 + y1 - h), 0), photo->h - h);
    window[2] = w;
    window[3] = h;
    return zoom;
}

/* The corners of window (x, y, w, h), scaled by k, clockwise from the top left. */
static void window_corners(const double window[4], double k, yz_cv_point corners[4])
{
    float x0 = (float)(window[0] * k), y0 = (float)(window[1] * k);
    float x1 = (float)((window[0] + window[2]) * k), y1 = (float)((window[1] + window[3]) * k);
    corners[0] = (yz_cv_point){x0, y0};
    corners[1] = (yz_cv_point){x1, y0};
    corners[2] = (yz_cv_point){x1, y1};
    corners[3] = (yz_cv_point){x0, y1};
}

/* The photo to cut a close-up enlarging the working size `zoom` times from: decoded again from
 * its bytes at the size that needs no enlarging (at most its own), when that is larger than the
 * working size and the bytes are there (*sharper then holds it, for the caller to free); else
 * the working size. */
static const yz_vision_image *close_up_source(const yz_vision_photo *photo, const uint8_t *bytes,
                                              size_t n_bytes, double zoom, yz_vision_photo *sharper)
{
    memset(sharper, 0, sizeof *sharper);
    const yz_vision_image *working = &photo->image;
    if (!bytes || working->w >= photo->full_w) return working;
    int long_side = working->w > working->h ? working->w : working->h;
    yz_vision_error ignored;
    if (yz_vision_load_memory(bytes, n_bytes, NULL, (int)ceil(long_side * zoom), sharper,
                              &ignored) != YZ_VISION_OK)
        return working; /* out of memory, say: the working size still shows the dice */
    if (sharper->image.w > working->w) return &sharper->image;
    yz_vision_photo_free(sharper);
    return working;
}

/* PNG, or JPEG for a path ending in ".jpg": quality 70 keeps the labels crisp and a lawn photo
 * under 300 KB (80 is 330 KB for 1024x1704 of grass). */
static yz_vision_status write_annotated(const yz_vision_image *canvas, const char *path,
                                        yz_vision_error *err)
{
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".jpg") == 0)
        return yz_vision_write_jpeg(canvas, path, 70, err);
    return yz_vision_write_png(canvas, path, err);
}

static yz_vision_status annotate(const yz_vision_photo *photo, const uint8_t *bytes, size_t n_bytes,
                                 const yz_vision_result *result, const char *out_png,
                                 yz_vision_error *err)
{
    const yz_vision_image *source = &photo->image;
    double sx = (double)source->w / photo->full_w, sy = (double)source->h / photo->full_h;
    int close_up_w = source->w, close_up_h = 0;
    double window[4] = {0, 0, 0, 0};
    double zoom = close_up_window(source, result, sx, sy, &close_up_h, window);
    if (zoom == 0) close_up_h = 0;
    yz_vision_image canvas;
    if (yz_vision_image_new(source->w, source->h + close_up_h, &canvas))
        return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, out_png, "out of memory");
    memcpy(canvas.rgb, source->rgb, (size_t)source->w * source->h * 3);
    /* The photo on top, the close-up (if any) below it: two views of one canvas. */
    yz_cv_image picture = {source->w, source->h, 3, canvas.w * 3, canvas.rgb};
    yz_cv_image close_up = {close_up_w, close_up_h, 3, canvas.w * 3,
                            canvas.rgb + (size_t)source->h * canvas.w * 3};
    int line = canvas.w > 1200 ? 3 : 2;
    int failed = draw_dice(&picture, result, (placement){sx, 0, sy, 0}, line);
    if (zoom > 0) {
        yz_vision_photo sharper;
        const yz_vision_image *cut_from = close_up_source(photo, bytes, n_bytes, zoom, &sharper);
        yz_cv_image whole = {cut_from->w, cut_from->h, 3, cut_from->w * 3, cut_from->rgb};
        yz_cv_point corners[4], cut[4];
        window_corners(window, 1, corners);
        window_corners(window, (double)cut_from->w / source->w, cut); /* in cut_from's pixels */
        failed |= yz_cv_warp_quad(&whole, cut, &close_up);
        yz_vision_photo_free(&sharper);
        failed |= draw_dice(&close_up, result,
                            (placement){sx * zoom, -window[0] * zoom, sy * zoom, -window[1] * zoom},
                            line);
        /* Where the close-up was taken, and the seam between the two views. */
        failed |= yz_cv_draw_polygon(&picture, corners, 4, WHITE, 1);
        yz_cv_point seam[2] = {{0, 0}, {(float)close_up_w, 0}};
        failed |= yz_cv_draw_polygon(&close_up, seam, 2, WHITE, line);
    }
    char banner[260];
    if (result->status == YZ_VISION_READ_REFUSED)
        snprintf(banner, sizeof banner, "refused: %s", result->reason);
    else {
        int at = snprintf(banner, sizeof banner, "roll:");
        for (int i = 0; i < result->n_dice && at < (int)sizeof banner - 4; i++)
            at += snprintf(banner + at, sizeof banner - (size_t)at, " %d", result->roll[i]);
    }
    failed |= draw_banner(&picture, result, sy, banner, line,
                          result->status == YZ_VISION_READ_REFUSED ? RED : WHITE);
    yz_vision_status status = YZ_VISION_OK;
    if (failed)
        status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, out_png, "drawing failed");
    else
        status = write_annotated(&canvas, out_png, err);
    yz_vision_image_free(&canvas);
    return status;
}

yz_vision_status yz_vision_annotate(const yz_vision_photo *photo, const yz_vision_result *result,
                                    const char *out_png, yz_vision_error *err)
{
    return annotate(photo, NULL, 0, result, out_png, err);
}

yz_vision_status yz_vision_annotate_from(const uint8_t *bytes, size_t n_bytes,
                                         const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err)
{
    return annotate(photo, bytes, n_bytes, result, out_png, err);
}

yz_vision_status yz_vision_annotate_file(const char *path, const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err)
{
    uint8_t *bytes = NULL;
    size_t n_bytes = 0;
    yz_vision_error ignored;
    /* Unreadable now (moved, say): the close-up comes from the working size. */
    if (yz_vision_read_whole_file(path, &bytes, &n_bytes, &ignored) != YZ_VISION_OK) bytes = NULL;
    yz_vision_status status = annotate(photo, bytes, n_bytes, result, out_png, err);
    yz_vision_release(bytes);
    return status;
}
