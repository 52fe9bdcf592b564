# tests/gpu/gpu.mk: `make gpu-progs` builds the GPU pass-through programs of
# tests/gpu/passthrough and the PTX/cubin/fatbin files they load into $(BUILD)/gpu.
# Building needs only the toolkit; running needs a GPU (scripts/gpu_passthrough.sh),
# so neither `make` nor `make check` builds them.
GPU_SAVED_GOAL := $(.DEFAULT_GOAL)

GPU_SRC  := tests/gpu/passthrough
GPU_OUT  := $(BUILD)/gpu
GPU_GEN  := $(GPU_OUT)/gen
GPU_HDRS := $(wildcard $(GPU_SRC)/*.h)
GPU_LIB  := $(CUDA_HOME)/lib64
BIN2C    ?= $(CUDA_HOME)/bin/bin2c

GPU_NVCCFLAGS := -O2 -std=c++17 -I$(GPU_SRC) -Werror all-warnings \
                 -Xcompiler -Wall,-Wextra,-Werror
GPU_CFLAGS    := -O2 -g -std=c17 -Wall -Wextra -Werror -Wshadow -D_GNU_SOURCE \
                 -I$(GPU_SRC) -I$(GPU_GEN) -I$(CUDA_HOME)/include
# The stub libcuda is for linking only; at run time libcuda.so.1 is the driver's, so
# the stub directory is never put in an rpath.
GPU_DRV_LIBS  := -L$(GPU_LIB)/stubs -lcuda
GPU_RPATH     := -Wl,-rpath,$(GPU_LIB)

# Runtime-API programs of one source file, default architecture (PTX for JIT).
GPU_RT_PROGS  := graph streams per_thread_stream cooperative devices
# Driver-API programs: C, no cudart.
GPU_DRV_PROGS := driver_ptx driver_cubin driver_fatbin nvrtc culink cudalibrary
GPU_PROGS     := static_cudart shared_cudart rdc launch_ex $(GPU_RT_PROGS) $(GPU_DRV_PROGS)
GPU_DATA      := drv_kernels.ptx drv_kernels.sm_80.cubin drv_kernels.sm_90.cubin \
                 drv_kernels.fatbin link_a.ptx link_b.ptx

.PHONY: gpu-progs
gpu-progs: $(addprefix $(GPU_OUT)/,$(GPU_PROGS) $(GPU_DATA))

# Two translation units, so two fat binaries, with the static and the shared cudart.
GPU_TWO_TU := $(GPU_SRC)/static_cudart.cu $(GPU_SRC)/static_cudart_aux.cu
$(GPU_OUT)/static_cudart: $(GPU_TWO_TU) $(GPU_HDRS)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_NVCCFLAGS) -o $@ $(GPU_TWO_TU)

$(GPU_OUT)/shared_cudart: $(GPU_TWO_TU) $(GPU_HDRS)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_NVCCFLAGS) -cudart shared -Xlinker -rpath,$(GPU_LIB) -o $@ $(GPU_TWO_TU)

$(GPU_OUT)/rdc: $(GPU_SRC)/rdc_main.cu $(GPU_SRC)/rdc_lib.cu $(GPU_HDRS)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_NVCCFLAGS) -rdc=true -o $@ $(filter %.cu,$^)

# Clusters need sm_90 code.
$(GPU_OUT)/launch_ex: $(GPU_SRC)/launch_ex.cu $(GPU_HDRS)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_NVCCFLAGS) -arch=sm_90 -o $@ $<

GPU_FLAGS_per_thread_stream := --default-stream per-thread -Xcompiler -pthread
$(addprefix $(GPU_OUT)/,$(GPU_RT_PROGS)): $(GPU_OUT)/%: $(GPU_SRC)/%.cu $(GPU_HDRS)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_NVCCFLAGS) $(GPU_FLAGS_$*) -o $@ $<

$(GPU_OUT)/obj/pt_drv.o: $(GPU_SRC)/pt_drv.c $(GPU_HDRS)
	@mkdir -p $(@D)
	$(CC) $(GPU_CFLAGS) -c -o $@ $<

GPU_LIBS_nvrtc := -L$(GPU_LIB) -lnvrtc $(GPU_RPATH)
$(addprefix $(GPU_OUT)/,$(GPU_DRV_PROGS)): $(GPU_OUT)/%: $(GPU_SRC)/%.c $(GPU_OUT)/obj/pt_drv.o $(GPU_HDRS)
	$(CC) $(GPU_CFLAGS) -o $@ $< $(GPU_OUT)/obj/pt_drv.o $(GPU_DRV_LIBS) $(GPU_LIBS_$*)

# Files embedded as C arrays (bin2c; PTX and sources NUL-terminated).
$(GPU_OUT)/driver_ptx $(GPU_OUT)/cudalibrary: $(GPU_GEN)/drv_kernels_ptx.h
$(GPU_OUT)/culink: $(GPU_GEN)/link_a_ptx.h $(GPU_GEN)/link_b_ptx.h
$(GPU_OUT)/nvrtc: $(GPU_GEN)/drv_kernels_src.h $(GPU_GEN)/pt_math_src.h

$(GPU_GEN)/%_ptx.h: $(GPU_OUT)/%.ptx
	@mkdir -p $(@D)
	$(BIN2C) --const --static --padd 0 --name $*_ptx $< >$@.tmp && mv $@.tmp $@

$(GPU_GEN)/drv_kernels_src.h: $(GPU_SRC)/drv_kernels.cu
	@mkdir -p $(@D)
	$(BIN2C) --const --static --padd 0 --name drv_kernels_src $< >$@.tmp && mv $@.tmp $@

$(GPU_GEN)/pt_math_src.h: $(GPU_SRC)/pt_math.h
	@mkdir -p $(@D)
	$(BIN2C) --const --static --padd 0 --name pt_math_src $< >$@.tmp && mv $@.tmp $@

# The data files the driver-API programs load.
GPU_KERNELS := $(GPU_SRC)/drv_kernels.cu $(GPU_SRC)/pt_math.h
$(GPU_OUT)/drv_kernels.ptx: $(GPU_KERNELS)
	@mkdir -p $(@D)
	$(NVCC) -I$(GPU_SRC) -ptx -o $@ $<

$(GPU_OUT)/drv_kernels.sm_%.cubin: $(GPU_KERNELS)
	@mkdir -p $(@D)
	$(NVCC) -I$(GPU_SRC) -cubin -arch=sm_$* -o $@ $<

# PTX of two virtual architectures and SASS of two real ones.
$(GPU_OUT)/drv_kernels.fatbin: $(GPU_KERNELS)
	@mkdir -p $(@D)
	$(NVCC) -I$(GPU_SRC) -fatbin -gencode arch=compute_75,code=[compute_75,sm_75] \
	  -gencode arch=compute_90,code=[compute_90,sm_90] -o $@ $<

$(GPU_OUT)/link_%.ptx: $(GPU_SRC)/link_%.cu $(GPU_SRC)/pt_math.h
	@mkdir -p $(@D)
	$(NVCC) -I$(GPU_SRC) -rdc=true -ptx -o $@ $<

# The bundled example: the top Makefile includes only src/ and tests/ fragments.
include examples/examples.mk

# A fragment's first rule must not become the default goal of `make`.
.DEFAULT_GOAL := $(GPU_SAVED_GOAL)
