#!/bin/sh
# Regenerates the OpenGL 3.3 core loader in this directory with Debian's glad 2 (apt-get install python3-glad).
# --reproducible: use the Khronos specification bundled with glad (no network), so the output is stable.
# The generated include/ and src/ are not ours to edit; CMake builds them without the project's warning flags.
set -eu
cd "$(dirname "$0")"
rm -rf include src
glad --quiet --reproducible --api gl:core=3.3 --out-path . c
