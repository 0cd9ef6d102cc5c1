/* pipeline.c - from an upright working-size photo to the dice and the values of their top
 * faces, with six small learned nets (the .onnx files in models/, trained by
 * tools/train_reader.py, tools/train_top_face.py, tools/train_face_reader.py and
 * tools/train_die_or_not.py on rendered
 * lawn scenes and the shared photo sets; those scripts say how to regenerate them, and
 * tools/READER_HISTORY.md what was tried on the way).
 *
 * It runs three stages (stages.h):
 *  1. Find (detect.c): the detector's peaks on the photo shrunk to its canvas, with a second
 *     look at small dice and a step back from dice too large.
 *  2. Read (read.c, top_face.c): a crop around each die to the die-or-not net, the whole-die
 *     reader and the top-face net; the top face cut out along its corners to the face reader;
 *     the two readings made one. A peak the die-or-not net sees no die in is lawn.
 *  3. Verdict (verdict.c): the photo is ok only when the expected number of dice was found and
 *     every one is certain; else refused, with why and how to take one that reads.
 * A photo refused with no more dice found than expected goes through the three again, the
 * detector's canvas a little larger, then, still refused, a little smaller
 * (look_again_while_refused); one still refused, with the second detector
 * (ask_second_detector). Where such a reading does not stand in for the one before, the dice of
 * both together may read (take_both_if_they_read). With no count given, a refused photo with a
 * die found takes the same looks, and with more dice found than expected the looks on other
 * canvases, each standing only where it reads and finds every die again.
 * The only sizes are fractions of each die's measured box, and the nets' input sizes, which
 * models/pipeline.json gives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"
#include "vision_testing.h"

#define DETECTOR_FILE "dice_detector.onnx"
#define READER_FILE "top_reader.onnx"
#define TOP_FACE_FILE "top_face.onnx"
#define FACE_READER_FILE "face_reader.onnx"
#define DIE_OR_NOT_FILE "die_or_not.onnx"
#define SECOND_DETECTOR_FILE "second_detector.onnx"
#define BOX_REFINER_FILE "box_refiner.onnx"

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
    yz_cv_net_free(nets->die_or_not);
    yz_cv_net_free(nets->second_detector);
    yz_cv_net_free(nets->box_refiner);
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
    if (status == YZ_VISION_OK) status = load_net(dir, DIE_OR_NOT_FILE, &(*nets)->die_or_not, err);
    if (status == YZ_VISION_OK)
        status = load_net(dir, SECOND_DETECTOR_FILE, &(*nets)->second_detector, err);
    if (status == YZ_VISION_OK)
        status = load_net(dir, BOX_REFINER_FILE, &(*nets)->box_refiner, err);
    if (status == YZ_VISION_OK) status = yz_vision_geometry_load(dir, &(*nets)->geometry, err);
    /* The nets usually load on a thread of their own while the photo decodes (src/photo.c), so
     * the pool's start is done there too: 2-3 ms less for a 12 MP read on two cores. */
    if (status == YZ_VISION_OK && yz_cv_start_threads())
        status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, "(models)", "cannot start threads");
    if (status == YZ_VISION_OK)
        status =
            yz_vision_tuning_parse(getenv("YARDZEE_TUNE"), "YARDZEE_TUNE", &(*nets)->tuning, err);
    if (status != YZ_VISION_OK) {
        yz_vision_nets_free(*nets);
        *nets = NULL;
    }
    return status;
}

void yz_vision_testing_verdict(yz_vision_result *result, int expect)
{
    yz_vision_tuning committed;
    yz_vision_tuning_parse(NULL, NULL, &committed, NULL);
    yz_vision_give_verdict(result, expect, &committed);
}

void yz_vision_testing_combine_readers(const float whole_die[7], const float face[7],
                                       double face_alone, float combined[7])
{
    yz_vision_combine_readers(whole_die, face, face_alone, combined);
}

/* One reading of the photo with `nets`: the dice found, read and judged (stages 1-3), each
 * stage's time added to result's. Without trust_completed_tops, a top face the frame's edge
 * cuts counts as cut off even where read.c filled it in from its twin. */
static yz_vision_status find_read_judge(const yz_vision_nets *nets, const yz_vision_photo *photo,
                                        int expect, int trust_completed_tops,
                                        yz_vision_result *result)
{
    yz_vision_candidate found[YZ_VISION_MAX_CANDIDATES];
    int n_found = 0;
    yz_vision_reading *readings = NULL;
    double started = yz_vision_now_ms();
    yz_vision_status status = yz_vision_find_dice(nets, &photo->image, found, &n_found);
    if (status == YZ_VISION_OK) {
        result->ms_detect += yz_vision_now_ms() - started;
        started = yz_vision_now_ms();
        readings = yz_vision_alloc((size_t)(n_found ? n_found : 1) * sizeof *readings);
        status = readings ? yz_vision_read_tops(nets, &photo->image, found, n_found, readings)
                          : YZ_VISION_ERR_NOMEM;
    }
    if (status == YZ_VISION_OK) {
        yz_vision_collect_dice(photo, &nets->tuning, n_found, readings, result);
        if (!trust_completed_tops)
            for (int i = 0; i < result->n_dice; i++)
                result->dice[i].top_completed = 0;
        yz_vision_give_verdict(result, expect, &nets->tuning);
        result->ms_read += yz_vision_now_ms() - started;
    }
    yz_vision_release(readings);
    return status;
}

