// cv.cpp - the C interface of cv.h over OpenCV 4. Nothing else in yardzee includes OpenCV.
// Every entry point catches everything: an exception must never unwind into C frames.
#include "cv.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <vector>

namespace {

// Wraps the caller's pixels; no copy.
cv::Mat wrap(const yz_cv_image *image)
{
    return cv::Mat(image->h, image->w, CV_8UC(image->channels), image->data,
                   static_cast<size_t>(image->stride));
}

template <typename F> yz_cv_status guarded(F body)
{
    try {
        body();
        return YZ_CV_OK;
    } catch (...) {
        return YZ_CV_ERR;
    }
}

cv::Mat disc(int radius)
{
    return cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(2 * radius + 1, 2 * radius + 1));
}

std::vector<cv::Point2f> to_cv(const yz_cv_point *points, int n)
{
    std::vector<cv::Point2f> out(static_cast<size_t>(n));
    for (int i = 0; i < n; i++) out[static_cast<size_t>(i)] = cv::Point2f(points[i].x, points[i].y);
    return out;
}

} // namespace

extern "C" {

yz_cv_status yz_cv_rgb_to_gray(const yz_cv_image *rgb, yz_cv_image *gray)
{
    return guarded([&] {
        cv::Mat out = wrap(gray);
        cv::cvtColor(wrap(rgb), out, cv::COLOR_RGB2GRAY);
        CV_Assert(out.data == gray->data);
    });
}

yz_cv_status yz_cv_gaussian_blur(const yz_cv_image *src, yz_cv_image *dst, double sigma)
{
    return guarded([&] {
        cv::Mat out = wrap(dst);
        cv::GaussianBlur(wrap(src), out, cv::Size(0, 0), sigma);
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_box_blur(const yz_cv_image *src, yz_cv_image *dst, int radius)
{
    return guarded([&] {
        cv::Mat out = wrap(dst);
        cv::blur(wrap(src), out, cv::Size(2 * radius + 1, 2 * radius + 1));
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_gradient_magnitude(const yz_cv_image *gray, yz_cv_image *dst)
{
    return guarded([&] {
        // |gx| + |gy| (L1): a texture measure, and four times cheaper than the L2 norm.
        cv::Mat gx, gy;
        cv::Sobel(wrap(gray), gx, CV_16S, 1, 0);
        cv::Sobel(wrap(gray), gy, CV_16S, 0, 1);
        cv::Mat out = wrap(dst);
        cv::Mat ax, ay;
        cv::convertScaleAbs(gx, ax, 0.125); // Sobel's 3x3 kernel sums to 4; L1 doubles it
        cv::convertScaleAbs(gy, ay, 0.125);
        cv::add(ax, ay, out);
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_threshold(const yz_cv_image *src, yz_cv_image *dst, int threshold, int below)
{
    return guarded([&] {
        cv::Mat out = wrap(dst);
        if (below)
            cv::threshold(wrap(src), out, threshold - 1, 255, cv::THRESH_BINARY_INV);
        else
            cv::threshold(wrap(src), out, threshold, 255, cv::THRESH_BINARY);
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_otsu_threshold(const yz_cv_image *gray, int *threshold)
{
    return guarded([&] {
        cv::Mat scratch;
        *threshold = static_cast<int>(
            cv::threshold(wrap(gray), scratch, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU));
    });
}

yz_cv_status yz_cv_morphology(const yz_cv_image *src, yz_cv_image *dst, yz_cv_morph_op op,
                              int radius)
{
    static const int ops[] = {cv::MORPH_ERODE, cv::MORPH_DILATE, cv::MORPH_OPEN, cv::MORPH_CLOSE};
    return guarded([&] {
        cv::Mat out = wrap(dst);
        cv::morphologyEx(wrap(src), out, ops[op], disc(std::max(radius, 1)));
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_connected_components(const yz_cv_image *mask, int32_t *labels,
                                        yz_cv_component *stats, int max_components,
                                        int *n_components)
{
    return guarded([&] {
        cv::Mat out(mask->h, mask->w, CV_32S, labels), stats_mat, centroids;
        int n = cv::connectedComponentsWithStats(wrap(mask), out, stats_mat, centroids, 8, CV_32S);
        CV_Assert(out.data == reinterpret_cast<uint8_t *>(labels));
        int kept = std::min(n, max_components);
        for (int i = 0; i < kept; i++) {
            stats[i].x = stats_mat.at<int>(i, cv::CC_STAT_LEFT);
            stats[i].y = stats_mat.at<int>(i, cv::CC_STAT_TOP);
            stats[i].w = stats_mat.at<int>(i, cv::CC_STAT_WIDTH);
            stats[i].h = stats_mat.at<int>(i, cv::CC_STAT_HEIGHT);
            stats[i].area = stats_mat.at<int>(i, cv::CC_STAT_AREA);
            stats[i].cx = centroids.at<double>(i, 0);
            stats[i].cy = centroids.at<double>(i, 1);
        }
        *n_components = kept;
    });
}

yz_cv_status yz_cv_flood_region(const yz_cv_image *src, int seed_x, int seed_y, int tolerance,
                                yz_cv_image *region)
{
    return guarded([&] {
        cv::Mat image = wrap(src).clone(); // floodFill writes into its image otherwise
        cv::Mat mask = cv::Mat::zeros(src->h + 2, src->w + 2, CV_8U);
        cv::Scalar diff = cv::Scalar::all(tolerance);
        int flags = 8 | cv::FLOODFILL_FIXED_RANGE | cv::FLOODFILL_MASK_ONLY | (255 << 8);
        cv::floodFill(image, mask, cv::Point(seed_x, seed_y), cv::Scalar(), nullptr, diff, diff,
                      flags);
        mask(cv::Rect(1, 1, src->w, src->h)).copyTo(wrap(region));
    });
}

yz_cv_status yz_cv_mask_hull(const yz_cv_image *mask, yz_cv_point *hull, int capacity,
                             int *n_points)
{
    return guarded([&] {
        std::vector<cv::Point> points, hull_points;
        cv::findNonZero(wrap(mask), points);
        *n_points = 0;
        if (points.empty()) return;
        cv::convexHull(points, hull_points, true);
        int n = std::min(static_cast<int>(hull_points.size()), capacity);
        for (int i = 0; i < n; i++)
            hull[i] = {static_cast<float>(hull_points[static_cast<size_t>(i)].x),
                       static_cast<float>(hull_points[static_cast<size_t>(i)].y)};
        *n_points = n;
    });
}

yz_cv_status yz_cv_approx_polygon(const yz_cv_point *points, int n_points, double epsilon,
                                  yz_cv_point *out, int capacity, int *n_out)
{
    return guarded([&] {
        std::vector<cv::Point2f> simplified;
        cv::approxPolyDP(to_cv(points, n_points), simplified, epsilon, true);
        int n = std::min(static_cast<int>(simplified.size()), capacity);
        for (int i = 0; i < n; i++)
            out[i] = {simplified[static_cast<size_t>(i)].x, simplified[static_cast<size_t>(i)].y};
        *n_out = n;
    });
}

yz_cv_status yz_cv_min_area_rect(const yz_cv_point *points, int n_points, yz_cv_point corners[4])
{
    return guarded([&] {
        cv::Point2f box[4];
        cv::minAreaRect(to_cv(points, n_points)).points(box);
        for (int i = 0; i < 4; i++) corners[i] = {box[i].x, box[i].y};
    });
}

yz_cv_status yz_cv_warp_quad(const yz_cv_image *src, const yz_cv_point quad[4], yz_cv_image *dst)
{
    return guarded([&] {
        cv::Point2f from[4], to[4] = {{0, 0},
                                      {static_cast<float>(dst->w), 0},
                                      {static_cast<float>(dst->w), static_cast<float>(dst->h)},
                                      {0, static_cast<float>(dst->h)}};
        for (int i = 0; i < 4; i++) from[i] = cv::Point2f(quad[i].x, quad[i].y);
        cv::Mat out = wrap(dst);
        cv::warpPerspective(wrap(src), out, cv::getPerspectiveTransform(from, to),
                            cv::Size(dst->w, dst->h), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_draw_polygon(yz_cv_image *rgb, const yz_cv_point *points, int n_points,
                                const uint8_t colour[3], int thickness)
{
    return guarded([&] {
        std::vector<cv::Point> polygon;
        for (int i = 0; i < n_points; i++)
            polygon.emplace_back(cvRound(points[i].x), cvRound(points[i].y));
        cv::Mat out = wrap(rgb);
        cv::polylines(out, polygon, true, cv::Scalar(colour[0], colour[1], colour[2]), thickness,
                      cv::LINE_AA);
    });
}

yz_cv_status yz_cv_draw_text(yz_cv_image *rgb, const char *text, int x, int y, double height_px,
                             const uint8_t colour[3], int thickness)
{
    return guarded([&] {
        cv::Mat out = wrap(rgb);
        double scale = height_px / 22.0; // HERSHEY_SIMPLEX is about 22 px tall at scale 1
        cv::putText(out, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(0, 0, 0),
                    thickness + 3, cv::LINE_AA);
        cv::putText(out, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale,
                    cv::Scalar(colour[0], colour[1], colour[2]), thickness, cv::LINE_AA);
    });
}

} // extern "C"
