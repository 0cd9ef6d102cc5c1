#!/usr/bin/env bash
# Command (1) of the README: install what is missing, build, then read a bundled lawn photo and
# score a typed roll. Setup and build are quiet: their output goes to build/demo.log, shown
# only when they fail.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
log=build/demo.log
: >"$log"
step() { # WHAT COMMAND...: runs quietly; on failure shows the log's end and stops
    local what="$1"
    shift
    printf '%s... ' "$what"
    if "$@" >>"$log" 2>&1; then
        echo done
    else
        echo "failed; the end of $log:"
        tail -n 40 "$log" | sed 's/^/  /'
        exit 1
    fi
}
step "Installing what is missing" bash tools/setup.sh
step "Building (log: $log)" bash tools/build.sh build
echo
echo "\$ yardzee samples/lawn/lawn_004.jpg"
build/yardzee samples/lawn/lawn_004.jpg
echo
echo "\$ yardzee score --roll 5,2,5,6,5 --card samples/cards/midgame.json"
build/yardzee score --roll 5,2,5,6,5 --card samples/cards/midgame.json