/* With merge_looks, whether the dice of result and of again together read (as many dice as
 * expected, every one read surely, the verdict's checks passed on them all); if so, result
 * becomes them, and its status says so. Each look finds dice the other misses: on the world dev
 * renders, of the dice missing from a refused photo two in five were a die to the die-or-not net
 * at another look (tools/READER_HISTORY.md, thirty-fifth try). */
static yz_vision_status take_both_if_they_read(const yz_vision_nets *nets, int expect,
                                               const yz_vision_result *again,
                                               yz_vision_result *result)
{
    if (!nets->tuning.merge_looks) return YZ_VISION_OK;
    yz_vision_result *both = yz_vision_alloc(sizeof *both);
    if (!both) return YZ_VISION_ERR_NOMEM;
    yz_vision_merge_readings(result, again, expect, &nets->tuning, both);
    if (both->status == YZ_VISION_READ_OK) *result = *both;
    yz_vision_release(both);
    return YZ_VISION_OK;
}

/* Whether a refused photo is worth another look: with no more dice found than expected; with
 * no count given (`--expect any`), with any_looks and a die found at least. With more dice found
 * than expected, with many_looks, the looks again on other canvases but not the second detector
 * (by_second_detector): most often one die was boxed twice, once on its top and once around it
 * or over its side face, and another canvas boxes it once; asked too, the second detector passed
 * one more photo of six close dice as five on the dev renders (tools/READER_HISTORY.md,
 * forty-fifth try). A look again, or the second detector, then stands only where it reads and
 * finds again every die the first found (yz_vision_second_reading_stands; with too many, each
 * sure one boxed alike too, yz_vision_fewer_dice_stand). Where the first look
 * found no die at all, the dice are mostly too small for the detector, and what another look
 * finds is then often part of them: on epanemu-dice's training part 4 such photos more read
 * right and 10 more read surely with a die missing; from a die found on, 18 more right and 7
 * more with a die missing (forty-second try). */
static int worth_another_look(const yz_vision_nets *nets, const yz_vision_result *result,
                              int expect, int by_second_detector)
{
    if (result->status == YZ_VISION_READ_OK) return 0;
    if (expect > 0 && result->n_dice > expect)
        return nets->tuning.many_looks && !by_second_detector;
    if (expect > 0) return 1;
    return nets->tuning.any_looks && result->n_dice > 0;
}

/* When the photo is refused with no more dice found than the player says were thrown (too few,
 * or one unsure), it is looked at again with the detector's canvas `side` times its own:
 * larger, every die a little larger to it, and some dice it scored under doubt_score at the
 * first look score above it there (on the world dev renders about one photo in seven refused for
 * too few dice then reads right); smaller, dice much larger than those it learned on (a camera
 * close to them) come nearer the size it knows; either, a die left unsure boxed otherwise. The
 * die-or-not net and both readers judge what the other look finds as they judge any die. Only a
 * refused photo pays for it, and only a reading of more dice, still no more than expected,
 * replaces the first: 4 of 5 found, then 6, keeps "found 4 dice" (unless the dice of both
 * together read, take_both_if_they_read). With five expected, a photo of six dice with one or two
 * lost can pass as five this way: one more of the 120 world dev renders of six close dice
 * (tools/READER_HISTORY.md, thirtieth try), and 1.7 more once a photo refused for an unsure die
 * is looked at again too (thirty-fifth try). A photo refused with more dice found than expected
 * is looked at again so too (worth_another_look), the look standing only where it reads, finds
 * every die the first found and boxes each sure one alike (yz_vision_fewer_dice_stand). */
static yz_vision_status look_again_if_refused(const yz_vision_nets *nets,
                                              const yz_vision_photo *photo, int expect, double side,
                                              yz_vision_result *result)
{
    if (side <= 0 || !worth_another_look(nets, result, expect, 0)) return YZ_VISION_OK;
    /* Without the merge, a look again can only help by finding more dice. */
    if (!nets->tuning.merge_looks && result->n_dice == expect) return YZ_VISION_OK;
    yz_vision_nets other = *nets; /* the same loaded nets, looking otherwise */
    int align = other.geometry.det_align;
    other.geometry.det_side = (int)lround(other.geometry.det_side * side / align) * align;
    if (other.geometry.det_side < align) other.geometry.det_side = align;
    yz_vision_result *again = yz_vision_alloc(sizeof *again);
    if (!again) return YZ_VISION_ERR_NOMEM;
    *again = *result;
    /* Nor does it trust a top face the frame's edge cuts, filled in from its twin: on a shifted
     * copy of a lawn dev render it found a 4 cut by the bottom edge and read it surely as a 2,
     * and none of the 41 photos it read right on the dev sets and their copies needed one. */
    yz_vision_status status = find_read_judge(&other, photo, expect, 0, again);
    result->ms_detect = again->ms_detect; /* the time every look so far took */
    result->ms_read = again->ms_read;
    if (expect > 0 && result->n_dice > expect) { /* the surplus must be dice found twice */
        if (status == YZ_VISION_OK && yz_vision_fewer_dice_stand(again, result)) *result = *again;
    } else if (expect <= 0) { /* no count to hold it to: it must find again what the first found */
        if (status == YZ_VISION_OK && yz_vision_second_reading_stands(again, result))
            *result = *again;
    } else {
        if (status == YZ_VISION_OK) status = take_both_if_they_read(nets, expect, again, result);
        if (status == YZ_VISION_OK && result->status != YZ_VISION_READ_OK &&
            again->n_dice > result->n_dice && again->n_dice <= expect)
            *result = *again;
    }
    yz_vision_release(again);
    return status;
}

