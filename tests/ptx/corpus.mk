# tests/ptx/corpus.mk: the PTX corpus, built by nvcc -ptx at test time into
# $(BUILD)/ptx-corpus/<name>.<target>[.lineinfo|.G].ptx from every CUDA source of
# the project (tests/**/*.cu, examples/*.cu) and the stress set of tests/ptx/stress/.
# <name> is the source path without .cu, '/' replaced by '-'
# (tests/ptx/stress/atom.cu -> tests-ptx-stress-atom).
# $(BUILD)/ptx-corpus/corpus.list names every file of the current corpus, one a line.
#
# Matrix: the stress set is built for every target, each with no flag, -lineinfo
# and -G. Every other source is built once per target, the variants taken in turn
# (plain, -G, -lineinfo, plain: sm_75 plain, sm_80 -G, sm_90 -lineinfo, sm_90a
# plain), so that the corpus still covers each target and each variant for every
# source while its build time grows by 4 compilations, not 12, per program of the
# race suite. `make PTX_CORPUS_FULL=1` builds the full matrix for every source.
#
# Targets: every source is built for all of PTX_CORPUS_TARGETS, except one that
# cannot compile for some of them (Hopper-only code). Such a source says which
# targets it builds for in a line of its own:
#     // SCORD-PTX-TARGETS: sm_90 sm_90a
# and PTX_CORPUS_LIMITED below lists the ones whose owners have not added that line.

PTX_CORPUS_DIR     := $(BUILD)/ptx-corpus
PTX_CORPUS_TARGETS := sm_75 sm_80 sm_90 sm_90a
PTX_CORPUS_FLAGS_plain    :=
PTX_CORPUS_FLAGS_lineinfo := -lineinfo
PTX_CORPUS_FLAGS_G        := -G
PTX_CORPUS_SUFFIX_plain    :=
PTX_CORPUS_SUFFIX_lineinfo := .lineinfo
PTX_CORPUS_SUFFIX_G        := .G

PTX_CORPUS_SRCS := $(sort $(shell find tests examples -name '*.cu' 2>/dev/null))

# The real-programs corpus (tests/real, CUB and Thrust: long to compile) says
# SCORD-PTX-TARGETS: sm_90 in each program, so each is built once. Its programs include
# the race suite's rs_common.h, hence -Itests/races for every source.
# Hopper-only sources (thread block clusters) without a SCORD-PTX-TARGETS line.
PTX_CORPUS_LIMITED := tests/gpu/passthrough/launch_ex.cu=sm_90,sm_90a \
                      tests/ptx_core/cluster.cu=sm_90,sm_90a
# "file=t1,t2" for each source carrying a SCORD-PTX-TARGETS line.
PTX_CORPUS_MARKED := $(shell grep -H -m1 '^// SCORD-PTX-TARGETS:' $(PTX_CORPUS_SRCS) /dev/null | \
                       sed -e 's|:// SCORD-PTX-TARGETS:[[:space:]]*|=|' -e 's|[[:space:]]*$$||' \
                           -e 's|[[:space:]][[:space:]]*|,|g')
ptx_corpus_comma := ,
# $(call ptx_corpus_targets,source)
ptx_corpus_targets = $(or $(subst $(ptx_corpus_comma), ,$(patsubst $(1)=%,%,$(firstword \
                       $(filter $(1)=%,$(PTX_CORPUS_MARKED) $(PTX_CORPUS_LIMITED))))),$(PTX_CORPUS_TARGETS))
ptx_corpus_name = $(subst /,-,$(patsubst %.cu,%,$(1)))

# $(call ptx_corpus_rule,source,target,variant)
define ptx_corpus_rule
$(PTX_CORPUS_DIR)/$(call ptx_corpus_name,$(1)).$(2)$(PTX_CORPUS_SUFFIX_$(3)).ptx: $(1) \
		$(wildcard $(dir $(1))*.cuh $(dir $(1))*.h) tests/ptx/corpus.mk
	@mkdir -p $$(@D)
	@echo "  PTX     $$@"
	@$(NVCC) -ptx -arch=$(2) $(PTX_CORPUS_FLAGS_$(3)) -Itests/races -o $$@ $(1)
PTX_CORPUS_FILES += $(PTX_CORPUS_DIR)/$(call ptx_corpus_name,$(1)).$(2)$(PTX_CORPUS_SUFFIX_$(3)).ptx
endef

PTX_CORPUS_FULL ?= 0
ptx_corpus_turns := plain G lineinfo plain
# $(call ptx_corpus_pairs,source) -> target:variant words to build
ptx_corpus_pairs = $(if $(or $(filter tests/ptx/stress/%,$(1)),$(filter 1,$(PTX_CORPUS_FULL))),\
  $(foreach t,$(call ptx_corpus_targets,$(1)),$(t):plain $(t):lineinfo $(t):G),\
  $(join $(call ptx_corpus_targets,$(1)),$(addprefix :,$(wordlist 1,$(words \
    $(call ptx_corpus_targets,$(1))),$(ptx_corpus_turns)))))

PTX_CORPUS_FILES :=
$(foreach s,$(PTX_CORPUS_SRCS),$(foreach p,$(call ptx_corpus_pairs,$(s)),\
  $(eval $(call ptx_corpus_rule,$(s),$(word 1,$(subst :, ,$(p))),$(word 2,$(subst :, ,$(p)))))))

# Rewritten only when the set of files changes, so that a removed source also
# leaves the list; the FORCE prerequisite makes make look every time.
$(PTX_CORPUS_DIR)/corpus.list: $(PTX_CORPUS_FILES) ptx-corpus-force
	@mkdir -p $(@D)
	@printf '%s\n' $(notdir $(PTX_CORPUS_FILES)) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

.PHONY: ptx-corpus ptx-corpus-force
ptx-corpus-force:
ptx-corpus: $(PTX_CORPUS_DIR)/corpus.list

TEST_DEPS += $(PTX_CORPUS_DIR)/corpus.list
