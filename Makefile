# animbench.  `make` builds bin/animbench; `make check` runs every test.
CC ?= cc
OPT ?= -O3
CFLAGS ?= $(OPT) -g
WARN = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes $(WERROR)
# Figures must not depend on the compiler contracting a*b+c into an FMA; errno from
# sqrt is never read, and keeping it blocks scheduling in the samplers.
FP = -ffp-contract=off -fno-fast-math -fno-math-errno
# Includes are written from the project's root ("core/clip.h"): one spelling per header, whatever the
# folder of the file that includes it (docs/layout.md; scripts/check_layers.sh checks the layering).
ALL_CFLAGS = $(WARN) $(FP) -D_GNU_SOURCE -I. $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS = -lz -lcjson -lm -lpthread

.DEFAULT_GOAL := all
BUILD ?= build
BIN ?= bin/animbench
LIB_SRC = $(filter-out harness/commands/main.c,$(shell find core codecs generators harness -name '*.c' | LC_ALL=C sort))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)

# ACL (C++, header-only) behind codecs/acl/acl_shim.cpp, the project's one C++ file: built when its
# headers and RTM's are found; otherwise the acl rows are listed as unavailable.
ACL_DIR ?= ../shared/third_party/acl
RTM_DIR ?= ../shared/third_party/rtm
ifeq ($(origin CXX),default)
CXX = $(if $(findstring clang,$(CC)),clang++,g++)
endif
HAVE_ACL := $(if $(and $(wildcard $(ACL_DIR)/includes/acl/compression/compress.h),$(wildcard $(RTM_DIR)/includes/rtm/qvvf.h)),1,)
ifeq ($(HAVE_ACL),1)
ALL_CFLAGS += -DANIMBENCH_HAVE_ACL=1
LIB_OBJ += $(BUILD)/codecs/acl/acl_shim.o
LDLIBS += -lstdc++
endif
# assimp (Debian's libassimp-dev, its C API) behind generators/scene_import.c: FBX, glTF 2.0, COLLADA
# and more; without it those files are refused with what to install.
ASSIMP_INCLUDE ?= /usr/include
HAVE_ASSIMP := $(if $(wildcard $(ASSIMP_INCLUDE)/assimp/cimport.h),1,)
ifeq ($(HAVE_ASSIMP),1)
ALL_CFLAGS += -DANIMBENCH_HAVE_ASSIMP=1
LDLIBS += -lassimp
endif
ALL_CXXFLAGS = -std=c++11 -Wall -Wextra $(WERROR) $(FP) -I. $(CFLAGS) $(EXTRA_CFLAGS) \
  -isystem $(ACL_DIR)/includes -isystem $(RTM_DIR)/includes

# ozz-animation (C++17) behind codecs/ozz/ozz_shim.cpp: built when its sources are found, only the
# files its rows need (its archive, maths and allocator; the runtime animation, sampling job and
# skeleton; the offline builder, optimizer and skeleton builder), with the project's C++ flags.
# Its own files are not ours to fix: they get neither -Werror nor the two warnings they raise, and
# under the sanitizers not the nonnull check: ozz 0.16's MemoryStream copies an empty array with
# memcpy(NULL, p, 0) and memcpy(p, NULL, 0) (found by make fuzz; harmless, but undefined in C).
OZZ_DIR ?= ../shared/third_party/ozz
HAVE_OZZ := $(if $(wildcard $(OZZ_DIR)/include/ozz/animation/runtime/animation.h),1,)
OZZ_SOURCES = base/log.cc base/platform.cc base/containers/string_archive.cc base/io/archive.cc base/io/stream.cc \
  base/maths/box.cc base/maths/math_archive.cc base/maths/simd_math.cc base/maths/simd_math_archive.cc \
  base/maths/soa_math_archive.cc base/memory/allocator.cc base/encode/group_varint.cc \
  animation/runtime/animation.cc animation/runtime/sampling_job.cc animation/runtime/skeleton.cc \
  animation/runtime/skeleton_utils.cc animation/offline/animation_builder.cc \
  animation/offline/animation_optimizer.cc animation/offline/raw_animation.cc animation/offline/raw_skeleton.cc \
  animation/offline/skeleton_builder.cc animation/offline/raw_animation_utils.cc
