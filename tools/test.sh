#!/usr/bin/env bash
# Command (2) of the README: install what is missing, build, run the whole test suite,
# then build again under AddressSanitizer + UBSan and run it once more (without the tests
# labelled "slow": solving every profile and brute-forcing turns is arithmetic that the
# sanitizers only slow down; the same code paths run in the quick tests), then run the
# readers' tests and the end-to-end tests under valgrind memcheck, and finally the threaded
# parts under ThreadSanitizer (tools/test_tsan.sh).
# usage: tools/test.sh [--quick]
#   --quick: the inner loop: build, then ctest without the slow tests; no sanitizers, no valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
--quick) quick=1 ;;
"") ;;
*) echo "usage: tools/test.sh [--quick]" >&2; exit 2 ;;
esac
bash tools/setup.sh
# Both passes share the advisor's tables: the sanitized one loads what the first one solved.
export YARDZEE_CACHE="$PWD/build/cache"
bash tools/build.sh build
if [ $quick -eq 1 ]; then
    (cd build && ctest --output-on-failure -j "$(nproc)" -LE slow)
    exit
fi
(cd build && ctest --output-on-failure -j "$(nproc)")
bash tools/build.sh build-asan -DYZ_SANITIZE=ON
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure -j "$(nproc)" -LE slow)
# Third pass: valgrind memcheck on the plain build.
bash tools/test_valgrind.sh
# Fourth pass: ThreadSanitizer on the advisor's build, batch --jobs and serve.
bash tools/test_tsan.sh
