CC ?= cc
OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
# Figures must not depend on the compiler contracting a*b+c into an FMA.
FP = -ffp-contract=off -fno-fast-math
ALL_CFLAGS = $(WARN) $(FP) -D_POSIX_C_SOURCE=200809L $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS = -lz -lcjson -lm

BUILD ?= build
CORE_SRC = $(wildcard core/*.c)
CODEC_SRC = $(wildcard codecs/*.c)
GEN_SRC = $(wildcard generators/*.c)
HARNESS_SRC = $(filter-out harness/main.c,$(wildcard harness/*.c))
LIB_SRC = $(CORE_SRC) $(CODEC_SRC) $(GEN_SRC) $(HARNESS_SRC)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)

.PHONY: all clean
all: bin/animbench

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libanimbench.a: $(LIB_OBJ)
	ar rcs $@ $^

bin/animbench: $(BUILD)/harness/main.o $(BUILD)/libanimbench.a
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@

clean:
	rm -rf build build-* bin

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
