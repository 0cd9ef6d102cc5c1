/* pipeline.c - from an upright working-size photo to the dice and the values of their top
 * faces, with four small learned nets (the .onnx files in models/, trained by
 * tools/train_reader.py, tools/train_top_face.py and tools/train_face_reader.py on rendered
 * lawn scenes and the shared photo sets; those scripts say how to regenerate them).
 *
 * How it reads a photo:
 *  1. Find. The photo, shrunk to a DET_SIDE long side, goes through the detector, which scores
 *     every 4x4 cell as a die's centre and guesses that die's box. Dice that touch still have
 *     separate centres, which colour segmentation could not promise. A local maximum scoring
 *     DIE_SCORE or more is a die; one closer to a stronger one than SAME_DIE die sides is the
 *     same die. A maximum between DOUBT_SCORE and DIE_SCORE may be a die: unless the readers
 *     see no die there, it counts, so the photo is never read without it. So do scores of
 *     DOUBT_SCORE or more that no die accounts for (see add_unexplained): a die merged into its
 *     neighbour, or one half hidden behind it. Dice far smaller than those the detector
 *     learned on (a far or high camera) get a second look: the part of the photo they are in,
 *     enlarged until they are of the usual size (zoom_window). Dice far larger than it learned
 *     on (a photo taken close to them) break into several peaks each: a step back looks at the
 *     photo halved, and is taken when it sees one die where the first look saw several.
 *  2. Read. A square of CROP_SCALE times the die's box is cut around each centre and given
 *     (with its mirror image) to the reader, which sees the whole die and says which value its
 *     TOP face shows, or that no top face can be read there. The side faces show pips too; the
 *     reader was trained on whole dice labelled with their top value, so it learned to ignore
 *     them. A third net finds the top face's corners in the same crop; the top face is cut out
 *     along them, warped flat, and read again by a fourth net that sees only that face's pips.
 *     The two readings make one (combine_readers): the value is trusted only when both readers
 *     favour it. The annotated photo shows which face was read.
 *  3. Verdict. A die is certain when the combined probability for its value is at least
 *     MIN_CONFIDENCE, unless its box or its top face sticks out of the photo (cut off by the
 *     edge) or its box is much larger than the other dice's (two touching dice seen as one);
 *     the photo is ok only when the expected number of dice was found and every one is certain.
 * The only sizes are fractions of each die's measured box, and the nets' fixed input sizes.
 * The thresholds were read off the held-out validation scenes of the training set.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "internal.h"
#include "vision_testing.h"

#define DET_SIDE 320 /* detector canvas's long side; must match tools/train_reader.py */
#define DET_STRIDE 4 /* detector output cell, canvas pixels */
#define DET_ALIGN 16 /* the detector's coarsest stride: its canvas sides are multiples of it */
#define CROP 64        /* reader input; must match tools/train_reader.py */
#define CROP_SCALE 1.3 /* crop side / die box long side; ditto */
#define N_CLASSES 7    /* 0 = no readable top face, 1..6 */
#define MAX_CANDIDATES 64
#define DIE_SCORE 0.50      /* detector score from which a peak is a die */
#define DOUBT_SCORE 0.25    /* ... from which it may be one */
#define MIN_CONFIDENCE 0.90 /* combined readers' probability from which a value is trusted */
#define SAME_DIE 0.35       /* peaks closer than this many die sides are one die */
#define EXPLAINED 0.5       /* a die accounts for the detector's scores this near it */
#define TWO_DICE_SIDE 1.45  /* a box this many times the dice's size may be two dice */
#define OUT_OF_FRAME 0.1    /* a die whose box or top face reaches this far (in die sides) out of
                               the photo is cut off */
#define EDGE_NEAR 0.25      /* a box this near the photo's edge (in the die sides expected there)
                               may be a die the edge cuts through... */
#define EDGE_SMALL 0.71     /* ... when its long side is under this share of the side expected:
                               turning a die by 45 degrees widens its box by up to 1.41 times,
                               so a whole die is not much smaller than its neighbours' sizes
                               predict */
#define SIZE_LINE_SPAN 0.15 /* other dice spread over this share of the photo's height to fit
                               their sizes against their heights */
#define DET_TYPICAL_DIE 24.0 /* median die side in the detector's training canvases, pixels */
#define ZOOM_WORTH 1.3      /* a second look is worth it when it enlarges the dice this much:
                               at 16-18 canvas pixels (1.5 down to 1.3 times under the usual
                               24) touching dice were still merged or loosely boxed; a second
                               look costs about 9 ms */
#define ZOOM_MARGIN 1.0     /* ... around the dice, in die sides */
#define DET_LARGE_DIE 32.0  /* sure dice with a median side above this (canvas pixels) may be
                               too large for the detector: a photo taken close to them */
#define PIECE_OF_DIE 0.5    /* a peak under this share of the dice's side is a piece of one */
#define MAX_STEPS_BACK 3    /* looks at such a photo halved, at most (down to 1/8 the size) */

#define DETECTOR_FILE "dice_detector.onnx"
#define READER_FILE "top_reader.onnx"
#define TOP_FACE_FILE "top_face.onnx"
#define FACE_READER_FILE "face_reader.onnx"
#define FACE 32            /* face reader input; must match tools/train_face_reader.py */
#define FACE_MARGIN 0.15   /* the top face's quad grown by this share about its centre; ditto */
#define MAX_FACE_OUTSIDE 0.25 /* a top face this much outside the photo is read no more: where it
                                 is, the top-face net guessed its corners */

typedef struct {
    double score;
    double cx, cy, w, h; /* working-size pixels */
    int unexplained;     /* not a peak: detector mass no peak accounts for */
} candidate;

typedef struct {
    float p[N_CLASSES];  /* the two readers' combined probabilities: no readable top, 1..6 */
    double top[4][2];    /* the top face's corners, working-size pixels */
    int top_completed;   /* part of the top face lay outside the photo, filled from its twin */
} reading;

