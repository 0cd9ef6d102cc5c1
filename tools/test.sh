#!/usr/bin/env bash
# Command (2) of the README: install what is missing, build, run the whole test suite,
# then build again under AddressSanitizer + UBSan and run it once more.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh build
(cd build && ctest --output-on-failure -j "$(nproc)")
bash tools/build.sh build-asan -DYZ_SANITIZE=ON
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure -j "$(nproc)")