OZZ_OWN_FLAGS = -Wno-ignored-attributes -Wno-type-limits $(if $(findstring sanitize,$(EXTRA_CFLAGS)),-fno-sanitize=nonnull-attribute)
OZZ_CXXFLAGS = -std=c++17 -Wall -Wextra $(FP) $(CFLAGS) $(EXTRA_CFLAGS) -isystem $(OZZ_DIR)/include -isystem $(OZZ_DIR)/src
ifeq ($(HAVE_OZZ),1)
ALL_CFLAGS += -DANIMBENCH_HAVE_OZZ=1
OZZ_OBJ = $(OZZ_SOURCES:%.cc=$(BUILD)/ozz/%.o)
LIB_OBJ += $(BUILD)/codecs/ozz/ozz_shim.o $(OZZ_OBJ)
ifneq ($(HAVE_ACL),1)
LDLIBS += -lstdc++
endif
endif
$(BUILD)/ozz/%.o: $(OZZ_DIR)/src/%.cc $(BUILD)/config.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(OZZ_CXXFLAGS) $(OZZ_OWN_FLAGS) -c $< -o $@
$(BUILD)/codecs/ozz/ozz_shim.o: codecs/ozz/ozz_shim.cpp codecs/ozz/ozz_shim.h $(BUILD)/config.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(OZZ_CXXFLAGS) $(WERROR) -I. -MMD -MP -c $< -o $@

# Objects are rebuilt when the configuration changes (ACL found or not, compilers, flags).
$(BUILD)/config.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo "$(CC) $(ALL_CFLAGS) | $(CXX) $(ALL_CXXFLAGS) | $(OZZ_CXXFLAGS) $(OZZ_OWN_FLAGS)" > $@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
$(LIB_OBJ) $(BUILD)/harness/commands/main.o: $(BUILD)/config.stamp

$(BUILD)/codecs/acl/acl_shim.o: codecs/acl/acl_shim.cpp codecs/acl/acl_shim.h
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_CXXFLAGS) -MMD -MP -c $< -o $@
TEST_SRC = $(wildcard tests/test_*.c)
TEST_BIN = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_HELPERS = $(BUILD)/tests/table_compare.o $(BUILD)/tests/channel_oracle.o $(BUILD)/tests/row_encode.o

.PHONY: all check test test-asan results-check test-without-libraries determinism fuzz fuzz-lib fuzz-targets fuzz-seeds corpus corpus-comp corpus-fast corpus-side shellpack keys scale cluster-speedup deps clean
.SECONDARY:
all: $(BIN)

deps:
	@ACL_DIR=$(ACL_DIR) OZZ_DIR=$(OZZ_DIR) scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(EXTRA_INCLUDE) -MMD -MP -c $< -o $@

$(BUILD)/libanimbench.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# Provenance for results files; regenerated on every make, rewritten only on change.
.PHONY: FORCE
$(BUILD)/build_info.h: FORCE
	@scripts/build_info.sh $@ "$(CC) $(ALL_CFLAGS)" "$(if $(HAVE_ACL),$(ACL_DIR)/includes/acl/version.h $(RTM_DIR)/includes/rtm/version.h)" \
	  "$(if $(HAVE_OZZ),$(addprefix $(OZZ_DIR)/src/,$(OZZ_SOURCES)))"
$(BUILD)/harness/measure/provenance.o: $(BUILD)/build_info.h
$(BUILD)/harness/measure/provenance.o: EXTRA_INCLUDE = -I$(BUILD)

$(BIN): $(BUILD)/harness/commands/main.o $(BUILD)/libanimbench.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(TEST_HELPERS) $(BUILD)/libanimbench.a
	$(CC) $(ALL_CFLAGS) $^ -lcmocka $(LDLIBS) -o $@

