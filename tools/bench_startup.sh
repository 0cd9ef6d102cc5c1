#!/usr/bin/env bash
# Whole-process latency on ONE core (taskset -c 0), median of N runs, the three interleaved in
# one run so they share the machine's load: `yardzee score --roll 1,2,3,4,5` (no photo: must
# not pay for OpenCV or for reading the advisor table), a 12 MP `yardzee read`, and a plain
# full-size `djpeg` decode of the same JPEG, with the ratio of the last two.
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
import statistics, subprocess, sys, time
photo, runs = sys.argv[1], int(sys.argv[2])
commands = {
    "score": ["build/yardzee", "score", "--roll", "1,2,3,4,5"],
    "read": ["build/yardzee", "read", photo],
    "djpeg": ["djpeg", "-outfile", "/dev/null", photo],
}
times = {name: [] for name in commands}
for _ in range(runs + 1):  # the first round warms the page cache and is dropped
    for name, command in commands.items():
        start = time.perf_counter()
        status = subprocess.run(["taskset", "-c", "0"] + command, stdout=subprocess.DEVNULL).returncode
        times[name].append(time.perf_counter() - start)
        if status not in (0, 3):  # read may refuse the photo (3): still a whole read
            sys.exit(f"bench_startup: {' '.join(command)} exited {status}")
median = {name: statistics.median(t[1:]) * 1000 for name, t in times.items()}
print(f"photo {photo}, {runs} runs each on one core, whole processes, medians:")
print(f"  yardzee score --roll 1,2,3,4,5  {median['score']:7.1f} ms")
print(f"  yardzee read PHOTO              {median['read']:7.1f} ms")
print(f"  djpeg PHOTO (full size)         {median['djpeg']:7.1f} ms")
print(f"  read / djpeg                    {median['read'] / median['djpeg']:7.2f}")
PY
