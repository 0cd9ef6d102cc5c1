/* pipeline.c - from an upright working-size photo to the dice and their top faces.
 *
 * How it reads a photo:
 *  1. Smooth seeds. A die's faces are smooth; grass, soil and clover are not. The texture
 *     (blurred gradient magnitude) is compared with the photo's own median texture, so the
 *     test follows the photo rather than a fixed level.
 *  2. Faces. Each seed is grown by colour (flood fill on the blurred photo) into a face: the
 *     fill stops at the pips and at the face edges, where the shading changes. The convex hull
 *     fills the pips back in; a face is kept when the hull simplifies to a quadrilateral.
 *  3. Dice. Faces are taken top to bottom: a face just below an accepted top face, within its
 *     width, is one of that die's side faces (the camera looks down, so side faces always lie
 *     below the top face in an upright photo). Side faces are never counted.
 *  4. Reading. The top face's quad is warped to a square, the pips are found with Otsu's
 *     threshold inside it and their positions must match one of the six real layouts.
 * Every size used after step 1 is a fraction of the measured face size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "internal.h"

#define MAX_COMPONENTS 4096
#define MAX_PARTS 256
#define HULL_CAPACITY 4096
#define FACE_SIDE 60          /* the rectified top face, pixels */
#define MIN_CONFIDENCE 0.70   /* below this a die is uncertain and the photo refused */

typedef struct {
    yz_cv_point quad[4]; /* clockwise from the top-left-most corner */
    int is_quad;
    double cx, cy, area;
    int x0, y0, x1, y1; /* bounding box */
    int die;            /* index of the die it belongs to, -1 before grouping */
    int value, n_pips;
    double confidence;
} face_part;

typedef struct {
    yz_cv_image rgb, blurred, gray, texture, mask, region;
    int32_t *labels;
    yz_cv_component *components;
    yz_cv_point *hull;
    face_part parts[MAX_PARTS];
    int n_parts;
    int long_side;
} workspace;

static yz_cv_image view_of(uint8_t *data, int w, int h, int channels)
{
    yz_cv_image image = {w, h, channels, w * channels, data};
    return image;
}

static int new_plane(yz_cv_image *image, int w, int h, int channels)
{
    *image = view_of(yz_vision_alloc((size_t)w * h * channels), w, h, channels);
    return image->data != NULL;
}

static void workspace_free(workspace *ws)
{
    yz_vision_release(ws->blurred.data);
    yz_vision_release(ws->gray.data);
    yz_vision_release(ws->texture.data);
    yz_vision_release(ws->mask.data);
    yz_vision_release(ws->region.data);
    yz_vision_release(ws->labels);
    yz_vision_release(ws->components);
    yz_vision_release(ws->hull);
}

static int workspace_init(workspace *ws, const yz_vision_image *image)
{
    memset(ws, 0, sizeof *ws);
    int w = image->w, h = image->h;
    ws->rgb = view_of(image->rgb, w, h, 3);
    ws->long_side = w > h ? w : h;
    ws->labels = yz_vision_alloc(sizeof(int32_t) * (size_t)w * h);
    ws->components = yz_vision_alloc(sizeof(yz_cv_component) * MAX_COMPONENTS);
    ws->hull = yz_vision_alloc(sizeof(yz_cv_point) * HULL_CAPACITY);
    return new_plane(&ws->blurred, w, h, 3) && new_plane(&ws->gray, w, h, 1) &&
           new_plane(&ws->texture, w, h, 1) && new_plane(&ws->mask, w, h, 1) &&
           new_plane(&ws->region, w, h, 1) && ws->labels && ws->components && ws->hull;
}

/* The value below which `fraction` of the pixels lie. */
static int percentile(const yz_cv_image *plane, double fraction)
{
    long histogram[256] = {0};
    for (int y = 0; y < plane->h; y++)
        for (int x = 0; x < plane->w; x++) histogram[plane->data[y * plane->stride + x]]++;
    long target = (long)(fraction * plane->w * plane->h), seen = 0;
    for (int v = 0; v < 256; v++)
        if ((seen += histogram[v]) > target) return v;
    return 255;
}

