#!/usr/bin/env bash
# STYLE.md's C layout: every C/C++ file of the repository as clang-format (.clang-format at the
# root) writes it. Fix with: git ls-files '*.c' '*.h' '*.cpp' | xargs clang-format -i
# usage: test_format.sh SOURCE_DIR   (exit 77 when clang-format or git is not there)
set -u
cd "$1" || exit 1
if ! command -v clang-format >/dev/null || ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "skipped: no clang-format or not a git checkout"
    exit 77
fi
bad=0
while IFS= read -r file; do
    if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then
        echo "not formatted: $file"
        bad=$((bad + 1))
    fi
done < <(git ls-files '*.c' '*.h' '*.cpp')
echo "$bad files not formatted"
[ "$bad" -eq 0 ]
