#!/usr/bin/env bash
# Writes the build's provenance as a C header: git commit (with -dirty when
# the sources differ from it), a hash of every source file (the code version
# that sweep results are keyed on), and the compiler flags.  The header is
# rewritten only when its content changes, so it triggers no needless rebuild.
set -euo pipefail
out=$1 cflags=$2 libs=${3:-}
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- core codecs generators harness 2>/dev/null; then
  commit="$commit-dirty"
fi
# Optional libraries' version headers (ACL, RTM) count as sources: a new ACL re-measures its points.
source_hash=$( { cat $(ls core/*.[ch] codecs/*.[ch] codecs/*.cpp generators/*.[ch] harness/*.[ch] 2>/dev/null | LC_ALL=C sort); for f in $libs; do [ -f "$f" ] && cat "$f"; done; } | sha256sum | cut -c1-16)
esc=$(printf '%s' "$cflags" | sed 's/\\/\\\\/g; s/"/\\"/g')
tmp=$(mktemp)
cat > "$tmp" <<EOT
#define ANIMBENCH_VERSION "0.3.0"
#define ANIMBENCH_GIT_COMMIT "$commit"
#define ANIMBENCH_SOURCE_HASH "$source_hash"
#define ANIMBENCH_CFLAGS "$esc"
EOT
mkdir -p "$(dirname "$out")"
if [ -f "$out" ] && cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
