#!/usr/bin/env bash
# Records in results/manifest.json what made each results FILE that holds no points of its own (a
# summary, a table, a figure, a timing table): the code versions of the points it was made from
# (SOURCE: a results file, or several separated by commas), or, for SOURCE "rows:a,b,c", this build's
# versions of the rows it timed.  make results-check then says when a file is stale.  Files that do
# not exist are skipped (a target that found no data writes fewer), and so are files outside results/.
# usage: scripts/record.sh BIN SOURCE FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 source=$2
shift 2
files=()
# only the repository's results files: a figure a test draws from its scratch sweep is not one of them
# (it used to land in results/manifest.json and leave the checkout modified after make test)
for f in "$@"; do
  [ -f "$f" ] || continue
  case "$(realpath "$f")" in "$PWD"/results/*) files+=("$f") ;; esac
done
[ ${#files[@]} -gt 0 ] || exit 0
if [[ $source == rows:* ]]; then
  "$bin" results-check --record --codecs "${source#rows:}" --by "$(basename "${0}") via $(basename "$(ps -o comm= $PPID 2>/dev/null || echo make)")" "${files[@]}" >/dev/null
else
  keep=()
  IFS=, read -ra parts <<<"$source"
  for s in "${parts[@]}"; do [ -f "$s" ] && keep+=("$s"); done
  [ ${#keep[@]} -gt 0 ] || { echo "record.sh: none of $source exists" >&2; exit 1; }
  "$bin" results-check --record --from "$(IFS=,; echo "${keep[*]}")" "${files[@]}" >/dev/null
fi
