/* cv.h - the OpenCV primitives libyzvision uses, behind a pure C interface.
 *
 * The only code that touches OpenCV is cv.cpp. Every function wraps the caller's buffers in
 * cv::Mat without copying, catches every exception and returns a status; no OpenCV type,
 * exception or header crosses into C. Output buffers are allocated by the caller (through
 * yz_vision_alloc), so allocation failures stay testable from C. Keep this file small: the
 * pipeline is C in vision/, these are only its primitives.
 */
#ifndef YZ_CV_H
#define YZ_CV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { YZ_CV_OK = 0, YZ_CV_ERR = 1 } yz_cv_status;

/* 8-bit image, 1 or 3 channels (RGB order when 3), rows stride bytes apart. */
typedef struct {
    int w, h, channels, stride;
    uint8_t *data;
} yz_cv_image;

typedef struct {
    float x, y;
} yz_cv_point;

/* dst (its own w x h, same channels) = src shrunk or stretched to that size; shrinking
 * averages the pixels each output pixel covers (OpenCV's INTER_AREA), so grass does not alias. */
yz_cv_status yz_cv_resize_area(const yz_cv_image *src, yz_cv_image *dst);

/* Starts OpenCV's pool of worker threads (TBB: its libraries loaded, its threads made), which it
 * otherwise starts on its first parallel work, on whichever thread first reads a photo. */
yz_cv_status yz_cv_start_threads(void);

/* A learned net (ONNX, run by OpenCV's dnn module). Opaque to C; OpenCV owns its memory (the
 * one allocation outside yz_vision_alloc: the net's layers are OpenCV's to size). */
typedef struct yz_cv_net yz_cv_net;

/* Loads the ONNX model at path; *net is NULL on failure (a missing or malformed file). */
yz_cv_status yz_cv_net_load(const char *path, yz_cv_net **net);
void yz_cv_net_free(yz_cv_net *net);

/* Runs the net on n_images RGB images of one size, as a batch (1, 3, h, w per image, values
 * scaled to 0..1), and copies its single output, row-major, to out. *n_out gets the output's
 * element count; more than capacity is a failure. */
yz_cv_status yz_cv_net_run(yz_cv_net *net, const yz_cv_image *images, int n_images, float *out,
                           int capacity, int *n_out);

/* dst (size dst->w x dst->h, same channels) = src seen through the perspective transform that
 * takes quad[0..3] to the corners (0,0), (w,0), (w,h), (0,h). Bilinear. */
yz_cv_status yz_cv_warp_quad(const yz_cv_image *src, const yz_cv_point quad[4], yz_cv_image *dst);

/* Drawing on an RGB image, for annotations. colour is {r, g, b}. */
yz_cv_status yz_cv_draw_polygon(yz_cv_image *rgb, const yz_cv_point *points, int n_points,
                                const uint8_t colour[3], int thickness);
yz_cv_status yz_cv_draw_text(yz_cv_image *rgb, const char *text, int x, int y, double height_px,
                             const uint8_t colour[3], int thickness);
/* How wide yz_cv_draw_text draws text, in pixels (0 if it cannot tell). */
int yz_cv_text_width(const char *text, double height_px, int thickness);

#ifdef __cplusplus
}
#endif

#endif
