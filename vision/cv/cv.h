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

/* Per connected component: bounding box, pixel count and centroid. */
typedef struct {
    int x, y, w, h, area;
    double cx, cy;
} yz_cv_component;

yz_cv_status yz_cv_rgb_to_gray(const yz_cv_image *rgb, yz_cv_image *gray);
/* Gaussian blur, sigma in pixels; in place is allowed. */
yz_cv_status yz_cv_gaussian_blur(const yz_cv_image *src, yz_cv_image *dst, double sigma);
/* Mean over a box of side 2*radius+1; in place is allowed. */
yz_cv_status yz_cv_box_blur(const yz_cv_image *src, yz_cv_image *dst, int radius);
/* Sobel gradient magnitude (L1, scaled so a unit step reads about 1) of a gray image. */
yz_cv_status yz_cv_gradient_magnitude(const yz_cv_image *gray, yz_cv_image *dst);
/* dst = 255 where src < threshold (below = 1) or src > threshold (below = 0), else 0. */
yz_cv_status yz_cv_threshold(const yz_cv_image *src, yz_cv_image *dst, int threshold, int below);
/* Otsu's threshold of a gray image. */
yz_cv_status yz_cv_otsu_threshold(const yz_cv_image *gray, int *threshold);

typedef enum { YZ_CV_ERODE, YZ_CV_DILATE, YZ_CV_OPEN, YZ_CV_CLOSE } yz_cv_morph_op;
/* Morphology with a disc of the given radius; in place is allowed. */
yz_cv_status yz_cv_morphology(const yz_cv_image *src, yz_cv_image *dst, yz_cv_morph_op op,
                              int radius);

/* 8-connected components of a binary mask. labels has w*h entries (0 = background); stats
 * has room for max_components entries, entry i describing label i (entry 0 the background).
 * *n_components counts the background too; labels past max_components are dropped. */
yz_cv_status yz_cv_connected_components(const yz_cv_image *mask, int32_t *labels,
                                        yz_cv_component *stats, int max_components,
                                        int *n_components);

/* Flood fill from seed over pixels within +-tolerance (per channel) of the seed's value,
 * 8-connected. region (same w,h, 1 channel) gets 255 where filled, and is cleared first. */
yz_cv_status yz_cv_flood_region(const yz_cv_image *src, int seed_x, int seed_y, int tolerance,
                                yz_cv_image *region);

/* Convex hull of the nonzero pixels of a mask: at most capacity points, clockwise. */
yz_cv_status yz_cv_mask_hull(const yz_cv_image *mask, yz_cv_point *hull, int capacity,
                             int *n_points);
/* Douglas-Peucker simplification of a closed polygon, epsilon in pixels. */
yz_cv_status yz_cv_approx_polygon(const yz_cv_point *points, int n_points, double epsilon,
                                  yz_cv_point *out, int capacity, int *n_out);
/* The four corners of the minimum-area rectangle around the points. */
yz_cv_status yz_cv_min_area_rect(const yz_cv_point *points, int n_points, yz_cv_point corners[4]);

/* dst (size dst->w x dst->h, same channels) = src seen through the perspective transform that
 * takes quad[0..3] to the corners (0,0), (w,0), (w,h), (0,h). Bilinear. */
yz_cv_status yz_cv_warp_quad(const yz_cv_image *src, const yz_cv_point quad[4], yz_cv_image *dst);

/* Drawing on an RGB image, for annotations. colour is {r, g, b}. */
yz_cv_status yz_cv_draw_polygon(yz_cv_image *rgb, const yz_cv_point *points, int n_points,
                                const uint8_t colour[3], int thickness);
yz_cv_status yz_cv_draw_text(yz_cv_image *rgb, const char *text, int x, int y, double height_px,
                             const uint8_t colour[3], int thickness);

#ifdef __cplusplus
}
#endif

#endif
