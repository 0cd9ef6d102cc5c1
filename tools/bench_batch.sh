#!/usr/bin/env bash
# Benchmark `yardzee batch`: N (default 1000) photos of 12 MP (4000x3000 JPEGs, quality 85, made
# by upscaling the lawn samples; twenty distinct photos, linked N times) on all cores.
# Prints photos per second and the peak memory of the batch.
# usage: tools/bench_batch.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-1000}"
bash tools/build.sh build >/dev/null
work="${TMPDIR:-/tmp}/yardzee-bench-batch"
rm -rf "$work"
mkdir -p "$work/source" "$work/photos"
/usr/bin/python3 - "$work/source" <<'PY'
import glob, sys, cv2
for i, path in enumerate(sorted(glob.glob("samples/lawn/*.jpg"))[:20]):
    image = cv2.imread(path)
    if image.shape[0] > image.shape[1]:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    big = cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(f"{sys.argv[1]}/p{i:02d}.jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 85])
PY
sources=("$work"/source/*.jpg)
for i in $(seq 0 $((n - 1))); do
    ln -s "${sources[$((i % ${#sources[@]}))]}" "$work/photos/$(printf 'photo_%05d.jpg' "$i")"
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "peak memory %M KB, wall %e s" build/yardzee batch "$work/photos" --csv "$work/out.csv"
rm -rf "$work"
