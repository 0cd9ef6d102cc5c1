#!/usr/bin/env bash
# Median latency of a 12 MP (4000x3000) JPEG to a roll, the nets loaded once, on one core and on
# all, with the stage breakdown, and the ratio to a plain full-size djpeg decode of the file.
# usage: tools/bench_read.sh [PHOTO.jpg] [RUNS]
# Without a photo it makes one in /tmp: tools/render_scenes.py --bench-photo when POV-Ray is
# set up, else a lawn sample (samples/lawn) upscaled to 4000x3000 with python3-opencv.
set -euo pipefail
cd "$(dirname "$0")/.."
photo="${1:-}"
runs="${2:-21}"
if [ -z "$photo" ]; then
    photo="${TMPDIR:-/tmp}/yardzee-bench-12mp.jpg"
    if [ ! -f "$photo" ]; then
        if [ -x tools/render_scenes.py ] && command -v povray >/dev/null; then
            tools/render_scenes.py --bench-photo "$photo"
        else
            source_photo=$(ls samples/lawn/*.jpg 2>/dev/null | head -1 || true)
            [ -n "$source_photo" ] || { echo "bench_read: no samples/lawn/*.jpg to upscale; pass a photo" >&2; exit 2; }
            /usr/bin/python3 - "$source_photo" "$photo" <<'PY'
import sys, cv2
image = cv2.imread(sys.argv[1])
big = cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
cv2.imwrite(sys.argv[2], big, [cv2.IMWRITE_JPEG_QUALITY, 92])
PY
        fi
    fi
fi
[ -x build/tools/bench_read ] || bash tools/build.sh build >/dev/null
echo "== one core"
one=$(taskset -c 0 build/tools/bench_read "$photo" "$runs" | tee /dev/stderr | sed -n 's/^median of .* total \([0-9.]*\) ms.*/\1/p')
echo "== all $(nproc) cores (OpenCV spreads the nets' work)"
all=$(build/tools/bench_read "$photo" "$runs" | tee /dev/stderr | sed -n 's/^median of .* total \([0-9.]*\) ms.*/\1/p')
if command -v djpeg >/dev/null; then
    # A plain full-size decode of the same file, whole process, for the ratio issue 24 asks.
    /usr/bin/python3 - "$photo" "$runs" "$one" "$all" <<'PY'
import statistics, subprocess, sys, time
photo, runs, one, every = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
times = []
for _ in range(runs + 1):  # the first warms the page cache and is dropped
    start = time.perf_counter()
    subprocess.run(["taskset", "-c", "0", "djpeg", "-outfile", "/dev/null", photo], check=True)
    times.append(time.perf_counter() - start)
djpeg = statistics.median(times[1:]) * 1000
print(f"djpeg full size, one core: median {djpeg:.1f} ms; reading / djpeg: "
      f"{one / djpeg:.2f} on one core, {every / djpeg:.2f} on all")
PY
fi
