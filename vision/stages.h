/* stages.h - the stages of reading a photo, and what they hand each other.
 *
 * pipeline.c runs them in order: detect.c finds the dice, read.c reads each die's top face
 * (with top_face.c's geometry of that face), verdict.c decides whether the photo is read or
 * refused. The sizes the nets were trained with come from models/pipeline.json (geometry.c),
 * the thresholds from yz_vision_default_tuning (tuning.c). Each stage returns a
 * yz_vision_status: YZ_VISION_ERR_NOMEM when an allocation failed, YZ_VISION_ERR_INTERNAL when
 * an OpenCV primitive did; pipeline.c names the photo in the error message.
 */
#ifndef YZ_VISION_STAGES_H
#define YZ_VISION_STAGES_H

#include <stdlib.h>

#include "cv.h"
#include "internal.h"

#define YZ_VISION_N_CLASSES 7 /* a reader's outputs: 0 = no readable top face, 1..6 */
/* Peaks and unexplained places kept from one look, the strongest first. A patterned ground (a
 * blanket's checks, printed dots, gravel) raises a peak at every spot, and the die-or-not net
 * must see the dice among them: with 64, a look at such a photo could keep no die at all. */
#define YZ_VISION_MAX_CANDIDATES 256
#define YZ_VISION_MAX_FACE 64      /* the largest face reader input geometry.c accepts */
#define YZ_VISION_PIECE_OF_DIE 0.5 /* a peak under this share of the dice's side is a piece */
/* A die with this share of its box inside the box of a die above it may be that die found again
 * (its side face seen from low, or its top boxed twice): of the dev photos refused for too many
 * dice, those it explains had a die found twice 58 times in 62 (verdict.c); read.c refines such a
 * die's box even where it reads surely. */
#define YZ_VISION_FOUND_AGAIN_INSIDE 0.25

/* What the nets were trained with and the C must do the same way: models/pipeline.json, the
 * one place these numbers are written (the training scripts read it too). */
typedef struct {
    int det_side;        /* detector canvas's long side, pixels */
    int det_stride;      /* detector output cell, canvas pixels */
    int det_align;       /* the detector's coarsest stride: canvas sides are multiples of it */
    int box_unit;        /* the detector's box sizes are in this many canvas pixels */
    double typical_die;  /* median die side in the detector's training canvases, pixels */
    double zoom_margin;  /* the second look's window around the dice, in die sides */
    int crop;            /* whole-die reader and top-face net input side, pixels */
    double crop_scale;   /* crop side / die box long side */
    int face;            /* face reader input side, pixels */
    double face_margin;  /* the top face's quad grown by this share about its centre */
    double refine_scale; /* box refiner's crop side / the box's long side */
} yz_vision_geometry;

/* The reader's thresholds, read off held-out validation renders (tools/READER_HISTORY.md). A
 * sweep changes them through $YARDZEE_TUNE (tools/sweep_thresholds.sh); nothing else should. */
typedef struct {
    double die_score;       /* detector score from which a peak is a sure die (its size and cut
                               face are trusted); whether any peak counts is min_die's */
    double doubt_score;     /* ... from which it is a candidate at all */
    double min_confidence;  /* combined readers' probability from which a value is trusted */
    double zoom_worth;      /* a second look is worth it when it enlarges the dice this much */
    double two_dice_side;   /* a box this many times the dice's size may be two dice */
    double min_die;         /* die-or-not probability from which a detection is a die */
    double overlap_die;     /* where sure dice overlap, look again at dice this large (canvas px) */
    double short_look_side; /* refused, no more dice than expected: look again on a canvas this many
                               times larger (0: never) */
    double far_look_side;   /* still refused: look again on a canvas this many times the first
                               (0: never) */
    double unsure_looks;    /* 1: a die left unsure is read again at moved boxes; 0: not */
    double refine_looks;    /* 1: a die left unsure is read again where the box refiner puts it */
    double merge_looks;     /* 1: the dice of a look again and of the reading before it count
                               together where together they read; 0: not */
    double any_looks;       /* 1: with no count given, a photo refused with a die found is looked
                               at again as with one (pipeline.c); 0: not */
    double many_looks;      /* 1: with a count given, a photo refused with more dice found than
                               expected is looked at again on other canvases; 0: not */
    double face_alone;      /* the face reader seeing no face, the whole-die reader's value
                               stands alone from this probability (0: never) */
    double one_face;        /* two dice's top faces sharing this share of the smaller face are
                               one face: one die found twice */
} yz_vision_tuning;

/* Reads dir/pipeline.json into *geometry; an error names the file and the field at fault. */
yz_vision_status yz_vision_geometry_load(const char *dir, yz_vision_geometry *geometry,
                                         yz_vision_error *err);

/* The thresholds as committed, then each NAME=VALUE of a comma-separated list (NULL or empty:
 * none) applied; an unknown name or a value out of range is a YZ_VISION_ERR_USAGE naming
 * `source`. */
yz_vision_status yz_vision_tuning_parse(const char *list, const char *source,
                                        yz_vision_tuning *tuning, yz_vision_error *err);

struct yz_vision_nets {
    yz_cv_net *detector, *reader, *top_face, *face_reader, *die_or_not, *box_refiner;
    /* A detector taught longer on the world, asked only about a photo `detector` leaves
     * refused (pipeline.c's ask_second_detector). */
    yz_cv_net *second_detector;
    yz_vision_geometry geometry;
    yz_vision_tuning tuning;
};