/* |dx| + |dy| of central differences: how much the gray level changes around each pixel.
 * Written here rather than with Sobel because it needs no temporary planes (fresh big buffers
 * cost more in page faults than the arithmetic). */
static void measure_texture(const yz_cv_image *gray, yz_cv_image *texture)
{
    int w = gray->w, h = gray->h;
    for (int y = 0; y < h; y++) {
        const uint8_t *up = gray->data + (size_t)(y > 0 ? y - 1 : y) * gray->stride;
        const uint8_t *row = gray->data + (size_t)y * gray->stride;
        const uint8_t *down = gray->data + (size_t)(y < h - 1 ? y + 1 : y) * gray->stride;
        uint8_t *out = texture->data + (size_t)y * texture->stride;
        out[0] = out[w - 1] = 0;
        for (int x = 1; x < w - 1; x++) {
            int change = abs(row[x + 1] - row[x - 1]) + abs(down[x] - up[x]);
            out[x] = (uint8_t)(change > 255 ? 255 : change);
        }
    }
}

static int grow_face(workspace *ws, int label, int sx, int sy, face_part *part);
static int inside_part(const face_part *p, double x, double y);
static int seed_point(const workspace *ws, int label, int *sx, int *sy);

/* Step 1: ws->mask = the smooth pixels. *level receives the texture level below which a
 * pixel counts as smooth: a fraction of the photo's median, never below the noise of a flat
 * face. */
static int find_smooth_pixels(workspace *ws, int *level)
{
    int L = ws->long_side;
    if (yz_cv_box_blur(&ws->rgb, &ws->blurred, L / 1000 > 1 ? L / 1000 : 1) ||
        yz_cv_rgb_to_gray(&ws->blurred, &ws->gray))
        return 0;
    measure_texture(&ws->gray, &ws->texture);
    if (yz_cv_box_blur(&ws->texture, &ws->texture, L / 600 > 1 ? L / 600 : 1)) return 0;
    int median = percentile(&ws->texture, 0.5);
    *level = (int)(0.4 * median + 0.5);
    if (*level < 6) *level = 6; /* sensor noise and JPEG ringing on a flat face */
    return yz_cv_threshold(&ws->texture, &ws->mask, *level, 1) == YZ_CV_OK;
}

/* Step 1b: ws->mask = pixels whose colour no lawn has (green is not their strongest channel
 * by a margin) and whose texture is moderate: wood grain is not smooth, but it is not grass
 * either. Seeds for dice the smooth mask misses. */
static void find_unlawnlike_pixels(workspace *ws, int level)
{
    for (int y = 0; y < ws->rgb.h; y++) {
        const uint8_t *rgb = ws->blurred.data + (size_t)y * ws->blurred.stride;
        const uint8_t *texture = ws->texture.data + (size_t)y * ws->texture.stride;
        uint8_t *out = ws->mask.data + (size_t)y * ws->mask.stride;
        for (int x = 0; x < ws->rgb.w; x++) {
            int r = rgb[3 * x], g = rgb[3 * x + 1], b = rgb[3 * x + 2];
            int strongest_other = r > b ? r : b;
            int bright = r + g + b > 3 * 60;
            out[x] = (uint8_t)(g <= strongest_other + 4 && bright && texture[x] < 2 * level ? 255 : 0);
        }
    }
}

/* Grows a face from (sx, sy) unless that point is on a face already grown; 1 if it tried. */
static int try_seed(workspace *ws, int label, int sx, int sy)
{
    if (ws->n_parts >= MAX_PARTS) return 0;
    for (int i = 0; i < ws->n_parts; i++)
        if (inside_part(&ws->parts[i], sx, sy)) return 0;
    if (grow_face(ws, label, sx, sy, &ws->parts[ws->n_parts])) ws->n_parts++;
    return 1;
}

/* Steps 1 and 2 for one mask: opens it, labels it, grows a face from each seed big enough
 * that is not on a face already grown. */
