/* annotate.c - the picture that settles a dispute: the photo with each die's box, the top face
 * its value was read from, and that value drawn large. Certain dice in green, uncertain ones
 * in orange; a refused photo gets its reason in red across the top or the bottom. When the dice
 * are small in the photo (a photo from standing height often shows them a few dozen pixels
 * wide, their pips a few pixels), a close-up of them, drawn the same way, goes below it: there a
 * referee sees the pips that were counted. For verify, the claimed roll stands beside the roll
 * read, and each die that differs from the claim is drawn red with both values. Labels sit on a
 * darkened plate with a dark outline (green alone is weak on grass), where they cover no other
 * die and no other label. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv.h"
#include "internal.h"
#include "vision_testing.h"

static const uint8_t GREEN[3] = {40, 220, 60}, ORANGE[3] = {255, 150, 0}, RED[3] = {240, 30, 30},
                     WHITE[3] = {255, 255, 255}, BLACK[3] = {0, 0, 0};

/* A label's plate keeps this share of the photo's brightness behind it. */
#define PLATE_SHADE 0.4

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

/* Darkens the rectangle (x, y, w, h) of the picture, clipped to it: the plate a label sits on. */
static void darken(yz_cv_image *target, const double rect[4])
{
    int x0 = (int)fmax(0, floor(rect[0])), y0 = (int)fmax(0, floor(rect[1]));
    int x1 = (int)fmin(target->w, ceil(rect[0] + rect[2]));
    int y1 = (int)fmin(target->h, ceil(rect[1] + rect[3]));
    for (int y = y0; y < y1; y++)
        for (uint8_t *p = target->data + (size_t)y * target->stride + 3 * x0,
                     *end = target->data + (size_t)y * target->stride + 3 * x1;
             p < end; p++)
            *p = (uint8_t)(*p * PLATE_SHADE);
}

/* Text on a plate (rect, from label_rect) with a wide dark outline, baseline at (x, y). */
static int draw_label(yz_cv_image *target, const char *text, const double rect[4], int x, int y,
                      double height, const uint8_t colour[3], int thickness)
{
    darken(target, rect);
    return yz_cv_draw_text(target, text, x, y, height, BLACK, thickness + 2) |
           yz_cv_draw_text(target, text, x, y, height, colour, thickness);
}

/* The rectangle (x, y, w, h) a label drawn with its baseline at (x, y) covers, plate included:
 * the text's ascent (height), a descent for commas, and the outline around it. */
static void label_rect(const char *text, int x, int y, double height, int thickness, double rect[4])
{
    double pad = thickness + 3;
    rect[0] = x - pad;
    rect[1] = y - height - pad;
    rect[2] = yz_cv_text_width(text, height, thickness + 2) + 2 * pad;
    rect[3] = 1.3 * height + 2 * pad;
}

/* The banner's rows and where they go: across the top, or across the bottom when fewer dice
 * stand there, so that it hides no die (a die the top edge cuts is often the one refused). Its
 * band (y, h) goes to band[]. Returns the number of rows. */
static int place_banner(const yz_cv_image *target, const yz_vision_result *result, double sy,
                        const char *text, int line, char rows[BANNER_ROWS][260], double *height,
                        int *baseline, double band[2])
{
    *height = fmax(14, target->h / 30.0);
    int n = banner_rows(target, text, *height, line, rows);
    double pitch = 1.4 * *height, band_h = 10 + pitch * n;
    *baseline = 10 + (int)*height;
    band[0] = 0;
    if (dice_in_band(result, sy, target->h - band_h, target->h) <
        dice_in_band(result, sy, 0, band_h)) {
        *baseline = target->h - (int)band_h + (int)*height;
        band[0] = target->h - band_h;
    }
    band[1] = band_h + 0.3 * *height;
    return n;
}

/* The banner, in as many rows as it takes to fit the width (up to BANNER_ROWS): a refusal's
 * reason is the point of the picture and must be read whole. */
static int draw_banner(yz_cv_image *target, const yz_vision_result *result, double sy,
                       const char *text, int line, const uint8_t colour[3])
{
    char rows[BANNER_ROWS][260];
    double height, band[2];
    int y;
    int n = place_banner(target, result, sy, text, line, rows, &height, &y, band);
    double pitch = 1.4 * height;
    int failed = 0;
    for (int k = 0; k < n && !failed; k++) {
        double rect[4];
        label_rect(rows[k], 10, y + (int)(k * pitch), height, line, rect);
        failed |= draw_label(target, rows[k], rect, 10, y + (int)(k * pitch), height, colour, line);
    }
    return failed;
}

