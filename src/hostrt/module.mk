# The host half of the device runtime: race records decoded (src/hostrt/hostrt.h) and
# the order of stream-ordered work (src/hostrt/hostrt_order.h).
CORE_SRCS += src/hostrt/hostrt_records.c src/hostrt/hostrt_order.c
UNIT_TESTS += test_hostrt test_order
