/* verdict.c - step 3: is the photo read, or refused, and why.
 *
 * A die is certain when the combined probability for its value is at least min_confidence
 * (read.c), unless its box or its top face sticks out of the photo (cut off by the edge) or its
 * box is much larger than the other dice's (two touching dice seen as one); the photo is ok only
 * when the expected number of dice was found and every one is certain. An uncertain die boxed
 * inside a certain one is a piece of it, not a die (set_aside_pieces). Pure C on the dice found:
 * no net, no pixel.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"

#define OUT_OF_FRAME                                                                               \
    0.1 /* a die whose box or top face reaches this far (in die sides) out of                      \
           the photo is cut off */
#define EDGE_NEAR                                                                                  \
    0.25 /* a box this near the photo's edge (in the die sides expected there)                     \
            may be a die the edge cuts through... */
#define EDGE_SMALL                                                                                 \
    0.71 /* ... when its long side is under this share of the side expected:                       \
            turning a die by 45 degrees widens its box by up to 1.41 times,                        \
            so a whole die is not much smaller than its neighbours' sizes                          \
            predict */
#define PIECE_INSIDE                                                                               \
    0.75 /* an uncertain die with this share of its box inside a certain die's                     \
            box is a piece of that die: on the dev renders true dice left                          \
            uncertain lie at most 0.65 inside a sure die's box, pieces cluster                     \
            from 0.77 up */
#define SAME_BOX                                                                                   \
    0.5 /* two boxes of one die share this much of their union or more (the                        \
           usual test in detection); a die a look again boxed together with a                      \
           die behind it shares less with its first box */
#define SIZE_LINE_SPAN                                                                             \
    0.15 /* other dice spread over this share of the photo's height to fit                         \
            their sizes against their heights */

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

