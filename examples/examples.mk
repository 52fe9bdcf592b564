# examples/examples.mk: `make example` builds scord and the bundled racy example
# (-lineinfo, so reports name source lines) and runs the example under scord. On a
# machine without a GPU the example says "no CUDA device found" and the target fails.
# Guarded because tests/gpu/gpu.mk includes this file while the top Makefile does not.
ifndef SC_EXAMPLES_MK
SC_EXAMPLES_MK := 1
EXAMPLES_SAVED_GOAL := $(.DEFAULT_GOAL)

EXAMPLE_OUT := $(BUILD)/examples

.PHONY: example
example: all $(EXAMPLE_OUT)/racy_histogram
	@test -x $(BUILD)/bin/scord || \
	  { echo "example: $(BUILD)/bin/scord was not built; see the errors of \`make\` above" >&2; exit 1; }
	$(BUILD)/bin/scord $(EXAMPLE_OUT)/racy_histogram

$(EXAMPLE_OUT)/racy_histogram: examples/racy_histogram.cu
	@mkdir -p $(@D)
	$(NVCC) -O2 -lineinfo -o $@ $<

# A fragment's first rule must not become the default goal of `make`.
.DEFAULT_GOAL := $(EXAMPLES_SAVED_GOAL)
endif
