/* detect.c - step 1: where the dice are.
 *
 * The photo, shrunk to the detector's canvas (pipeline.json's det_side long side), goes through
 * the detector, which scores every det_stride x det_stride cell as a die's centre and guesses
 * that die's box. Dice that touch still have separate centres, which colour segmentation could
 * not promise. Every local maximum scoring doubt_score or more is a candidate, and the die-or-not
 * net (read.c) says whether it counts; one scoring die_score or more is a sure die, whose size
 * the second look and the step back go by. A maximum closer to a stronger one than SAME_DIE die
 * sides is the same die. Scores of doubt_score or more that no die accounts for are candidates
 * too (add_unexplained): a die merged into its neighbour, or one half hidden behind it. Dice far
 * smaller than those the detector learned on (a far or high camera) get a second look: the part
 * of the photo they are in, enlarged until they are of the usual size (zoom_window); so do dice
 * that overlap, a little larger, for a die hidden half behind one of them. Dice far
 * larger than it learned on (a photo taken close to them) break into several peaks each: a step
 * back looks at the photo halved, and is taken when it sees one die where the first look saw
 * several.
 */
#include <math.h>
#include <string.h>

#include "stages.h"

#define SAME_DIE 0.35 /* peaks closer than this many die sides are one die */
#define EXPLAINED 0.5 /* a die accounts for the detector's scores this near it */
#define DET_LARGE_DIE                                                                              \
    32.0                 /* sure dice with a median side above this (canvas pixels) may be         \
                            too large for the detector: a photo taken close to them */
#define OVERLAP 0.8      /* sure dice closer than this many sides overlap (overlap_die) */
#define MAX_STEPS_BACK 3 /* looks at such a photo halved, at most (down to 1/8 the size) */

static int by_score(const void *a, const void *b)
{
    double sa = ((const yz_vision_candidate *)a)->score,
           sb = ((const yz_vision_candidate *)b)->score;
    return (sa < sb) - (sa > sb);
}

/* How far apart two candidates' centres are, in pixels. */
static double centres_apart(const yz_vision_candidate *a, const yz_vision_candidate *b)
{
    return hypot(a->cx - b->cx, a->cy - b->cy);
}

/* Keeps the strongest peak of each die: a weaker one closer to it than a third of the smaller
 * of the two dice is the same die. Touching dice are a whole die apart; perspective puts one
 * die half behind another, closer than that, but never a third of a die. */
static int same_die(const yz_vision_candidate *a, const yz_vision_candidate *b)
{
    return centres_apart(a, b) < SAME_DIE * fmin(fmax(a->w, a->h), fmax(b->w, b->h));
}

static void one_peak_per_die(yz_vision_candidate *found, int *n_found)
{
    qsort(found, (size_t)*n_found, sizeof *found, by_score);
    int kept = 0;
    for (int i = 0; i < *n_found && kept < YZ_VISION_MAX_CANDIDATES; i++) {
        int same = 0;
        for (int k = 0; k < kept && !same; k++)
            same = same_die(&found[i], &found[k]);
        if (!same) found[kept++] = found[i];
    }
    *n_found = kept;
}

/* A die the detector merged into its neighbour leaves no peak of its own, only scores of
 * doubt_score or more farther from every found die than EXPLAINED die sides. Each such place
 * becomes an unexplained yz_vision_candidate (which then accounts for the cells around it): when
 * the die-or-not net sees a die there it counts, so the photo is never read one die short, and
 * it is certain only if the readers agree on its value. */
static void add_unexplained(const yz_vision_nets *nets, const float *heat, const float *width,
                            const float *height, int grid_w, int cells_w, int cells_h,
                            double to_photo, yz_vision_candidate *found, int *n_found)
{
    const yz_vision_geometry *g = &nets->geometry;
    for (int y = 0; y < cells_h; y++)
        for (int x = 0; x < cells_w; x++) {
            float score = heat[y * grid_w + x];
            if (score < nets->tuning.doubt_score) continue;
            double cx = (x + 0.5) * g->det_stride * to_photo;
            double cy = (y + 0.5) * g->det_stride * to_photo;
            int explained = 0;
            for (int k = 0; k < *n_found && !explained; k++)
                explained = hypot(cx - found[k].cx, cy - found[k].cy) <=
                            EXPLAINED * fmax(found[k].w, found[k].h);
            if (explained || *n_found == YZ_VISION_MAX_CANDIDATES) continue;
            found[(*n_found)++] =
                (yz_vision_candidate){score,
                                      cx,
                                      cy,
                                      fmax(1.0, width[y * grid_w + x] * g->box_unit * to_photo),
                                      fmax(1.0, height[y * grid_w + x] * g->box_unit * to_photo),
                                      1};
        }
}

