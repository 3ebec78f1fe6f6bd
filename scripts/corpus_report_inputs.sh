# Sourced by the corpus reports (scripts/corpus_fast_report.sh, scripts/corpus_side_report.sh): what they check of
# their inputs before reading a figure.  The caller defines fail MESSAGE (prints it, exits 1) and tmp (a directory).
# ratio_files_ok TARGET FILE...: each FILE is `animbench summary --baseline acl --tsv`'s, or fail naming it (TARGET:
# the make target that writes them, for the message).
ratio_files_ok() {
  local target=$1 f
  shift
  for f in "$@"; do
    [ -s "$f" ] || fail "$f is missing or empty: run $target (and make corpus-comp)"
    head -n 1 "$f" | grep -q "relative to acl, " || fail "$f: line 1 does not say 'relative to acl': not animbench summary --baseline acl --tsv"
    [ "$(sed -n 2p "$f")" = "$(printf 'question\tcodec\tclip\tratio\treached')" ] || fail "$f: line 2 is not 'question codec clip ratio reached'"
  done
}
# held_out_list BIN: the held-out clips' names into $tmp/held (HELD_OUT_FILE's, or animbench train-priors --held-out's).
held_out_list() {
  if [ -n "${HELD_OUT_FILE:-}" ]; then cp "$HELD_OUT_FILE" "$tmp/held"; else "$1" train-priors --held-out > "$tmp/held"; fi
  [ -s "$tmp/held" ] || fail "no held-out clip listed (animbench train-priors --held-out needs the Bandai data)"
}