/* The looks again when refused: closer first (short_look_side), then, still refused, from
 * farther back (far_look_side). */
static yz_vision_status look_again_while_refused(const yz_vision_nets *nets,
                                                 const yz_vision_photo *photo, int expect,
                                                 yz_vision_result *result)
{
    yz_vision_status status =
        look_again_if_refused(nets, photo, expect, nets->tuning.short_look_side, result);
    if (status == YZ_VISION_OK)
        status = look_again_if_refused(nets, photo, expect, nets->tuning.far_look_side, result);
    return status;
}

/* A photo refused with no more dice found than expected (too few, or one unsure) is read again
 * from the start with the second detector: the pair with its world half taught further on the
 * world renders and the real photo sets, no longer held to the first's maps there
 * (tools/train_reader.py, READER_HISTORY.md's thirty-third try). Its reading replaces the first
 * only when the photo reads there, and every die the first found is among its dice, each value read
 * surely the same: the second may add a die the first missed or read one it left unsure, but not
 * throw away what the first saw. A photo read surely by the first is never asked again, so the
 * second detector costs nothing where the first reads. */
static yz_vision_status ask_second_detector(const yz_vision_nets *nets,
                                            const yz_vision_photo *photo, int expect,
                                            yz_vision_result *result)
{
    if (!worth_another_look(nets, result, expect, 1)) return YZ_VISION_OK;
    yz_vision_nets second = *nets; /* the same loaded nets, the other detector */
    second.detector = nets->second_detector;
    yz_vision_result *again = yz_vision_alloc(sizeof *again);
    if (!again) return YZ_VISION_ERR_NOMEM;
    *again = *result;
    yz_vision_status status = find_read_judge(&second, photo, expect, 1, again);
    if (status == YZ_VISION_OK) status = look_again_while_refused(&second, photo, expect, again);
    result->ms_detect = again->ms_detect; /* the time every look took */
    result->ms_read = again->ms_read;
    if (status == YZ_VISION_OK && yz_vision_second_reading_stands(again, result))
        *result = *again;
    else if (status == YZ_VISION_OK && expect > 0)
        status = take_both_if_they_read(nets, expect, again, result);
    yz_vision_release(again);
    return status;
}

/* yz_vision_read_photo, with `name` (the photo's file, or "(photo)") in error messages. */
static yz_vision_status read_named(const yz_vision_photo *photo, const char *name,
                                   const yz_vision_options *opts, yz_vision_result *result,
                                   yz_vision_error *err)
{
    memset(result, 0, sizeof *result);
    result->image_w = photo->full_w;
    result->image_h = photo->full_h;
    yz_vision_nets *own_nets = NULL, *nets = opts->nets;
    yz_vision_status status = YZ_VISION_OK;
    if (!nets) {
        double started = yz_vision_now_ms();
        status = yz_vision_nets_load(opts->models_dir, &own_nets, err);
        if (status != YZ_VISION_OK) return status;
        nets = own_nets;
        result->ms_load = yz_vision_now_ms() - started;
    }
    status = find_read_judge(nets, photo, opts->expect, 1, result);
    if (status == YZ_VISION_OK)
        status = look_again_while_refused(nets, photo, opts->expect, result);
    if (status == YZ_VISION_OK) status = ask_second_detector(nets, photo, opts->expect, result);
    if (status != YZ_VISION_OK)
        yz_vision_fail(err, status, name,
                       status == YZ_VISION_ERR_NOMEM ? "out of memory" : "image processing failed");
    yz_vision_nets_free(own_nets);
    return status;
}

yz_vision_status yz_vision_read_photo(const yz_vision_photo *photo, const yz_vision_options *opts,
                                      yz_vision_result *result, yz_vision_error *err)
{
    yz_vision_options defaults = yz_vision_default_options();
    return read_named(photo, "(photo)", opts ? opts : &defaults, result, err);
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
    status = read_named(&photo, path, opts, result, err);
    result->ms_decode = decoded;
    yz_vision_photo_free(&photo);
    return status;
}