struct yz_vision_nets {
    yz_cv_net *detector, *reader, *top_face, *face_reader;
};

static yz_vision_status load_net(const char *dir, const char *file, yz_cv_net **net,
                                 yz_vision_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return yz_vision_fail(err, YZ_VISION_ERR_IO, path,
                              "model missing (set YARDZEE_MODELS to the models directory)");
    fclose(probe);
    if (yz_cv_net_load(path, net))
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, path, "not a model OpenCV can load");
    return YZ_VISION_OK;
}

void yz_vision_nets_free(yz_vision_nets *nets)
{
    if (!nets) return;
    yz_cv_net_free(nets->detector);
    yz_cv_net_free(nets->reader);
    yz_cv_net_free(nets->top_face);
    yz_cv_net_free(nets->face_reader);
    yz_vision_release(nets);
}

yz_vision_status yz_vision_nets_load(const char *chosen_dir, yz_vision_nets **nets,
                                     yz_vision_error *err)
{
    *nets = yz_vision_alloc(sizeof **nets);
    if (!*nets) return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, "(models)", "out of memory");
    memset(*nets, 0, sizeof **nets);
    char dir_buf[4096];
    const char *dir = yz_vision_models_dir(chosen_dir, dir_buf, sizeof dir_buf);
    yz_vision_status status = load_net(dir, DETECTOR_FILE, &(*nets)->detector, err);
    if (status == YZ_VISION_OK) status = load_net(dir, READER_FILE, &(*nets)->reader, err);
    if (status == YZ_VISION_OK) status = load_net(dir, TOP_FACE_FILE, &(*nets)->top_face, err);
    if (status == YZ_VISION_OK)
        status = load_net(dir, FACE_READER_FILE, &(*nets)->face_reader, err);
    if (status != YZ_VISION_OK) {
        yz_vision_nets_free(*nets);
        *nets = NULL;
    }
    return status;
}

static int by_score(const void *a, const void *b)
{
    double sa = ((const candidate *)a)->score, sb = ((const candidate *)b)->score;
    return (sa < sb) - (sa > sb);
}

/* Keeps the strongest peak of each die: a weaker one closer to it than a third of the smaller
 * of the two dice is the same die. Touching dice are a whole die apart; perspective puts one
 * die half behind another, closer than that, but never a third of a die. */
static void one_peak_per_die(candidate *found, int *n_found)
{
    qsort(found, (size_t)*n_found, sizeof *found, by_score);
    int kept = 0;
    for (int i = 0; i < *n_found; i++) {
        int same = 0;
        for (int k = 0; k < kept && !same; k++) {
            double reach =
                SAME_DIE * fmin(fmax(found[k].w, found[k].h), fmax(found[i].w, found[i].h));
            same = hypot(found[i].cx - found[k].cx, found[i].cy - found[k].cy) < reach;
        }
        if (!same) found[kept++] = found[i];
    }
    *n_found = kept;
}

/* A die the detector merged into its neighbour leaves no peak of its own, only scores of
 * DOUBT_SCORE or more farther from every found die than EXPLAINED die sides. Each such place
 * becomes an unexplained candidate (which then accounts for the cells around it): it counts as
 * a die, so the photo is never read one die short, and is certain only if the readers agree on
 * its value. */
static void add_unexplained(const float *heat, const float *width, const float *height,
                            int grid_w, int cells_w, int cells_h, double to_photo,
                            candidate *found, int *n_found)
{
    for (int y = 0; y < cells_h; y++)
        for (int x = 0; x < cells_w; x++) {
            float score = heat[y * grid_w + x];
            if (score < DOUBT_SCORE) continue;
            double cx = (x + 0.5) * DET_STRIDE * to_photo, cy = (y + 0.5) * DET_STRIDE * to_photo;
            int explained = 0;
            for (int k = 0; k < *n_found && !explained; k++)
                explained = hypot(cx - found[k].cx, cy - found[k].cy) <=
                            EXPLAINED * fmax(found[k].w, found[k].h);
            if (explained || *n_found == MAX_CANDIDATES) continue;
            found[(*n_found)++] =
                (candidate){score, cx, cy, fmax(1.0, width[y * grid_w + x] * 32 * to_photo),
                            fmax(1.0, height[y * grid_w + x] * 32 * to_photo), 1};
        }
}

/* The detector's peaks in one window of the photo (working-size pixels), shrunk or enlarged by
 * `scale` into the top-left of the canvas; candidates come back in photo coordinates. The net
 * is fully convolutional, so the canvas is only as large as the window needs (rounded up to
 * DET_ALIGN): a 4:3 photo costs three quarters of a square canvas, a small window less. */