/* A die's label and where it goes. */
typedef struct {
    char text[40];
    double height;
    const uint8_t *colour;
    int x, y;       /* baseline start */
    double rect[4]; /* what it covers, plate included */
} die_label;

/* The die's label: its value ("?" when unread), or, where the claim differs, both values. */
static void label_text(const yz_vision_result *result, const yz_vision_claim *claim, int i,
                       double digit_height, die_label *label)
{
    const yz_vision_die *die = &result->dice[i];
    label->height = digit_height;
    label->colour = die->certain ? GREEN : ORANGE;
    snprintf(label->text, sizeof label->text, "%c", die->value ? '0' + die->value : '?');
    if (claim && claim->differs[i]) {
        snprintf(label->text, sizeof label->text, "claim %d, photo %d", claim->differs[i],
                 die->value);
        label->height = fmax(16, 0.6 * digit_height);
        label->colour = RED;
    }
}

/* Places every die's label beside its box (boxes[i], picture pixels) where it covers the least
 * of the other labels, of every die's box and of the banner's band (band_h 0: none): right of
 * the box at its top first, then left, above, below, at the bottom right and left, and above
 * and below the right end. A label pushed past the picture's edge is moved back inside. Dice
 * are placed left to right, each avoiding the labels placed before it. */
static void place_labels(const yz_cv_image *target, const double boxes[][4], int n_dice,
                         const double band[2], int line, die_label *labels)
{
    const double gap = 4;
    for (int i = 0; i < n_dice; i++) {
        die_label *label = &labels[i];
        double probe[4];
        label_rect(label->text, 0, 0, label->height, line, probe);
        double w = probe[2], h = probe[3], ascent = -probe[1];
        const double *b = boxes[i];
        double x0 = b[0], y0 = b[1], x1 = b[0] + b[2], y1 = b[1] + b[3];
        /* Top-left corners of the plate, in order of preference. */
        const double at[8][2] = {{x1 + gap, y0},         {x0 - gap - w, y0}, {x0, y0 - gap - h},
                                 {x0, y1 + gap},         {x1 + gap, y1 - h}, {x0 - gap - w, y1 - h},
                                 {x1 - w, y0 - gap - h}, {x1 - w, y1 + gap}};
        double best_cost = INFINITY;
        for (int k = 0; k < 8; k++) {
            double rect[4] = {fmin(fmax(at[k][0], 0), target->w - w),
                              fmin(fmax(at[k][1], 0), target->h - h), w, h};
            double band_rect[4] = {0, band[0], target->w, band[1]};
            double cost = yz_vision_common_area(rect, band_rect);
            for (int j = 0; j < n_dice; j++)
                cost += yz_vision_common_area(rect, boxes[j]) +
                        (j < i ? yz_vision_common_area(rect, labels[j].rect) : 0);
            if (cost < best_cost) {
                best_cost = cost;
                memcpy(label->rect, rect, sizeof rect);
                label->x = (int)lround(rect[0] - probe[0]);
                label->y = (int)lround(rect[1] + ascent);
            }
        }
    }
}

/* The dice's boxes in picture pixels, placed by `at`. */
static void picture_boxes(const yz_vision_result *result, placement at, double boxes[][4])
{
    for (int i = 0; i < result->n_dice; i++) {
        const int *box = result->dice[i].box;
        boxes[i][0] = box[0] * at.ax + at.bx;
        boxes[i][1] = box[1] * at.ay + at.by;
        boxes[i][2] = box[2] * at.ax;
        boxes[i][3] = box[3] * at.ay;
    }
}

/* Every die's label with its text and place on target, the dice placed by `at`. */
static void layout_labels(const yz_cv_image *target, const yz_vision_result *result,
                          const yz_vision_claim *claim, placement at, const double band[2],
                          int line, die_label *labels)
{
    double boxes[YZ_VISION_MAX_DICE][4];
    picture_boxes(result, at, boxes);
    for (int i = 0; i < result->n_dice; i++) {
        /* Half the die high, but no higher than a 25th of the picture is wide: in a close-up
         * larger labels would cover the neighbours. */
        double digit_height = fmax(18, fmin(0.5 * boxes[i][3], 0.04 * target->w));
        label_text(result, claim, i, digit_height, &labels[i]);
    }
    place_labels(target, (const double(*)[4])boxes, result->n_dice, band, line, labels);
}

/* Every die's box (thin), the top face it was read from (bold) and its label, placed by `at`;
 * the labels keep out of the banner's band (band[1] 0: none). */
