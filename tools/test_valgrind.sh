#!/usr/bin/env bash
# The third pass of tools/test.sh: valgrind memcheck (invalid reads and writes, use of
# uninitialised memory, definite leaks) on the unit tests of the readers and on the end-to-end
# tests of the command line, with build/yardzee run under valgrind. Any error fails the pass.
# The end-to-end tests that read whole photos (read, photo commands) are left to the ASan+UBSan
# pass: under valgrind the dice reader's nets take about 30 s a photo inside OpenCV.
# usage: tools/test_valgrind.sh   (after tools/build.sh build)
set -euo pipefail
cd "$(dirname "$0")/.."
memcheck=(valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
          --show-possibly-lost=no)
wrapper=build/valgrind/yardzee
mkdir -p build/valgrind
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${memcheck[*]}" "$PWD/build/yardzee" >"$wrapper"
chmod +x "$wrapper"
export YARDZEE_CACHE="${YARDZEE_CACHE:-$PWD/build/cache}"
status=0
run() {
    echo "valgrind: $*"
    "$@" >build/valgrind/last.log 2>&1 || { status=1; echo "valgrind: FAILED: $*"; tail -30 build/valgrind/last.log; }
    tail -1 build/valgrind/last.log
}
run "${memcheck[@]}" build/tests/test_rules
run "${memcheck[@]}" build/tests/test_vision_decode
run bash tests/test_cli.sh "$wrapper" samples
run bash tests/test_game.sh "$wrapper"
run bash tests/test_fuzz_regressions.sh "$wrapper" tests/fuzz/corpus
[ $status -eq 0 ] && echo "valgrind: all clean"
exit $status