static int detect_in_window(yz_cv_net *detector, const yz_vision_image *photo, const int window[4],
                            double scale, candidate *found, int *n_found)
{
    int status = 0;
    int shrunk_w = (int)lround(window[2] * scale), shrunk_h = (int)lround(window[3] * scale);
    shrunk_w = shrunk_w < 1 ? 1 : shrunk_w > DET_SIDE ? DET_SIDE : shrunk_w;
    shrunk_h = shrunk_h < 1 ? 1 : shrunk_h > DET_SIDE ? DET_SIDE : shrunk_h;
    int canvas_w = (shrunk_w + DET_ALIGN - 1) / DET_ALIGN * DET_ALIGN,
        canvas_h = (shrunk_h + DET_ALIGN - 1) / DET_ALIGN * DET_ALIGN;
    int grid_w = canvas_w / DET_STRIDE, grid_h = canvas_h / DET_STRIDE;
    size_t n_out = 3 * (size_t)grid_w * grid_h;
    uint8_t *canvas = yz_vision_alloc((size_t)canvas_w * canvas_h * 3);
    float *out = yz_vision_alloc(n_out * sizeof(float));
    if (!canvas || !out) {
        status = -1;
        goto done;
    }
    memset(canvas, 0, (size_t)canvas_w * canvas_h * 3);
    yz_cv_image source = {window[2], window[3], 3, photo->w * 3,
                          photo->rgb + ((size_t)window[1] * photo->w + window[0]) * 3};
    yz_cv_image shrunk = {shrunk_w, shrunk_h, 3, canvas_w * 3, canvas}; /* top-left of canvas */
    yz_cv_image input = {canvas_w, canvas_h, 3, canvas_w * 3, canvas};
    int n_values = 0;
    if (yz_cv_resize_area(&source, &shrunk) ||
        yz_cv_net_run(detector, &input, 1, out, (int)n_out, &n_values) || n_values != (int)n_out) {
        status = 1;
        goto done;
    }
    const float *heat = out, *width = out + grid_w * grid_h, *height = width + grid_w * grid_h;
    int cells_w = (shrunk_w + DET_STRIDE - 1) / DET_STRIDE,
        cells_h = (shrunk_h + DET_STRIDE - 1) / DET_STRIDE;
    double to_photo = 1.0 / scale;
    *n_found = 0;
    for (int y = 0; y < cells_h; y++)
        for (int x = 0; x < cells_w; x++) {
            float score = heat[y * grid_w + x];
            if (score < DOUBT_SCORE) continue;
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
            if (!peak || *n_found == MAX_CANDIDATES) continue;
            candidate *c = &found[(*n_found)++];
            c->score = score;
            c->cx = (x + 0.5 + sx / sum) * DET_STRIDE * to_photo;
            c->cy = (y + 0.5 + sy / sum) * DET_STRIDE * to_photo;
            c->w = fmax(1.0, width[y * grid_w + x] * 32 * to_photo);
            c->h = fmax(1.0, height[y * grid_w + x] * 32 * to_photo);
            c->unexplained = 0;
        }
    one_peak_per_die(found, n_found);
    add_unexplained(heat, width, height, grid_w, cells_w, cells_h, to_photo, found, n_found);
    for (int i = 0; i < *n_found; i++) {
        found[i].cx += window[0];
        found[i].cy += window[1];
    }
done:
    yz_vision_release(canvas);
    yz_vision_release(out);
    return status;
}

static int by_double(const void *a, const void *b)
{
    return (*(const double *)a > *(const double *)b) - (*(const double *)a < *(const double *)b);
}

/* The median of n > 0 values (the upper one of an even count); sorts them. */
static double median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, by_double);
    return values[n / 2];
}

/* A peak strong enough to be a die by itself. */
static int sure(const candidate *c)
{
    return c->score >= DIE_SCORE && !c->unexplained;
}

/* The median long side of the sure dice found (photo pixels), 0 when there are none. */
static double median_sure_side(const candidate *found, int n_found)
{
    double sides[MAX_CANDIDATES];
    int n = 0;
    for (int i = 0; i < n_found; i++)
        if (sure(&found[i])) sides[n++] = fmax(found[i].w, found[i].h);
    return n ? median(sides, n) : 0;
}

/* Where a second, closer look would show small dice at the size the detector knows best: a
 * window around every sure die (with ZOOM_MARGIN die sides to spare), enlarged so their median
 * die is DET_TYPICAL_DIE canvas pixels, or as much as fits. Returns the scale, or 0 when it
 * would not enlarge them ZOOM_WORTH times the first look's `scale`. */
static double zoom_window(const yz_vision_image *photo, const candidate *found, int n_found,
                          double scale, int window[4])
{
    double die = median_sure_side(found, n_found);
    if (die == 0) return 0;
    double x0 = photo->w, y0 = photo->h, x1 = 0, y1 = 0, margin = ZOOM_MARGIN * die;
    for (int i = 0; i < n_found; i++) {
        if (!sure(&found[i])) continue;
        x0 = fmin(x0, found[i].cx - found[i].w / 2);
        x1 = fmax(x1, found[i].cx + found[i].w / 2);
        y0 = fmin(y0, found[i].cy - found[i].h / 2);
        y1 = fmax(y1, found[i].cy + found[i].h / 2);
    }
    double need = fmax(x1 - x0, y1 - y0) + 2 * margin;
    double zoom = fmin(DET_TYPICAL_DIE / die, DET_SIDE / need);
    if (zoom < ZOOM_WORTH * scale) return 0;
    /* A DET_SIDE canvas at that scale, centred on the dice and kept inside the photo. */
    double side = DET_SIDE / zoom, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    int w = (int)fmin(photo->w, floor(side)), h = (int)fmin(photo->h, floor(side));
    int left = (int)lround(cx - w / 2.0), top = (int)lround(cy - h / 2.0);
    window[0] = left < 0 ? 0 : left + w > photo->w ? photo->w - w : left;
    window[1] = top < 0 ? 0 : top + h > photo->h ? photo->h - h : top;
    window[2] = w;
    window[3] = h;
    return zoom;
}

/* How many of the peaks (unexplained places aside) have their centre in the box of `die`. */
static int centres_in_box(const candidate *die, const candidate *found, int n_found)
{
    int inside = 0;
    for (int i = 0; i < n_found; i++)
        inside += !found[i].unexplained && fabs(found[i].cx - die->cx) < die->w / 2 &&
                  fabs(found[i].cy - die->cy) < die->h / 2;
    return inside;
}

/* Whether some sure die of `dice` holds the centres of two or more peaks of `peaks` in its box:
 * one die seen as several, when dice and peaks are one look; when they are a look from farther
 * back and a closer one, the closer look broke that die apart. */
static int die_holding_peaks(const candidate *dice, int n_dice, const candidate *peaks,
                             int n_peaks)
{
    for (int k = 0; k < n_dice; k++)
        if (sure(&dice[k]) && centres_in_box(&dice[k], peaks, n_peaks) >= 2) return 1;
    return 0;
}

/* Dice far larger than the detector learned on (a photo taken close to them) break into
 * several peaks each, sure dice inside each other's boxes, whose guessed sides stop growing at
 * about 45 canvas pixels. Where the dice look that large, or a sure die's box holds another
 * peak's centre, step back: look at the whole photo half the size. The step is taken if it shows
 * one die where the closer look saw several, and the dice no smaller than those that would get a
 * second look (a die half behind another is not two halves of one); found and *scale then
 * become the farther look's. Returns the detector's status. */
