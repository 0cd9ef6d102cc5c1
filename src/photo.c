/* photo.c - reading the dice in a photo for the commands that need it (read, snap, verify,
 * game throw, batch): load, read, annotate, and turn library errors into exit codes. */
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

int yz_cli_read_photo(const char *path, int expect, const char *annotate, int quiet,
                      yz_vision_result *result, yz_vision_error *err)
{
    yz_vision_options options = yz_vision_default_options();
    options.expect = expect;
    yz_vision_photo photo;
    int code = YZ_EXIT_OK;
    if (yz_vision_load_file(path, options.max_long_side, &photo, err) != YZ_VISION_OK)
        code = yz_cli_vision_exit_code(err);
    else {
        if (yz_vision_read_photo(&photo, &options, result, err) != YZ_VISION_OK ||
            (annotate && yz_vision_annotate(&photo, result, annotate, err) != YZ_VISION_OK))
            code = yz_cli_vision_exit_code(err);
        yz_vision_photo_free(&photo);
    }
    if (code != YZ_EXIT_OK && !quiet) yz_cli_fail(code, "%s", err->message);
    return code;
}

double yz_cli_roll_confidence(const yz_vision_result *result)
{
    double confidence = 1;
    for (int i = 0; i < result->n_dice; i++)
        if (result->dice[i].confidence < confidence) confidence = result->dice[i].confidence;
    return result->n_dice ? confidence : 0;
}