static int grow_faces_from_mask(workspace *ws)
{
    int L = ws->long_side, n_components = 0;
    if (yz_cv_morphology(&ws->mask, &ws->mask, YZ_CV_OPEN, L / 500 > 1 ? L / 500 : 1) ||
        yz_cv_connected_components(&ws->mask, ws->labels, ws->components, MAX_COMPONENTS,
                                   &n_components))
        return 0;
    /* A face is at least 1.2% of the long side across: smaller seeds are specks. */
    double min_seed_area = pow(0.012 * L, 2);
    for (int label = 1; label < n_components && ws->n_parts < MAX_PARTS; label++) {
        const yz_cv_component *c = &ws->components[label];
        if (c->area < min_seed_area) continue;
        /* The seed nearest the centre first, then a coarse grid over the component: one
         * component can hold several faces (touching dice, a top and its sides). */
        int sx = 0, sy = 0;
        if (seed_point(ws, label, &sx, &sy)) try_seed(ws, label, sx, sy);
        if (c->area < 4 * min_seed_area) continue; /* no room for a second face */
        int step = (int)sqrt(min_seed_area);
        int attempts = 0;
        for (int y = c->y + step / 2; y < c->y + c->h && attempts < 8; y += step)
            for (int x = c->x + step / 2; x < c->x + c->w && attempts < 8; x += step)
                if (ws->labels[y * ws->rgb.w + x] == label && try_seed(ws, label, x, y)) attempts++;
    }
    return 1;
}

/* A pixel of component `label` near its centroid: the centroid itself may fall in a hole. */
static int seed_point(const workspace *ws, int label, int *sx, int *sy)
{
    const yz_cv_component *c = &ws->components[label];
    double best = -1;
    for (int y = c->y; y < c->y + c->h; y++)
        for (int x = c->x; x < c->x + c->w; x++) {
            if (ws->labels[y * ws->rgb.w + x] != label) continue;
            double d = (x - c->cx) * (x - c->cx) + (y - c->cy) * (y - c->cy);
            if (best < 0 || d < best) {
                best = d;
                *sx = x;
                *sy = y;
            }
        }
    return best >= 0;
}

static double polygon_area(const yz_cv_point *p, int n)
{
    double twice = 0;
    for (int i = 0; i < n; i++) {
        const yz_cv_point *a = &p[i], *b = &p[(i + 1) % n];
        twice += (double)a->x * b->y - (double)b->x * a->y;
    }
    return fabs(twice) / 2;
}

/* Orders a quad clockwise (in image coordinates) starting from the corner nearest top-left. */
static void order_quad(yz_cv_point q[4])
{
    double cx = 0, cy = 0;
    for (int i = 0; i < 4; i++) cx += q[i].x / 4.0, cy += q[i].y / 4.0;
    double angle[4];
    for (int i = 0; i < 4; i++) angle[i] = atan2(q[i].y - cy, q[i].x - cx);
    for (int i = 1; i < 4; i++) /* insertion sort by angle: clockwise on screen */
        for (int j = i; j > 0 && angle[j] < angle[j - 1]; j--) {
            double ta = angle[j]; angle[j] = angle[j - 1]; angle[j - 1] = ta;
            yz_cv_point tp = q[j]; q[j] = q[j - 1]; q[j - 1] = tp;
        }
    int first = 0;
    for (int i = 1; i < 4; i++)
        if (q[i].x + q[i].y < q[first].x + q[first].y) first = i;
    yz_cv_point copy[4];
    memcpy(copy, q, sizeof copy);
    for (int i = 0; i < 4; i++) q[i] = copy[(first + i) % 4];
}