static int step_back(yz_cv_net *detector, const yz_vision_image *photo, candidate *found,
                     int *n_found, double *scale)
{
    int whole[4] = {0, 0, photo->w, photo->h}, status = 0;
    for (int step = 0; step < MAX_STEPS_BACK && !status; step++) {
        double median_side = median_sure_side(found, *n_found) * *scale;
        if (median_side <= DET_LARGE_DIE && !die_holding_peaks(found, *n_found, found, *n_found))
            break;
        candidate farther[MAX_CANDIDATES];
        int n_farther = 0;
        double farther_scale = *scale / 2;
        status = detect_in_window(detector, photo, whole, farther_scale, farther, &n_farther);
        double farther_side = median_sure_side(farther, n_farther);
        int step_back = !status && die_holding_peaks(farther, n_farther, found, *n_found) &&
                        farther_side * farther_scale >= DET_TYPICAL_DIE / ZOOM_WORTH;
        if (!step_back) break;
        /* A sure die of the closer look that no die of the step back holds stays, unless it is
         * far smaller than those (a piece of one): a die the frame's edge cuts through, too small
         * a part to see from farther, still refuses the photo. */
        for (int i = 0; i < *n_found && n_farther < MAX_CANDIDATES; i++) {
            int held = 0;
            for (int k = 0; k < n_farther && !held; k++)
                held = centres_in_box(&farther[k], &found[i], 1);
            if (sure(&found[i]) && !held &&
                fmax(found[i].w, found[i].h) >= PIECE_OF_DIE * farther_side)
                farther[n_farther++] = found[i];
        }
        memcpy(found, farther, (size_t)n_farther * sizeof *found);
        *n_found = n_farther;
        *scale = farther_scale;
    }
    return status;
}

/* Step 1: the detector's peaks, strongest first, each a different die, then the unexplained
 * places; for dice too large, from farther back (step_back); for small dice, from a second look
 * at the part of the photo they are in. */
static int find_dice(yz_cv_net *detector, const yz_vision_image *photo, candidate *found,
                     int *n_found)
{
    int whole[4] = {0, 0, photo->w, photo->h}, window[4];
    double scale = (double)DET_SIDE / (photo->w > photo->h ? photo->w : photo->h);
    int status = detect_in_window(detector, photo, whole, scale, found, n_found);
    if (!status) status = step_back(detector, photo, found, n_found, &scale);
    if (status) return status;
    double zoom = zoom_window(photo, found, *n_found, scale, window);
    if (zoom == 0) return 0;
    /* The closer look replaces the first inside its window; outside it, the first look's
     * weaker candidates stay, so a photo is never read with fewer dice for having zoomed. */
    candidate first[MAX_CANDIDATES];
    int n_first = *n_found;
    memcpy(first, found, (size_t)n_first * sizeof *found);
    status = detect_in_window(detector, photo, window, zoom, found, n_found);
    for (int i = 0; i < n_first && !status; i++) {
        int inside = first[i].cx >= window[0] && first[i].cx < window[0] + window[2] &&
                     first[i].cy >= window[1] && first[i].cy < window[1] + window[3];
        if (!inside && *n_found < MAX_CANDIDATES) found[(*n_found)++] = first[i];
    }
    return status;
}

static int most_likely(const float *p)
{
    int best = 0;
    for (int k = 1; k < N_CLASSES; k++)
        if (p[k] > p[best]) best = k;
    return best;
}

/* The two readers' probabilities for one die as one. Where both readers' most likely value is
 * the same, the normalised geometric mean: each was trained to be right alone and they look at
 * the die differently (the whole die with its side faces; the top face alone, flattened), so
 * two readers leaning the same way make a surer reading than either one, and a value one of
 * them all but rules out stays unlikely. Where they disagree, the plain mean: no value then
 * gets more than 0.75 (each reader gives any value but its own favourite at most a half), so
 * the die stays below MIN_CONFIDENCE, uncertain. A product of the two instead lets a sure
 * reader outvote a split one: on the webcam photos it read a 2 as a sure 1. */
static void combine_readers(const float *whole_die, const float *face, float *combined)
{
    int agree = most_likely(whole_die) == most_likely(face);
    double sum = 0;
    for (int k = 0; k < N_CLASSES; k++) {
        combined[k] = (float)(agree ? sqrt((double)whole_die[k] * face[k])
                                    : 0.5 * ((double)whole_die[k] + face[k]));
        sum += combined[k];
    }
    for (int k = 0; k < N_CLASSES; k++)
        combined[k] = sum > 0 ? (float)(combined[k] / sum) : (float)(k == 0);
}

/* The side of the square a die's reader crop is cut from, photo pixels. */
static double crop_side(const candidate *c)
{
    return CROP_SCALE * fmax(c->w, c->h);
}

/* The quad the face reader's input is cut along: the top-face net's corners (x0 y0 .. x3 y3
 * in crop widths) in crop pixels, grown by FACE_MARGIN about their centre so that a corner
 * placed a little inside the face loses no pip. */
static void face_in_crop(const float corners[8], yz_cv_point quad[4])
{
    double mx = 0.25 * (corners[0] + corners[2] + corners[4] + corners[6]);
    double my = 0.25 * (corners[1] + corners[3] + corners[5] + corners[7]);
    for (int k = 0; k < 4; k++)
        quad[k] = (yz_cv_point){(float)((mx + (corners[2 * k] - mx) * (1 + FACE_MARGIN)) * CROP),
                                (float)((my + (corners[2 * k + 1] - my) * (1 + FACE_MARGIN)) * CROP)};
}

/* The perspective map taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to a quad's
 * four corners in that order: the map a warp along the quad inverts. */
typedef struct {
    double a, b, c, d, e, f, g, h; /* (u, v) -> (a u + b v + c, d u + e v + f) / (g u + h v + 1) */
} square_to_quad;