/* The detector's peaks in one window of the photo (working-size pixels), shrunk or enlarged by
 * `scale` into the top-left of the canvas; candidates come back in photo coordinates. The net
 * is fully convolutional, so the canvas is only as large as the window needs (rounded up to
 * det_align): a 4:3 photo costs three quarters of a square canvas, a small window less. */
static yz_vision_status detect_in_window(const yz_vision_nets *nets, const yz_vision_image *photo,
                                         const int window[4], double scale,
                                         yz_vision_candidate *found, int *n_found)
{
    const yz_vision_geometry *g = &nets->geometry;
    yz_vision_status status = YZ_VISION_OK;
    int side = g->det_side, align = g->det_align, stride = g->det_stride;
    int shrunk_w = (int)lround(window[2] * scale), shrunk_h = (int)lround(window[3] * scale);
    shrunk_w = shrunk_w < 1 ? 1 : shrunk_w > side ? side : shrunk_w;
    shrunk_h = shrunk_h < 1 ? 1 : shrunk_h > side ? side : shrunk_h;
    int canvas_w = (shrunk_w + align - 1) / align * align,
        canvas_h = (shrunk_h + align - 1) / align * align;
    int grid_w = canvas_w / stride, grid_h = canvas_h / stride;
    size_t n_out = 3 * (size_t)grid_w * grid_h;
    /* A peak beats its eight neighbours, so at most one cell in four is one. */
    int max_peaks = ((grid_w + 1) / 2) * ((grid_h + 1) / 2);
    uint8_t *canvas = yz_vision_alloc((size_t)canvas_w * canvas_h * 3);
    float *out = yz_vision_alloc(n_out * sizeof(float));
    yz_vision_candidate *peaks = yz_vision_alloc((size_t)max_peaks * sizeof *peaks);
    if (!canvas || !out || !peaks) {
        status = YZ_VISION_ERR_NOMEM;
        goto done;
    }
    memset(canvas, 0, (size_t)canvas_w * canvas_h * 3);
    yz_cv_image source = {window[2], window[3], 3, photo->w * 3,
                          photo->rgb + ((size_t)window[1] * photo->w + window[0]) * 3};
    yz_cv_image shrunk = {shrunk_w, shrunk_h, 3, canvas_w * 3, canvas}; /* top-left of canvas */
    yz_cv_image input = {canvas_w, canvas_h, 3, canvas_w * 3, canvas};
    int n_values = 0;
    if (yz_cv_resize_area(&source, &shrunk) ||
        yz_cv_net_run(nets->detector, &input, 1, out, (int)n_out, &n_values) ||
        n_values != (int)n_out) {
        status = YZ_VISION_ERR_INTERNAL;
        goto done;
    }
    const float *heat = out, *width = out + grid_w * grid_h, *height = width + grid_w * grid_h;
    int cells_w = (shrunk_w + stride - 1) / stride, cells_h = (shrunk_h + stride - 1) / stride;
    double to_photo = 1.0 / scale;
    int n_peaks = 0;
    for (int y = 0; y < cells_h; y++)
        for (int x = 0; x < cells_w; x++) {
            float score = heat[y * grid_w + x];
            if (score < nets->tuning.doubt_score) continue;
            int peak = 1;
            double sum = 0, sx = 0, sy = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if (nx < 0 || ny < 0 || nx >= grid_w || ny >= grid_h) continue;
                    float other = heat[ny * grid_w + nx];
                    /* ties go to the first cell in reading order */
                    if (other > score || (other == score && (dy < 0 || (dy == 0 && dx < 0))))
                        peak = 0;
                    sum += other;
                    sx += other * dx;
                    sy += other * dy;
                }
            if (!peak || n_peaks == max_peaks) continue;
            yz_vision_candidate *c = &peaks[n_peaks++];
            c->score = score;
            c->cx = (x + 0.5 + sx / sum) * stride * to_photo;
            c->cy = (y + 0.5 + sy / sum) * stride * to_photo;
            c->w = fmax(1.0, width[y * grid_w + x] * g->box_unit * to_photo);
            c->h = fmax(1.0, height[y * grid_w + x] * g->box_unit * to_photo);
            c->unexplained = 0;
        }
    /* The strongest peaks are kept, wherever they are: a patterned ground (a blanket's checks,
     * printed dots) can raise more weak peaks than a look keeps, and keeping the first in
     * reading order lost every die below them. */
    one_peak_per_die(peaks, &n_peaks);
    memcpy(found, peaks, (size_t)n_peaks * sizeof *found);
    *n_found = n_peaks;
    add_unexplained(nets, heat, width, height, grid_w, cells_w, cells_h, to_photo, found, n_found);
    for (int i = 0; i < *n_found; i++) {
        found[i].cx += window[0];
        found[i].cy += window[1];
    }
