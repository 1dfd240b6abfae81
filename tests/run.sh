#!/bin/sh
# The whole test suite: a warnings-as-errors optimized build and an AddressSanitizer + UBSan build,
# each built and run with ctest, and the Release build of the README's first command and the float build
# (FC_FLOAT) compiled with warnings as errors (-O3 sees more). Exits non-zero on any failure.
# Usage: tests/run.sh (from the repository root).
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== optimized build (warnings are errors)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFC_WARNINGS_AS_ERRORS=ON
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFC_SANITIZE=ON -DFC_WARNINGS_AS_ERRORS=ON -DFC_BUILD_BENCH=ON
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
echo "== Release build (the README's first command), warnings are errors"
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DFC_WARNINGS_AS_ERRORS=ON -DFC_BUILD_TESTS=OFF
cmake --build build-release -j"$jobs"
echo "== float build (FC_FLOAT=ON) compiles, warnings are errors (its tests are not run: their bounds are double's)"
cmake -S . -B build-float -DCMAKE_BUILD_TYPE=Release -DFC_FLOAT=ON -DFC_WARNINGS_AS_ERRORS=ON -DFC_BUILD_BENCH=OFF
cmake --build build-float -j"$jobs"
echo "== all tests passed"