static square_to_quad perspective_of(const double x[4], const double y[4])
{
    double dx1 = x[1] - x[2], dx2 = x[3] - x[2], dx3 = x[0] - x[1] + x[2] - x[3];
    double dy1 = y[1] - y[2], dy2 = y[3] - y[2], dy3 = y[0] - y[1] + y[2] - y[3];
    double det = dx1 * dy2 - dx2 * dy1;
    double g = det != 0 ? (dx3 * dy2 - dx2 * dy3) / det : 0;
    double h = det != 0 ? (dx1 * dy3 - dx3 * dy1) / det : 0;
    return (square_to_quad){x[1] - x[0] + g * x[1], x[3] - x[0] + h * x[3], x[0],
                            y[1] - y[0] + g * y[1], y[3] - y[0] + h * y[3], y[0], g, h};
}

/* A top face the photo's edge cuts through, made whole where it can be: every die's pips lie in
 * pairs symmetric about the face's centre (1, 3 and 5 have one at the centre itself), so a pixel
 * of the face outside the photo shows what its twin across the centre shows. The face was warped
 * along quad (crop pixels) out of a crop whose pixel (0, 0) is the photo's (x0, y0) and whose
 * pixels are `scale` photo pixels; outside the photo the warp repeated the edge's pixels.
 * Returns 1 when it filled the face's pixels outside the photo from their twins; 0, leaving the
 * face as it was, when none is outside, when a twin is outside too, or when more than
 * MAX_FACE_OUTSIDE of the face is. */
static int complete_cut_face(yz_cv_image *face, const yz_cv_point quad[4], double x0, double y0,
                             double scale, int photo_w, int photo_h)
{
    double xs[4], ys[4]; /* the quad in photo pixels */
    for (int k = 0; k < 4; k++) {
        xs[k] = x0 + quad[k].x * scale;
        ys[k] = y0 + quad[k].y * scale;
    }
    square_to_quad map = perspective_of(xs, ys);
    /* The warp took face pixel (x, y) from point (x/FACE, y/FACE) of the quad's square, so the
     * twin across the centre of pixel (x, y) is point (FACE - x, FACE - y) of this grid; pixel
     * FACE - 1 stands in for the twin pixel FACE of the first row and column. */
    int outside[FACE + 1][FACE + 1];
    for (int y = 0; y <= FACE; y++)
        for (int x = 0; x <= FACE; x++) {
            double u = (double)x / FACE, v = (double)y / FACE, w = map.g * u + map.h * v + 1;
            double px = (map.a * u + map.b * v + map.c) / w;
            double py = (map.d * u + map.e * v + map.f) / w;
            outside[y][x] = px < 0 || py < 0 || px > photo_w - 1 || py > photo_h - 1;
        }
    int any = 0, face_pixels = 0, face_outside = 0;
    double inner = 0.5 / (1 + FACE_MARGIN); /* the face proper, within the margin grown round it */
    for (int y = 0; y < FACE; y++)
        for (int x = 0; x < FACE; x++) {
            if (outside[y][x] && outside[FACE - y][FACE - x]) return 0;
            any |= outside[y][x];
            if (fabs((double)x / FACE - 0.5) <= inner && fabs((double)y / FACE - 0.5) <= inner) {
                face_pixels++;
                face_outside += outside[y][x];
            }
        }
    if (!any || face_outside > MAX_FACE_OUTSIDE * face_pixels) return 0;
    for (int y = 0; y < FACE; y++)
        for (int x = 0; x < FACE; x++)
            if (outside[y][x]) {
                int tx = x ? FACE - x : FACE - 1, ty = y ? FACE - y : FACE - 1;
                memcpy(face->data + y * face->stride + x * 3,
                       face->data + ty * face->stride + tx * 3, 3);
            }
    return 1;
}

/* Step 2: for each die, where its top face is and what its value is. The whole-die reader sees
 * the crop and its mirror image (a mirrored die is still a die showing the same value, and the
 * two views steady it where one alone is unsure); the top-face net finds the top face's corners
 * in the same crop; the face reader reads the face cut out along them and warped flat, with
 * a part the photo's edge cuts off filled in from the rest (complete_cut_face).
 * Measured and not done: reading the face in all eight of its turns and mirrors (which the
 * face reader learned to ignore) and averaging read fewer held-out renders and real photos
 * right, for eight face readings instead of one; cutting the crops of large dice with area
 * averaging instead of bilinear sampling (the training crops are mostly at their own size)
 * read no more right, and made one webcam photo wrongly sure; averaging the whole-die reader
 * over crops scaled 0.9 and 1.12 as well (scales it learned) read no more photos right, one
 * more die of 200 fresh renders, one fewer of 80 glaring ones and 4 fewer byler-d6 dice. */
