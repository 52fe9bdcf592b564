# tests/install/install.mk: `make install` (PREFIX, default /usr/local; DESTDIR for
# staging): bin/scord, lib/libscord.so (the launcher looks in ../lib next to itself)
# and the documentation in share/doc/scord. test_install stages it and runs the
# installed launcher.
PREFIX ?= /usr/local
INSTALL_DOCS := README.md DESIGN.md $(wildcard docs/*.md)

.PHONY: install
install: $(BUILD)/bin/scord $(BUILD)/lib/libscord.so
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/doc/scord
	install -m 755 $(BUILD)/bin/scord $(DESTDIR)$(PREFIX)/bin/scord
	install -m 644 $(BUILD)/lib/libscord.so $(DESTDIR)$(PREFIX)/lib/libscord.so
	install -m 644 $(INSTALL_DOCS) $(DESTDIR)$(PREFIX)/share/doc/scord/

UNIT_TESTS += test_install
# The installed launcher runs the bundled example (examples/examples.mk).
TEST_DEPS += $(BUILD)/examples/racy_histogram
$(BUILD)/tests/test_install: tests/install/test_install.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