static int draw_dice(yz_cv_image *target, const yz_vision_result *result,
                     const yz_vision_claim *claim, placement at, const double band[2], int line)
{
    int failed = 0;
    die_label labels[YZ_VISION_MAX_DICE];
    layout_labels(target, result, claim, at, band, line, labels);
    for (int i = 0; i < result->n_dice; i++) {
        const yz_vision_die *die = &result->dice[i];
        const uint8_t *colour = labels[i].colour;
        float x0 = (float)(die->box[0] * at.ax + at.bx), y0 = (float)(die->box[1] * at.ay + at.by);
        float x1 = (float)((die->box[0] + die->box[2]) * at.ax + at.bx),
              y1 = (float)((die->box[1] + die->box[3]) * at.ay + at.by);
        yz_cv_point outline[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
        failed |= yz_cv_draw_polygon(target, outline, 4, colour, line > 2 ? line - 1 : 1);
        if (die->value) {
            yz_cv_point top[4];
            for (int k = 0; k < 4; k++)
                top[k] = (yz_cv_point){(float)(die->top[k][0] * at.ax + at.bx),
                                       (float)(die->top[k][1] * at.ay + at.by)};
            failed |= yz_cv_draw_polygon(target, top, 4, colour, line + 1);
        }
    }
    /* Labels after every outline, so that no outline crosses a label. */
    for (int i = 0; i < result->n_dice; i++)
        failed |= draw_label(target, labels[i].text, labels[i].rect, labels[i].x, labels[i].y,
                             labels[i].height, labels[i].colour, line + 1);
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

/* The banner's text: the roll read (beside the claim, when there is one), or the refusal. */
static void banner_text(const yz_vision_result *result, const yz_vision_claim *claim,
                        char banner[260], const uint8_t **colour)
{
    int at = 0, size = 260, n_differ = 0;
    *colour = WHITE;
    if (result->status == YZ_VISION_READ_REFUSED) {
        at = snprintf(banner, (size_t)size, "refused: %s", result->reason);
        *colour = RED;
    } else {
        at = snprintf(banner, (size_t)size, claim ? "photo:" : "roll:");
        for (int i = 0; i < result->n_dice && at < size - 4; i++) {
            at += snprintf(banner + at, (size_t)(size - at), " %d", result->roll[i]);
            n_differ += claim && claim->differs[i];
        }
    }
    if (!claim) return;
    at += snprintf(banner + at, (size_t)(size - at > 0 ? size - at : 0),
                   "%s claim:", result->status == YZ_VISION_READ_REFUSED ? "; the" : ",");
    for (int i = 0; i < claim->n_claim && at < size - 4; i++)
        at += snprintf(banner + at, (size_t)(size - at), " %d", claim->claim[i]);
    if (result->status == YZ_VISION_READ_OK && at < size) {
        if (n_differ)
            snprintf(banner + at, (size_t)(size - at), " (%d %s differ%s)", n_differ,
                     n_differ == 1 ? "die" : "dice", n_differ == 1 ? "s" : "");
        else
            snprintf(banner + at, (size_t)(size - at), " (holds)");
        *colour = n_differ ? RED : GREEN;
    }
}

/* The phone's picture (a path ending in ".jpg") must load fast on a phone: at most this many
 * bytes. Grass is the costliest thing a JPEG can hold: a detailed 12 MP lawn photo's 1000x1750
 * picture is 360 KB at quality 70 and still 320 KB at 50, so it is made smaller instead. */
#define PHONE_PICTURE_BYTES (290 * 1024)
#define PHONE_PICTURE_MIN_WIDTH 600 /* a phone's screen, 2 device pixels to a CSS pixel */

static long file_size(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    long size = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
    fclose(file);
    return size;
}

/* PNG, or for a path ending in ".jpg" a JPEG of quality 70 (the labels stay crisp), shrunk by a
 * fifth at a time while it is over PHONE_PICTURE_BYTES. */
static yz_vision_status write_annotated(const yz_vision_image *canvas, const char *path,
                                        yz_vision_error *err)
{
    size_t len = strlen(path);
    if (len <= 4 || strcmp(path + len - 4, ".jpg") != 0)
        return yz_vision_write_png(canvas, path, err);
    yz_vision_status status = yz_vision_write_jpeg(canvas, path, 70, err);
    yz_vision_image smaller = {0};
    const yz_vision_image *current = canvas;
    while (status == YZ_VISION_OK && file_size(path) > PHONE_PICTURE_BYTES &&
           current->w * 4 / 5 >= PHONE_PICTURE_MIN_WIDTH) {
        yz_vision_image next;
        if (yz_vision_image_new(current->w * 4 / 5, current->h * 4 / 5, &next)) {
            status = yz_vision_fail(err, YZ_VISION_ERR_NOMEM, path, "out of memory");
            break;
        }
        yz_cv_image from = {current->w, current->h, 3, current->w * 3, current->rgb};
        yz_cv_image to = {next.w, next.h, 3, next.w * 3, next.rgb};
        if (yz_cv_resize_area(&from, &to) != YZ_CV_OK) {
            yz_vision_image_free(&next);
            status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, path, "resizing failed");
            break;
        }
        yz_vision_image_free(&smaller);
        smaller = next;
        current = &smaller;
        status = yz_vision_write_jpeg(current, path, 70, err);
    }
    yz_vision_image_free(&smaller);
    return status;
}

static yz_vision_status annotate(const yz_vision_photo *photo, const uint8_t *bytes, size_t n_bytes,
                                 const yz_vision_result *result, const yz_vision_claim *claim,
                                 const char *out_png, yz_vision_error *err)
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
    char banner[260], rows[BANNER_ROWS][260];
    const uint8_t *banner_colour;
    banner_text(result, claim, banner, &banner_colour);
    double banner_height, band[2], no_band[2] = {0, 0};
    int banner_y;
    place_banner(&picture, result, sy, banner, line, rows, &banner_height, &banner_y, band);
    int failed = draw_dice(&picture, result, claim, (placement){sx, 0, sy, 0}, band, line);
    if (zoom > 0) {
        yz_vision_photo sharper;
        const yz_vision_image *cut_from = close_up_source(photo, bytes, n_bytes, zoom, &sharper);
        yz_cv_image whole = {cut_from->w, cut_from->h, 3, cut_from->w * 3, cut_from->rgb};
        yz_cv_point corners[4], cut[4];
        window_corners(window, 1, corners);
        window_corners(window, (double)cut_from->w / source->w, cut); /* in cut_from's pixels */
        failed |= yz_cv_warp_quad(&whole, cut, &close_up);
        yz_vision_photo_free(&sharper);
        failed |= draw_dice(&close_up, result, claim,
                            (placement){sx * zoom, -window[0] * zoom, sy * zoom, -window[1] * zoom},
                            no_band, line);
        /* Where the close-up was taken, and the seam between the two views. */
        failed |= yz_cv_draw_polygon(&picture, corners, 4, WHITE, 1);
        yz_cv_point seam[2] = {{0, 0}, {(float)close_up_w, 0}};
        failed |= yz_cv_draw_polygon(&close_up, seam, 2, WHITE, line);
    }
    failed |= draw_banner(&picture, result, sy, banner, line, banner_colour);
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
    return annotate(photo, NULL, 0, result, NULL, out_png, err);
}

