#!/usr/bin/env bash
# Median latency of a 12 MP (4000x3000) JPEG to a roll on ONE core, with the stage breakdown.
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
taskset -c 0 build/tools/bench_read "$photo" "$runs"
