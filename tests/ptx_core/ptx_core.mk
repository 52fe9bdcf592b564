# Tests of the PTX front end core (src/ptx): unit tests, and the round trip over
# PTX that nvcc emits at test time from tests/ptx_core/*.cu into
# $(BUILD)/testdata/ptx/ for each target with and without -lineinfo and -G (the
# round trip also reads $(BUILD)/ptx-corpus/ when tests/ptx/corpus.mk built it).

UNIT_TESTS += test_ptx test_ptx_roundtrip

PTXCORE_TD := $(BUILD)/testdata/ptx
PTXCORE_FLAGS_plain :=
PTXCORE_FLAGS_lineinfo := -lineinfo
PTXCORE_FLAGS_G := -G

# $(call ptxcore_rule,source,arch,variant)
define ptxcore_rule
$(PTXCORE_TD)/$(1)_$(2)_$(3).ptx: tests/ptx_core/$(1).cu
	@mkdir -p $$(dir $$@)
	$(NVCC) -ptx -arch=$(2) $(PTXCORE_FLAGS_$(3)) $$< -o $$@
PTXCORE_DATA += $(PTXCORE_TD)/$(1)_$(2)_$(3).ptx
endef

PTXCORE_DATA :=
$(foreach a,sm_75 sm_80 sm_90 sm_90a,$(foreach v,plain lineinfo G,$(eval $(call ptxcore_rule,basics,$(a),$(v)))))
$(foreach a,sm_90 sm_90a,$(foreach v,plain lineinfo G,$(eval $(call ptxcore_rule,cluster,$(a),$(v)))))
TEST_DEPS += $(PTXCORE_DATA)
