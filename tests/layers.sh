#!/usr/bin/env bash
# The layering check (scripts/check_layers.sh) on the checkout, and on small trees built to break
# it one rule at a time: each must be refused, naming the file and line, and a tree that keeps
# the rules must pass.  Prints "layers: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
check=$PWD/scripts/check_layers.sh
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "layers: FAILED: $1"; }
if out=$("$check" 2>&1); then pass; else fail "the checkout breaks the layering:"; echo "$out"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree() { # name: a tree that keeps every rule
  rm -rf "$tmp/$1"; mkdir -p "$tmp/$1"/{core,generators,codecs/keys,codecs/study,codecs/shellpack,harness/measure,harness/sweep,harness/commands}
  cd "$tmp/$1" || exit 1
  echo '#include "core/b.h"' > core/a.h; : > core/b.h
  printf '#include "core/a.h"\n' > generators/g.c
  printf '#include "core/a.h"\n' > codecs/codec.h
  printf '#include "core/a.h"\n' > codecs/keys/k.h
  printf '#include "codecs/codec.h"\n#include "codecs/keys/k.h"\n' > codecs/study/s.h
  printf '#include "codecs/codec.h"\n' > codecs/shellpack/p.h
  printf '#include "codecs/study/s.h"\n#include "generators/g.c"\n' > harness/measure/m.h
  printf '#include "harness/measure/m.h"\n' > harness/sweep/r.h
  printf '#include "harness/sweep/r.h"\n' > harness/commands/c.c
  cd - >/dev/null || exit 1
}
refused() { # name, expected text in the report, what the tree breaks
  if out=$("$check" "$tmp/$1" 2>&1); then fail "$3: accepted"; elif grep -qF "$2" <<<"$out"; then pass
  else fail "$3: refused without naming '$2': $out"; fi
}
tree clean
if out=$("$check" "$tmp/clean" 2>&1); then pass; else fail "a tree that keeps the rules was refused: $out"; fi
tree core_up && echo '#include "harness/measure/m.h"' >> "$tmp/core_up/core/b.h"
refused core_up 'core/b.h:1: includes "harness/measure/m.h"' "core/ including harness/"
tree family && echo '#include "codecs/study/s.h"' >> "$tmp/family/codecs/shellpack/p.h"
refused family 'codecs/shellpack/p.h:2: includes "codecs/study/s.h"' "a family including another family"
tree stage && echo '#include "codecs/shellpack/p.h"' >> "$tmp/stage/codecs/keys/k.h"
refused stage 'codecs/keys/k.h:2: includes "codecs/shellpack/p.h"' "a shared stage including a family"
tree gen && echo '#include "codecs/codec.h"' >> "$tmp/gen/generators/g.c"
refused gen 'generators/g.c:2: includes "codecs/codec.h"' "generators/ including codecs/"
tree measure && echo '#include "harness/sweep/r.h"' >> "$tmp/measure/harness/measure/m.h"
refused measure 'harness/measure/m.h:3: includes "harness/sweep/r.h"' "measure/ including sweep/"
tree loose && echo '#include "core/a.h"' > "$tmp/loose/harness/loose.c"
refused loose 'harness/loose.c: a file directly in harness/' "a file directly in harness/"
tree relative && echo '#include "../core/a.h"' >> "$tmp/relative/codecs/study/s.h"
refused relative 'codecs/study/s.h:3: includes "../core/a.h", which is not a file' "an include relative to its folder"
echo "layers: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "layers: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