/* Simplifies a hull to four corners when it is one; 0 when the shape is no quadrilateral. */
static int hull_to_quad(const yz_cv_point *hull, int n_hull, yz_cv_point quad[4])
{
    double perimeter = 0;
    for (int i = 0; i < n_hull; i++) {
        const yz_cv_point *a = &hull[i], *b = &hull[(i + 1) % n_hull];
        perimeter += hypot(a->x - b->x, a->y - b->y);
    }
    double hull_area = polygon_area(hull, n_hull);
    for (double eps = 0.02; eps <= 0.10; eps += 0.01) {
        yz_cv_point simplified[16];
        int n = 0;
        if (yz_cv_approx_polygon(hull, n_hull, eps * perimeter, simplified, 16, &n)) return 0;
        if (n < 4) return 0;
        if (n == 4) {
            double ratio = polygon_area(simplified, 4) / hull_area;
            if (ratio < 0.88 || ratio > 1.12) return 0;
            memcpy(quad, simplified, sizeof(yz_cv_point) * 4);
            order_quad(quad);
            return 1;
        }
    }
    return 0;
}

/* A fill that runs along its window's edge (other than the photo's edge) leaked into the
 * ground: a face is not that big. */
static int fill_leaked(const workspace *ws, const yz_cv_image *region, int x0, int y0)
{
    int on_edge = 0, filled = 0;
    for (int y = 0; y < region->h; y++)
        for (int x = 0; x < region->w; x++) {
            if (!region->data[y * region->w + x]) continue;
            filled++;
            int window_edge = x == 0 || y == 0 || x == region->w - 1 || y == region->h - 1;
            int photo_edge = x + x0 == 0 || y + y0 == 0 || x + x0 == ws->rgb.w - 1 ||
                             y + y0 == ws->rgb.h - 1;
            on_edge += window_edge && !photo_edge;
        }
    return filled == 0 || on_edge > (region->w + region->h) / 8;
}

/* Step 2: grows one seed into a face by colour, inside a window around it. */
static int grow_face(workspace *ws, int label, int sx, int sy, face_part *part)
{
    const yz_cv_component *c = &ws->components[label];
    /* The fill may not reach further than one seed size around the seed: a face is not much
     * bigger than the smooth part of it, and a lawn that matches the die's colour must not
     * turn the die into a field. */
    int pad = (c->w > c->h ? c->w : c->h);
    int x0 = c->x - pad < 0 ? 0 : c->x - pad, y0 = c->y - pad < 0 ? 0 : c->y - pad;
    int x1 = c->x + c->w + pad > ws->rgb.w ? ws->rgb.w : c->x + c->w + pad;
    int y1 = c->y + c->h + pad > ws->rgb.h ? ws->rgb.h : c->y + c->h + pad;
    yz_cv_image window = {x1 - x0, y1 - y0, 3, ws->blurred.stride,
                          ws->blurred.data + (size_t)y0 * ws->blurred.stride + x0 * 3};
    yz_cv_image region = view_of(ws->region.data, x1 - x0, y1 - y0, 1);
    /* Wide tolerance first (shading across a face); narrower when that leaks, as it does when
     * the ground is close to the die's colour. */
    static const int tolerances[] = {14, 9, 6};
    int grown = 0;
    for (size_t t = 0; t < sizeof tolerances / sizeof tolerances[0] && !grown; t++) {
        if (yz_cv_flood_region(&window, sx - x0, sy - y0, tolerances[t], &region)) return 0;
        grown = !fill_leaked(ws, &region, x0, y0);
    }
    if (!grown) return 0;
    int n_hull = 0;
    if (yz_cv_mask_hull(&region, ws->hull, HULL_CAPACITY, &n_hull) || n_hull < 3) return 0;
    memset(part, 0, sizeof *part);
    part->die = -1;
    part->x0 = part->y0 = 1 << 30;
    part->x1 = part->y1 = -1;
    for (int i = 0; i < n_hull; i++) {
        ws->hull[i].x += (float)x0;
        ws->hull[i].y += (float)y0;
        part->cx += ws->hull[i].x / n_hull;
        part->cy += ws->hull[i].y / n_hull;
        if (ws->hull[i].x < part->x0) part->x0 = (int)ws->hull[i].x;
        if (ws->hull[i].y < part->y0) part->y0 = (int)ws->hull[i].y;
        if (ws->hull[i].x > part->x1) part->x1 = (int)ws->hull[i].x;
        if (ws->hull[i].y > part->y1) part->y1 = (int)ws->hull[i].y;
    }
    part->area = polygon_area(ws->hull, n_hull);
    part->is_quad = hull_to_quad(ws->hull, n_hull, part->quad);
    return 1;
}

