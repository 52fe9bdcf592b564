# Test data for test_fatbin, built with nvcc at test time into $(BUILD)/testdata/fatbin:
# fat binaries of tests/fatbin/*.cu under different -gencode, compression and -rdc
# settings, the PTX nvcc emits for the same source and arch (to compare against what
# the reader extracts), a cubin, and libprobe_*.so: libraries whose constructors
# register their fat binaries with the stand-ins of probe_stubs.c, so the tests read
# the wrappers that __cudaRegisterFatBinary really receives.

FATBIN_TD   := $(BUILD)/testdata/fatbin
FATBIN_SRC  := tests/fatbin
FATBIN_NVCC := $(NVCC) -std=c++17
FATBIN_FATBINARY := $(CUDA_HOME)/bin/fatbinary
FATBIN_COMMA := ,
FATBIN_SM75 := -gencode arch=compute_75,code=[sm_75,compute_75]

FATBIN_DATA := $(addprefix $(FATBIN_TD)/, \
    sm75.fatbin sm75_nocomp.fatbin sm75_lz4.fatbin sm75_all.fatbin sm75_all_lz4.fatbin \
    ptx80_90.fatbin sm90.fatbin sm90a.fatbin lineinfo.fatbin debug.fatbin \
    rdc.fatbin versions.fatbin sm75.ptx sm80.ptx sm90.ptx sm90a.ptx lineinfo.ptx rdc_a.ptx \
    sm80.cubin sm90.cubin libprobe_v1.so libprobe_rdc.so libprobe_rdc_ptx.so)
# compute_100f (family-specific targets) only where this nvcc knows it (CUDA 12.9 and
# later); test_fatbin says it skips the family test otherwise.
FATBIN_HAS_100F := $(shell $(NVCC) --help 2>/dev/null | grep -q "'compute_100f'" && echo yes)
FATBIN_DATA += $(if $(FATBIN_HAS_100F),$(FATBIN_TD)/sm100f.fatbin)
TEST_DEPS += $(FATBIN_DATA)

# One fat binary per flag set: $(call fatbin_rule,name,source,nvcc flags)
define fatbin_rule
$(FATBIN_TD)/$(1).fatbin: $(FATBIN_SRC)/$(2).cu
	@mkdir -p $$(dir $$@)
	$(FATBIN_NVCC) -fatbin $(3) $$< -o $$@
endef

$(eval $(call fatbin_rule,sm75,kernels,$(FATBIN_SM75)))
$(eval $(call fatbin_rule,sm75_nocomp,kernels,$(FATBIN_SM75) --no-compress))
$(eval $(call fatbin_rule,sm75_lz4,kernels,$(FATBIN_SM75) --compress-mode=speed))
$(eval $(call fatbin_rule,sm75_all,kernels,$(FATBIN_SM75) -Xfatbin=-compress-all))
$(eval $(call fatbin_rule,sm75_all_lz4,kernels,$(FATBIN_SM75) --compress-mode=speed -Xfatbin=-compress-all))
$(eval $(call fatbin_rule,ptx80_90,kernels,-gencode arch=compute_80$(FATBIN_COMMA)code=compute_80 -gencode arch=compute_90$(FATBIN_COMMA)code=compute_90))
$(eval $(call fatbin_rule,sm90,kernels,-gencode arch=compute_90$(FATBIN_COMMA)code=sm_90))
$(eval $(call fatbin_rule,sm90a,kernels,-gencode arch=compute_90a$(FATBIN_COMMA)code=[sm_90a$(FATBIN_COMMA)compute_90a]))
$(eval $(call fatbin_rule,sm100f,kernels,-gencode arch=compute_100f$(FATBIN_COMMA)code=[sm_100f$(FATBIN_COMMA)compute_100f]))
$(eval $(call fatbin_rule,lineinfo,kernels,$(FATBIN_SM75) -lineinfo))
$(eval $(call fatbin_rule,debug,kernels,$(FATBIN_SM75) -G))
$(eval $(call fatbin_rule,rdc,rdc_a,$(FATBIN_SM75) -rdc=true))