# Test binaries and scripts run TEST_JOBS at once (one per core unless set); the log reads the same.
NPROC := $(shell nproc 2>/dev/null || echo 2)
TEST_JOBS ?= $(NPROC)
# The slowest binaries first: with several at once, a long one started last would end alone.
SLOW_TESTS = $(filter %/test_shellpack_slack %/test_codecs %/test_bvh %/test_runtime %/test_ozz %/test_sweep,$(TEST_BIN))
test: $(BIN) $(TEST_BIN)
	@TEST_JOBS=$(TEST_JOBS) scripts/run_tests.sh $(SLOW_TESTS) $(filter-out $(SLOW_TESTS),$(TEST_BIN)) "scripts/check_readme_example.sh $(BIN)" "tests/limits.sh $(BIN)" "tests/results_check.sh $(BIN)" "tests/scene_cli.sh $(BIN)" "tests/seed_gate.sh $(BIN)" "tests/corpus_comp_report.sh $(BIN)" tests/corpus_fast_report.sh tests/corpus_side_report.sh tests/layers.sh tests/test_runner.sh tests/scripts_syntax.sh

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
test-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/animbench OPT=-O1 \
	  EXTRA_CFLAGS="$(SAN)" WERROR=-Werror test

determinism:
	@scripts/determinism.sh

# The project without its optional libraries, ACL and ozz-animation (as on a machine without
# ../shared/third_party): it builds, its tests pass with those rows skipped, and list says why they
# are unavailable.
test-without-libraries:
	@$(MAKE) --no-print-directory BUILD=build-nolibs BIN=build-nolibs/animbench ACL_DIR=/nonexistent \
	  RTM_DIR=/nonexistent OZZ_DIR=/nonexistent ASSIMP_INCLUDE=/nonexistent WERROR=-Werror test
	@listing=$$(build-nolibs/animbench list); \
	  if printf '%s\n' "$$listing" | grep -q "UNAVAILABLE: built without ACL" && \
	    printf '%s\n' "$$listing" | grep -q "UNAVAILABLE: built without ozz-animation" && \
	    printf '%s\n' "$$listing" | grep -q "UNAVAILABLE: built without assimp" && \
	    ! build-nolibs/animbench run --clip /usr/share/assimp/models/FBX/huesitos.fbx --codec raw >/dev/null 2>&1 && \
	    ! build-nolibs/animbench run --clip walk --codec acl >/dev/null 2>&1 && \
	    ! build-nolibs/animbench run --clip walk --codec ozz >/dev/null 2>&1 && \
	    ! build-nolibs/animbench bench --clips walk --codecs raw,acl --runs 1 --rounds 2 --budget-ms 1 \
	      --patterns whole-clip >build-nolibs/bench_unavailable.txt 2>&1 && grep -q "acl skipped: built without ACL" \
	      build-nolibs/bench_unavailable.txt && ! grep -q "whole clip" build-nolibs/bench_unavailable.txt; then \
	    echo "without-libraries: 1 passed, 0 failed"; [ -z "$${CHECK_SUMMARY:-}" ] || echo "without-libraries: 1 passed, 0 failed" >> "$$CHECK_SUMMARY"; \
	  else echo "without-libraries: 0 passed, 1 failed"; [ -z "$${CHECK_SUMMARY:-}" ] || echo "without-libraries: 0 passed, 1 failed" >> "$$CHECK_SUMMARY"; exit 1; fi

# Two libFuzzer targets (clang, ASan + UBSan, without ACL): fuzz_bvh runs the import pipeline
# (parse, a codec, its decoder, every metric), fuzz_decode feeds arbitrary bytes to every codec's
# decoder and sampler with two rigs.  Seeds are kept in tests/fuzz/corpus (and the BVH test
# files); what a run finds goes to build-fuzz/found_*.  Each runs FUZZ_SECONDS under a memory limit.
FUZZ_SECONDS ?= 45
FUZZ_RSS_MB ?= 2048
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB = build-fuzz/libanimbench.a
fuzz-lib:
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang CXX=clang++ ACL_DIR=/nonexistent RTM_DIR=/nonexistent \
	  OPT=-O1 EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_LIB)
fuzz-targets: fuzz-lib
	@for t in bvh decode scene; do \
	  clang -std=c11 -g -O1 $(FP) -D_GNU_SOURCE $(if $(HAVE_ASSIMP),-DANIMBENCH_HAVE_ASSIMP=1) -I. -fsanitize=fuzzer $(FUZZ_SAN) -c tests/fuzz/fuzz_$$t.c \
	    -o build-fuzz/fuzz_$$t.o && \
	  $(if $(HAVE_OZZ),clang++,clang) -g -fsanitize=fuzzer $(FUZZ_SAN) build-fuzz/fuzz_$$t.o $(FUZZ_LIB) \
	    $(LDLIBS) -o build-fuzz/fuzz_$$t || exit 1; done
