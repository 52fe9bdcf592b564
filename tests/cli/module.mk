# tests/cli/module.mk: the launcher's tests. test_cli runs $(BUILD)/bin/scord on
# ordinary programs (sh, env) with the stand-in library below preloaded through
# SCORD_LIBRARY, so it needs neither a GPU nor the real libscord.so.
UNIT_TESTS += test_cli

# Built without the sanitizers even in `make check`: an ASan library cannot be
# preloaded into the uninstrumented programs (sh, env) the test runs.
CLI_FAKE_LIB  := $(BUILD)/tests/cli/libscord_fake.so
CLI_FAKE_SRCS := tests/cli/fake_preload.c src/common/sc_options.c src/common/sc_buf.c \
                 src/common/sc_err.c
TEST_DEPS += $(CLI_FAKE_LIB)

$(CLI_FAKE_LIB): $(CLI_FAKE_SRCS) src/common/sc_options.h src/common/options.def \
                 src/common/sc_buf.h src/common/sc_err.h src/common/sc_defs.h
	@mkdir -p $(@D)
	$(CC) -std=c17 -O2 -g -Wall -Wextra -Werror -Wshadow -fPIC -shared -D_GNU_SOURCE \
	  -Isrc -o $@ $(CLI_FAKE_SRCS)
