# src/devrt/devrt.mk: the device runtime. nvcc compiles src/devrt/devrt.cu to PTX
# for compute_75 with -rdc=true (so its .visible .func definitions are kept, not
# inlined away or dropped), devrt_embed.awk checks the symbols it defines and writes
# the text as a C string, and that C file joins the core (src/devrt/devrt.h).

DEVRT_DIR       := $(BUILD)/devrt
DEVRT_PTX       := $(DEVRT_DIR)/devrt.ptx
DEVRT_EMBED     := $(DEVRT_DIR)/devrt_ptx.c
DEVRT_ABI_FUNCS := __scord_access __scord_bar_arrive __scord_bar_pass __scord_syncwarp \
                   __scord_entry __scord_exit
DEVRT_NVCCFLAGS := -ptx -rdc=true -arch=compute_75 -Isrc
# The .version the embedded text declares: what sm_75 itself needs (the runtime's
# instructions need no more; test_devrt assembles the embedded text to prove it).
DEVRT_PTX_VERSION := 6.3

CORE_SRCS += $(DEVRT_EMBED)

$(DEVRT_PTX): src/devrt/devrt.cu $(wildcard src/devrt/*.h src/rules/*.h) \
              src/report/report_cause.def src/devrt/devrt.mk
	@mkdir -p $(@D)
	$(NVCC) $(DEVRT_NVCCFLAGS) -o $@.tmp $<
	@mv $@.tmp $@

$(DEVRT_EMBED): $(DEVRT_PTX) src/devrt/devrt_embed.awk
	awk -v abi="$(DEVRT_ABI_FUNCS)" -v version=$(DEVRT_PTX_VERSION) \
	    -f src/devrt/devrt_embed.awk $< > $@.tmp
	@mv $@.tmp $@
