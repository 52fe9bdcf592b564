# src/devrt/devrt.mk: the device runtime. nvcc compiles src/devrt/devrt.cu to PTX
# twice with -rdc=true (so its .visible .func definitions are kept, not inlined away or
# dropped): for compute_75, and for compute_90, where it swaps a shadow word and its
# site word with one 128-bit compare-and-swap. devrt_embed.awk checks the symbols each
# defines and writes the text as a C string; both C files join the core
# (src/devrt/devrt.h). ptxas then compiles each text to a relocatable cubin for the
# architectures of DEVRT_CUBIN_SMS that it knows (from compute_90's text for sm_90 and
# later), which devrt_cubins.sh embeds: scord links a module with the cubin for its
# device instead of compiling the runtime's PTX with every module (seconds each).

DEVRT_DIR       := $(BUILD)/devrt
DEVRT_PTX       := $(DEVRT_DIR)/devrt.ptx
DEVRT_EMBED     := $(DEVRT_DIR)/devrt_ptx.c
DEVRT_PTX_SM90  := $(DEVRT_DIR)/devrt_sm90.ptx
DEVRT_EMBED_SM90 := $(DEVRT_DIR)/devrt_sm90_ptx.c
DEVRT_ABI_FUNCS := __scord_access __scord_bar_arrive __scord_bar_pass __scord_syncwarp \
                   __scord_entry __scord_exit __scord_fence __scord_sync \
                   __scord_async_copy __scord_async_group __scord_bulk_copy __scord_cluster_barrier \
                   __scord_tensor_copy
DEVRT_NVCCFLAGS := -ptx -rdc=true -Isrc $(if $(filter 1,$(DEVRT_PROFILE)),-DSC_DEVRT_PROFILE)
# The .version each embedded text declares: what its target itself needs (sm_75: 6.3;
# sm_90's 128-bit atom.cas: 8.3); test_devrt assembles the embedded texts to prove it.
DEVRT_PTX_VERSION := 6.3
DEVRT_PTX_VERSION_SM90 := 8.3

# Architectures with a prebuilt runtime; a device of another one compiles the PTX.
DEVRT_CUBIN_SMS ?= 75 80 86 89 90 100 120
# The register limit of the prebuilt runtime: SC_DEVRT_CUBIN_REGS of devrt.h.
DEVRT_CUBIN_MAXRREG := $(shell sed -n 's/^\#define SC_DEVRT_CUBIN_REGS \([0-9]*\).*/\1/p' src/devrt/devrt.h)
PTXAS ?= $(CUDA_HOME)/bin/ptxas
DEVRT_PTXAS_HELP := $(shell $(PTXAS) --help 2>/dev/null)
DEVRT_SMS := $(foreach sm,$(DEVRT_CUBIN_SMS),$(if $(findstring 'compute_$(sm)',$(DEVRT_PTXAS_HELP)),$(sm)))
DEVRT_CUBINS := $(foreach sm,$(DEVRT_SMS),$(DEVRT_DIR)/devrt_sm$(sm).cubin)
DEVRT_CUBIN_EMBED := $(DEVRT_DIR)/devrt_cubins.c

CORE_SRCS += $(DEVRT_EMBED) $(DEVRT_EMBED_SM90) $(DEVRT_CUBIN_EMBED)

DEVRT_DEPS := src/devrt/devrt.cu $(wildcard src/devrt/*.cuh src/devrt/*.h src/rules/*.h) \
              src/report/report_cause.def src/devrt/devrt.mk

$(DEVRT_PTX): $(DEVRT_DEPS)
	@mkdir -p $(@D)
	$(NVCC) $(DEVRT_NVCCFLAGS) -arch=compute_75 -o $@.tmp $<
	@mv $@.tmp $@

$(DEVRT_PTX_SM90): $(DEVRT_DEPS)
	@mkdir -p $(@D)
	$(NVCC) $(DEVRT_NVCCFLAGS) -arch=compute_90 -o $@.tmp $<
	@mv $@.tmp $@

$(DEVRT_EMBED): $(DEVRT_PTX) src/devrt/devrt_embed.awk
	awk -v abi="$(DEVRT_ABI_FUNCS)" -v version=$(DEVRT_PTX_VERSION) -v symbol=sc_devrt_ptx \
	    -f src/devrt/devrt_embed.awk $< > $@.tmp
	@mv $@.tmp $@

$(DEVRT_EMBED_SM90): $(DEVRT_PTX_SM90) src/devrt/devrt_embed.awk
	awk -v abi="$(DEVRT_ABI_FUNCS)" -v version=$(DEVRT_PTX_VERSION_SM90) -v symbol=sc_devrt_ptx_sm90 \
	    -f src/devrt/devrt_embed.awk $< > $@.tmp
	@mv $@.tmp $@

# The text for an architecture: before sm_90 the compute_75 one, which has no 128-bit
# atomics.
devrt_ptx_for = $(if $(filter 75 80 86 87 88 89,$(1)),$(DEVRT_PTX),$(DEVRT_PTX_SM90))

$(DEVRT_DIR)/devrt_sm%.cubin: $(DEVRT_PTX) $(DEVRT_PTX_SM90)
	$(PTXAS) -c -arch=sm_$* --maxrregcount $(DEVRT_CUBIN_MAXRREG) -o $@.tmp $(call devrt_ptx_for,$*)
	@mv $@.tmp $@

$(DEVRT_CUBIN_EMBED): $(DEVRT_CUBINS) src/devrt/devrt_cubins.sh
	sh src/devrt/devrt_cubins.sh $@.tmp $(foreach sm,$(DEVRT_SMS),$(sm):$(abspath $(DEVRT_DIR)/devrt_sm$(sm).cubin))
	@mv $@.tmp $@
