# PTX front-end benchmark (not a test): `make bench-ptx` builds $(BUILD)/bench/ptx_bench
# and reports parse, print and parse+print throughput over the test PTX and, when
# built, $(BUILD)/ptx-corpus. Until the top Makefile includes bench/*.mk, run
# `make -f Makefile -f bench/ptx.mk bench-ptx`.
PTX_BENCH := $(BUILD)/bench/ptx_bench

$(PTX_BENCH): bench/ptx_bench.c $(BUILD)/libscord_core.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libscord_core.a $(CORE_LIBS) -ldl -lpthread

.PHONY: bench-ptx
bench-ptx: $(PTX_BENCH) $(PTXCORE_DATA)
	$(PTX_BENCH) $(BUILD)/testdata/ptx $(wildcard $(BUILD)/ptx-corpus)
