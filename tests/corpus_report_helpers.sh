# Sourced by the tests of the corpus reports (tests/corpus_fast_report.sh, tests/corpus_side_report.sh): hand-made
# ratio files and the checks.  The caller sets test_name, tmp, passed and failed, and defines run FIRST SECOND (the
# report on two ratio files).
check() { # what, then a command that succeeds when it holds
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "$test_name: FAILED: $what"; fi
}
q1="shell_max_mm <= 0.1 mm" q2="shell_max_mm <= 1 mm"
lines() { # question codec then clip ratio reached ...
  local q=$1 c=$2; shift 2
  while [ $# -gt 0 ]; do printf '%s\t%s\t%s\t%s\t%s\n' "$q" "$c" "$1" "$2" "$3"; shift 3; done
}
header() {
  echo "# animbench summary x.json: bytes at equal error relative to acl, one row per clip (hand-made)"
  printf 'question\tcodec\tclip\tratio\treached\n'
}
# refusals: exit 1, a message naming the file, nothing on stdout
refuse() { # what, first file, second file
  local o e rc
  o=$(run "$2" "$3" 2>"$tmp/err"); rc=$?
  e=$(cat "$tmp/err")
  check "$1: exit 1 (got $rc)" [ "$rc" = 1 ]
  check "$1: nothing on stdout" [ -z "$o" ]
  check "$1: the message names the file" grep -qF "$2" <<<"$e"
}
# the three refusals every report makes of its first file, given a good one and a good second file
refuse_bad_inputs() { # good first file, good second file
  refuse "a missing file" "$tmp/none.tsv" "$2"
  sed '1s/relative to acl/relative to shellpack/' "$1" > "$tmp/notacl.tsv"
  refuse "a summary against another baseline" "$tmp/notacl.tsv" "$2"
  sed '2s/ratio/share/' "$1" > "$tmp/cols.tsv"
  refuse "another column line" "$tmp/cols.tsv" "$2"
}
