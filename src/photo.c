/* photo.c - reading the dice in a photo for the commands that need it (read, snap, verify,
 * game throw, batch): load, read, annotate, and turn library errors into exit codes. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "cli.h"
#include "vision.h"

int yz_cli_vision_exit_code(const yz_vision_error *err)
{
    switch (err->code) {
    case YZ_VISION_ERR_USAGE: return YZ_EXIT_USAGE;
    case YZ_VISION_ERR_NOMEM:
    case YZ_VISION_ERR_INTERNAL: return YZ_EXIT_INTERNAL;
    default: return YZ_EXIT_DATA;
    }
}

typedef struct {
    pthread_t thread;
    int started;
    yz_vision_nets *nets;
    yz_vision_status status;
    yz_vision_error err;
} nets_loading;

static void *load_nets(void *arg)
{
    nets_loading *loading = arg;
    loading->status = yz_vision_nets_load(NULL, &loading->nets, &loading->err);
    return NULL;
}

/* The photo reader plugin is opened and the nets come from their files on a second thread while
 * this one decodes the photo (the binary decodes photos itself: vision_plugin.h): on two cores a
 * one-photo command then pays for the longer of the two, not for both (opening the plugin and
 * OpenCV takes about 10 ms, the nets' files 5 more; a 12 MP JPEG about 45 to decode). */
static void start_loading_nets(nets_loading *loading)
{
    loading->started = pthread_create(&loading->thread, NULL, load_nets, loading) == 0;
    if (!loading->started) load_nets(loading); /* no thread to be had: load them here */
}

/* The loaded nets (the caller frees loading->nets), or NULL with why in err. */
static yz_vision_nets *loaded_nets(nets_loading *loading, yz_vision_error *err)
{
    if (loading->started) pthread_join(loading->thread, NULL);
    loading->started = 0;
    if (loading->status != YZ_VISION_OK && err) *err = loading->err;
    return loading->status == YZ_VISION_OK ? loading->nets : NULL;
}

/* Load, read, annotate (with the claim beside the roll when there is one). */
static int read_photo(const char *path, int expect, yz_vision_nets *nets, const char *annotate,
                      const yz_roll *claim, int quiet, yz_vision_result *result,
                      yz_vision_error *err)
{
    yz_vision_options options = yz_vision_default_options();
    options.expect = expect;
    nets_loading loading = {0};
    if (!nets) start_loading_nets(&loading);
    yz_vision_photo photo;
    int code = YZ_EXIT_OK;
    if (yz_vision_load_file(path, options.max_long_side, &photo, err) != YZ_VISION_OK) {
        code = yz_cli_vision_exit_code(err);
        if (!nets) loaded_nets(&loading, NULL); /* the photo's error is the one to tell */
    } else if (!nets && !(nets = loaded_nets(&loading, err))) {
        code = yz_cli_vision_exit_code(err);
        yz_vision_photo_free(&photo);
    } else {
        options.nets = nets;
        yz_vision_claim drawn = {0};
        if (claim) {
            drawn.n_claim = YZ_N_DICE;
            for (int i = 0; i < YZ_N_DICE; i++)
                drawn.claim[i] = claim->dice[i];
        }
        if (yz_vision_read_photo(&photo, &options, result, err) != YZ_VISION_OK)
            code = yz_cli_vision_exit_code(err);
        else if (annotate) {
            if (claim && result->status == YZ_VISION_READ_OK)
                yz_cli_claim_differences(result, claim, drawn.differs);
            if (yz_vision_annotate_claim_file(path, &photo, result, claim ? &drawn : NULL, annotate,
                                              err) != YZ_VISION_OK)
                code = yz_cli_vision_exit_code(err);
        }
        yz_vision_photo_free(&photo);
    }
    yz_vision_nets_free(loading.nets);
    if (code != YZ_EXIT_OK && !quiet) yz_cli_fail(code, "%s", err->message);
    return code;
}

int yz_cli_read_photo(const char *path, int expect, yz_vision_nets *nets, const char *annotate,
                      int quiet, yz_vision_result *result, yz_vision_error *err)
{
    return read_photo(path, expect, nets, annotate, NULL, quiet, result, err);
}

int yz_cli_read_photo_claim(const char *path, const yz_roll *claim, const char *annotate,
                            yz_vision_result *result, yz_vision_error *err)
{
    return read_photo(path, YZ_N_DICE, NULL, annotate, claim, 0, result, err);
}

double yz_cli_roll_confidence(const yz_vision_result *result)
{
    double confidence = 1;
    for (int i = 0; i < result->n_dice; i++)
        if (result->dice[i].confidence < confidence) confidence = result->dice[i].confidence;
    return result->n_dice ? confidence : 0;
}

json_t *yz_cli_read_json(const char *file, const yz_vision_result *result)
{
    json_t *root = json_object(), *dice = json_array(), *roll = json_array();
    for (int i = 0; i < result->n_dice; i++) {
        const yz_vision_die *die = &result->dice[i];
        json_t *entry = json_object();
        /* An uncertain die claims no value: its best guess is in the human output only. */
        json_object_set_new(entry, "value", die->certain ? json_integer(die->value) : json_null());
        json_object_set_new(
            entry, "box",
            json_pack("[i, i, i, i]", die->box[0], die->box[1], die->box[2], die->box[3]));
        json_object_set_new(entry, "confidence", json_real(round(die->confidence * 100) / 100));
        /* Where the value was read: the top face's corners, clockwise (none without a top). */
        json_t *top = die->value ? json_array() : json_null();
        for (int k = 0; k < 4 && die->value; k++)
            json_array_append_new(
                top, json_pack("[i, i]", (int)lround(die->top[k][0]), (int)lround(die->top[k][1])));
        json_object_set_new(entry, "top", top);
        json_array_append_new(dice, entry);
        if (result->status == YZ_VISION_READ_OK)
            json_array_append_new(roll, json_integer(die->value));
    }
    int ok = result->status == YZ_VISION_READ_OK;
    json_object_set_new(root, "file", json_string(file));
    json_object_set_new(root, "status", json_string(ok ? "ok" : "refused"));
    json_object_set_new(root, "reason", json_string(result->reason));
    json_object_set_new(root, "dice", dice);
    json_object_set_new(root, "roll", roll);
    return root;
}