done:
    yz_vision_release(canvas);
    yz_vision_release(out);
    yz_vision_release(peaks);
    return status;
}

int yz_vision_sure_die(const yz_vision_candidate *c, const yz_vision_tuning *tuning)
{
    return c->score >= tuning->die_score && !c->unexplained;
}

double yz_vision_median_sure_side(const yz_vision_tuning *tuning, const yz_vision_candidate *found,
                                  int n_found)
{
    double sides[YZ_VISION_MAX_CANDIDATES];
    int n = 0;
    for (int i = 0; i < n_found; i++)
        if (yz_vision_sure_die(&found[i], tuning)) sides[n++] = fmax(found[i].w, found[i].h);
    return n ? yz_vision_median(sides, n) : 0;
}

/* Whether two sure dice are closer than OVERLAP die sides (the larger's): where dice crowd so,
 * one may hide another half behind it, whose score is then only a shoulder of its peak. */
static int sure_dice_overlap(const yz_vision_tuning *tuning, const yz_vision_candidate *found,
                             int n_found)
{
    for (int i = 0; i < n_found; i++) {
        if (!yz_vision_sure_die(&found[i], tuning)) continue;
        for (int k = i + 1; k < n_found; k++)
            if (yz_vision_sure_die(&found[k], tuning) &&
                centres_apart(&found[i], &found[k]) <
                    OVERLAP * fmax(fmax(found[i].w, found[i].h), fmax(found[k].w, found[k].h)))
                return 1;
    }
    return 0;
}

/* Where a second, closer look would show small dice at the size the detector knows best: a
 * window around every sure die (with zoom_margin die sides to spare), enlarged so their median
 * die is typical_die canvas pixels (overlap_die where sure dice overlap), or as much as fits.
 * Returns the scale, or 0 when it would not enlarge them zoom_worth times the first look's
 * `scale` (overlapping dice: not at all). The second look costs about 9 ms;
 * tools/READER_HISTORY.md says why it starts at 1.3, and why overlap_die is 26. */
