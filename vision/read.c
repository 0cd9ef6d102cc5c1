/* read.c - step 2: what each die's top face shows.
 *
 * A square of crop_scale times the die's box is cut around each centre and given (with its
 * mirror image) to the whole-die reader, which sees the whole die and says which value its TOP
 * face shows, or that no top face can be read there. The side faces show pips too; the reader
 * was trained on whole dice labelled with their top value, so it learned to ignore them. The
 * top-face net finds the top face's corners in the same crop; the top face is cut out along
 * them, warped flat, and read again by the face reader, which sees only that face's pips. The
 * two readings make one (yz_vision_combine_readers): the value is trusted only when both
 * readers favour it.
 */
#include <math.h>
#include <string.h>

#include "stages.h"

static int most_likely(const float *p)
{
    int best = 0;
    for (int k = 1; k < YZ_VISION_N_CLASSES; k++)
        if (p[k] > p[best]) best = k;
    return best;
}

/* The two readers' probabilities for one die as one. Where both readers' most likely value is
 * the same, the normalised geometric mean: each was trained to be right alone and they look at
 * the die differently (the whole die with its side faces; the top face alone, flattened), so
 * two readers leaning the same way make a surer reading than either one, and a value one of
 * them all but rules out stays unlikely. Where they disagree, the plain mean: no value then
 * gets more than 0.75 (each reader gives any value but its own favourite at most a half), so
 * the die stays below min_confidence (0.9), uncertain. A product of the two instead lets a sure
 * reader outvote a split one: on the webcam photos it read a 2 as a sure 1. */
void yz_vision_combine_readers(const float *whole_die, const float *face, float *combined)
{
    int agree = most_likely(whole_die) == most_likely(face);
    double sum = 0;
    for (int k = 0; k < YZ_VISION_N_CLASSES; k++) {
        combined[k] = (float)(agree ? sqrt((double)whole_die[k] * face[k])
                                    : 0.5 * ((double)whole_die[k] + face[k]));
        sum += combined[k];
    }
    for (int k = 0; k < YZ_VISION_N_CLASSES; k++)
        combined[k] = sum > 0 ? (float)(combined[k] / sum) : (float)(k == 0);
}

/* The side of the square a die's reader crop is cut from, photo pixels. */
static double crop_side(const yz_vision_geometry *geometry, const yz_vision_candidate *c)
{
    return geometry->crop_scale * fmax(c->w, c->h);
}

