/* geometry.c - models/pipeline.json: the sizes the nets were trained with.
 *
 * The training scripts (tools/train_*.py) read the same file, so the detector's canvas, the
 * crops and the faces are cut the same way when the nets learn and when they read. It sits
 * beside the nets: a set of nets and the sizes they need travel together.
 */
#include <jansson.h>
#include <stdio.h>

#include "stages.h"

#define PIPELINE_FILE "pipeline.json"
#define MAX_PIPELINE_BYTES (64 * 1024)

typedef struct {
    const char *section, *key;
    int whole; /* an integer, into an int; else a number, into a double */
    double low, high;
    size_t offset;
} geometry_field;

static const geometry_field fields[] = {
    {"detector", "canvas_side", 1, 16, 4096, offsetof(yz_vision_geometry, det_side)},
    {"detector", "stride", 1, 1, 64, offsetof(yz_vision_geometry, det_stride)},
    {"detector", "align", 1, 1, 256, offsetof(yz_vision_geometry, det_align)},
    {"detector", "box_unit", 1, 1, 4096, offsetof(yz_vision_geometry, box_unit)},
    {"second_look", "typical_die", 0, 1, 4096, offsetof(yz_vision_geometry, typical_die)},
    {"second_look", "margin", 0, 0, 100, offsetof(yz_vision_geometry, zoom_margin)},
    {"reader", "crop", 1, 8, 1024, offsetof(yz_vision_geometry, crop)},
    {"reader", "crop_scale", 0, 0.5, 10, offsetof(yz_vision_geometry, crop_scale)},
    {"face_reader", "face", 1, 8, YZ_VISION_MAX_FACE, offsetof(yz_vision_geometry, face)},
    {"face_reader", "face_margin", 0, 0, 1, offsetof(yz_vision_geometry, face_margin)},
    {"box_refiner", "crop_scale", 0, 1, 10, offsetof(yz_vision_geometry, refine_scale)},
};

yz_vision_status yz_vision_geometry_load(const char *dir, yz_vision_geometry *geometry,
                                         yz_vision_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, PIPELINE_FILE);
    uint8_t *bytes;
    size_t n_bytes;
    yz_vision_status status = yz_vision_read_whole_file(path, &bytes, &n_bytes, err);
    if (status != YZ_VISION_OK) return status;
    if (n_bytes > MAX_PIPELINE_BYTES) {
        yz_vision_release(bytes);
        return yz_vision_fail(err, YZ_VISION_ERR_LIMIT, path, "more than %d bytes",
                              MAX_PIPELINE_BYTES);
    }
    json_error_t json_err;
    json_t *root = json_loadb((const char *)bytes, n_bytes, JSON_REJECT_DUPLICATES, &json_err);
    yz_vision_release(bytes);
    if (!root)
        return yz_vision_fail(err, YZ_VISION_ERR_FORMAT, path, "line %d: %s", json_err.line,
                              json_err.text);
    for (size_t k = 0; k < sizeof fields / sizeof fields[0] && status == YZ_VISION_OK; k++) {
        const geometry_field *f = &fields[k];
        json_t *value = json_object_get(json_object_get(root, f->section), f->key);
        double number = json_number_value(value);
        if (!(f->whole ? json_is_integer(value) : json_is_number(value)))
            status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, path, "%s.%s: missing or not %s",
                                    f->section, f->key, f->whole ? "a whole number" : "a number");
        else if (number < f->low || number > f->high)
            status =
                yz_vision_fail(err, YZ_VISION_ERR_FORMAT, path, "%s.%s: %g is not from %g to %g",
                               f->section, f->key, number, f->low, f->high);
        else if (f->whole)
            *(int *)((char *)geometry + f->offset) = (int)number;
        else
            *(double *)((char *)geometry + f->offset) = number;
    }
    json_decref(root);
    if (status == YZ_VISION_OK && (geometry->det_side % geometry->det_align != 0 ||
                                   geometry->det_align % geometry->det_stride != 0))
        status = yz_vision_fail(err, YZ_VISION_ERR_FORMAT, path,
                                "detector: canvas_side must be a multiple of align, and align "
                                "of stride");
    return status;
}
