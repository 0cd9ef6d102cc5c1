#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then the installed yardzee run from / on a copy of a
# sample photo: it must find its plugin and models beside its own bin/, not in the build tree.
# usage: test_install.sh BUILD_DIR SAMPLES_DIR
set -u
build="$1"
samples="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export YARDZEE_CACHE="${YARDZEE_CACHE:-$build/cache}"
unset YARDZEE_MODELS YARDZEE_VISION_PLUGIN
yardzee="$tmp/prefix/bin/yardzee"
source "$(dirname "$0")/check.sh"

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1
expect_true "cmake --install succeeds" [ $? -eq 0 ]
for file in bin/yardzee lib/yardzee/yardzee-vision.so share/yardzee/models/dice_detector.onnx \
            share/man/man1/yardzee.1; do
    expect_true "installed $file" [ -f "$tmp/prefix/$file" ]
done
cp "$samples/lawn/lawn_004.jpg" "$tmp/photo.jpg"
cd /
check "installed binary reads a photo" 0 '^Roll: 3 2 2 4 6 ' -- "$tmp/photo.jpg"
check "installed version" 0 '^yardzee [0-9]+\.[0-9]+\.[0-9]+$' -- --version
mv "$tmp/prefix/share/yardzee/models" "$tmp/models-away"
check "models missing: named where they belong" 1 "prefix/bin/../share/yardzee/models/dice_detector.onnx: model missing" -- read "$tmp/photo.jpg"
YARDZEE_MODELS="$tmp/models-away" check "YARDZEE_MODELS overrides" 0 '^Roll: 3 2 2 4 6 ' -- "$tmp/photo.jpg"
rm "$tmp/prefix/lib/yardzee/yardzee-vision.so"
check "plugin missing: one line" 70 "yardzee-vision.so: photo reader not installed" -- read "$tmp/photo.jpg"
check "plugin missing: score unaffected" 0 'Lg Straight +40' -- score --roll 1,2,3,4,5
finish
