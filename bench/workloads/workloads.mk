# bench/workloads/workloads.mk: `make bench-progs` builds the benchmark workloads of
# bench/workloads (docs/benchmark.md) into $(BUILD)/bench. Building needs only the
# toolkit; running needs a GPU (scripts/bench.py), so neither `make` nor `make check`
# builds them. Each fat binary holds sm_90 code and compute_90 PTX for the H100/H200
# (scord instruments the PTX; natively the sm_90 code runs) and compute_75 PTX for
# anything older.
BENCHW_SAVED_GOAL := $(.DEFAULT_GOAL)

BENCHW_SRC   := bench/workloads
BENCHW_OUT   := $(BUILD)/bench
BENCHW_PROGS := $(sort $(basename $(notdir $(wildcard $(BENCHW_SRC)/*.cu))))

# The brackets are quoted: unquoted, the shell would take them for a glob.
BENCHW_NVCCFLAGS := -O3 -lineinfo -std=c++17 -I$(BENCHW_SRC) \
                    -gencode 'arch=compute_90,code=[sm_90,compute_90]' \
                    -gencode arch=compute_75,code=compute_75 \
                    -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror

.PHONY: bench-progs
bench-progs: $(addprefix $(BENCHW_OUT)/,$(BENCHW_PROGS))

$(addprefix $(BENCHW_OUT)/,$(BENCHW_PROGS)): $(BENCHW_OUT)/%: $(BENCHW_SRC)/%.cu $(wildcard $(BENCHW_SRC)/*.h)
	@mkdir -p $(@D)
	$(NVCC) $(BENCHW_NVCCFLAGS) -o $@ $<

# A fragment's first rule must not become the default goal of `make`.
.DEFAULT_GOAL := $(BENCHW_SAVED_GOAL)
