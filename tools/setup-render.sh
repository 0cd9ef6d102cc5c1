#!/usr/bin/env bash
# Install the Debian 12 packages tools/render_scenes.py needs, only those missing
# (a second run is fast). Kept apart from setup.sh: building yardzee never needs POV-Ray.
set -euo pipefail
PACKAGES=(povray python3-numpy python3-opencv)
missing=()
for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    echo "setup-render: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    # Another setup may hold the dpkg lock on a shared machine: wait for it instead of failing.
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends "${missing[@]}"
fi
