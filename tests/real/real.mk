# tests/real/real.mk: `make real-programs` builds the real-programs corpus of tests/real
# (programs written against CUB, Thrust, libcu++ and cooperative groups, in the race
# suite's tag format) into $(BUILD)/real, with -lineinfo. Running them needs a GPU
# (scripts/gpu_real.sh, through scripts/race_suite.py --suite-dir tests/real).
RP_SAVED_GOAL := $(.DEFAULT_GOAL)

RP_SRC   := tests/real
RP_OUT   := $(BUILD)/real
RP_PROGS := $(sort $(basename $(notdir $(wildcard $(RP_SRC)/*.cu))))

# The libraries' headers are not ours to keep warning-free: warnings stay on, not errors.
RP_NVCCFLAGS := -O2 -lineinfo -std=c++17 -I$(RP_SRC) -Itests/races -Xcompiler -Wall

.PHONY: real-programs
real-programs: $(addprefix $(RP_OUT)/,$(RP_PROGS))

# Built as a user of an H100/H200 builds: -arch=sm_90 (machine code and compute_90 PTX,
# which scord instruments), so the libraries take their sm_90 paths (cp.async, onesweep
# tunings); a header's `SCORD-REQUIRES: sm_XX` chooses another architecture.
$(RP_OUT)/%: $(RP_SRC)/%.cu tests/races/rs_common.h $(RP_SRC)/cub_run.h
	@mkdir -p $(@D)
	$(NVCC) $(RP_NVCCFLAGS) \
	  $$(sed -n 's|^// SCORD-REQUIRES: *\(sm_[0-9a-z]*\).*|-arch=\1|p' $< | grep . || echo -arch=sm_90) \
	  -o $@ $<

.DEFAULT_GOAL := $(RP_SAVED_GOAL)
