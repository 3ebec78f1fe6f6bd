#!/usr/bin/env bash
# Every committed shell script parses (bash -n): a script the make targets run only for long
# measurements (make keys, make corpus) is otherwise first read hours into a run, and make keys
# once stopped at its header for a session (record.sh lines pasted inside a comment).  A script
# with that very break must be refused, so the check can fail.  Prints "scripts-syntax: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0
scripts=$(git ls-files '*.sh' .ci/run 2>/dev/null || find . -name '*.sh' -not -path './build*')
for f in $scripts; do
  if out=$(bash -n "$f" 2>&1); then passed=$((passed + 1)); else failed=$((failed + 1)); echo "scripts-syntax: FAILED: $f: $out"; fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/usr/bin/env bash\n# the tables (see.sh\nrecord "$x" a.md), and more\n' > "$tmp/broken.sh"
if bash -n "$tmp/broken.sh" 2>/dev/null; then failed=$((failed + 1)); echo "scripts-syntax: FAILED: a broken script parsed"
else passed=$((passed + 1)); fi
echo "scripts-syntax: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "scripts-syntax: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