/* The square of `side` photo pixels centred on (cx, cy), resampled into crop. */
static int cut_square(const yz_cv_image *source, double cx, double cy, double side,
                      yz_cv_image *crop)
{
    float x0 = (float)(cx - side / 2), x1 = (float)(cx + side / 2);
    float y0 = (float)(cy - side / 2), y1 = (float)(cy + side / 2);
    yz_cv_point square[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return yz_cv_warp_quad(source, square, crop) != YZ_CV_OK;
}

/* Whether each candidate is a die: the die-or-not net's probability, p_die[i] for found[i]. Each
 * is shown as the whole-die reader would see it, a square of crop_scale times its box, except
 * that dice of one game are one size: a candidate boxed under a piece of the sure dice's side is
 * shown at that size. A die's piece (cut by the edge, half hidden) still shows a die there; a
 * small blob of leaf or soil, whose own crop could be a blurred die, shows as lawn around it. */
yz_vision_status yz_vision_die_or_not(const yz_vision_nets *nets, const yz_vision_image *photo,
                                      const yz_vision_candidate *found, int n_found, float *p_die)
{
    if (n_found == 0) return YZ_VISION_OK;
    const yz_vision_geometry *g = &nets->geometry;
    size_t crop_bytes = (size_t)g->crop * g->crop * 3;
    uint8_t *pixels = yz_vision_alloc((size_t)n_found * crop_bytes);
    yz_cv_image *looks = yz_vision_alloc((size_t)n_found * sizeof *looks);
    float *out = yz_vision_alloc((size_t)n_found * 2 * sizeof *out);
    yz_vision_status status = YZ_VISION_OK;
    if (!pixels || !looks || !out) {
        status = YZ_VISION_ERR_NOMEM;
        goto done;
    }
    yz_cv_image source = {photo->w, photo->h, 3, photo->w * 3, photo->rgb};
    double least_side =
        YZ_VISION_PIECE_OF_DIE * yz_vision_median_sure_side(&nets->tuning, found, n_found);
    for (int i = 0; i < n_found && !status; i++) {
        looks[i] = (yz_cv_image){g->crop, g->crop, 3, g->crop * 3, pixels + (size_t)i * crop_bytes};
        double side = crop_side(g, &found[i]);
        if (fmax(found[i].w, found[i].h) < least_side) side = g->crop_scale * least_side;
        if (cut_square(&source, found[i].cx, found[i].cy, side, &looks[i]))
            status = YZ_VISION_ERR_INTERNAL;
    }
    int n_values = 0;
    if (!status && (yz_cv_net_run(nets->die_or_not, looks, n_found, out, n_found * 2, &n_values) ||
                    n_values != n_found * 2))
        status = YZ_VISION_ERR_INTERNAL;
    for (int i = 0; i < n_found && !status; i++)
        p_die[i] = out[2 * i + 1];
done:
    yz_vision_release(pixels);
    yz_vision_release(looks);
    yz_vision_release(out);
    return status;
}

/* Step 2: for each candidate, whether it is a die (yz_vision_die_or_not); for each die, where its
 * top face is and what its value is. Only what the die-or-not net counts is read (what it does
 * not is dropped as lawn by collect_dice whatever the readers say, so reading it would be
 * wasted). The whole-die reader sees the crop and its mirror image (a mirrored die is still a
 * die showing the same value, and the two views steady it where one alone is unsure); the
 * top-face net finds the top face's corners in the same crop; the face reader reads the face
 * cut out along them and warped flat, with a part the photo's edge cuts off filled in from the
 * rest (yz_vision_complete_cut_face). One reading of each, bilinear crops: more views or other
 * resampling read no more right (tools/READER_HISTORY.md). */
yz_vision_status yz_vision_read_tops(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     const yz_vision_candidate *found, int n_found,
                                     yz_vision_reading *readings)
{
    if (n_found == 0) return YZ_VISION_OK;
    memset(readings, 0, (size_t)n_found * sizeof *readings);
    const yz_vision_geometry *g = &nets->geometry;
    const int crop_px = g->crop, face_px = g->face;
    /* Pixels: each die's crop, its mirror image and its face. Images: the whole-die reader's
     * crops of the dice and their mirror images, then the dice's faces. */
    size_t crop_bytes = (size_t)crop_px * crop_px * 3, face_bytes = (size_t)face_px * face_px * 3;
    uint8_t *pixels = yz_vision_alloc((size_t)n_found * (2 * crop_bytes + face_bytes));
    yz_cv_image *images = yz_vision_alloc((size_t)n_found * 3 * sizeof *images);
    float *out = yz_vision_alloc((size_t)n_found * 3 * YZ_VISION_N_CLASSES * sizeof *out);
    float *p_die = yz_vision_alloc((size_t)n_found * sizeof *p_die);
    float *corners = yz_vision_alloc((size_t)n_found * 8 * sizeof *corners);
    yz_vision_status status = YZ_VISION_OK;
    if (!pixels || !images || !out || !p_die || !corners) {
        status = YZ_VISION_ERR_NOMEM;
        goto done;
    }
    status = yz_vision_die_or_not(nets, photo, found, n_found, p_die);
    /* The dice, in order, their crops at the front of crops; then their mirror images. */
    yz_cv_image *crops = images;
    uint8_t *crop_pixels = pixels, *mirror_pixels = pixels + (size_t)n_found * crop_bytes,
            *face_pixels = mirror_pixels + (size_t)n_found * crop_bytes;
    yz_cv_image source = {photo->w, photo->h, 3, photo->w * 3, photo->rgb};
    int n_dice = 0, die_of[YZ_VISION_MAX_CANDIDATES];
    for (int i = 0; i < n_found && !status; i++) {
        readings[i].p_die = p_die[i];
        if (p_die[i] < nets->tuning.min_die) continue;
        crops[n_dice] = (yz_cv_image){crop_px, crop_px, 3, crop_px * 3,
                                      crop_pixels + (size_t)n_dice * crop_bytes};
        if (cut_square(&source, found[i].cx, found[i].cy, crop_side(g, &found[i]), &crops[n_dice]))
            status = YZ_VISION_ERR_INTERNAL;
        die_of[n_dice++] = i;
    }
    if (status || n_dice == 0) goto done;
    yz_cv_image *faces = crops + 2 * n_dice;
    for (int d = 0; d < n_dice; d++) {
        yz_cv_image *mirror = &crops[n_dice + d];
        *mirror =
            (yz_cv_image){crop_px, crop_px, 3, crop_px * 3, mirror_pixels + (size_t)d * crop_bytes};
        for (int y = 0; y < crop_px; y++)
            for (int x = 0; x < crop_px; x++)
                memcpy(mirror->data + (y * crop_px + x) * 3,
                       crops[d].data + (y * crop_px + crop_px - 1 - x) * 3, 3);
        faces[d] =
            (yz_cv_image){face_px, face_px, 3, face_px * 3, face_pixels + (size_t)d * face_bytes};
    }
    int n_values = 0, n_corners = 0, n_face_values = 0;
    if (yz_cv_net_run(nets->reader, crops, 2 * n_dice, out, 2 * n_dice * YZ_VISION_N_CLASSES,
                      &n_values) ||
        n_values != 2 * n_dice * YZ_VISION_N_CLASSES ||
        yz_cv_net_run(nets->top_face, crops, n_dice, corners, n_dice * 8, &n_corners) ||
        n_corners != n_dice * 8)
        status = YZ_VISION_ERR_INTERNAL;
    for (int d = 0; d < n_dice && !status; d++) {
        const yz_vision_candidate *die = &found[die_of[d]];
        yz_cv_point quad[4];
        yz_vision_face_in_crop(g, corners + d * 8, quad);
        if (yz_cv_warp_quad(&crops[d], quad, &faces[d]) != YZ_CV_OK)
            status = YZ_VISION_ERR_INTERNAL;
        /* Only a die the detector is sure of: what it is must not hang on a face made up. */
        double side = crop_side(g, die);
        readings[die_of[d]].top_completed =
            !status && yz_vision_sure_die(die, &nets->tuning) &&
            yz_vision_complete_cut_face(g, &faces[d], quad, die->cx - 0.5 * side,
                                        die->cy - 0.5 * side, side / crop_px, photo->w, photo->h);
    }
    float *face_out = out + (size_t)2 * n_dice * YZ_VISION_N_CLASSES;
    if (!status && (yz_cv_net_run(nets->face_reader, faces, n_dice, face_out,
                                  n_dice * YZ_VISION_N_CLASSES, &n_face_values) ||
                    n_face_values != n_dice * YZ_VISION_N_CLASSES))
        status = YZ_VISION_ERR_INTERNAL;
    for (int d = 0; d < n_dice && !status; d++) {
        const yz_vision_candidate *die = &found[die_of[d]];
        yz_vision_reading *reading = &readings[die_of[d]];
        float whole_die[YZ_VISION_N_CLASSES];
        for (int k = 0; k < YZ_VISION_N_CLASSES; k++)
            whole_die[k] = 0.5f * (out[d * YZ_VISION_N_CLASSES + k] +
                                   out[(n_dice + d) * YZ_VISION_N_CLASSES + k]);
        yz_vision_combine_readers(whole_die, face_out + d * YZ_VISION_N_CLASSES, reading->p);
        /* Corners come in crop widths, across the square the crop was cut from. */
        double side = crop_side(g, die);
        for (int k = 0; k < 4; k++) {
            reading->top[k][0] = die->cx + (corners[d * 8 + 2 * k] - 0.5) * side;
            reading->top[k][1] = die->cy + (corners[d * 8 + 2 * k + 1] - 0.5) * side;
        }
    }
done:
    yz_vision_release(pixels);
    yz_vision_release(images);
    yz_vision_release(out);
    yz_vision_release(p_die);
    yz_vision_release(corners);
    return status;
}

static int by_box_centre(const void *a, const void *b)
{
    const yz_vision_die *da = a, *db = b;
    double xa = da->box[0] + da->box[2] / 2.0, xb = db->box[0] + db->box[2] / 2.0;
    return (xa > xb) - (xa < xb);
}

void yz_vision_collect_dice(const yz_vision_photo *photo, const yz_vision_tuning *tuning,
                            const yz_vision_candidate *found, int n_found,
                            const yz_vision_reading *readings, yz_vision_result *result)
{
    double to_full_x = (double)photo->full_w / photo->image.w;
    double to_full_y = (double)photo->full_h / photo->image.h;
    result->n_dice = 0;
    for (int i = 0; i < n_found && result->n_dice < YZ_VISION_MAX_DICE; i++) {
        const float *p = readings[i].p;
        int best = most_likely(p);
        /* Whether a peak is a die is the die-or-not net's to say, whatever the detector's score
         * and whatever the readers read: soil, a leaf, a ball or a blank block is lawn, and a
         * die whose top cannot be read still counts, and refuses the photo. */
        if (readings[i].p_die < tuning->min_die) continue;
        yz_vision_die *die = &result->dice[result->n_dice++];
        memset(die, 0, sizeof *die);
        die->value = best;
        die->confidence = best ? p[best] : 0;
        /* However weakly the detector found it: both readers, each trained to see no die in a
         * crop of lawn or half a die, agree on a value there. Where the detector is unsure is
         * mostly a die half behind another, whose top the readers see whole. */
        die->certain = best && p[best] >= tuning->min_confidence;
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