yz_vision_status yz_vision_annotate_from(const uint8_t *bytes, size_t n_bytes,
                                         const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err)
{
    return annotate(photo, bytes, n_bytes, result, NULL, out_png, err);
}

yz_vision_status yz_vision_annotate_claim_file(const char *path, const yz_vision_photo *photo,
                                               const yz_vision_result *result,
                                               const yz_vision_claim *claim, const char *out_png,
                                               yz_vision_error *err)
{
    uint8_t *bytes = NULL;
    size_t n_bytes = 0;
    yz_vision_error ignored;
    /* Unreadable now (moved, say): the close-up comes from the working size. */
    if (!path || yz_vision_read_whole_file(path, &bytes, &n_bytes, &ignored) != YZ_VISION_OK)
        bytes = NULL;
    yz_vision_status status = annotate(photo, bytes, n_bytes, result, claim, out_png, err);
    yz_vision_release(bytes);
    return status;
}

yz_vision_status yz_vision_annotate_file(const char *path, const yz_vision_photo *photo,
                                         const yz_vision_result *result, const char *out_png,
                                         yz_vision_error *err)
{
    return yz_vision_annotate_claim_file(path, photo, result, NULL, out_png, err);
}

void yz_vision_testing_label_rects(const yz_vision_result *result, const yz_vision_claim *claim,
                                   int picture_w, int picture_h, double scale, double rects[][4])
{
    uint8_t pixel[3] = {0, 0, 0};
    yz_cv_image target = {picture_w, picture_h, 3, 0, pixel}; /* measured, never drawn on */
    die_label labels[YZ_VISION_MAX_DICE];
    double no_band[2] = {0, 0};
    layout_labels(&target, result, claim, (placement){scale, 0, scale, 0}, no_band,
                  picture_w > 1200 ? 3 : 2, labels);
    for (int i = 0; i < result->n_dice; i++)
        memcpy(rects[i], labels[i].rect, sizeof rects[i]);
}
