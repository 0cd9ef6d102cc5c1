#!/usr/bin/env bash
# Benchmark the optimal advisor: per profile, the median time to build its table on all cores
# (BUILDS builds, default 5), the process's peak memory, and the median / p95 time of one
# piece of advice (keeps or boxes) from a loaded table over 2000 random positions.
# usage: tools/bench_advisor.sh [BUILDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh build >/dev/null
builds="${1:-5}"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-20s %10s %11s %11s %12s %12s\n' profile optimum build peak_mem advise_med advise_p95
for profile in yahtzee hasbro yardzee belknap yatzy yatzy-scandinavian; do
    build/tools/bench_advisor "$profile" "$builds"
done
