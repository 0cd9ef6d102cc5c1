/* read.c - step 2: what each die's top face shows.
 *
 * A square of crop_scale times the die's box is cut around each centre and given (with its
 * mirror image) to the whole-die reader, which sees the whole die and says which value its TOP
 * face shows, or that no top face can be read there. The side faces show pips too; the reader
 * was trained on whole dice labelled with their top value, so it learned to ignore them. The
 * top-face net finds the top face's corners in the same crop; the top face is cut out along
 * them, warped flat, and read again by the face reader, which sees only that face's pips. The
 * two readings make one (yz_vision_combine_readers): the value is trusted only when both
 * readers favour it, or the whole-die reader alone, surely, where the face reader sees no face.
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
 * reader outvote a split one: on the webcam photos it read a 2 as a sure 1.
 * One exception (face_alone): where the face reader's favourite is "no face" (the top face the
 * top-face net cut out holds no face it can read: its corners missed, the face blurred or
 * seen edge on) and the whole-die reader, which sees the whole die, gives its favourite value
 * face_alone or more, the whole-die reader's reading stands alone. At the true boxes of the dev
 * renders it reads about one die in a hundred more right and surely, and no hidden top among
 * them (tools/READER_HISTORY.md, thirty-sixth try). */
void yz_vision_combine_readers(const float *whole_die, const float *face, double face_alone,
                               float *combined)
{
    int whole_best = most_likely(whole_die), face_best = most_likely(face);
    if (face_alone > 0 && face_best == 0 && whole_best && whole_die[whole_best] >= face_alone) {
        memcpy(combined, whole_die, YZ_VISION_N_CLASSES * sizeof *combined);
        return;
    }
    int agree = whole_best == face_best;
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

/* net run on n squares cut from photo, square i of side[i] photo pixels centred on
 * centres[i] and resampled to the readers' crop: per_square outputs a square into out. */
static yz_vision_status run_on_squares(yz_cv_net *net, const yz_vision_geometry *g,
                                       const yz_vision_image *photo, int n,
                                       const yz_vision_candidate *centres, const double *side,
                                       int per_square, float *out)
{
    size_t crop_bytes = (size_t)g->crop * g->crop * 3;
    uint8_t *pixels = yz_vision_alloc((size_t)n * crop_bytes);
    yz_cv_image *looks = yz_vision_alloc((size_t)n * sizeof *looks);
    yz_vision_status status = pixels && looks ? YZ_VISION_OK : YZ_VISION_ERR_NOMEM;
    yz_cv_image source = {photo->w, photo->h, 3, photo->w * 3, photo->rgb};
    for (int i = 0; i < n && !status; i++) {
        looks[i] = (yz_cv_image){g->crop, g->crop, 3, g->crop * 3, pixels + (size_t)i * crop_bytes};
        if (cut_square(&source, centres[i].cx, centres[i].cy, side[i], &looks[i]))
            status = YZ_VISION_ERR_INTERNAL;
    }
    int n_values = 0;
    if (!status && (yz_cv_net_run(net, looks, n, out, n * per_square, &n_values) ||
                    n_values != n * per_square))
        status = YZ_VISION_ERR_INTERNAL;
    yz_vision_release(pixels);
    yz_vision_release(looks);
    return status;
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
    double *side = yz_vision_alloc((size_t)n_found * sizeof *side);
    float *out = yz_vision_alloc((size_t)n_found * 2 * sizeof *out);
    yz_vision_status status = side && out ? YZ_VISION_OK : YZ_VISION_ERR_NOMEM;
    double least_side =
        YZ_VISION_PIECE_OF_DIE * yz_vision_median_sure_side(&nets->tuning, found, n_found);
    for (int i = 0; i < n_found && !status; i++) {
        side[i] = crop_side(g, &found[i]);
        if (fmax(found[i].w, found[i].h) < least_side) side[i] = g->crop_scale * least_side;
    }
    if (!status) status = run_on_squares(nets->die_or_not, g, photo, n_found, found, side, 2, out);
    for (int i = 0; i < n_found && !status; i++)
        p_die[i] = out[2 * i + 1];
    yz_vision_release(side);
    yz_vision_release(out);
    return status;
}

/* n dice and what the readers make of them (read_dice). */
typedef struct {
    yz_vision_candidate *dice;
    float *whole_die; /* the whole-die reader's probabilities, its crop and mirror image averaged:
                         YZ_VISION_N_CLASSES a die */
    float *face;      /* the face reader's, YZ_VISION_N_CLASSES a die */
    float *corners;   /* the top face's corners in crop widths, 8 a die */
    int *completed;   /* 1 where a part of the face the photo's edge cuts off was filled in */
} dice_readings;

static void release_readings(dice_readings *r)
{
    yz_vision_release(r->dice);
    yz_vision_release(r->whole_die);
    yz_vision_release(r->face);
    yz_vision_release(r->corners);
    yz_vision_release(r->completed);
}

/* Room for n dice's readings; YZ_VISION_ERR_NOMEM (nothing held) when there is none. */
static yz_vision_status alloc_readings(dice_readings *r, int n)
{
    r->dice = yz_vision_alloc((size_t)n * sizeof *r->dice);
    r->whole_die = yz_vision_alloc((size_t)n * YZ_VISION_N_CLASSES * sizeof *r->whole_die);
    r->face = yz_vision_alloc((size_t)n * YZ_VISION_N_CLASSES * sizeof *r->face);
    r->corners = yz_vision_alloc((size_t)n * 8 * sizeof *r->corners);
    r->completed = yz_vision_alloc((size_t)n * sizeof *r->completed);
    if (r->dice && r->whole_die && r->face && r->corners && r->completed) return YZ_VISION_OK;
    release_readings(r);
    return YZ_VISION_ERR_NOMEM;
}

/* The readers on r->dice[0..n): the whole-die reader on each die's crop and its mirror image,
 * the top-face net on the crop, the face reader on the face cut out along its corners, a part
 * the photo's edge cuts off filled in (yz_vision_complete_cut_face, only for a die the detector
 * is sure of: what it is must not hang on a face made up). */
static yz_vision_status read_dice(const yz_vision_nets *nets, const yz_vision_image *photo, int n,
                                  dice_readings *r)
{
    const yz_vision_geometry *g = &nets->geometry;
    const yz_vision_candidate *dice = r->dice;
    const int crop_px = g->crop, face_px = g->face;
    /* Pixels: each die's crop, its mirror image and its face. Images: the whole-die reader's
     * crops of the dice and their mirror images, then the dice's faces. */
    size_t crop_bytes = (size_t)crop_px * crop_px * 3, face_bytes = (size_t)face_px * face_px * 3;
    uint8_t *pixels = yz_vision_alloc((size_t)n * (2 * crop_bytes + face_bytes));
    yz_cv_image *images = yz_vision_alloc((size_t)n * 3 * sizeof *images);
    float *out = yz_vision_alloc((size_t)n * 2 * YZ_VISION_N_CLASSES * sizeof *out);
    yz_vision_status status = YZ_VISION_OK;
    if (!pixels || !images || !out) {
        status = YZ_VISION_ERR_NOMEM;
        goto done;
    }
    yz_cv_image source = {photo->w, photo->h, 3, photo->w * 3, photo->rgb};
    yz_cv_image *crops = images, *mirrors = images + n, *faces = images + 2 * n;
    for (int d = 0; d < n && !status; d++) {
        uint8_t *at = pixels + (size_t)d * crop_bytes;
        crops[d] = (yz_cv_image){crop_px, crop_px, 3, crop_px * 3, at};
        mirrors[d] = (yz_cv_image){crop_px, crop_px, 3, crop_px * 3, at + (size_t)n * crop_bytes};
        faces[d] = (yz_cv_image){face_px, face_px, 3, face_px * 3,
                                 pixels + (size_t)n * 2 * crop_bytes + (size_t)d * face_bytes};
        if (cut_square(&source, dice[d].cx, dice[d].cy, crop_side(g, &dice[d]), &crops[d]))
            status = YZ_VISION_ERR_INTERNAL;
        for (int y = 0; y < crop_px; y++)
            for (int x = 0; x < crop_px; x++)
                memcpy(mirrors[d].data + (y * crop_px + x) * 3,
                       crops[d].data + (y * crop_px + crop_px - 1 - x) * 3, 3);
    }
    int n_values = 0, n_corners = 0, n_face_values = 0;
    if (!status &&
        (yz_cv_net_run(nets->reader, crops, 2 * n, out, 2 * n * YZ_VISION_N_CLASSES, &n_values) ||
         n_values != 2 * n * YZ_VISION_N_CLASSES ||
         yz_cv_net_run(nets->top_face, crops, n, r->corners, n * 8, &n_corners) ||
         n_corners != n * 8))
        status = YZ_VISION_ERR_INTERNAL;
    for (int d = 0; d < n && !status; d++) {
        yz_cv_point quad[4];
        yz_vision_face_in_crop(g, r->corners + d * 8, quad);
        if (yz_cv_warp_quad(&crops[d], quad, &faces[d]) != YZ_CV_OK)
            status = YZ_VISION_ERR_INTERNAL;
        double side = crop_side(g, &dice[d]);
        r->completed[d] = !status && yz_vision_sure_die(&dice[d], &nets->tuning) &&
                          yz_vision_complete_cut_face(g, &faces[d], quad, dice[d].cx - 0.5 * side,
                                                      dice[d].cy - 0.5 * side, side / crop_px,
                                                      photo->w, photo->h);
    }
    if (!status && (yz_cv_net_run(nets->face_reader, faces, n, r->face, n * YZ_VISION_N_CLASSES,
                                  &n_face_values) ||
                    n_face_values != n * YZ_VISION_N_CLASSES))
        status = YZ_VISION_ERR_INTERNAL;
    for (int d = 0; d < n && !status; d++)
        for (int k = 0; k < YZ_VISION_N_CLASSES; k++)
            r->whole_die[d * YZ_VISION_N_CLASSES + k] =
                0.5f * (out[d * YZ_VISION_N_CLASSES + k] + out[(n + d) * YZ_VISION_N_CLASSES + k]);
done:
    yz_vision_release(pixels);
    yz_vision_release(images);
    yz_vision_release(out);
    return status;
}

/* Whether a reading gives a value the verdict trusts. */
static int read_surely(const float *p, const yz_vision_tuning *tuning)
{
    int best = most_likely(p);
    return best && p[best] >= tuning->min_confidence;
}

/* Whether die d of r reads surely as its two readers stand. */
static int die_reads_surely(const yz_vision_nets *nets, const dice_readings *r, int d)
{
    float p[YZ_VISION_N_CLASSES];
    yz_vision_combine_readers(r->whole_die + d * YZ_VISION_N_CLASSES,
                              r->face + d * YZ_VISION_N_CLASSES, nets->tuning.face_alone, p);
    return read_surely(p, &nets->tuning);
}

/* The moved boxes a die left unsure is read at again: centres moved UNSURE_SHIFT of its side
 * along each diagonal, the box UNSURE_SCALE larger or smaller, within the boxes the readers
 * learned on (train_reader.py's detector_error: 0.8 to 1.25 times, centres off by a normal
 * spread of 0.06 sides). */
#define UNSURE_SHIFT 0.04
#define UNSURE_SCALE 0.06
static const double unsure_moves[][3] = {{-1, -1, 1}, {1, 1, 1}, {1, -1, -1}, {-1, 1, -1}};
#define N_UNSURE_MOVES (int)(sizeof unsure_moves / sizeof unsure_moves[0])

/* A die the readers leave unsure, or one read_refined moved (moved_box[d]), is read again at
 * N_UNSURE_MOVES boxes moved a little, as the box may be off by that much, and each reader's
 * probabilities are averaged over the five looks before they are combined: a die half read at
 * one box may read whole at the next, and a value only one box supports stays unsure. Where its
 * top face is stays the first look's. first holds the n dice's readings so far. */
static yz_vision_status read_unsure_again(const yz_vision_nets *nets, const yz_vision_image *photo,
                                          int n, dice_readings *first, const int *moved_box)
{
    if (nets->tuning.unsure_looks == 0) return YZ_VISION_OK;
    int unsure[YZ_VISION_MAX_CANDIDATES], n_unsure = 0;
    for (int d = 0; d < n; d++)
        if (moved_box[d] || !die_reads_surely(nets, first, d)) unsure[n_unsure++] = d;
    if (n_unsure == 0) return YZ_VISION_OK;
    int n_moved = n_unsure * N_UNSURE_MOVES;
    dice_readings moved;
    yz_vision_status status = alloc_readings(&moved, n_moved);
    if (status) return status;
    for (int u = 0; u < n_unsure; u++)
        for (int m = 0; m < N_UNSURE_MOVES; m++) {
            const yz_vision_candidate *die = &first->dice[unsure[u]];
            yz_vision_candidate *look = &moved.dice[u * N_UNSURE_MOVES + m];
            double side = fmax(die->w, die->h), scale = 1 + unsure_moves[m][2] * UNSURE_SCALE;
            *look = *die;
            look->cx += unsure_moves[m][0] * UNSURE_SHIFT * side;
            look->cy += unsure_moves[m][1] * UNSURE_SHIFT * side;
            look->w *= scale, look->h *= scale;
        }
    status = read_dice(nets, photo, n_moved, &moved);
    for (int u = 0; u < n_unsure && !status; u++)
        for (int k = 0; k < YZ_VISION_N_CLASSES; k++) {
            float *w = &first->whole_die[unsure[u] * YZ_VISION_N_CLASSES + k],
                  *f = &first->face[unsure[u] * YZ_VISION_N_CLASSES + k];
            for (int m = 0; m < N_UNSURE_MOVES; m++) {
                *w += moved.whole_die[(u * N_UNSURE_MOVES + m) * YZ_VISION_N_CLASSES + k];
                *f += moved.face[(u * N_UNSURE_MOVES + m) * YZ_VISION_N_CLASSES + k];
            }
            *w /= N_UNSURE_MOVES + 1, *f /= N_UNSURE_MOVES + 1;
        }
    release_readings(&moved);
    return status;
}

/* Where the box refiner puts each of n boxes, one step: a square of refine_scale times the box's
 * long side around its centre, and the net's (dx, dy, log w, log h) of the die nearest that
 * centre, in that long side. */
static yz_vision_status refine_boxes(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     int n, yz_vision_candidate *boxes)
{
    double *side = yz_vision_alloc((size_t)n * sizeof *side);
    float *out = yz_vision_alloc((size_t)n * 4 * sizeof *out);
    yz_vision_status status = side && out ? YZ_VISION_OK : YZ_VISION_ERR_NOMEM;
    for (int i = 0; i < n && !status; i++)
        side[i] = nets->geometry.refine_scale * fmax(boxes[i].w, boxes[i].h);
    if (!status)
        status = run_on_squares(nets->box_refiner, &nets->geometry, photo, n, boxes, side, 4, out);
    for (int i = 0; i < n && !status; i++) {
        double long_side = fmax(boxes[i].w, boxes[i].h);
        const float *o = out + 4 * i;
        boxes[i].cx += o[0] * long_side, boxes[i].cy += o[1] * long_side;
        boxes[i].w = long_side * exp(fmin(o[2], 1.0)),
        boxes[i].h = long_side * exp(fmin(o[3], 1.0));
    }
    yz_vision_release(side);
    yz_vision_release(out);
    return status;
}

/* How far off a box the readers learned to read (train_reader.py's detector_error: centres off
 * by a normal spread of 0.06 sides, boxes 0.8 to 1.25 times): two spreads, and that scale. */
#define READ_SHIFT 0.12
#define READ_SCALE_LOW 0.8
#define READ_SCALE_HIGH 1.25

/* Whether the refiner's box b for a die boxed at a is worth reading: for a die read surely at
 * a, b lies farther off than the readers learned to read across (they would read the same die
 * there: news only where the refiner moved the box onto a die a does not hold whole); for an
 * unsure one, farther than read_unsure_again's moved boxes reach (a look at b would be only one
 * more draw of the same). On the world dev renders the unsure dice's boxes moved by less than
 * the readers' reach read more dice right at the refined box; read there, the dice read surely
 * cost as much again on a clean photo as the rest of the step (READER_HISTORY.md, forty-fourth
 * try). */
static int worth_reading(const yz_vision_candidate *a, const yz_vision_candidate *b, int sure)
{
    double side = fmax(a->w, a->h), scale = fmax(b->w, b->h) / side;
    if (sure)
        return hypot(b->cx - a->cx, b->cy - a->cy) > READ_SHIFT * side || scale < READ_SCALE_LOW ||
               scale > READ_SCALE_HIGH;
    return fabs(b->cx - a->cx) > UNSURE_SHIFT * side || fabs(b->cy - a->cy) > UNSURE_SHIFT * side ||
           fabs(scale - 1) > UNSURE_SCALE;
}

static int centre_inside(const yz_vision_candidate *a, const yz_vision_candidate *box)
{
    return fabs(a->cx - box->cx) < 0.5 * box->w && fabs(a->cy - box->cy) < 0.5 * box->h;
}

/* Whether the box the refiner gave die d of n is caught up with another die: its centre inside
 * that die's box or that die's centre inside it (a box that held two dice refined onto the other
 * one, or a second box on one die's side face moved onto it). */
static int meets_another(const dice_readings *r, int n, int d, const yz_vision_candidate *box)
{
    for (int o = 0; o < n; o++)
        if (o != d && (centre_inside(box, &r->dice[o]) || centre_inside(&r->dice[o], box)))
            return 1;
    return 0;
}

/* Whether YZ_VISION_FOUND_AGAIN_INSIDE or more of die d's box lies inside the box of a die above
 * it (its centre higher): d may be that die's side face, or a piece of it, boxed as a die. */
static int inside_one_above(const dice_readings *r, int n, int d)
{
    const yz_vision_candidate *a = &r->dice[d];
    double box_a[4] = {a->cx - a->w / 2, a->cy - a->h / 2, a->w, a->h};
    for (int o = 0; o < n; o++) {
        const yz_vision_candidate *b = &r->dice[o];
        if (o == d || b->cy >= a->cy) continue;
        double box_b[4] = {b->cx - b->w / 2, b->cy - b->h / 2, b->w, b->h};
        if (yz_vision_inside_share(box_a, box_b) >= YZ_VISION_FOUND_AGAIN_INSIDE) return 1;
    }
    return 0;
}

/* In a photo with a die the first reading left unsure, each die's box is refined (the
 * detector's box may be off: on the world dev renders the dice left without a value had it a
 * median 0.12 of a side off, the dice read right 0.04) and, where it moved enough to tell
 * something new (worth_reading), the die is read again there. An unsure die takes the new
 * reading and box where that reads surely, unless the new box is caught up with another die
 * (meets_another: that die is read already); moved_box[d] says so, and read_unsure_again then
 * reads it at boxes moved a little around the new one, so that a value one look alone supports
 * stays unsure. A die read surely at both boxes as two values is a piece of a die or a side
 * face boxed as a die (the refiner puts the box on the whole die, whose top shows another
 * value): its two readings are averaged, which leaves it unsure. Where every die reads surely
 * at first the refiner can only catch such a side face or piece, and only the dice lying where
 * one would (inside_one_above) are refined. On the dev renders, with the count given, that
 * turned 5 of 24 wrong rolls reported sure into refusals or right readings for no photo fewer
 * read right, and it costs nothing where no die lies so. Refining every sure die turned 8 of 22
 * there but none on a fresh test set, and cost 4 ms of a 12 MP read (READER_HISTORY.md,
 * fifty-third, fifty-fifth and fifty-sixth tries). */
static yz_vision_status read_refined(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     int n, dice_readings *first, int *moved_box)
{
    memset(moved_box, 0, (size_t)n * sizeof *moved_box);
    if (nets->tuning.refine_looks == 0) return YZ_VISION_OK;
    int any_unsure = 0;
    for (int d = 0; d < n && !any_unsure; d++)
        any_unsure = !die_reads_surely(nets, first, d);
    int which[YZ_VISION_MAX_CANDIDATES], n_which = 0; /* the dice whose boxes are refined */
    for (int d = 0; d < n; d++)
        if (any_unsure || inside_one_above(first, n, d)) which[n_which++] = d;
    if (n_which == 0) return YZ_VISION_OK;
    dice_readings again;
    yz_vision_status status = alloc_readings(&again, n_which);
    if (status) return status;
    /* Two steps, the second and the reading only for the boxes worth it after the first: the
     * dice boxed well (most of them) cost one refiner look. */
    for (int j = 0; j < n_which; j++)
        again.dice[j] = first->dice[which[j]];
    status = refine_boxes(nets, photo, n_which, again.dice);
    int of[YZ_VISION_MAX_CANDIDATES], m = 0; /* again.dice[j] is die of[j]'s new box */
    for (int j = 0; j < n_which && !status; j++) {
        int d = which[j];
        if (worth_reading(&first->dice[d], &again.dice[j], die_reads_surely(nets, first, d))) {
            again.dice[m] = again.dice[j];
            of[m++] = d;
        }
    }
    if (!status && m > 0) status = refine_boxes(nets, photo, m, again.dice);
    if (!status && m > 0) status = read_dice(nets, photo, m, &again);
    for (int j = 0; j < m && !status; j++) {
        int d = of[j];
        float p1[YZ_VISION_N_CLASSES], p2[YZ_VISION_N_CLASSES];
        float *w1 = first->whole_die + d * YZ_VISION_N_CLASSES,
              *f1 = first->face + d * YZ_VISION_N_CLASSES;
        const float *w2 = again.whole_die + j * YZ_VISION_N_CLASSES,
                    *f2 = again.face + j * YZ_VISION_N_CLASSES;
        yz_vision_combine_readers(w1, f1, nets->tuning.face_alone, p1);
        yz_vision_combine_readers(w2, f2, nets->tuning.face_alone, p2);
        int sure1 = read_surely(p1, &nets->tuning), sure2 = read_surely(p2, &nets->tuning);
        if (!sure1 && sure2 && !meets_another(first, n, d, &again.dice[j])) {
            first->dice[d] = again.dice[j];
            memcpy(w1, w2, YZ_VISION_N_CLASSES * sizeof *w1);
            memcpy(f1, f2, YZ_VISION_N_CLASSES * sizeof *f1);
            memcpy(first->corners + d * 8, again.corners + j * 8, 8 * sizeof *first->corners);
            first->completed[d] = again.completed[j];
            moved_box[d] = 1;
        } else if (sure1 && sure2 && most_likely(p1) != most_likely(p2)) {
            for (int k = 0; k < YZ_VISION_N_CLASSES; k++)
                w1[k] = 0.5f * (w1[k] + w2[k]), f1[k] = 0.5f * (f1[k] + f2[k]);
        }
    }
    release_readings(&again);
    return status;
}

/* Step 2: for each candidate, whether it is a die (yz_vision_die_or_not); for each die, where its
 * top face is and what its value is. Only what the die-or-not net counts is read (what it does
 * not is dropped as lawn by collect_dice whatever the readers say, so reading it would be
 * wasted). The whole-die reader sees the crop and its mirror image (a mirrored die is still a
 * die showing the same value, and the two views steady it where one alone is unsure); the
 * top-face net finds the top face's corners in the same crop; the face reader reads the face
 * cut out along them and warped flat, with a part the photo's edge cuts off filled in from the
 * rest (yz_vision_complete_cut_face). A die left unsure is read again at boxes moved a little
 * (read_unsure_again). Bilinear crops: turned crops or other resampling read no more right
 * (tools/READER_HISTORY.md). */
yz_vision_status yz_vision_read_tops(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     const yz_vision_candidate *found, int n_found,
                                     yz_vision_reading *readings)
{
    if (n_found == 0) return YZ_VISION_OK;
    memset(readings, 0, (size_t)n_found * sizeof *readings);
    const yz_vision_geometry *g = &nets->geometry;
    float *p_die = yz_vision_alloc((size_t)n_found * sizeof *p_die);
    dice_readings r;
    yz_vision_status status = alloc_readings(&r, n_found);
    if (!p_die || status) {
        yz_vision_release(p_die);
        if (!status) release_readings(&r);
        return YZ_VISION_ERR_NOMEM;
    }
    status = yz_vision_die_or_not(nets, photo, found, n_found, p_die);
    /* The dice, in order: die_of[d] is r.dice[d]'s candidate. */
    int n_dice = 0, die_of[YZ_VISION_MAX_CANDIDATES];
    for (int i = 0; i < n_found && !status; i++) {
        readings[i].p_die = p_die[i];
        if (p_die[i] < nets->tuning.min_die) continue;
        r.dice[n_dice] = found[i];
        die_of[n_dice++] = i;
    }
    if (!status && n_dice > 0) status = read_dice(nets, photo, n_dice, &r);
    int moved_box[YZ_VISION_MAX_CANDIDATES];
    if (!status && n_dice > 0) status = read_refined(nets, photo, n_dice, &r, moved_box);
    if (!status && n_dice > 0) status = read_unsure_again(nets, photo, n_dice, &r, moved_box);
    for (int d = 0; d < n_dice && !status; d++) {
        yz_vision_reading *reading = &readings[die_of[d]];
        yz_vision_combine_readers(r.whole_die + d * YZ_VISION_N_CLASSES,
                                  r.face + d * YZ_VISION_N_CLASSES, nets->tuning.face_alone,
                                  reading->p);
        reading->top_completed = r.completed[d];
        reading->read_at = r.dice[d];
        /* Corners come in crop widths, across the square the crop was cut from. */
        double side = crop_side(g, &r.dice[d]);
        for (int k = 0; k < 4; k++) {
            reading->top[k][0] = r.dice[d].cx + (r.corners[d * 8 + 2 * k] - 0.5) * side;
            reading->top[k][1] = r.dice[d].cy + (r.corners[d * 8 + 2 * k + 1] - 0.5) * side;
        }
    }
    yz_vision_release(p_die);
    release_readings(&r);
    return status;
}

void yz_vision_collect_dice(const yz_vision_photo *photo, const yz_vision_tuning *tuning,
                            int n_found, const yz_vision_reading *readings,
                            yz_vision_result *result)
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
        die->certain = read_surely(p, tuning);
        const yz_vision_candidate *at = &readings[i].read_at;
        die->box[0] = (int)lround((at->cx - at->w / 2) * to_full_x);
        die->box[1] = (int)lround((at->cy - at->h / 2) * to_full_y);
        die->box[2] = (int)lround(at->w * to_full_x);
        die->box[3] = (int)lround(at->h * to_full_y);
        for (int k = 0; k < 4; k++) {
            die->top[k][0] = readings[i].top[k][0] * to_full_x;
            die->top[k][1] = readings[i].top[k][1] * to_full_y;
        }
        die->top_completed = readings[i].top_completed;
    }
    yz_vision_sort_dice(result);
}