# Rewrites the decoder's seeds from the codecs as they are (commit the result).
fuzz-seeds: $(BUILD)/libanimbench.a
	$(CC) $(ALL_CFLAGS) tests/fuzz/make_seeds.c $(BUILD)/libanimbench.a $(LDLIBS) -o $(BUILD)/make_seeds
	@mkdir -p tests/fuzz/corpus/decode
	$(BUILD)/make_seeds tests/fuzz/corpus/decode
fuzz: fuzz-targets
	@scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_RSS_MB)

# The README's test command: everything CI runs.
check: export ANIMBENCH_NEED_CLANG = 1
check: export ANIMBENCH_NEED_SLURM = 1
check: export CHECK_SUMMARY = $(CURDIR)/build/check-summary.txt
# The stages are independent once bin/animbench and its tests are built: NPROC of them run at once
# (the longest first; the test suites also run their tests TEST_JOBS at once), each one's output
# printed whole when it ends (--output-sync), and every stage runs even after one fails (-k).  A
# stage that exits non-zero adds a failure of its own to the summary, so a stage that dies before
# printing its count (a build error) cannot leave "0 failed".  -Werror is given to the builds that
# had it before (the binary, its tests, the ASan and library-less suites), not to the others.
CHECK_STAGES = check-asan check-determinism check-test check-fuzz check-without-libraries check-results \
  check-priors check-slurm check-cache-keys check-bvh-1gb
STAGE_FAILED = { echo "$@: 0 passed, 1 failed (the stage exited non-zero)" | tee -a "$$CHECK_SUMMARY"; exit 1; }
.PHONY: check-stages $(CHECK_STAGES)
check: deps
	@mkdir -p build && rm -f build/check-summary.txt
	@$(MAKE) --no-print-directory -j$(NPROC) WERROR=-Werror $(BIN) $(TEST_BIN)
	@$(MAKE) --no-print-directory -k -j$(NPROC) --output-sync=recurse check-stages; rc=$$?; \
	  awk '{p += $$2; f += $$4} END {printf "check: %d passed, %d failed\n", p, f}' build/check-summary.txt; exit $$rc
check-stages: $(CHECK_STAGES)
check-test: ; @$(MAKE) --no-print-directory WERROR=-Werror test || $(STAGE_FAILED)
check-results: ; @$(MAKE) --no-print-directory results-check || $(STAGE_FAILED)
check-asan: ; @$(MAKE) --no-print-directory test-asan || $(STAGE_FAILED)
check-cache-keys: ; @tests/cache_keys.sh || $(STAGE_FAILED)
check-priors: ; @tests/priors.sh $(BIN) || $(STAGE_FAILED)
check-determinism: ; @$(MAKE) --no-print-directory determinism || $(STAGE_FAILED)
check-without-libraries: ; @$(MAKE) --no-print-directory test-without-libraries || $(STAGE_FAILED)
check-fuzz: ; @$(MAKE) --no-print-directory fuzz || $(STAGE_FAILED)
check-bvh-1gb: ; @tests/bvh_1gb.sh $(BIN) || $(STAGE_FAILED)
check-slurm: ; @tests/slurm.sh $(BIN) || $(STAGE_FAILED)

# Every committed results file measured by this code version (or on the allow-list, with its reason):
# a results file by its points, any other file by its entry in results/manifest.json; make bench's
# results/bench.json holds every row this build runs.
RESULTS_FILES = $(shell git ls-files results 2>/dev/null || find results -type f)
results-check: $(BIN)
	@$(BIN) results-check --allow results/stale_allowed.txt --every-row results/bench.json $(RESULTS_FILES) \
	  > build/results-check.txt; rc=$$?; \
	  grep -v '^current ' build/results-check.txt; \
	  [ -z "$${CHECK_SUMMARY:-}" ] || tail -n 1 build/results-check.txt >> "$$CHECK_SUMMARY"; exit $$rc

clean:
	rm -rf build build-* bin

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

.PHONY: tables sweep bench runtime ozz acl-compare assimp-models priors seed-gate
tables: $(BIN)
	$(BIN) tables

# Shared data (captures, corpora): ANIMBENCH_DATA, by default ../shared/data beside the checkout.
# Sweep definitions name such clips data:PATH.
ANIMBENCH_DATA ?= ../shared/data
export ANIMBENCH_DATA