static int inside_part(const face_part *p, double x, double y)
{
    return x >= p->x0 && x <= p->x1 && y >= p->y0 && y <= p->y1;
}

/* ---- reading a rectified face ------------------------------------------------------------ */

/* The six faces as cells of a 3x3 grid (row * 3 + column), and the variants a die can show
 * (2, 3 and 6 turn with the die). */
static const struct {
    int value;
    int cells[6];
} layouts[] = {
    {1, {4}},
    {2, {0, 8}}, {2, {2, 6}},
    {3, {0, 4, 8}}, {3, {2, 4, 6}},
    {4, {0, 2, 6, 8}},
    {5, {0, 2, 4, 6, 8}},
    {6, {0, 3, 6, 2, 5, 8}}, {6, {0, 1, 2, 6, 7, 8}},
};

typedef struct {
    double x, y, area;
} pip;

/* Which layout the pips form, or 0; *fit is the mean distance of a pip from its cell centre in
 * face-side units (0 is perfect). */
static int match_layout(const pip *pips, int n_pips, double *fit)
{
    if (n_pips < 1 || n_pips > 6) return 0;
    int occupied[9] = {0};
    double distance = 0;
    for (int i = 0; i < n_pips; i++) {
        /* Pip centres sit near 1/4, 1/2, 3/4 of the face. */
        int column = pips[i].x < 0.375 ? 0 : pips[i].x > 0.625 ? 2 : 1;
        int row = pips[i].y < 0.375 ? 0 : pips[i].y > 0.625 ? 2 : 1;
        if (occupied[row * 3 + column]++) return 0;
        distance += hypot(pips[i].x - (0.25 + 0.25 * column), pips[i].y - (0.25 + 0.25 * row));
    }
    *fit = distance / n_pips;
    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        if (layouts[k].value != n_pips) continue;
        int all = 1;
        for (int i = 0; i < n_pips; i++) all &= occupied[layouts[k].cells[i]] == 1;
        if (all) return n_pips;
    }
    return 0;
}

/* Step 4: rectifies the face, finds its pips, checks the layout, scores the confidence. */
static int read_face(workspace *ws, face_part *part)
{
    uint8_t pixels[FACE_SIDE * FACE_SIDE], binary[FACE_SIDE * FACE_SIDE];
    int32_t labels[FACE_SIDE * FACE_SIDE];
    yz_cv_component stats[64];
    yz_cv_image face = view_of(pixels, FACE_SIDE, FACE_SIDE, 1);
    yz_cv_image mask = view_of(binary, FACE_SIDE, FACE_SIDE, 1);
    if (yz_cv_warp_quad(&ws->gray, part->quad, &face)) return 0;
    int level = 0;
    if (yz_cv_otsu_threshold(&face, &level)) return 0;
    /* Pips are the minority class: dark on light faces, light on dark ones. */
    int above = 0;
    for (int i = 0; i < FACE_SIDE * FACE_SIDE; i++) above += pixels[i] > level;
    int pips_light = above < FACE_SIDE * FACE_SIDE / 2;
    if (yz_cv_threshold(&face, &mask, level, !pips_light)) return 0;
    /* The rounded rim shades differently from the flat face: ignore a margin. */
    int margin = FACE_SIDE / 14;
    for (int y = 0; y < FACE_SIDE; y++)
        for (int x = 0; x < FACE_SIDE; x++)
            if (x < margin || y < margin || x >= FACE_SIDE - margin || y >= FACE_SIDE - margin)
                binary[y * FACE_SIDE + x] = 0;
    int n = 0;
    if (yz_cv_connected_components(&mask, labels, stats, 64, &n)) return 0;
    /* A pip's diameter is 12-25% of the face side on every die the project knows. */
    double min_area = pow(0.09 * FACE_SIDE, 2), max_area = pow(0.30 * FACE_SIDE, 2);
    pip pips[8];
    int n_pips = 0, n_rejected = 0;
    for (int i = 1; i < n; i++) {
        const yz_cv_component *c = &stats[i];
        int long_side = c->w > c->h ? c->w : c->h, short_side = c->w < c->h ? c->w : c->h;
        int round = long_side <= 2 * short_side && c->area >= 0.5 * c->w * c->h;
        if (c->area < min_area / 3) continue; /* specks: noise, grain */
        if (c->area < min_area || c->area > max_area || !round) {
            n_rejected++;
            continue;
        }
        if (n_pips == 8) return 0;
        pips[n_pips++] = (pip){c->cx / FACE_SIDE, c->cy / FACE_SIDE, c->area};
    }
    part->n_pips = n_pips;
    double fit = 1;
    part->value = match_layout(pips, n_pips, &fit);
    if (!part->value) return 1;
    /* Same-sized pips, on their grid, and nothing else blob-like on the face. */
    double smallest = pips[0].area, largest = pips[0].area;
    for (int i = 1; i < n_pips; i++) {
        smallest = fmin(smallest, pips[i].area);
        largest = fmax(largest, pips[i].area);
    }
    double confidence = 1.0 - 2.5 * fmax(0.0, fit - 0.04);
    confidence -= 0.5 * fmax(0.0, 1.0 - smallest / largest - 0.4);
    confidence -= 0.25 * n_rejected;
    part->confidence = fmin(1.0, fmax(0.0, confidence));
    return 1;
}