static int read_tops(const yz_vision_nets *nets, const yz_vision_image *photo,
                     const candidate *found, int n_found, reading *readings)
{
    if (n_found == 0) return 0;
    int n_crops = 2 * n_found;
    size_t crop_bytes = (size_t)CROP * CROP * 3, face_bytes = (size_t)FACE * FACE * 3;
    uint8_t *pixels = yz_vision_alloc((size_t)n_crops * crop_bytes + (size_t)n_found * face_bytes);
    yz_cv_image *crops = yz_vision_alloc((size_t)(n_crops + n_found) * sizeof *crops);
    float *out = yz_vision_alloc((size_t)(n_crops + n_found) * N_CLASSES * sizeof *out);
    float *corners = yz_vision_alloc((size_t)n_found * 8 * sizeof *corners);
    int status = 0;
    if (!pixels || !crops || !out || !corners) {
        status = -1;
        goto done;
    }
    yz_cv_image *faces = crops + n_crops;
    float *face_out = out + (size_t)n_crops * N_CLASSES;
    yz_cv_image source = {photo->w, photo->h, 3, photo->w * 3, photo->rgb};
    for (int i = 0; i < n_found && !status; i++) {
        double half = 0.5 * crop_side(&found[i]);
        float x0 = (float)(found[i].cx - half), x1 = (float)(found[i].cx + half);
        float y0 = (float)(found[i].cy - half), y1 = (float)(found[i].cy + half);
        yz_cv_point square[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
        crops[i] = (yz_cv_image){CROP, CROP, 3, CROP * 3, pixels + (size_t)i * crop_bytes};
        crops[n_found + i] =
            (yz_cv_image){CROP, CROP, 3, CROP * 3, pixels + (size_t)(n_found + i) * crop_bytes};
        faces[i] = (yz_cv_image){FACE, FACE, 3, FACE * 3,
                                 pixels + (size_t)n_crops * crop_bytes + (size_t)i * face_bytes};
        status = yz_cv_warp_quad(&source, square, &crops[i]) != YZ_CV_OK;
        for (int y = 0; y < CROP && !status; y++)
            for (int x = 0; x < CROP; x++)
                memcpy(crops[n_found + i].data + (y * CROP + x) * 3,
                       crops[i].data + (y * CROP + CROP - 1 - x) * 3, 3);
    }
    int n_values = 0, n_corners = 0, n_face_values = 0;
    if (!status && (yz_cv_net_run(nets->reader, crops, n_crops, out, n_crops * N_CLASSES,
                                  &n_values) ||
                    n_values != n_crops * N_CLASSES ||
                    yz_cv_net_run(nets->top_face, crops, n_found, corners, n_found * 8,
                                  &n_corners) ||
                    n_corners != n_found * 8))
        status = 1;
    for (int i = 0; i < n_found && !status; i++) {
        yz_cv_point quad[4];
        face_in_crop(corners + i * 8, quad);
        status = yz_cv_warp_quad(&crops[i], quad, &faces[i]) != YZ_CV_OK;
        /* Only a die the detector is sure of: a weak peak whose readers see no top is dropped
         * as lawn (collect_dice), and what it is must not hang on a face made up. */
        double side = crop_side(&found[i]);
        readings[i].top_completed =
            !status && sure(&found[i]) &&
            complete_cut_face(&faces[i], quad, found[i].cx - 0.5 * side, found[i].cy - 0.5 * side,
                              side / CROP, photo->w, photo->h);
    }
    if (!status && (yz_cv_net_run(nets->face_reader, faces, n_found, face_out,
                                  n_found * N_CLASSES, &n_face_values) ||
                    n_face_values != n_found * N_CLASSES))
        status = 1;
    for (int i = 0; i < n_found && !status; i++) {
        float whole_die[N_CLASSES];
        for (int k = 0; k < N_CLASSES; k++)
            whole_die[k] = 0.5f * (out[i * N_CLASSES + k] + out[(n_found + i) * N_CLASSES + k]);
        combine_readers(whole_die, face_out + i * N_CLASSES, readings[i].p);
        /* Corners come in crop widths, across the square the crop was cut from. */
        double side = crop_side(&found[i]);
        for (int k = 0; k < 4; k++) {
            readings[i].top[k][0] = found[i].cx + (corners[i * 8 + 2 * k] - 0.5) * side;
            readings[i].top[k][1] = found[i].cy + (corners[i * 8 + 2 * k + 1] - 0.5) * side;
        }
    }
done:
    yz_vision_release(pixels);
    yz_vision_release(crops);
    yz_vision_release(out);
    yz_vision_release(corners);
    return status;
}

static int by_box_centre(const void *a, const void *b)
{
    const yz_vision_die *da = a, *db = b;
    double xa = da->box[0] + da->box[2] / 2.0, xb = db->box[0] + db->box[2] / 2.0;
    return (xa > xb) - (xa < xb);
}

static void collect_dice(const yz_vision_photo *photo, const candidate *found, int n_found,
                         const reading *readings, yz_vision_result *result)
{
    double to_full_x = (double)photo->full_w / photo->image.w;
    double to_full_y = (double)photo->full_h / photo->image.h;
    result->n_dice = 0;
    for (int i = 0; i < n_found && result->n_dice < YZ_VISION_MAX_DICE; i++) {
        const float *p = readings[i].p;
        int best = most_likely(p);
        /* A weak peak the reader sees no die in is lawn. A strong one stays: a die whose top
         * cannot be read still counts, and refuses the photo. Keeping weak peaks the frame's
         * edge cuts through too (a die's sliver, which the readers see no top in) gained
         * nothing with the committed nets: it catches no photo wrongly ok (v4_116's sliver has
         * no peak at all), two cut-off dice are refused as cut off rather than "found 4", but a
         * leaf (v4_183) and a webcam's USB hub (five_36) refuse good photos. Measured again on
         * 420 renders with a die across the frame's edge: it kept 6 of the 13 six-dice photos
         * that pass as five from passing, but refused 12 good photos elsewhere for grass or a
         * leaf at the edge (2 of 400 renders, a close-up, 8 of 1182 close crops, a webcam
         * photo). */
        if (found[i].score < DIE_SCORE && best == 0 && !found[i].unexplained) continue;
        yz_vision_die *die = &result->dice[result->n_dice++];
        memset(die, 0, sizeof *die);
        die->value = best;
        die->confidence = best ? p[best] : 0;
        /* However weakly the detector found it: both readers, each trained to see no die in a
         * crop of lawn or half a die, agree on a value there. Where the detector is unsure is
         * mostly a die half behind another, whose top the readers see whole. */
        die->certain = best && p[best] >= MIN_CONFIDENCE;
        die->box[0] = (int)lround((found[i].cx - found[i].w / 2) * to_full_x);
        die->box[1] = (int)lround((found[i].cy - found[i].h / 2) * to_full_y);
        die->box[2] = (int)lround(found[i].w * to_full_x);
        die->box[3] = (int)lround(found[i].h * to_full_y);
        for (int k = 0; k < 4; k++) {
            die->top[k][0] = readings[i].top[k][0] * to_full_x;
            die->top[k][1] = readings[i].top[k][1] * to_full_y;
        }
        die->top_completed = readings[i].top_completed;
    }
    qsort(result->dice, (size_t)result->n_dice, sizeof(yz_vision_die), by_box_centre);
}

static int long_side(const yz_vision_die *die)
{
    return die->box[2] > die->box[3] ? die->box[2] : die->box[3];
}

static int out_of_frame(const yz_vision_result *result, double x, double y, double margin)
{
    return x < margin || y < margin || result->image_w - x < margin || result->image_h - y < margin;
}

/* Whether the die's box comes within margin of the photo's edge (a negative margin: reaches
 * that far out of it). */
static int box_at_edge(const yz_vision_result *result, const yz_vision_die *die, double margin)
{
    return out_of_frame(result, die->box[0], die->box[1], margin) ||
           out_of_frame(result, die->box[0] + die->box[2], die->box[1] + die->box[3], margin);
}

static double box_centre_y(const yz_vision_die *die)
{
    return die->box[1] + 0.5 * die->box[3];
}

/* The long side a whole die would have at die `skip`'s place, from the other dice: in an
 * upright photo of dice on flat ground a die looks larger the lower it stands, about linearly in
 * its height in the picture (perspective), so a straight line through the others' sides against
 * their heights, never falling towards the bottom. Where the others stand at about one height
 * the line is not to be trusted, and their median side is the answer. Needs two other dice. */
static double expected_side(const yz_vision_result *result, int skip)
{
    double ys[YZ_VISION_MAX_DICE], sides[YZ_VISION_MAX_DICE];
    int n = 0;
    double y_min = INFINITY, y_max = -INFINITY, y_mean = 0, side_mean = 0;
    for (int k = 0; k < result->n_dice; k++) {
        if (k == skip) continue;
        ys[n] = box_centre_y(&result->dice[k]);
        sides[n] = long_side(&result->dice[k]);
        y_min = fmin(y_min, ys[n]);
        y_max = fmax(y_max, ys[n]);
        y_mean += ys[n];
        side_mean += sides[n];
        n++;
    }
    y_mean /= n;
    side_mean /= n;
    if (y_max - y_min < SIZE_LINE_SPAN * result->image_h) return median(sides, n);
    double covariance = 0, variance = 0;
    for (int k = 0; k < n; k++) {
        covariance += (ys[k] - y_mean) * (sides[k] - side_mean);
        variance += (ys[k] - y_mean) * (ys[k] - y_mean);
    }
    double slope = fmax(0, covariance / variance);
    return side_mean + slope * (box_centre_y(&result->dice[skip]) - y_mean);
}

/* Two touching dice the detector took for one leave one box much larger than the others: the
 * dice of one photo are one size, give or take perspective (in the renders the largest die is
 * at most 1.37 times the median die in 99 photos of 100). From close to the dice, perspective
 * makes the nearest twice the median and more, so a die is measured against the larger of the
 * median and the size the others predict at its place (expected_side). Measured against that
 * size alone, far dice seen with a side face were taken for two on standing-height renders.
 * Such a die is uncertain. Needs three dice to know the size. Returns the first such die's
 * index, or -1. */
static int distrust_two_dice_boxes(yz_vision_result *result, const double *expected)
{
    if (result->n_dice < 3) return -1;
    double sides[YZ_VISION_MAX_DICE];
    for (int k = 0; k < result->n_dice; k++)
        sides[k] = long_side(&result->dice[k]);
    double typical = median(sides, result->n_dice);
    int first = -1;
    for (int i = result->n_dice - 1; i >= 0; i--)
        if (long_side(&result->dice[i]) >
            TWO_DICE_SIDE * fmax(typical, expected[i])) {
            result->dice[i].certain = 0;
            first = i;
        }
    return first;
}

/* Whether the die's box comes within EDGE_NEAR die sides of the photo's edge while much
 * smaller than a whole die there would be: what shows may be the part of a die inside the
 * frame, whose box the detector drew around that part alone. On renders of dice across the
 * frame's edge, such a piece of a 2 or a 6 showed one pip on its visible corner, and the
 * readers called it a sure 1. */
static int looks_cut_by_edge(const yz_vision_result *result, int i, const double *expected)
{
    if (result->n_dice < 3) return 0;
    const yz_vision_die *die = &result->dice[i];
    double side = expected[i];
    return long_side(die) < EDGE_SMALL * side && box_at_edge(result, die, EDGE_NEAR * side);
}

/* A die the photo's edge cuts through may have part of its top face out of the frame, and the
 * pips there uncounted: a 4 with two pips cut off looks like a 2. The detector often still
 * guesses its whole box, and the top-face net the whole face; either sticking out makes the die
 * uncertain, and so does a box at the edge too small for a whole die (looks_cut_by_edge).
 * Unless the face was read whole, and surely, through the twins of its hidden part
 * (complete_cut_face): then the box and the face may stick out, for no pip can have been
 * missed. Only up to a quarter of
 * the face: farther out the net's corners are a guess (on a render it placed a small face on
 * the visible corner of a 4, read as a sure 1).
 * Returns the first one's index, or -1. */
static int distrust_cut_off_dice(yz_vision_result *result, const double *expected)
{
    int first = -1;
    for (int i = result->n_dice - 1; i >= 0; i--) {
        yz_vision_die *die = &result->dice[i];
        double margin = -OUT_OF_FRAME * long_side(die);
        int cut = looks_cut_by_edge(result, i, expected);
        if (!die->top_completed || !die->certain) {
            cut |= box_at_edge(result, die, margin);
            for (int k = 0; k < 4 && die->value; k++)
                cut |= out_of_frame(result, die->top[k][0], die->top[k][1], margin);
        }
        if (cut) {
            die->certain = 0;
            first = i;
        }
    }
    return first;
}

/* Refuses the photo: why (printf-style), and how to take one that reads. */
static void refuse(yz_vision_result *result, const char *retake, const char *why, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(yz_vision_result *result, const char *retake, const char *why, ...)
{
    result->status = YZ_VISION_READ_REFUSED;
    result->retake = retake;
    va_list args;
    va_start(args, why);
    vsnprintf(result->reason, sizeof result->reason, why, args);
    va_end(args);
}

static void give_verdict(yz_vision_result *result, int expect)
{
    result->status = YZ_VISION_READ_OK;
    result->reason[0] = '\0';
    result->retake = NULL;
    for (int i = 0; i < result->n_dice; i++)
        result->roll[i] = result->dice[i].value;
    /* Each die's expected size (expected_side), for both checks of boxes; needs three dice. */
    double expected[YZ_VISION_MAX_DICE];
    for (int i = 0; i < result->n_dice && result->n_dice >= 3; i++)
        expected[i] = expected_side(result, i);
    int two_dice = distrust_two_dice_boxes(result, expected),
        cut_off = distrust_cut_off_dice(result, expected);
    if (expect > 0 && result->n_dice < expect)
        refuse(result, "Take another photo from a little higher, with every die in the frame.",
               "found %d dice, expected %d; one may be hidden or out of frame", result->n_dice,
               expect);
    else if (expect > 0 && result->n_dice >= 2 * expect)
        /* Twice the dice a throw has: on the renders, only from close above, where a pip is
         * the size of a die and the detector takes each pip for one (10 to 23 of them). */
        refuse(result, "Take another photo from farther back, with the dice smaller in the frame.",
               "found %d dice, expected %d; the camera may be so close that pips look like dice",
               result->n_dice, expect);
    else if (expect > 0 && result->n_dice > expect)
        refuse(result, "Take another photo with only the dice of this throw in the frame.",
               "found %d dice, expected %d; something else may look like a die", result->n_dice,
               expect);
    else if (result->n_dice == 0)
        refuse(result, "Take another photo with the dice in the middle of the frame.",
               "found no dice");
    else if (cut_off >= 0)
        refuse(result, "Take another photo with every die well inside the frame.",
               "die %d (from the left) is cut off by the edge of the photo", cut_off + 1);
    else if (two_dice >= 0)
        refuse(result, "Take another photo from more directly above, so that the dice show apart.",
               "die %d (from the left) is much larger than the others: it may be two dice "
               "touching",
               two_dice + 1);
    else
        for (int i = 0; i < result->n_dice; i++)
            if (!result->dice[i].certain) {
                /* Most often a top face half behind another die, seen from low, or shining
                 * with the sun's glare: a higher viewpoint from another side helps both. */
                refuse(result,
                       "Take another photo from higher up, from another side if the sun glares "
                       "on the dice.",
                       "die %d (from the left) could not be read with confidence", i + 1);
                return;
            }
}

void yz_vision_testing_verdict(yz_vision_result *result, int expect)
{
    give_verdict(result, expect);
}

void yz_vision_testing_combine_readers(const float whole_die[7], const float face[7],
                                       float combined[7])
{
    combine_readers(whole_die, face, combined);
}

yz_vision_options yz_vision_default_options(void)
{
    yz_vision_options options = {5, 0, NULL, NULL};
    return options;
}

yz_vision_status yz_vision_read_photo(const yz_vision_photo *photo, const yz_vision_options *opts,
                                      yz_vision_result *result, yz_vision_error *err)
{
    yz_vision_options defaults = yz_vision_default_options();
    if (!opts) opts = &defaults;
    memset(result, 0, sizeof *result);
    result->image_w = photo->full_w;
    result->image_h = photo->full_h;
    yz_vision_nets *own_nets = NULL, *nets = opts->nets;
    candidate found[MAX_CANDIDATES];
    int n_found = 0;
    reading *readings = NULL;
    double started = yz_vision_now_ms();
    yz_vision_status status = YZ_VISION_OK;
    if (!nets) {
        status = yz_vision_nets_load(opts->models_dir, &own_nets, err);
        if (status != YZ_VISION_OK) goto done;
        nets = own_nets;
        result->ms_load = yz_vision_now_ms() - started;
        started = yz_vision_now_ms();
    }
    int failed = find_dice(nets->detector, &photo->image, found, &n_found);
    if (!failed) {
        result->ms_detect = yz_vision_now_ms() - started;
        started = yz_vision_now_ms();
        readings = yz_vision_alloc((size_t)(n_found ? n_found : 1) * sizeof *readings);
        failed = readings ? read_tops(nets, &photo->image, found, n_found, readings) : -1;
    }
    if (failed) {
        status = failed < 0 ? yz_vision_fail(err, YZ_VISION_ERR_NOMEM, "(photo)", "out of memory")
                            : yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, "(photo)",
                                             "image processing failed");
        goto done;
    }
    collect_dice(photo, found, n_found, readings, result);
    give_verdict(result, opts->expect);
    result->ms_read = yz_vision_now_ms() - started;
done:
    yz_vision_release(readings);
    yz_vision_nets_free(own_nets);
    return status;
}

yz_vision_status yz_vision_read_file(const char *path, const yz_vision_options *opts,
                                     yz_vision_result *result, yz_vision_error *err)
{
    yz_vision_options defaults = yz_vision_default_options();
    if (!opts) opts = &defaults;
    memset(result, 0, sizeof *result);
    double started = yz_vision_now_ms();
    yz_vision_photo photo;
    yz_vision_status status = yz_vision_load_file(path, opts->max_long_side, &photo, err);
    if (status != YZ_VISION_OK) return status;
    double decoded = yz_vision_now_ms() - started;
    status = yz_vision_read_photo(&photo, opts, result, err);
    if (status != YZ_VISION_OK && err && strncmp(err->message, "(photo)", 7) == 0) {
        /* Name the file rather than "(photo)". */
        char problem[sizeof err->message];
        const char *colon = strstr(err->message, ": ");
        snprintf(problem, sizeof problem, "%s", colon ? colon + 2 : err->message);
        yz_vision_fail(err, status, path, "%s", problem);
    }
    result->ms_decode = decoded;
    yz_vision_photo_free(&photo);
    return status;
}
