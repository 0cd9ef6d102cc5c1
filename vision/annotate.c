/* annotate.c - the picture that settles a dispute: the photo with each die's box, the top face
 * its value was read from, and that value drawn large. Certain dice in green, uncertain ones
 * in orange; a refused photo gets its reason in red across the top or the bottom. */
#include <stdio.h>
#include <string.h>

#include "cv.h"
#include "internal.h"

static const uint8_t GREEN[3] = {40, 220, 60}, ORANGE[3] = {255, 150, 0}, RED[3] = {240, 30, 30},
                     WHITE[3] = {255, 255, 255};

#define BANNER_ROWS 8

/* A banner's text cut into rows that fit the picture's width, at whole words (at least one word
 * a row). Returns the number of rows. */
static int banner_rows(const yz_cv_image *target, const char *text, double height, int line,
                       char rows[BANNER_ROWS][260])
{
    int n = 0;
    while (*text && n < BANNER_ROWS) {
        size_t fits = 0, at = 0;
        do {
            while (text[at] == ' ') at++;
            while (text[at] && text[at] != ' ') at++;
            snprintf(rows[n], sizeof rows[n], "%.*s", (int)at, text);
            if (fits && yz_cv_text_width(rows[n], height, line) > target->w - 20) break;
            fits = at;
        } while (text[at]);
        snprintf(rows[n++], sizeof rows[0], "%.*s", (int)fits, text);
        text += fits;
        while (*text == ' ') text++;
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

yz_vision_status yz_vision_annotate(const yz_vision_photo *photo, const yz_vision_result *result,
                                    const char *out_png, yz_vision_error *err)
{
    const yz_vision_image *source = &photo->image;
    yz_vision_image canvas;
    if (yz_vision_image_new(source->w, source->h, &canvas))
        return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, out_png, "out of memory");
    memcpy(canvas.rgb, source->rgb, (size_t)source->w * source->h * 3);
    yz_cv_image target = {canvas.w, canvas.h, 3, canvas.w * 3, canvas.rgb};
    double sx = (double)source->w / photo->full_w, sy = (double)source->h / photo->full_h;
    int line = canvas.w > 1200 ? 3 : 2;
    int failed = 0;
    for (int i = 0; i < result->n_dice; i++) {
        const yz_vision_die *die = &result->dice[i];
        const uint8_t *colour = die->certain ? GREEN : ORANGE;
        yz_cv_point outline[4] = {
            {(float)(die->box[0] * sx), (float)(die->box[1] * sy)},
            {(float)((die->box[0] + die->box[2]) * sx), (float)(die->box[1] * sy)},
            {(float)((die->box[0] + die->box[2]) * sx), (float)((die->box[1] + die->box[3]) * sy)},
            {(float)(die->box[0] * sx), (float)((die->box[1] + die->box[3]) * sy)}};
        char label[16];
        snprintf(label, sizeof label, "%s", die->value ? (char[2]){(char)('0' + die->value), 0} : "?");
        double text_height = die->box[3] * sy * 0.5;
        if (text_height < 18) text_height = 18;
        /* The die's box thin, the top face it was read from bold. */
        failed |= yz_cv_draw_polygon(&target, outline, 4, colour, line > 2 ? line - 1 : 1);
        if (die->value) {
            yz_cv_point top[4];
            for (int k = 0; k < 4; k++)
                top[k] = (yz_cv_point){(float)(die->top[k][0] * sx), (float)(die->top[k][1] * sy)};
            failed |= yz_cv_draw_polygon(&target, top, 4, colour, line + 1);
        }
        failed |= yz_cv_draw_text(&target, label, (int)outline[1].x + 4,
                                  (int)(outline[0].y + text_height), text_height, colour, line + 1);
    }
    char banner[260];
    if (result->status == YZ_VISION_READ_REFUSED)
        snprintf(banner, sizeof banner, "refused: %s", result->reason);
    else {
        int at = snprintf(banner, sizeof banner, "roll:");
        for (int i = 0; i < result->n_dice && at < (int)sizeof banner - 4; i++)
            at += snprintf(banner + at, sizeof banner - (size_t)at, " %d", result->roll[i]);
    }
    failed |= draw_banner(&target, result, sy, banner, line,
                          result->status == YZ_VISION_READ_REFUSED ? RED : WHITE);
    yz_vision_status status = YZ_VISION_OK;
    if (failed)
        status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, out_png, "drawing failed");
    else
        status = yz_vision_write_png(&canvas, out_png, err);
    yz_vision_image_free(&canvas);
    return status;
}