/* Mean chromaticity (r, g share of r+g+b) of the blurred photo in a small square. */
static int chroma_at(const workspace *ws, double cx, double cy, int radius, double *r, double *g)
{
    long sum[3] = {0, 0, 0};
    int x0 = (int)cx - radius, y0 = (int)cy - radius;
    if (x0 < 0 || y0 < 0 || x0 + 2 * radius >= ws->rgb.w || y0 + 2 * radius >= ws->rgb.h) return 0;
    for (int y = y0; y <= y0 + 2 * radius; y++)
        for (int x = x0; x <= x0 + 2 * radius; x++)
            for (int c = 0; c < 3; c++) sum[c] += ws->blurred.data[(size_t)y * ws->blurred.stride + 3 * x + c];
    double total = (double)(sum[0] + sum[1] + sum[2]) + 1;
    *r = sum[0] / total;
    *g = sum[1] / total;
    return 1;
}

/* A read face with the die's own colour just above it is a side face whose top was missed
 * (the camera looks down: nothing of the same die lies above its top face). Reading it would
 * report a side as the roll; the face is marked uncertain instead. */
static void distrust_faces_under_die_colour(workspace *ws)
{
    for (int i = 0; i < ws->n_parts; i++) {
        face_part *part = &ws->parts[i];
        if (!part->value) continue;
        double width = part->x1 - part->x0, height = part->y1 - part->y0;
        int radius = (int)(0.08 * width) > 1 ? (int)(0.08 * width) : 1;
        double face_r, face_g;
        if (!chroma_at(ws, part->cx, part->cy, radius, &face_r, &face_g)) continue;
        int same = 0;
        for (int k = -1; k <= 1; k++) {
            double r, g;
            if (chroma_at(ws, part->cx + k * width / 4, part->y0 - 0.3 * height, radius, &r, &g) &&
                fabs(r - face_r) + fabs(g - face_g) < 0.05)
                same++;
        }
        if (same >= 2) part->confidence *= 0.5;
    }
}

/* ---- grouping faces into dice ------------------------------------------------------------ */

static int by_height(const void *a, const void *b)
{
    double ya = ((const face_part *)a)->cy, yb = ((const face_part *)b)->cy;
    return (ya > yb) - (ya < yb);
}

/* A face below `top`, reaching up to its lower edge and lying within its width: a side face
 * of the same die. */
