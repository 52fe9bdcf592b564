# tests/signals/signals.mk: test_stop_signals, a program stopped by a signal under
# scord (the real libscord.so, built without sanitizers into BUILD/plain).
UNIT_TESTS += test_stop_signals
$(BUILD)/tests/test_stop_signals: tests/signals/test_stop_signals.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