# The main job: every table of the study, the sweep, its exported tables and the figures (about 11
# to 13 minutes on two cores, make bench included; README's table of targets has the measured times).
SWEEP ?= sweeps/study.json
sweep: deps $(BIN)
	@mkdir -p results
	@echo "== the study's tables -> results/tables.txt" >&2
	@$(BIN) tables $(BENCH_PIN_FLAG) > results/tables.txt.tmp && mv results/tables.txt.tmp results/tables.txt && cat results/tables.txt
	@scripts/record.sh $(BIN) rows:raw,const,linear-all,linear,cubic,cubic-q,quant,const-sc,linear-sc,cubic-sc,cubic-q-sc,quant-sc \
	  results/tables.txt
	@echo "== sweep $(SWEEP)" >&2
	@$(BIN) sweep $(SWEEP)
	@ANIMBENCH_BIN=$(BIN) scripts/figures.sh $$(sed -n 's/.*"output": *"\([^"]*\)".*/\1/p' $(SWEEP) | head -n 1)
	@if [ -d "$(ANIMBENCH_DATA)/bvh" ]; then \
	  echo "== sweep sweeps/captures.json (the motion captures in $(ANIMBENCH_DATA)/bvh)" >&2; \
	  $(BIN) sweep sweeps/captures.json && ANIMBENCH_BIN=$(BIN) scripts/figures.sh results/captures.json && \
	  rm -f results/captures.NOT_REGENERATED.txt; \
	else scripts/mark_stale.sh results/captures "$(ANIMBENCH_DATA)/bvh"; fi
	@$(MAKE) --no-print-directory bench

# What a game pays to play each row's bytes (scripts/bench.sh): every row on the study's clips, the
# real-data rows on the four captures, and a crowd over the Bandai corpus: results/bench*.json,
# their _timings.tsv and the figures decode_*.  Benchmarks, not tests: run on an idle machine.  The
# timed thread is pinned to the last CPU (BENCH_PIN=-1 to leave it free); ANIMBENCH_BENCH_FLAGS adds
# options (--runs 21, say).  About 8 to 12 minutes.
BENCH_PIN ?= $(shell echo $$(( $$(nproc) - 1 )))
BENCH_PIN_FLAG = $(if $(filter -1,$(BENCH_PIN)),,--pin $(BENCH_PIN))
bench: deps $(BIN)
	@BENCH_PIN=$(BENCH_PIN) scripts/bench.sh $(BIN)

# What a runtime pays at equal measured error (scripts/runtime.sh): every runtime row at its smallest
# stream within 1 mm and 0.1 mm of shell distance on the study's clips and the captures (the Bandai
# corpus: make corpus, for ACL and the shellpack rows); playback, seek, first pose, a crowd with cold
# caches, held memory: results/runtime* (about 9 to 12 minutes).
runtime: deps $(BIN)
	@scripts/runtime.sh $(BIN)

# The Bandai corpus ($(ANIMBENCH_DATA)/bandai_namco_1, 174 clips) through every self-contained codec at
# 0.1 mm and 1 mm of shell error, with curves for BD-rates, then what a runtime pays for ACL and the
# shellpack rows on every clip (scripts/corpus.sh): results/corpus* (about 4 h 15 min on two cores).
corpus: deps $(BIN)
	@scripts/corpus.sh $(BIN)

# Issue 23's rows with error feedback down the hierarchy (shellpack-comp, -comp-allkeys, -comp-trellis,
# -comp-exchange, -comp-trained, shellpack-ra-comp, -ra-comp-exchange) on the whole Bandai corpus beside ACL
# and the seven rows they extend: make corpus's points for these rows alone (scripts/corpus_comp.sh):
# results/corpus_comp_summary.md, the issue's Bandai goals, the held-out split and what each row pays over
# the one it extends (about 95 to 125 minutes on two cores).
corpus-comp: deps $(BIN)
	@scripts/corpus_comp.sh $(BIN)