static int is_side_of(const face_part *top, const face_part *part)
{
    double width = top->x1 - top->x0, height = top->y1 - top->y0;
    return part->cy > top->cy && part->cx >= top->x0 - 0.1 * width &&
           part->cx <= top->x1 + 0.1 * width && part->y0 <= top->y1 + 0.25 * height;
}

static int by_box_centre(const void *a, const void *b)
{
    const yz_vision_die *da = a, *db = b;
    double xa = da->box[0] + da->box[2] / 2.0, xb = db->box[0] + db->box[2] / 2.0;
    return (xa > xb) - (xa < xb);
}

static double median_of(double *values, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && values[j] < values[j - 1]; j--) {
            double t = values[j]; values[j] = values[j - 1]; values[j - 1] = t;
        }
    return n ? values[n / 2] : 0;
}

/* Step 3 and the verdict: which faces are tops, which of those are dice. */
static void collect_dice(workspace *ws, const yz_vision_photo *photo, yz_vision_result *result)
{
    qsort(ws->parts, (size_t)ws->n_parts, sizeof(face_part), by_height);
    int tops[MAX_PARTS], n_tops = 0;
    for (int i = 0; i < ws->n_parts; i++) {
        face_part *part = &ws->parts[i];
        for (int t = 0; t < n_tops && part->die < 0; t++)
            if (is_side_of(&ws->parts[tops[t]], part)) part->die = t;
        /* Only a quadrilateral can be a top face; a shapeless part that is no die's side
         * (a leaf, a patch of soil) must not claim the dice below it as its sides. */
        if (part->die < 0 && part->is_quad) {
            part->die = n_tops;
            tops[n_tops++] = i;
        }
    }
    /* The size of a die's top face in this photo: the median of the faces that read well. */
    double areas[MAX_PARTS];
    int n_read = 0;
    for (int t = 0; t < n_tops; t++)
        if (ws->parts[tops[t]].value && ws->parts[tops[t]].confidence >= MIN_CONFIDENCE)
            areas[n_read++] = ws->parts[tops[t]].area;
    double typical = median_of(areas, n_read);
    double to_full_x = (double)photo->full_w / photo->image.w;
    double to_full_y = (double)photo->full_h / photo->image.h;
    result->n_dice = 0;
    for (int t = 0; t < n_tops && result->n_dice < YZ_VISION_MAX_DICE; t++) {
        face_part *top = &ws->parts[tops[t]];
        int readable = top->value && top->confidence >= MIN_CONFIDENCE;
        /* An unreadable top counts as a die (and so refuses the photo) only when it looks like
         * one: a quadrilateral of about the size of the dice that did read, with pips. */
        int die_like = top->is_quad && typical > 0 && top->area > 0.4 * typical &&
                       top->area < 2.5 * typical && top->n_pips > 0;
        if (!readable && !die_like) continue;
        if (readable && typical > 0 && (top->area < 0.3 * typical || top->area > 3 * typical))
            continue; /* a pip pattern on something far too small or big: not one of these dice */
        yz_vision_die *die = &result->dice[result->n_dice++];
        memset(die, 0, sizeof *die);
        int x0 = top->x0, y0 = top->y0, x1 = top->x1, y1 = top->y1;
        for (int i = 0; i < ws->n_parts; i++)
            if (ws->parts[i].die == t) {
                if (ws->parts[i].x0 < x0) x0 = ws->parts[i].x0;
                if (ws->parts[i].y0 < y0) y0 = ws->parts[i].y0;
                if (ws->parts[i].x1 > x1) x1 = ws->parts[i].x1;
                if (ws->parts[i].y1 > y1) y1 = ws->parts[i].y1;
            }
        die->value = top->value;
        die->confidence = top->value ? top->confidence : 0;
        die->certain = readable;
        die->n_pips = top->n_pips;
        die->box[0] = (int)lround(x0 * to_full_x);
        die->box[1] = (int)lround(y0 * to_full_y);
        die->box[2] = (int)lround((x1 - x0 + 1) * to_full_x);
        die->box[3] = (int)lround((y1 - y0 + 1) * to_full_y);
        for (int k = 0; k < 4; k++) {
            die->top[k].x = top->quad[k].x * to_full_x;
            die->top[k].y = top->quad[k].y * to_full_y;
        }
    }
    qsort(result->dice, (size_t)result->n_dice, sizeof(yz_vision_die), by_box_centre);
}

