#!/usr/bin/env bash
# Configure and build into build/ (or $1) with the given extra CMake arguments; warnings are
# errors here (-DYZ_WERROR=ON, CI and the tests), not in a plain cmake build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build}"
shift || true
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYZ_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
