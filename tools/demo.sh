#!/usr/bin/env bash
# Command (1) of the README: install what is missing, build, run yardzee on a bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh build
echo "\$ yardzee score --roll 5,2,5,6,5 --card samples/cards/midgame.json"
build/yardzee score --roll 5,2,5,6,5 --card samples/cards/midgame.json
