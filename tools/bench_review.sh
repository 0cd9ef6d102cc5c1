#!/usr/bin/env bash
# Benchmark `yardzee game review`: the median time to review each sample game (13 rounds, two
# players) after the advisor's table is loaded. The target is under 100 ms.
# usage: tools/bench_review.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh build >/dev/null
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for game in samples/games/*.json; do
    build/tools/bench_review "$game" "${1:-101}"
done
