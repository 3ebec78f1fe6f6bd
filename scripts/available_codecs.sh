#!/usr/bin/env bash
# The rows of a comma-separated list that this build can run, comma-separated (a row marked
# UNAVAILABLE by `list`, such as ACL's without its headers, or one that does not exist, is left out
# and named on stderr).
# usage: scripts/available_codecs.sh BIN a,b,c
set -euo pipefail
bin=$1 list=$2
listing=$("$bin" list)
keep=""
for c in ${list//,/ }; do
  if grep -q "^  $c " <<<"$listing" &&
     ! awk -v c="$c" '$1 == c {f = 1; next} f && /^  [a-z]/ {exit} f && /UNAVAILABLE/ {u = 1} END {exit !u}' <<<"$listing"; then
    keep="$keep${keep:+,}$c"
  else
    echo "$c is not available in this build: left out" >&2
  fi
done
printf '%s\n' "$keep"