static double zoom_window(const yz_vision_nets *nets, const yz_vision_image *photo,
                          const yz_vision_candidate *found, int n_found, double scale,
                          int window[4], int *for_overlap)
{
    const yz_vision_geometry *g = &nets->geometry;
    double die = yz_vision_median_sure_side(&nets->tuning, found, n_found);
    if (die == 0) return 0;
    double x0 = photo->w, y0 = photo->h, x1 = 0, y1 = 0, margin = g->zoom_margin * die;
    for (int i = 0; i < n_found; i++) {
        if (!yz_vision_sure_die(&found[i], &nets->tuning)) continue;
        x0 = fmin(x0, found[i].cx - found[i].w / 2);
        x1 = fmax(x1, found[i].cx + found[i].w / 2);
        y0 = fmin(y0, found[i].cy - found[i].h / 2);
        y1 = fmax(y1, found[i].cy + found[i].h / 2);
    }
    double need = fmax(x1 - x0, y1 - y0) + 2 * margin;
    double zoom = fmin(g->typical_die / die, g->det_side / need);
    *for_overlap = 0;
    if (zoom < nets->tuning.zoom_worth * scale) {
        /* Where sure dice overlap, one may hide another behind it, which the detector parts
         * from it only with dice of about overlap_die canvas pixels: any closer look is worth
         * taking. */
        if (nets->tuning.overlap_die <= 0 || !sure_dice_overlap(&nets->tuning, found, n_found))
            return 0;
        zoom = fmin(nets->tuning.overlap_die / die, g->det_side / need);
        if (zoom <= scale) return 0;
        *for_overlap = 1;
    }
    /* A det_side canvas at that scale, centred on the dice and kept inside the photo; for a
     * look at overlapping dice, a canvas of the first look's shape, so that the net keeps its
     * buffers (OpenCV takes about 7 ms to set up for another shape). */
    double side = g->det_side / zoom, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    int w = (int)fmin(photo->w, floor(side)), h = (int)fmin(photo->h, floor(side));
    if (*for_overlap) /* zoom > scale: a part of the photo */
        w = (int)floor(photo->w * scale / zoom), h = (int)floor(photo->h * scale / zoom);
    int left = (int)lround(cx - w / 2.0), top = (int)lround(cy - h / 2.0);
    window[0] = left < 0 ? 0 : left + w > photo->w ? photo->w - w : left;
    window[1] = top < 0 ? 0 : top + h > photo->h ? photo->h - h : top;
    window[2] = w;
    window[3] = h;
    return zoom;
}

/* How many of the peaks (unexplained places aside) have their centre in the box of `die`. */
static int centres_in_box(const yz_vision_candidate *die, const yz_vision_candidate *found,
                          int n_found)
{
    int inside = 0;
    for (int i = 0; i < n_found; i++)
        inside += !found[i].unexplained && fabs(found[i].cx - die->cx) < die->w / 2 &&
                  fabs(found[i].cy - die->cy) < die->h / 2;
    return inside;
}

/* The sure dice of `dice` that hold the centres of two or more peaks of `peaks` in their boxes,
 * copied to holding (when not NULL); returns how many. One die seen as several, when dice and
 * peaks are one look; when they are a look from farther back and a closer one, the closer look
 * broke that die apart. */
static int dice_holding_peaks(const yz_vision_tuning *tuning, const yz_vision_candidate *dice,
                              int n_dice, const yz_vision_candidate *peaks, int n_peaks,
                              yz_vision_candidate *holding)
{
    int n_holding = 0;
    for (int k = 0; k < n_dice; k++)
        if (yz_vision_sure_die(&dice[k], tuning) && centres_in_box(&dice[k], peaks, n_peaks) >= 2) {
            if (holding) holding[n_holding] = dice[k];
            n_holding++;
        }
    return n_holding;
}

/* Whether a die of the farther look that holds two or more of the closer look's peaks is a die
 * to the die-or-not net. On a speckled or patterned ground the closer look finds false peaks
 * beside the dice, and the farther look merges ground and dice into large blobs that hold them:
 * those blobs are not dice, and stepping back to them would lose every die. */
static int dice_broken_apart(const yz_vision_nets *nets, const yz_vision_image *photo,
                             const yz_vision_candidate *farther, int n_farther,
                             const yz_vision_candidate *closer, int n_closer,
                             yz_vision_status *status)
{
    yz_vision_candidate holding[YZ_VISION_MAX_CANDIDATES];
    float p_die[YZ_VISION_MAX_CANDIDATES];
    int n_holding =
        dice_holding_peaks(&nets->tuning, farther, n_farther, closer, n_closer, holding);
    if (n_holding == 0) return 0;
    *status = yz_vision_die_or_not(nets, photo, holding, n_holding, p_die);
    for (int k = 0; k < n_holding && *status == YZ_VISION_OK; k++)
        if (p_die[k] >= nets->tuning.min_die) return 1;
    return 0;
}

