#!/usr/bin/env bash
# Fuzz every reader a stranger's file reaches, each for SECONDS (default 600), and keep what
# the fuzzers find: crashing inputs go to tests/fuzz/corpus/regressions/ (replayed by ctest).
# usage: tools/fuzz.sh [SECONDS] [TARGET...]   targets: fuzz_image fuzz_jpeg_split fuzz_roll fuzz_json_files
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_image fuzz_jpeg_split fuzz_roll fuzz_json_files)
command -v clang >/dev/null || { echo "fuzz: needs clang (apt-get install clang)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DYZ_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]}" >/dev/null
regressions=tests/fuzz/corpus/regressions
mkdir -p "$regressions"
for target in "${targets[@]}"; do
    # Seeds: the committed corpus of the target plus the project's own samples.
    work="build-fuzz/corpus/$target"
    mkdir -p "$work" "build-fuzz/crashes/$target"
    cp -n tests/fuzz/corpus/"$target"/* "$work"/ 2>/dev/null || true
    case "$target" in
    fuzz_image) { find samples/lawn tests/corpus -name '*.jpg' -size -200k | head -40
                  find tests/corpus -name '*.heic'; } | xargs -r cp -n -t "$work" || true ;;
    fuzz_json_files) cp -n samples/cards/*.json tests/corpus/*.json "$work"/ 2>/dev/null || true ;;
    esac
    echo "fuzz: $target for $seconds s"
    build-fuzz/tests/fuzz/"$target" "$work" -max_total_time="$seconds" -max_len=262144 -close_fd_mask=2 \
        -artifact_prefix="build-fuzz/crashes/$target/" -print_final_stats=1 2>"build-fuzz/$target.log" || true
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build-fuzz/$target.log" | sed "s/^/  /" || true
    for crash in build-fuzz/crashes/"$target"/*; do
        [ -e "$crash" ] || continue
        cp "$crash" "$regressions/$target-$(basename "$crash")"
        echo "fuzz: $target FOUND $(basename "$crash"): kept in $regressions" >&2
    done
done
