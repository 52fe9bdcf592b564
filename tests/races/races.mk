# tests/races/races.mk: `make race-suite` builds every race-suite program of tests/races
# into $(BUILD)/races, with -lineinfo so that reports name source lines. Building needs
# only the toolkit; running needs a GPU (scripts/race_suite.py), so neither `make` nor
# `make check` builds them. `make check` runs the runner's self-test, which checks the
# tags of every program here (tests/unit/test_race_suite.c).
RS_SAVED_GOAL := $(.DEFAULT_GOAL)

RS_SRC   := tests/races
RS_OUT   := $(BUILD)/races
RS_PROGS := $(sort $(basename $(notdir $(wildcard $(RS_SRC)/*.cu))))
RS_LIB   := $(CUDA_HOME)/lib64

RS_NVCCFLAGS := -O2 -lineinfo -std=c++17 -I$(RS_SRC) -Werror all-warnings \
                -Xcompiler -Wall,-Wextra,-Werror

# Programs that compile kernels at run time (NVRTC) and load them through the driver
# API. The stub libcuda is for linking only; at run time libcuda.so.1 is the driver's.
RS_JIT_PROGS := $(filter %_nvrtc_jit_race %_nvrtc_jit_norace %_nvrtc_cubin_race %_nvrtc_cubin_norace \
                  %_many_modules_race %_many_modules_norace,$(RS_PROGS))
$(foreach p,$(RS_JIT_PROGS),$(eval RS_LIBS_$(p) := -L$(RS_LIB)/stubs -lcuda -L$(RS_LIB) -lnvrtc \
                                                  -Xlinker -rpath,$(RS_LIB)))
# Relocatable device code, linked when the fat binary is loaded.
RS_FLAGS_global_rdc_device_function_race   := -rdc=true
RS_FLAGS_global_rdc_device_function_norace := -rdc=true
# The shared cudart instead of the default static one.
RS_FLAGS_shared_cudart_shared_race   := -cudart shared -Xlinker -rpath,$(RS_LIB)
RS_FLAGS_shared_cudart_shared_norace := -cudart shared -Xlinker -rpath,$(RS_LIB)

.PHONY: race-suite
race-suite: $(addprefix $(RS_OUT)/,$(RS_PROGS))

# A program whose header says `SCORD-REQUIRES: sm_XX` is built for that architecture;
# every other one for nvcc's default, so its PTX is JIT-compiled on the GPU.
$(RS_OUT)/%: $(RS_SRC)/%.cu $(RS_SRC)/rs_common.h $(RS_SRC)/rs_sync.h
	@mkdir -p $(@D)
	$(NVCC) $(RS_NVCCFLAGS) $$(sed -n 's|^// SCORD-REQUIRES: *\(sm_[0-9a-z]*\).*|-arch=\1|p' $<) \
	  $(RS_FLAGS_$*) -o $@ $< $(RS_LIBS_$*)

# The PTX of every program, for `scripts/race_suite.py --check-ptx`: a check, without a
# GPU, that each tagged line holds a memory instruction of its kind and space.
.PHONY: race-suite-ptx
race-suite-ptx: $(addprefix $(RS_OUT)/ptx/,$(addsuffix .ptx,$(RS_PROGS)))

$(RS_OUT)/ptx/%.ptx: $(RS_SRC)/%.cu $(RS_SRC)/rs_common.h $(RS_SRC)/rs_sync.h
	@mkdir -p $(@D)
	$(NVCC) $(RS_NVCCFLAGS) $$(sed -n 's|^// SCORD-REQUIRES: *\(sm_[0-9a-z]*\).*|-arch=\1|p' $<) \
	  -ptx -o $@ $<

UNIT_TESTS += test_race_suite

# A fragment's first rule must not become the default goal of `make`.
.DEFAULT_GOAL := $(RS_SAVED_GOAL)