$(FATBIN_TD)/sm75.ptx: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -ptx -arch=sm_75 $< -o $@
$(FATBIN_TD)/sm80.ptx: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -ptx -arch=sm_80 $< -o $@
$(FATBIN_TD)/sm90.ptx: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -ptx -arch=sm_90 $< -o $@
$(FATBIN_TD)/sm90a.ptx: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -ptx -arch=sm_90a $< -o $@
$(FATBIN_TD)/lineinfo.ptx: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -ptx -arch=sm_75 -lineinfo $< -o $@
$(FATBIN_TD)/rdc_a.ptx: $(FATBIN_SRC)/rdc_a.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -ptx -arch=sm_75 -rdc=true $< -o $@
$(FATBIN_TD)/sm80.cubin: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -cubin -arch=sm_80 $< -o $@
$(FATBIN_TD)/sm90.cubin: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -cubin -arch=sm_90 $< -o $@

# Two PTX images of one arch that differ only in their .version, packed by
# fatbinary itself: the reader must pick the newer.
$(FATBIN_TD)/sm80_v78.ptx: $(FATBIN_TD)/sm80.ptx
	sed 's/^\.version .*/.version 7.8/' $< > $@
$(FATBIN_TD)/versions.fatbin: $(FATBIN_TD)/sm80_v78.ptx $(FATBIN_TD)/sm80.ptx
	$(FATBIN_FATBINARY) -64 --create=$@ --image3=kind=ptx,sm=80,file=$(FATBIN_TD)/sm80_v78.ptx \
	    --image3=kind=ptx,sm=80,file=$(FATBIN_TD)/sm80.ptx

# The probe libraries. -cudart none leaves the registration calls to probe_stubs.c.
$(FATBIN_TD)/obj/probe_stubs.o: $(FATBIN_SRC)/probe_stubs.c
	@mkdir -p $(dir $@)
	$(CC) -std=c17 -O2 -fPIC -Wall -Wextra -Werror -c $< -o $@
$(FATBIN_TD)/obj/kernels.o: $(FATBIN_SRC)/kernels.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -Xcompiler -fPIC $(FATBIN_SM75) -c $< -o $@
$(FATBIN_TD)/obj/rdc_%.o: $(FATBIN_SRC)/rdc_%.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -Xcompiler -fPIC -rdc=true $(FATBIN_SM75) -c $< -o $@
$(FATBIN_TD)/obj/rdc_dlink.o: $(FATBIN_TD)/obj/rdc_a.o $(FATBIN_TD)/obj/rdc_b.o
	$(FATBIN_NVCC) -Xcompiler -fPIC $(FATBIN_SM75) -dlink $^ -o $@
$(FATBIN_TD)/obj/rdcptx_%.o: $(FATBIN_SRC)/rdc_%.cu
	@mkdir -p $(dir $@)
	$(FATBIN_NVCC) -Xcompiler -fPIC -rdc=true -gencode arch=compute_80,code=compute_80 -c $< -o $@
$(FATBIN_TD)/obj/rdcptx_dlink.o: $(FATBIN_TD)/obj/rdcptx_a.o $(FATBIN_TD)/obj/rdcptx_b.o
	$(FATBIN_NVCC) -Xcompiler -fPIC -gencode arch=compute_80,code=compute_80 -dlink $^ -o $@

$(FATBIN_TD)/libprobe_v1.so: $(FATBIN_TD)/obj/kernels.o $(FATBIN_TD)/obj/probe_stubs.o
	$(FATBIN_NVCC) -shared -cudart none $^ -o $@
$(FATBIN_TD)/libprobe_rdc.so: $(FATBIN_TD)/obj/rdc_a.o $(FATBIN_TD)/obj/rdc_b.o \
                              $(FATBIN_TD)/obj/rdc_dlink.o $(FATBIN_TD)/obj/probe_stubs.o
	$(FATBIN_NVCC) -shared -cudart none $^ -o $@
$(FATBIN_TD)/libprobe_rdc_ptx.so: $(FATBIN_TD)/obj/rdcptx_a.o $(FATBIN_TD)/obj/rdcptx_b.o \
                                  $(FATBIN_TD)/obj/rdcptx_dlink.o $(FATBIN_TD)/obj/probe_stubs.o
	$(FATBIN_NVCC) -shared -cudart none $^ -lcudadevrt -o $@