/* Dice far larger than the detector learned on (a photo taken close to them) break into
 * several peaks each, sure dice inside each other's boxes, whose guessed sides stop growing at
 * about 45 canvas pixels. Where the dice look that large, or a sure die's box holds another
 * peak's centre, step back: look at the whole photo half the size. The step is taken if it shows
 * one die where the closer look saw several, a die to the die-or-not net (dice_broken_apart),
 * and the dice no smaller than those that would get a second look (a die half behind another
 * is not two halves of one); found and *scale then become the farther look's. */
static yz_vision_status step_back(const yz_vision_nets *nets, const yz_vision_image *photo,
                                  yz_vision_candidate *found, int *n_found, double *scale)
{
    const yz_vision_tuning *tuning = &nets->tuning;
    int whole[4] = {0, 0, photo->w, photo->h};
    yz_vision_status status = YZ_VISION_OK;
    for (int step = 0; step < MAX_STEPS_BACK && status == YZ_VISION_OK; step++) {
        double median_side = yz_vision_median_sure_side(tuning, found, *n_found) * *scale;
        if (median_side <= DET_LARGE_DIE &&
            !dice_holding_peaks(tuning, found, *n_found, found, *n_found, NULL))
            break;
        yz_vision_candidate farther[YZ_VISION_MAX_CANDIDATES];
        int n_farther = 0;
        double farther_scale = *scale / 2;
        status = detect_in_window(nets, photo, whole, farther_scale, farther, &n_farther);
        double farther_side = yz_vision_median_sure_side(tuning, farther, n_farther);
        int step_back =
            status == YZ_VISION_OK &&
            farther_side * farther_scale >= nets->geometry.typical_die / tuning->zoom_worth &&
            dice_broken_apart(nets, photo, farther, n_farther, found, *n_found, &status);
        if (!step_back) break;
        /* A sure die of the closer look that no die of the step back holds stays, unless it is
         * far smaller than those (a piece of one): a die the frame's edge cuts through, too small
         * a part to see from farther, still refuses the photo. */
        for (int i = 0; i < *n_found && n_farther < YZ_VISION_MAX_CANDIDATES; i++) {
            int held = 0;
            for (int k = 0; k < n_farther && !held; k++)
                held = centres_in_box(&farther[k], &found[i], 1);
            if (yz_vision_sure_die(&found[i], tuning) && !held &&
                fmax(found[i].w, found[i].h) >= YZ_VISION_PIECE_OF_DIE * farther_side)
                farther[n_farther++] = found[i];
        }
        memcpy(found, farther, (size_t)n_farther * sizeof *found);
        *n_found = n_farther;
        *scale = farther_scale;
    }
    return status;
}

/* Whether the window's edge, where it is not the photo's, cuts through `c`'s box: part of a die
 * the first look saw whole, its centre elsewhere. */
static int cut_by_window(const yz_vision_image *photo, const int window[4],
                         const yz_vision_candidate *c)
{
    return (window[0] > 0 && c->cx - c->w / 2 < window[0]) ||
           (window[1] > 0 && c->cy - c->h / 2 < window[1]) ||
           (window[0] + window[2] < photo->w && c->cx + c->w / 2 > window[0] + window[2]) ||
           (window[1] + window[3] < photo->h && c->cy + c->h / 2 > window[1] + window[3]);
}

/* A look taken only for a die hidden half behind another adds the dice it alone sees to those
 * `found` by the first, but none the window's edge cuts. A peak of the closer look is a die the
 * first saw when it is the nearest of the closer peaks to that die: the closer look keeps one
 * peak per die, so a second peak near one merged box (a die half behind another, boxed with it
 * at the first look) is a die of its own. A die of the first keeps its box, of a size the
 * detector reads well, unless an added die lies in it: then it was two dice merged, and the
 * closer look's box is its. */
