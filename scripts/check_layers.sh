#!/usr/bin/env bash
# The layering of docs/layout.md, checked on every quoted #include of the sources:
#   core/                      -> core/ only (no arrow runs back up from the clip model)
#   generators/                -> core/, generators/
#   codecs/codec.[ch]          -> core/                       (the interface)
#   codecs/registry.c          -> core/, codecs/              (the one table sees every row)
#   codecs/STAGE/              -> core/, its own folder       (STAGE: keys, quantize, entropy: shared pieces)
#   codecs/FAMILY/             -> core/, codecs/codec.h, the stages, its own folder (never another family)
#   harness/measure/           -> core/, codecs/, generators/, harness/measure/
#   harness/sweep/             -> the same and harness/sweep/
#   harness/report/            -> the same as measure and harness/report/
#   harness/train/             -> core/, codecs/, harness/train/
#   harness/commands/          -> anything of the project
# Every quoted include is written from the root ("core/clip.h") and names a file that exists.
# usage: scripts/check_layers.sh [ROOT]   prints each violation as FILE:LINE and exits 1 when
# there is any; ROOT defaults to the checkout (tests/layers.sh runs it on trees built to break it).
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
stages="codecs/keys/ codecs/quantize/ codecs/entropy/"
allowed() { # file -> the include prefixes it may use, space-separated ("*": anything)
  local f=$1 d
  d=$(dirname "$f")/
  case "$f" in
    core/*) echo "core/" ;;
    generators/*) echo "core/ generators/" ;;
    codecs/codec.h | codecs/codec.c) echo "core/ codecs/codec.h" ;;
    codecs/registry.c) echo "core/ codecs/" ;;
    codecs/keys/* | codecs/quantize/* | codecs/entropy/*) echo "core/ $d" ;;
    codecs/*/*) echo "core/ codecs/codec.h $stages codecs/$(echo "$f" | cut -d/ -f2)/" ;;
    codecs/*) echo "core/ codecs/" ;;
    harness/measure/*) echo "core/ codecs/ generators/ harness/measure/" ;;
    harness/sweep/*) echo "core/ codecs/ generators/ harness/measure/ harness/sweep/" ;;
    harness/report/*) echo "core/ codecs/ generators/ harness/measure/ harness/report/" ;;
    harness/train/*) echo "core/ codecs/ harness/train/" ;;
    harness/commands/*) echo "*" ;;
    harness/*) echo "NONE" ;; # a file directly in harness/ belongs in one of its folders
    *) echo "*" ;;
  esac
}
violations=0
files=$(find core codecs generators harness \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) 2>/dev/null | LC_ALL=C sort)
for f in $files; do
  rules=$(allowed "$f")
  if [ "$rules" = NONE ]; then
    echo "$f: a file directly in harness/ (it belongs in commands/, sweep/, measure/, report/ or train/)"
    violations=$((violations + 1)); continue
  fi
  while IFS=: read -r line inc; do
    [ -z "$line" ] && continue
    [ "$inc" = build_info.h ] && continue # generated into the build folder (scripts/build_info.sh)
    if [ ! -f "$inc" ] || [[ "$inc" == *..* ]]; then
      echo "$f:$line: includes \"$inc\", which is not a file of the project written from its root"
      violations=$((violations + 1)); continue
    fi
    [ "$rules" = "*" ] && continue
    ok=0
    for r in $rules; do
      case "$inc" in "$r"*) ok=1 ;; esac
    done
    if [ $ok -eq 0 ]; then
      echo "$f:$line: includes \"$inc\": a file of $(dirname "$f")/ may include only $rules"
      violations=$((violations + 1))
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done
if [ $violations -eq 0 ]; then echo "layers: every include follows docs/layout.md"; exit 0; fi
echo "layers: $violations include(s) break the layering of docs/layout.md"
exit 1
