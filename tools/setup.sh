#!/usr/bin/env bash
# Install the Debian 12 packages yardzee needs, only those missing (a second run is fast).
# usage: tools/setup.sh [--train]   (--train adds python3-torch and python3-onnx, for tools/train_*.py)
set -euo pipefail
PACKAGES=(cmake make gcc g++ pkg-config libopencv-dev libpng-dev libjpeg62-turbo-dev
          libheif-dev libcmocka-dev libjansson-dev zlib1g-dev python3-opencv python3-numpy valgrind
          libmicrohttpd-dev libqrencode-dev curl chromium chromium-driver libjpeg-turbo-progs
          clang-format git)
[ "${1:-}" != "--train" ] || PACKAGES+=(python3-torch python3-onnx)
missing=()
for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
