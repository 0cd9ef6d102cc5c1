/* top_face.c - the geometry of a die's top face: where the face reader's input is cut, and a
 * face the photo's edge cuts through made whole from its twin half. */
#include <math.h>
#include <string.h>

#include "stages.h"

#define MAX_FACE_OUTSIDE                                                                           \
    0.25 /* a top face this much outside the photo is read no more: where it                       \
            is, the top-face net guessed its corners */

/* Grown by face_margin about the corners' centre so that a corner placed a little inside the
 * face loses no pip. */
void yz_vision_face_in_crop(const yz_vision_geometry *geometry, const float corners[8],
                            yz_cv_point quad[4])
{
    double grow = 1 + geometry->face_margin;
    int crop = geometry->crop;
    double mx = 0.25 * (corners[0] + corners[2] + corners[4] + corners[6]);
    double my = 0.25 * (corners[1] + corners[3] + corners[5] + corners[7]);
    for (int k = 0; k < 4; k++)
        quad[k] = (yz_cv_point){(float)((mx + (corners[2 * k] - mx) * grow) * crop),
                                (float)((my + (corners[2 * k + 1] - my) * grow) * crop)};
}

/* The perspective map taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to a quad's
 * four corners in that order: the map a warp along the quad inverts. */
typedef struct {
    double a, b, c, d, e, f, g, h; /* (u, v) -> (a u + b v + c, d u + e v + f) / (g u + h v + 1) */
} square_to_quad;

static square_to_quad perspective_of(const double x[4], const double y[4])
{
    double dx1 = x[1] - x[2], dx2 = x[3] - x[2], dx3 = x[0] - x[1] + x[2] - x[3];
    double dy1 = y[1] - y[2], dy2 = y[3] - y[2], dy3 = y[0] - y[1] + y[2] - y[3];
    double det = dx1 * dy2 - dx2 * dy1;
    double g = det != 0 ? (dx3 * dy2 - dx2 * dy3) / det : 0;
    double h = det != 0 ? (dx1 * dy3 - dx3 * dy1) / det : 0;
    return (square_to_quad){x[1] - x[0] + g * x[1],
                            x[3] - x[0] + h * x[3],
                            x[0],
                            y[1] - y[0] + g * y[1],
                            y[3] - y[0] + h * y[3],
                            y[0],
                            g,
                            h};
}

/* A top face the photo's edge cuts through, made whole where it can be: every die's pips lie in
 * pairs symmetric about the face's centre (1, 3 and 5 have one at the centre itself), so a pixel
 * of the face outside the photo shows what its twin across the centre shows. The face was warped
 * along quad (crop pixels) out of a crop whose pixel (0, 0) is the photo's (x0, y0) and whose
 * pixels are `scale` photo pixels; outside the photo the warp repeated the edge's pixels.
 * Returns 1 when it filled the face's pixels outside the photo from their twins; 0, leaving the
 * face as it was, when none is outside, when a twin is outside too, or when more than
 * MAX_FACE_OUTSIDE of the face is. */
int yz_vision_complete_cut_face(const yz_vision_geometry *geometry, yz_cv_image *face,
                                const yz_cv_point quad[4], double x0, double y0, double scale,
                                int photo_w, int photo_h)
{
    const int side = geometry->face; /* at most YZ_VISION_MAX_FACE (geometry.c) */
    double xs[4], ys[4];             /* the quad in photo pixels */
    for (int k = 0; k < 4; k++) {
        xs[k] = x0 + quad[k].x * scale;
        ys[k] = y0 + quad[k].y * scale;
    }
    square_to_quad map = perspective_of(xs, ys);
    /* The warp took face pixel (x, y) from point (x/side, y/side) of the quad's square, so the
     * twin across the centre of pixel (x, y) is point (side - x, side - y) of this grid; pixel
     * side - 1 stands in for the twin pixel side of the first row and column. */
    int outside[YZ_VISION_MAX_FACE + 1][YZ_VISION_MAX_FACE + 1];
    for (int y = 0; y <= side; y++)
        for (int x = 0; x <= side; x++) {
            double u = (double)x / side, v = (double)y / side, w = map.g * u + map.h * v + 1;
            double px = (map.a * u + map.b * v + map.c) / w;
            double py = (map.d * u + map.e * v + map.f) / w;
            outside[y][x] = px < 0 || py < 0 || px > photo_w - 1 || py > photo_h - 1;
        }
    int any = 0, face_pixels = 0, face_outside = 0;
    /* the face proper, within the margin grown round it */
    double inner = 0.5 / (1 + geometry->face_margin);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            if (outside[y][x] && outside[side - y][side - x]) return 0;
            any |= outside[y][x];
            if (fabs((double)x / side - 0.5) <= inner && fabs((double)y / side - 0.5) <= inner) {
                face_pixels++;
                face_outside += outside[y][x];
            }
        }
    if (!any || face_outside > MAX_FACE_OUTSIDE * face_pixels) return 0;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            if (outside[y][x]) {
                int tx = x ? side - x : side - 1, ty = y ? side - y : side - 1;
                memcpy(face->data + y * face->stride + x * 3,
                       face->data + ty * face->stride + tx * 3, 3);
            }
    return 1;
}
