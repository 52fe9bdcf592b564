# tests/ptx/corpus.mk: the PTX corpus, built by nvcc -ptx at test time into
# $(BUILD)/ptx-corpus/<name>.<target>[.lineinfo|.G].ptx from every CUDA source of
# the project (tests/**/*.cu, examples/*.cu) and the stress set of
# tests/ptx/stress/, for each target with no flag, -lineinfo and -G.
# <name> is the source path without .cu, '/' replaced by '-'
# (tests/ptx/stress/atom.cu -> tests-ptx-stress-atom).
# $(BUILD)/ptx-corpus/corpus.list names every file of the current corpus, one a line.
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
	@$(NVCC) -ptx -arch=$(2) $(PTX_CORPUS_FLAGS_$(3)) -o $$@ $(1)
PTX_CORPUS_FILES += $(PTX_CORPUS_DIR)/$(call ptx_corpus_name,$(1)).$(2)$(PTX_CORPUS_SUFFIX_$(3)).ptx
endef

PTX_CORPUS_FILES :=
$(foreach s,$(PTX_CORPUS_SRCS),$(foreach t,$(call ptx_corpus_targets,$(s)),\
  $(foreach v,plain lineinfo G,$(eval $(call ptx_corpus_rule,$(s),$(t),$(v))))))

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
