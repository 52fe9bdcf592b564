# scord build. `make` builds the tool; `make check` builds everything again under
# AddressSanitizer/UBSan in build/san and runs the CPU tests.
#
# Each module describes itself in .mk fragments (src/*/*.mk,
# tests/*/*.mk) by appending to the variables below, so that modules can be
# added without editing this file:
#   CORE_SRCS     host C linked into libscord.so and into every unit test
#   PRELOAD_SRCS  host C linked into libscord.so only (the interposer)
#   CLI_SRCS      host C of the `scord` launcher
#   CORE_LIBS     libraries CORE_SRCS need (-lzstd ...)
#   UNIT_TESTS    names of tests/unit/<name>.c programs, each linked with the core
#   TEST_DEPS     extra files the tests need built first (test data)
#   BUILD_ALL     extra targets `make` builds

BUILD    ?= build
SAN      ?= 0
CC       ?= gcc
NVCC     ?= nvcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null || echo /usr/local/cuda/bin/nvcc))
VERSION  := $(shell cat VERSION)

CFLAGS   ?= -O2 -g
CFLAGS   += -std=c17 -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -fPIC \
            -fvisibility=hidden -D_GNU_SOURCE -DSCORD_VERSION='"$(VERSION)"' \
            -Isrc -I$(CUDA_HOME)/include -MMD -MP
LDFLAGS  ?=
# DEVRT_PROFILE=1: a device runtime with the access path's section timers, which the
# host reads back and prints at exit (docs/benchmark.md); build it in a tree of its own.
DEVRT_PROFILE ?= 0
ifeq ($(DEVRT_PROFILE),1)
CFLAGS   += -DSC_DEVRT_PROFILE
endif
ifeq ($(SAN),1)
CFLAGS   += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined
endif

CORE_SRCS    :=
PRELOAD_SRCS :=
CLI_SRCS     :=
CORE_LIBS    :=
UNIT_TESTS   :=
TEST_DEPS    :=
BUILD_ALL    :=

.DEFAULT_GOAL := all
include $(sort $(wildcard src/*/*.mk) $(wildcard tests/*/*.mk) $(wildcard examples/*.mk))
include bench/workloads/workloads.mk

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
CORE_OBJS    := $(call obj,$(CORE_SRCS))
PRELOAD_OBJS := $(call obj,$(PRELOAD_SRCS))
CLI_OBJS     := $(call obj,$(CLI_SRCS))
TEST_BINS    := $(addprefix $(BUILD)/tests/,$(UNIT_TESTS))

.PHONY: all check unit clean
all: $(if $(PRELOAD_SRCS),$(BUILD)/lib/libscord.so) $(if $(CLI_SRCS),$(BUILD)/bin/scord) $(BUILD_ALL)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libscord_core.a: $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/libscord.so: $(PRELOAD_OBJS) $(BUILD)/libscord_core.a
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $(PRELOAD_OBJS) $(BUILD)/libscord_core.a $(CORE_LIBS) -ldl -lpthread

$(BUILD)/bin/scord: $(CLI_OBJS) $(BUILD)/libscord_core.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libscord_core.a $(CORE_LIBS) -ldl

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libscord_core.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(BUILD)/libscord_core.a $(CORE_LIBS) -ldl -lpthread

unit: all $(TEST_BINS) $(TEST_DEPS)

# The README's test command. Everything is rebuilt under the sanitizers in its
# own tree so that a plain `make` build is never mixed with instrumented objects.
SANBUILD ?= build/san
# The CPU tests build hundreds of PTX files: use every core unless told otherwise.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check:
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(SANBUILD) SAN=1 unit
	tests/run_unit.sh $(SANBUILD) $(UNIT_TESTS)

clean:
	rm -rf build

-include $(CORE_OBJS:.o=.d) $(PRELOAD_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(TEST_BINS:=.d)
