CORE_SRCS    += src/intercept/intercept_alloc.c src/intercept/intercept_plan.c src/intercept/intercept_triton.c \
                src/intercept/intercept_tensor.c \
                src/intercept/intercept_graph_plan.c
PRELOAD_SRCS += src/intercept/intercept_driver.c src/intercept/intercept_ctx.c \
                src/intercept/intercept_load.c src/intercept/intercept_launch.c \
                src/intercept/intercept_runtime.c src/intercept/intercept_nvrtc.c src/intercept/intercept_nvjitlink.c \
                src/intercept/intercept_twin.c src/intercept/intercept_streams.c src/intercept/intercept_graphs.c
UNIT_TESTS   += test_intercept test_graph_plan