static void add_what_only_it_sees(const yz_vision_image *photo, const int window[4],
                                  const yz_vision_candidate *closer, int n_closer,
                                  yz_vision_candidate *found, int *n_found)
{
    int n_first = *n_found, seen_by[YZ_VISION_MAX_CANDIDATES];
    double away[YZ_VISION_MAX_CANDIDATES];
    for (int i = 0; i < n_closer; i++) {
        seen_by[i] = -1;
        for (int k = 0; k < n_first; k++) {
            double d = centres_apart(&closer[i], &found[k]);
            if (same_die(&closer[i], &found[k]) && (seen_by[i] < 0 || d < away[i])) {
                seen_by[i] = k;
                away[i] = d;
            }
        }
    }
    for (int i = 0; i < n_closer; i++)
        for (int j = 0; j < n_closer && seen_by[i] >= 0; j++)
            if (j != i && seen_by[j] == seen_by[i] && away[j] < away[i]) seen_by[i] = -1;
    for (int i = 0; i < n_closer && *n_found < YZ_VISION_MAX_CANDIDATES; i++) {
        if (seen_by[i] >= 0 || cut_by_window(photo, window, &closer[i])) continue;
        for (int m = 0; m < n_closer; m++)
            if (seen_by[m] >= 0 && centres_in_box(&found[seen_by[m]], &closer[i], 1))
                found[seen_by[m]] = closer[m];
        found[(*n_found)++] = closer[i];
    }
}

/* The detector's peaks, strongest first, each a different die, then the unexplained places; for
 * dice too large, from farther back (step_back); for small dice, from a second look at the part
 * of the photo they are in; where dice overlap, with what a closer look alone sees added. */
yz_vision_status yz_vision_find_dice(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     yz_vision_candidate *found, int *n_found)
{
    int whole[4] = {0, 0, photo->w, photo->h}, window[4];
    double scale = (double)nets->geometry.det_side / (photo->w > photo->h ? photo->w : photo->h);
    yz_vision_status status = detect_in_window(nets, photo, whole, scale, found, n_found);
    if (status == YZ_VISION_OK) status = step_back(nets, photo, found, n_found, &scale);
    if (status != YZ_VISION_OK) return status;
    int for_overlap = 0;
    double zoom = zoom_window(nets, photo, found, *n_found, scale, window, &for_overlap);
    if (zoom == 0) return YZ_VISION_OK;
    if (for_overlap) {
        yz_vision_candidate closer[YZ_VISION_MAX_CANDIDATES];
        int n_closer = 0;
        status = detect_in_window(nets, photo, window, zoom, closer, &n_closer);
        add_what_only_it_sees(photo, window, closer, n_closer, found, n_found);
        return status;
    }
    /* The closer look replaces the first inside its window; outside it, the first look's
     * weaker candidates stay, so a photo is never read with fewer dice for having zoomed. */
    yz_vision_candidate first[YZ_VISION_MAX_CANDIDATES];
    int n_first = *n_found;
    memcpy(first, found, (size_t)n_first * sizeof *found);
    status = detect_in_window(nets, photo, window, zoom, found, n_found);
    for (int i = 0; i < n_first && status == YZ_VISION_OK; i++) {
        int inside = first[i].cx >= window[0] && first[i].cx < window[0] + window[2] &&
                     first[i].cy >= window[1] && first[i].cy < window[1] + window[3];
        if (!inside && *n_found < YZ_VISION_MAX_CANDIDATES) found[(*n_found)++] = first[i];
    }
    return status;
}

int yz_vision_testing_closer_look(int photo_w, int photo_h, const int window[4],
                                  const double first[][4], int n_first, const double closer[][4],
                                  int n_closer, double dice[][4])
{
    yz_vision_image photo = {photo_w, photo_h, NULL};
    yz_vision_candidate found[YZ_VISION_MAX_CANDIDATES], seen[YZ_VISION_MAX_CANDIDATES];
    for (int i = 0; i < n_first; i++)
        found[i] = (yz_vision_candidate){1, first[i][0], first[i][1], first[i][2], first[i][3], 0};
    for (int i = 0; i < n_closer; i++)
        seen[i] =
            (yz_vision_candidate){1, closer[i][0], closer[i][1], closer[i][2], closer[i][3], 0};
    int n_found = n_first;
    add_what_only_it_sees(&photo, window, seen, n_closer, found, &n_found);
    for (int i = 0; i < n_found; i++) {
        dice[i][0] = found[i].cx;
        dice[i][1] = found[i].cy;
        dice[i][2] = found[i].w;
        dice[i][3] = found[i].h;
    }
    return n_found;
}