static void give_verdict(yz_vision_result *result, int expect)
{
    result->status = YZ_VISION_READ_OK;
    result->reason[0] = '\0';
    for (int i = 0; i < result->n_dice; i++) result->roll[i] = result->dice[i].value;
    if (expect > 0 && result->n_dice != expect) {
        result->status = YZ_VISION_READ_REFUSED;
        snprintf(result->reason, sizeof result->reason,
                 result->n_dice < expect
                     ? "found %d dice, expected %d; one may be hidden or out of frame"
                     : "found %d dice, expected %d; something else may look like a die",
                 result->n_dice, expect);
        return;
    }
    if (result->n_dice == 0) {
        result->status = YZ_VISION_READ_REFUSED;
        snprintf(result->reason, sizeof result->reason, "found no dice");
        return;
    }
    for (int i = 0; i < result->n_dice; i++)
        if (!result->dice[i].certain) {
            result->status = YZ_VISION_READ_REFUSED;
            snprintf(result->reason, sizeof result->reason,
                     "die %d (from the left) could not be read with confidence", i + 1);
            return;
        }
}

yz_vision_options yz_vision_default_options(void)
{
    yz_vision_options options = {5, 0};
    return options;
}

yz_vision_status yz_vision_read_photo(const yz_vision_photo *photo, const yz_vision_options *opts,
                                      yz_vision_result *result, yz_vision_error *err)
{
    yz_vision_options defaults = yz_vision_default_options();
    if (!opts) opts = &defaults;
    memset(result, 0, sizeof *result);
    result->image_w = photo->full_w;
    result->image_h = photo->full_h;
    workspace *ws = yz_vision_alloc(sizeof *ws);
    if (!ws) return yz_vision_fail(err, YZ_VISION_ERR_NOMEM, "(photo)", "out of memory");
    double started = yz_vision_now_ms();
    yz_vision_status status = YZ_VISION_OK;
    if (!workspace_init(ws, &photo->image)) {
        status = yz_vision_fail(err, YZ_VISION_ERR_NOMEM, "(photo)", "out of memory");
        goto done;
    }
    int level = 0;
    if (!find_smooth_pixels(ws, &level) || !grow_faces_from_mask(ws)) {
        status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, "(photo)", "image processing failed");
        goto done;
    }
    find_unlawnlike_pixels(ws, level);
    if (!grow_faces_from_mask(ws)) {
        status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, "(photo)", "image processing failed");
        goto done;
    }
    result->ms_detect = yz_vision_now_ms() - started;
    started = yz_vision_now_ms();
    for (int i = 0; i < ws->n_parts; i++)
        if (ws->parts[i].is_quad && !read_face(ws, &ws->parts[i])) {
            status = yz_vision_fail(err, YZ_VISION_ERR_INTERNAL, "(photo)", "image processing failed");
            goto done;
        }
    distrust_faces_under_die_colour(ws);
    collect_dice(ws, photo, result);
    give_verdict(result, opts->expect);
    result->ms_read = yz_vision_now_ms() - started;
done:
    workspace_free(ws);
    yz_vision_release(ws);
    return status;
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
    status = yz_vision_read_photo(&photo, opts, result, err);
    if (status != YZ_VISION_OK && err) {
        /* Name the file rather than "(photo)". */
        char problem[sizeof err->message];
        const char *colon = strstr(err->message, ": ");
        snprintf(problem, sizeof problem, "%s", colon ? colon + 2 : err->message);
        yz_vision_fail(err, status, path, "%s", problem);
    }
    result->ms_decode = decoded;
    yz_vision_photo_free(&photo);
    return status;
}