/* A place the detector says may be a die. */
typedef struct {
    double score;
    double cx, cy, w, h; /* working-size pixels */
    int unexplained;     /* not a peak: detector mass no peak accounts for */
} yz_vision_candidate;

/* One die's reading. */
typedef struct {
    float p[YZ_VISION_N_CLASSES]; /* the two readers' combined probabilities: no top, 1..6 */
    double top[4][2];             /* the top face's corners, working-size pixels */
    int top_completed; /* part of the top face lay outside the photo, filled from its twin */
    float p_die;       /* the die-or-not net's probability that the crop holds a die at all */
    yz_vision_candidate read_at; /* the box it was read at: the candidate's, or the refiner's */
} yz_vision_reading;

/* ---- detect.c ---- */

/* A peak strong enough to be a die by itself. */
int yz_vision_sure_die(const yz_vision_candidate *c, const yz_vision_tuning *tuning);

/* The median long side of the sure dice among found (working-size pixels), 0 when none is. */
double yz_vision_median_sure_side(const yz_vision_tuning *tuning, const yz_vision_candidate *found,
                                  int n_found);

/* Step 1: the candidates in the photo, at most YZ_VISION_MAX_CANDIDATES. */
yz_vision_status yz_vision_find_dice(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     yz_vision_candidate *found, int *n_found);

/* ---- top_face.c ---- */

/* The quad the face reader's input is cut along, in crop pixels, from the top-face net's
 * corners (x0 y0 .. x3 y3 in crop widths). */
void yz_vision_face_in_crop(const yz_vision_geometry *geometry, const float corners[8],
                            yz_cv_point quad[4]);

/* Fills the pixels of a face warped along quad that lie outside the photo from their twins
 * across the face's centre; 1 when it did, 0 (face unchanged) when it could not or need not. */
int yz_vision_complete_cut_face(const yz_vision_geometry *geometry, yz_cv_image *face,
                                const yz_cv_point quad[4], double x0, double y0, double scale,
                                int photo_w, int photo_h);

/* ---- read.c ---- */

/* The two readers' probabilities for one die as one. */
void yz_vision_combine_readers(const float *whole_die, const float *face, double face_alone,
                               float *combined);

/* p_die[i]: the die-or-not net's probability that found[i] is a die at all (soil, a leaf, a
 * ball or a blank block is not), of at most YZ_VISION_MAX_CANDIDATES. */
yz_vision_status yz_vision_die_or_not(const yz_vision_nets *nets, const yz_vision_image *photo,
                                      const yz_vision_candidate *found, int n_found, float *p_die);

/* Step 2: readings[i] for found[i], of at most YZ_VISION_MAX_CANDIDATES. */
yz_vision_status yz_vision_read_tops(const yz_vision_nets *nets, const yz_vision_image *photo,
                                     const yz_vision_candidate *found, int n_found,
                                     yz_vision_reading *readings);

/* The dice of result (full-size pixels, left to right) from the n_found candidates' readings,
 * each die boxed where it was read. */
void yz_vision_collect_dice(const yz_vision_photo *photo, const yz_vision_tuning *tuning,
                            int n_found, const yz_vision_reading *readings,
                            yz_vision_result *result);

/* ---- verdict.c ---- */

/* Step 3: the roll, the status and the reason; distrusts dice whose boxes or top faces say
 * they cannot be trusted. */
void yz_vision_give_verdict(yz_vision_result *result, int expect, const yz_vision_tuning *tuning);

/* Whether a second reading of a photo the first refused (pipeline.c's ask_second_detector)
 * stands in for the first: the photo reads there, and every die the first found is found
 * again, each value the first read surely the same. */
int yz_vision_second_reading_stands(const yz_vision_result *second, const yz_vision_result *first);

/* Whether a look again at a photo the first reading refused for more dice than expected stands
 * in for it: as yz_vision_second_reading_stands, each die the first read surely boxed alike
 * besides (their boxes' common area half of the two together or more). The surplus is then
 * dice the first left unsure over another: most often one die boxed twice, which the look boxes
 * once; but a box that swallows a die behind the one it holds is boxed otherwise than the die
 * it holds was (a photo of six close dice passed as five on the dev renders so,
 * tools/READER_HISTORY.md's forty-fifth try). */
int yz_vision_fewer_dice_stand(const yz_vision_result *again, const yz_vision_result *first);

/* *merged: first's dice with every die of other's that first did not find (one die where the two
 * boxes share a centre, each of first's dice one of other's at most, the surer reading kept),
 * judged again with `expect`. */
void yz_vision_merge_readings(const yz_vision_result *first, const yz_vision_result *other,
                              int expect, const yz_vision_tuning *tuning, yz_vision_result *merged);

/* result's dice sorted left to right by their boxes' centres. */
void yz_vision_sort_dice(yz_vision_result *result);

/* ---- shared ---- */

static inline int yz_vision_by_double(const void *a, const void *b)
{
    return (*(const double *)a > *(const double *)b) - (*(const double *)a < *(const double *)b);
}

/* The median of n > 0 values (the upper one of an even count); sorts them. */
static inline double yz_vision_median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, yz_vision_by_double);
    return values[n / 2];
}

#endif