# Issue 23's encode budget on the whole Bandai corpus: shellpack-comp-fast (the smallest row whose encode
# stays within 10x ACL's), its plan shellpack-comp-trellis-p2 and shellpack beside ACL (scripts/corpus_fast.sh):
# results/corpus_fast_summary.md, the issue's Bandai goals for the row and its bytes over
# shellpack-comp-trained's (make corpus-comp's committed ratios; about 10 minutes on two cores).
corpus-fast: deps $(BIN)
	@scripts/corpus_fast.sh $(BIN)

# shellpack-side's container around the smallest whole-clip and random-access rows (shellpack-comp-trained-side,
# shellpack-ra-comp-exchange-side), with shellpack, beside ACL on the whole Bandai corpus (scripts/corpus_side.sh):
# results/corpus_side_summary.md, the held-out split, issue 23's Bandai goals for the first and each row's bytes over
# the row it carries (make corpus-comp's committed ratios); about 35 to 45 minutes on two cores.
corpus-side: deps $(BIN)
	@scripts/corpus_side.sh $(BIN)

# shellpack (issue 11), its ablations, shellpack-ra (issue 22) and the slack rows (issue 23) against
# ACL at equal shell error on the study's clips and the four captures, with decode and encode timings
# side by side, the runtime table and the section-length curve: results/shellpack_summary.md,
# results/shellpack_ra_summary.md, results/shellpack_slack_summary.md (the Bandai corpus's rows come
# from make corpus).  About 1 hour with the sweep's points stored (README's table of targets).
shellpack: deps $(BIN)
	@scripts/shellpack.sh $(BIN)

# ozz-animation (issue 24) beside ACL, shellpack and the harness's imitation of ozz, at equal
# measured shell error and at the same tolerance settings, on the study's clips and the captures,
# with every decode pattern in the same run: results/ozz_summary.md (scripts/ozz.sh; about 3 to 6 minutes).
ozz: deps $(BIN)
	@scripts/ozz.sh $(BIN)

# Every file of Debian's assimp-testmodels asked what it holds and read when it holds an animation, the
# skeletal ones through every codec (scripts/assimp_models.sh): results/assimp_models* (about 3 to 6 minutes).
assimp-models: deps $(BIN)
	@scripts/assimp_models.sh $(BIN)

# Key selection strategies side by side (issue 12): results/keys.json and keys_corpus.json (the study's
# clips, the captures, the Bandai corpus at equal joint error), encoder timings, results/keys_summary.md
# (about 47 minutes on two cores; the sweeps resume where they stopped).
keys: deps $(BIN)
	@scripts/keys.sh $(BIN)

# How encode and decode time and peak memory grow with clip length and bone count, on random clips:
# results/scale.tsv, results/scale_slopes.md and results/figures/scale_*.png (about 10 to 12 minutes).
scale: deps $(BIN)
	@scripts/scale.sh $(BIN)

# The speed-up of a sharded sweep (1, 2, 4 shards) on a one-node Slurm started for it, against
# one process: results/cluster_speedup.md (about 6 minutes; needs slurm-wlm and munge, and the
# Bandai data).
cluster-speedup: export ANIMBENCH_NEED_SLURM = 1
cluster-speedup: deps $(BIN)
	@scripts/slurm/speedup.sh $(BIN)

# shellpack-trained's built-in initial states (codecs/shellpack/shellpack_priors.c) and shellpack-side's
# (codecs/shellpack/shellpack_side_priors.c), trained again on Bandai dataset 1 without its held-out
# fifth (animbench train-priors, then with --side; about 45 s and 10 s on two cores).  make check
# fails when a committed file is not what this writes.
priors: deps $(BIN)
	$(BIN) train-priors --out codecs/shellpack/shellpack_priors.c
	$(BIN) train-priors --side --out codecs/shellpack/shellpack_side_priors.c

# ACL against the study's rows at equal measured error on the study's clips, the captures and six
# Bandai Namco clips: results/acl_compare.md (about 5 minutes; skipped when ACL is not built).
acl-compare: deps $(BIN)
	@BIN=$(BIN) scripts/acl_compare.sh

# shellpack against ACL under four conventions of the same error (this harness's, seed 001's
# standalone contract, its max gate measured joint by joint by animbench gate, and a looser
# clip-wide gate), on the study's clips, the captures and
# the held-out fifth of the Bandai corpus: results/seed_gate.{tsv,md} (about 70 to 85 minutes on two cores).
seed-gate: deps $(BIN)
	@scripts/seed_gate.sh $(BIN)
