#!/usr/bin/env bash
# Whole-process latency, median of N runs, all interleaved in one run so they share the
# machine's load: `yardzee score --roll 1,2,3,4,5` on one core (no photo: must not pay for
# OpenCV or for reading the advisor table), a 12 MP `yardzee read` on one core (taskset -c 0)
# and on every core (as a user runs it: the nets load on a second thread while the photo
# decodes, and OpenCV spreads the nets' work), and a plain full-size `djpeg` decode of the same
# JPEG (single-threaded, so the same on one core or all), with the ratios.
# usage: tools/bench_startup.sh [PHOTO.jpg] [RUNS]
# Without a photo: samples/bench/lawn_12mp.jpg when it was rendered (samples/bench/README.md),
# else the 4000x3000 upscaled lawn sample tools/bench_read.sh makes in /tmp.
set -euo pipefail
cd "$(dirname "$0")/.."
photo="${1:-}"
runs="${2:-21}"
command -v djpeg >/dev/null || { echo "bench_startup: djpeg missing (apt install libjpeg-turbo-progs)" >&2; exit 2; }
if [ -z "$photo" ]; then
    photo=samples/bench/lawn_12mp.jpg
    if [ ! -f "$photo" ]; then
        photo="${TMPDIR:-/tmp}/yardzee-bench-12mp.jpg"
        [ -f "$photo" ] || /usr/bin/python3 - "$(ls samples/lawn/*.jpg | head -1)" "$photo" <<'PY'
import sys, cv2
image = cv2.imread(sys.argv[1])
big = cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
cv2.imwrite(sys.argv[2], big, [cv2.IMWRITE_JPEG_QUALITY, 92])
PY
    fi
fi
[ -x build/yardzee ] || bash tools/build.sh build >/dev/null
# The advisor's table is solved once beforehand: a start-up benchmark, not a solver one.
build/yardzee score --roll 1,2,3,4,5 >/dev/null
/usr/bin/python3 - "$photo" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
photo, runs = sys.argv[1], int(sys.argv[2])
one_core = ["taskset", "-c", "0"]
commands = {
    "score": one_core + ["build/yardzee", "score", "--roll", "1,2,3,4,5"],
    "read": one_core + ["build/yardzee", "read", photo],
    "read_all": ["build/yardzee", "read", photo],
    "djpeg": one_core + ["djpeg", "-outfile", "/dev/null", photo],
}
times = {name: [] for name in commands}
for _ in range(runs + 1):  # the first round warms the page cache and is dropped
    for name, command in commands.items():
        start = time.perf_counter()
        status = subprocess.run(command, stdout=subprocess.DEVNULL).returncode
        times[name].append(time.perf_counter() - start)
        if status not in (0, 3):  # read may refuse the photo (3): still a whole read
            sys.exit(f"bench_startup: {' '.join(command)} exited {status}")
median = {name: statistics.median(t[1:]) * 1000 for name, t in times.items()}
cores = len(os.sched_getaffinity(0))
print(f"photo {photo}, {runs} runs each, whole processes, medians:")
print(f"  yardzee score --roll 1,2,3,4,5, one core  {median['score']:7.1f} ms")
print(f"  yardzee read PHOTO, one core              {median['read']:7.1f} ms")
print(f"  yardzee read PHOTO, {cores} cores              {median['read_all']:7.1f} ms")
print(f"  djpeg PHOTO (full size)                   {median['djpeg']:7.1f} ms")
print(f"  read / djpeg, one core                    {median['read'] / median['djpeg']:7.2f}")
print(f"  read / djpeg, {cores} cores                    {median['read_all'] / median['djpeg']:7.2f}")
PY
