#!/usr/bin/env bash
# Benchmark `yardzee serve`: time from uploading a 12 MP JPEG (4000x3000, a lawn sample scaled
# up) to the answer of POST /api/read, over loopback, RUNS times (default 21): median and p95;
# and the bytes of the answer's picture for the phone (GET /api/annotated/ID.jpg; target < 300 KB).
# usage: tools/bench_serve.sh [RUNS] [PHOTO.jpg]   (e.g. render_scenes.py --bench-photo's, a
# detailed 12 MP lawn: the phone's picture is shrunk until it is under 290 KB)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-21}"
bash tools/build.sh build >/dev/null
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
if [ -n "${2:-}" ]; then cp "$2" "$work/photo.jpg"; else
/usr/bin/python3 - "$work/photo.jpg" <<'PY'
import sys, cv2
image = cv2.imread("samples/lawn/lawn_004.jpg")
cv2.imwrite(sys.argv[1], cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC),
            [cv2.IMWRITE_JPEG_QUALITY, 85])
PY
fi
TMPDIR="$work" build/yardzee serve --bind 127.0.0.1 --port 0 >"$work/serve.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q '^Join code: ' "$work/serve.out" && break; sleep 0.1; done
url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/serve.out" | head -1)
[ -n "$url" ] || { cat "$work/serve.out"; exit 1; }
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); photo $(du -k "$work/photo.jpg" | cut -f1) KB"
for i in $(seq 0 "$runs"); do # the first is a warm-up
    curl -s -o /dev/null -w '%{time_total}\n' --data-binary @"$work/photo.jpg" "${url}api/read"
done | tail -n +2 | sort -n | awk '{ t[NR] = $1 * 1000 } END {
    printf "upload to answer over %d runs: median %.1f ms, p95 %.1f ms\n", NR, t[int((NR + 1) / 2)], t[int(NR * 0.95 + 0.5)] }'
id=$(curl -s --data-binary @"$work/photo.jpg" "${url}api/read" | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
curl -s -o "$work/answer.jpg" "${url}api/annotated/$id.jpg"
echo "the answer's picture for the phone: $(stat -c %s "$work/answer.jpg") bytes ($(/usr/bin/python3 -c '
import sys, cv2; image = cv2.imread(sys.argv[1]); print("%dx%d JPEG" % (image.shape[1], image.shape[0]))' "$work/answer.jpg"))"