static double box_centre_x(const yz_vision_die *die)
{
    return die->box[0] + 0.5 * die->box[2];
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
    if (y_max - y_min < SIZE_LINE_SPAN * result->image_h) return yz_vision_median(sides, n);
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
 * index, or -1. On 240 renders of six dice with two touching or one behind another (six29 and
 * wsix29, READER_HISTORY.md's twenty-ninth try) it caught no merged box the readers had not
 * already left without a value: the detector boxes the front die, not the two. What it did
 * catch, with any number of dice expected, is a photo whose other dice were boxed at a face's
 * size, their side faces read as tops. It refuses a right roll for its nearest die in 1 of
 * close8's 40 close-ups and 1 of w5's 200 world renders. */
static int distrust_two_dice_boxes(yz_vision_result *result, const double *expected,
                                   double two_dice_side)
{
    if (result->n_dice < 3) return -1;
    double sides[YZ_VISION_MAX_DICE];
    for (int k = 0; k < result->n_dice; k++)
        sides[k] = long_side(&result->dice[k]);
    double typical = yz_vision_median(sides, result->n_dice);
    int first = -1;
    for (int i = result->n_dice - 1; i >= 0; i--)
        if (long_side(&result->dice[i]) > two_dice_side * fmax(typical, expected[i])) {
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
 * (yz_vision_complete_cut_face, which reads up to a quarter of the face so: farther out the
 * net's corners are a guess): then the box and the face may stick out, for no pip can have been
 * missed. Returns the first one's index, or -1. */
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

/* Where point p lies from the line through a and b: the cross product of a->b and a->p,
 * positive on one side, negative on the other, 0 on the line. */
static double side_of_line(const double a[2], const double b[2], const double p[2])
{
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
}

#define TOP_CLIP_CORNERS 20

/* The part of polygon p (n corners, at most TOP_CLIP_CORNERS) on the inner side of the line
 * through a and b, written to out; returns its corners. The inner side is where the clipping
 * polygon's turn (its signed area's sign) puts it. */
static int clip_by_edge(const double p[][2], int n, const double a[2], const double b[2],
                        double turn, double out[][2])
{
    double side[TOP_CLIP_CORNERS];
    for (int k = 0; k < n; k++)
        side[k] = turn * side_of_line(a, b, p[k]);
    int m = 0;
    for (int k = 0; k < n; k++) {
        const double *c = p[k], *d = p[(k + 1) % n];
        double sc = side[k], sd = side[(k + 1) % n];
        if (sc >= 0) out[m][0] = c[0], out[m][1] = c[1], m++;
        if ((sc >= 0) != (sd >= 0)) {
            double t = sc / (sc - sd);
            out[m][0] = c[0] + t * (d[0] - c[0]);
            out[m][1] = c[1] + t * (d[1] - c[1]);
            m++;
        }
    }
    return m;
}

static double signed_area(const double p[][2], int n)
{
    double area = 0;
    for (int k = 0; k < n; k++)
        area += p[k][0] * p[(k + 1) % n][1] - p[(k + 1) % n][0] * p[k][1];
    return area / 2;
}

/* The share of the smaller of a's and b's top faces that the two share (Sutherland-Hodgman:
 * a's face clipped by each edge of b's; the faces are convex quads, or near enough). A clip
 * keeps the corners inside and adds one where an edge crosses the line, at most 3/2 times the
 * corners it had: four grow to at most 19, whatever corners the net gives. */
static double top_faces_overlap(const yz_vision_die *a, const yz_vision_die *b)
{
    double poly[2][TOP_CLIP_CORNERS][2];
    memcpy(poly[0], a->top, sizeof a->top);
    int n = 4;
    double area_b = signed_area(b->top, 4), turn = area_b < 0 ? -1 : 1;
    for (int k = 0; k < 4 && n > 0; k++)
        n = clip_by_edge(poly[k % 2], n, b->top[k], b->top[(k + 1) % 4], turn, poly[(k + 1) % 2]);
    double smaller = fmin(fabs(signed_area(a->top, 4)), fabs(area_b));
    return n > 2 && smaller > 0 ? fabs(signed_area(poly[0], n)) / smaller : 0;
}

/* Two dice cannot share a top face: where the faces the top-face net found for two dice share
 * `one_face` of the smaller face or more, one die was found twice (on a world render of two
 * touching red 1s, the detector put two peaks on one of them, and the photo of four dice read as
 * a sure five). Which of the two is the die, and whether the other is a die hidden behind it
 * whose crop the front die's face fills, cannot be told, so both are uncertain. Returns the
 * first such pair's left die's index (and the right one's in *other), or -1. */
static int distrust_one_face_twice(yz_vision_result *result, double one_face, int *other)
{
    int first = -1;
    for (int i = result->n_dice - 1; i >= 0; i--)
        for (int k = result->n_dice - 1; k > i; k--)
            if (top_faces_overlap(&result->dice[i], &result->dice[k]) >= one_face) {
                result->dice[i].certain = result->dice[k].certain = 0;
                first = i;
                *other = k;
            }
    return first;
}

static double box_area(const yz_vision_die *die)
{
    return (double)die->box[2] * die->box[3];
}

/* A die's box as the (x, y, w, h) doubles internal.h's box helpers take. */
static void box_rect(const yz_vision_die *die, double rect[4])
{
    for (int k = 0; k < 4; k++)
        rect[k] = die->box[k];
}

/* The area a's box and b's share. */
static double common_area(const yz_vision_die *a, const yz_vision_die *b)
{
    double ra[4], rb[4];
    box_rect(a, ra);
    box_rect(b, rb);
    return yz_vision_common_area(ra, rb);
}

/* The share of a's box that lies inside b's. */
static double box_inside_share(const yz_vision_die *a, const yz_vision_die *b)
{
    double ra[4], rb[4];
    box_rect(a, ra);
    box_rect(b, rb);
    return yz_vision_inside_share(ra, rb);
}

/* A die the readers could not read whose box lies PIECE_INSIDE or more inside the box of a die
 * they read surely is a piece of that die, and is not counted: a large die seen from low breaks
 * into its top and a side face, or its top is boxed twice, each piece a die to the die-or-not
 * net (its crop shows the die around it). A die half behind another shows above the front die's
 * box, mostly outside it. Measured on the world dev renders (tools/READER_HISTORY.md, thirty-
 * first try): three of w5's 200 photos read right that "found 6 dice" refused, and no photo of
 * six dice, nor of one die behind another, passes as five for it. */
static void set_aside_pieces(yz_vision_result *result)
{
    int piece[YZ_VISION_MAX_DICE] = {0}, kept = 0;
    for (int i = 0; i < result->n_dice; i++)
        for (int k = 0; k < result->n_dice && !piece[i]; k++)
            piece[i] = k != i && !result->dice[i].certain && result->dice[k].certain &&
                       box_inside_share(&result->dice[i], &result->dice[k]) >= PIECE_INSIDE;
    for (int i = 0; i < result->n_dice; i++)
        if (!piece[i]) result->dice[kept++] = result->dice[i];
    result->n_dice = kept;
}

/* How many dice lie YZ_VISION_FOUND_AGAIN_INSIDE or more inside the box of a die above them in
 * the photo (its box's centre higher): each may be that die found a second time, by its side
 * face seen from low or by its top boxed twice. *first and *second are the pair that overlaps most,
 * in their order from the left. The side face of a die lies below its top in the photo; a die half
 * behind another lies above it, so the front die is the one counted. */
static int count_found_again(const yz_vision_result *result, int *first, int *second)
{
    int n = 0;
    double most = 0;
    for (int i = 0; i < result->n_dice; i++) {
        int again = 0;
        for (int k = 0; k < result->n_dice; k++) {
            if (k == i || box_centre_y(&result->dice[i]) <= box_centre_y(&result->dice[k]))
                continue;
            double share = box_inside_share(&result->dice[i], &result->dice[k]);
            if (share < YZ_VISION_FOUND_AGAIN_INSIDE) continue;
            again = 1;
            if (share > most) most = share, *first = i < k ? i : k, *second = i < k ? k : i;
        }
        n += again;
    }
    return n;
}

/* The advice where dice may have been taken for one, or one for two. */
static const char RETAKE_APART[] =
    "Take another photo from more directly above, so that the dice show apart.";

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

void yz_vision_give_verdict(yz_vision_result *result, int expect, const yz_vision_tuning *tuning)
{
    set_aside_pieces(result);
    result->status = YZ_VISION_READ_OK;
    result->reason[0] = '\0';
    result->retake = NULL;
    for (int i = 0; i < result->n_dice; i++)
        result->roll[i] = result->dice[i].value;
    /* Each die's expected size (expected_side), for both checks of boxes; needs three dice. */
    double expected[YZ_VISION_MAX_DICE];
    for (int i = 0; i < result->n_dice && result->n_dice >= 3; i++)
        expected[i] = expected_side(result, i);
    int seen_twice_too = -1, again_first = -1, again_second = -1;
    int two_dice = distrust_two_dice_boxes(result, expected, tuning->two_dice_side),
        cut_off = distrust_cut_off_dice(result, expected),
        seen_twice = distrust_one_face_twice(result, tuning->one_face, &seen_twice_too);
    if (expect > 0 && result->n_dice < expect)
        refuse(result, "Take another photo from a little higher, with every die in the frame.",
               "found %d %s, expected %d; one may be hidden or out of frame", result->n_dice,
               result->n_dice == 1 ? "die" : "dice", expect);
    else if (expect > 0 && result->n_dice > expect &&
             count_found_again(result, &again_first, &again_second) >= result->n_dice - expect)
        /* As many dice boxed over a die above them as there are dice too many: most often one
         * die found twice (a side face from a low camera, a top boxed twice), rarely a die
         * behind another and a stray thing besides. */
        refuse(result, RETAKE_APART,
               "found %d dice, expected %d; dice %d and %d (from the left) overlap: one die may "
               "have been found twice",
               result->n_dice, expect, again_first + 1, again_second + 1);
    else if (expect > 0 && result->n_dice >= 2 * expect)
        /* Twice the dice a throw has, most not over another: on the renders, only from close
         * above, where a pip is the size of a die and the detector takes each pip for one (10 to
         * 23 of them). */
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
        refuse(result, RETAKE_APART,
               "die %d (from the left) is much larger than the others: it may be two dice "
               "touching",
               two_dice + 1);
    else if (seen_twice >= 0)
        refuse(result, RETAKE_APART,
               "dice %d and %d (from the left) show the same top face: one die may be counted "
               "twice",
               seen_twice + 1, seen_twice_too + 1);
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

/* Whether a and b are one die: each box's centre within half the smaller of the two boxes' sides
 * of the other's. */
static int one_die(const yz_vision_die *a, const yz_vision_die *b)
{
    return fabs(box_centre_x(a) - box_centre_x(b)) < 0.5 * fmin(a->box[2], b->box[2]) &&
           fabs(box_centre_y(a) - box_centre_y(b)) < 0.5 * fmin(a->box[3], b->box[3]);
}

/* Whether every die `first` found is found again in `second` (one_die), with the same value
 * where first read it surely, and there, with boxed_alike, its boxes' common area at least
 * SAME_BOX of the two together. */
static int finds_again(const yz_vision_result *second, const yz_vision_result *first,
                       int boxed_alike)
{
    for (int i = 0; i < first->n_dice; i++) {
        const yz_vision_die *a = &first->dice[i];
        int found = 0;
        for (int k = 0; k < second->n_dice && !found; k++) {
            const yz_vision_die *b = &second->dice[k];
            double common = common_area(a, b);
            found = one_die(a, b) &&
                    (!a->certain ||
                     (b->value == a->value &&
                      (!boxed_alike || common >= SAME_BOX * (box_area(a) + box_area(b) - common))));
        }
        if (!found) return 0;
    }
    return 1;
}

int yz_vision_second_reading_stands(const yz_vision_result *second, const yz_vision_result *first)
{
    return second->status == YZ_VISION_READ_OK && finds_again(second, first, 0);
}

int yz_vision_fewer_dice_stand(const yz_vision_result *again, const yz_vision_result *first)
{
    return again->status == YZ_VISION_READ_OK && finds_again(again, first, 1);
}

static int by_box_centre(const void *a, const void *b)
{
    double xa = box_centre_x(a), xb = box_centre_x(b);
    return (xa > xb) - (xa < xb);
}

void yz_vision_sort_dice(yz_vision_result *result)
{
    qsort(result->dice, (size_t)result->n_dice, sizeof result->dice[0], by_box_centre);
}

/* The first of merged's first n_first dice whose box and b's nest: one holds PIECE_INSIDE or
 * more of the other; -1 when none does. Two looks can box one die differently (its top in one,
 * the whole die in the other), their centres then farther apart than one_die allows; or b is a
 * die mostly behind that one. Neither reading can tell which. */
static int nested_with(const yz_vision_result *merged, int n_first, const yz_vision_die *b)
{
    for (int i = 0; i < n_first; i++)
        if (box_inside_share(b, &merged->dice[i]) >= PIECE_INSIDE ||
            box_inside_share(&merged->dice[i], b) >= PIECE_INSIDE)
            return i;
    return -1;
}

void yz_vision_merge_readings(const yz_vision_result *first, const yz_vision_result *other,
                              int expect, const yz_vision_tuning *tuning, yz_vision_result *merged)
{
    /* One to one: a second die of other's on a die of first's is a die of its own (first's box
     * held two dice), so the two together never count fewer dice than either alone. */
    int claimed[YZ_VISION_MAX_DICE] = {0};
    *merged = *first;
    for (int k = 0; k < other->n_dice; k++) {
        const yz_vision_die *b = &other->dice[k];
        int same = -1;
        for (int i = 0; i < first->n_dice && same < 0; i++)
            if (!claimed[i] && one_die(&first->dice[i], b)) same = i;
        if (same < 0) {
            if (merged->n_dice == YZ_VISION_MAX_DICE) continue;
            int nested = nested_with(merged, first->n_dice, b);
            yz_vision_die *added = &merged->dice[merged->n_dice++];
            *added = *b;
            if (nested >= 0) /* one die or two: neither counts as read */
                merged->dice[nested].certain = added->certain = 0;
            continue;
        }
        claimed[same] = 1;
        yz_vision_die *a = &merged->dice[same];
        if (!a->certain && b->certain)
            *a = *b; /* the surer reading */
        else if (b->certain && a->value != b->value)
            a->certain = 0; /* two sure readings that disagree */
    }
    yz_vision_sort_dice(merged);
    yz_vision_give_verdict(merged, expect, tuning);
}
