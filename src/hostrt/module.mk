# The host half of the device runtime (src/hostrt/hostrt.h): race records decoded.
CORE_SRCS += src/hostrt/hostrt_records.c
UNIT_TESTS += test_hostrt
