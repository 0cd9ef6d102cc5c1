// cv.cpp - the C interface of cv.h over OpenCV 4. Nothing else in yardzee includes OpenCV.
// Every entry point catches everything: an exception must never unwind into C frames.
#include "cv.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <vector>

struct yz_cv_net {
    cv::dnn::Net net;
};

namespace
{

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

} // namespace

extern "C" {

yz_cv_status yz_cv_start_threads(void)
{
    // Work that does nothing, static so that no worker can touch a stack frame the caller has
    // since reused (TBB's own synchronization is invisible to ThreadSanitizer).
    static const struct : cv::ParallelLoopBody {
        void operator()(const cv::Range &) const override {}
    } nothing;
    return guarded(
        [] { cv::parallel_for_(cv::Range(0, std::max(cv::getNumThreads(), 1)), nothing); });
}

yz_cv_status yz_cv_resize_area(const yz_cv_image *src, yz_cv_image *dst)
{
    return guarded([&] {
        cv::Mat out = wrap(dst);
        cv::resize(wrap(src), out, cv::Size(dst->w, dst->h), 0, 0, cv::INTER_AREA);
        CV_Assert(out.data == dst->data);
    });
}

yz_cv_status yz_cv_net_load(const char *path, yz_cv_net **net)
{
    *net = nullptr;
    return guarded([&] {
        cv::dnn::Net loaded = cv::dnn::readNetFromONNX(path);
        CV_Assert(!loaded.empty());
        loaded.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        loaded.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        *net = new yz_cv_net{loaded};
    });
}

void yz_cv_net_free(yz_cv_net *net)
{
    delete net;
}

yz_cv_status yz_cv_net_run(yz_cv_net *net, const yz_cv_image *images, int n_images, float *out,
                           int capacity, int *n_out)
{
    return guarded([&] {
        std::vector<cv::Mat> batch;
        for (int i = 0; i < n_images; i++)
            batch.push_back(wrap(&images[i]));
        net->net.setInput(cv::dnn::blobFromImages(batch, 1.0 / 255.0));
        cv::Mat result = net->net.forward();
        CV_Assert(result.isContinuous() && result.depth() == CV_32F);
        size_t n = result.total();
        CV_Assert(n <= static_cast<size_t>(capacity));
        std::copy(result.ptr<float>(), result.ptr<float>() + n, out);
        *n_out = static_cast<int>(n);
    });
}

yz_cv_status yz_cv_warp_quad(const yz_cv_image *src, const yz_cv_point quad[4], yz_cv_image *dst)
{
    return guarded([&] {
        cv::Point2f from[4], to[4] = {{0, 0},
                                      {static_cast<float>(dst->w), 0},
                                      {static_cast<float>(dst->w), static_cast<float>(dst->h)},
                                      {0, static_cast<float>(dst->h)}};
        for (int i = 0; i < 4; i++)
            from[i] = cv::Point2f(quad[i].x, quad[i].y);
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

// Text is HERSHEY_SIMPLEX (about 22 px tall at scale 1) over a black outline this much thicker
// than its strokes, so it reads on grass and on white dice alike.
static double text_scale(double height_px)
{
    return height_px / 22.0;
}
static const int TEXT_OUTLINE = 3;

yz_cv_status yz_cv_draw_text(yz_cv_image *rgb, const char *text, int x, int y, double height_px,
                             const uint8_t colour[3], int thickness)
{
    return guarded([&] {
        cv::Mat out = wrap(rgb);
        double scale = text_scale(height_px);
        cv::putText(out, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale,
                    cv::Scalar(0, 0, 0), thickness + TEXT_OUTLINE, cv::LINE_AA);
        cv::putText(out, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale,
                    cv::Scalar(colour[0], colour[1], colour[2]), thickness, cv::LINE_AA);
    });
}

int yz_cv_text_width(const char *text, double height_px, int thickness)
{
    int width = 0;
    if (guarded([&] {
            int baseline = 0;
            width = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, text_scale(height_px),
                                    thickness + TEXT_OUTLINE, &baseline)
                        .width;
        }))
        return 0;
    return width;
}

} // extern "C"
