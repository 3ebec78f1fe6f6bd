#!/usr/bin/env bash
# Writes the build's provenance as a C header: git commit (with -dirty when
# the sources differ from it), a hash of every source file (the code version
# that sweep results are keyed on), and the compiler flags.  The header is
# rewritten only when its content changes, so it triggers no needless rebuild.
set -euo pipefail
out=$1 cflags=$2 libs=${3:-} ozz_libs=${4:-}
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- core codecs generators harness 2>/dev/null; then
  commit="$commit-dirty"
fi
# Optional libraries' version headers (ACL, RTM) count as sources: a new ACL re-measures its points.
source_hash=$( { cat $(find core codecs generators harness -name '*.[ch]' -o -name '*.cpp' | LC_ALL=C sort); for f in $libs $ozz_libs; do [ -f "$f" ] && cat "$f"; done; } | sha256sum | cut -c1-16)
# What a point's cache key is made of (harness/measure/provenance.c): the measuring code (clip model,
# metrics, generators, point measurement and its JSON, the codec interface), and each codec
# module's own files, so that editing one codec re-measures only the rows built from it.
measure_hash=$(cat $( { find core generators -name '*.[ch]'; ls harness/measure/measure.[ch] harness/sweep/results.[ch] codecs/codec.[ch]; } \
  | LC_ALL=C sort) | sha256sum | cut -c1-16)
# A codec file is named by its file name alone (a row's "sources"): names are unique under codecs/.
codec_files=""
dups=$(find codecs -name '*.[ch]' -o -name '*.cpp' | xargs -n1 basename | sort | uniq -d)
[ -z "$dups" ] || { echo "build_info.sh: file names used twice under codecs/: $dups" >&2; exit 1; }
for f in $(find codecs -name '*.[ch]' -o -name '*.cpp' | LC_ALL=C sort); do
  case "$f" in codecs/codec.[ch]|codecs/registry.c) continue ;; esac
  codec_files="$codec_files    {\"$(basename "$f")\", \"$(sha256sum "$f" | cut -c1-16)\"},
"
done
lib_hash=$( { for f in $libs; do [ -f "$f" ] && cat "$f"; done; echo; } | sha256sum | cut -c1-16)
# ozz-animation: the sources the build compiles (it has no version header)
ozz_hash=$( { for f in $ozz_libs; do [ -f "$f" ] && cat "$f"; done; echo; } | sha256sum | cut -c1-16)
esc=$(printf '%s' "$cflags" | sed 's/\\/\\\\/g; s/"/\\"/g')
tmp=$(mktemp)
cat > "$tmp" <<EOT
#define ANIMBENCH_VERSION "0.3.0"
#define ANIMBENCH_GIT_COMMIT "$commit"
#define ANIMBENCH_SOURCE_HASH "$source_hash"
#define ANIMBENCH_CFLAGS "$esc"
#define ANIMBENCH_MEASURE_HASH "$measure_hash"
#define ANIMBENCH_CODEC_FILES \\
$(printf '%s' "$codec_files" | sed 's/$/ \\/')
    {"lib:acl", "$lib_hash"}, \\
    {"lib:ozz", "$ozz_hash"}
EOT
mkdir -p "$(dirname "$out")"
if [ -f "$out" ] && cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
