# tests/processes/processes.mk: test_processes runs programs of several processes
# under scord and checks which of them write reports.
UNIT_TESTS += test_processes
$(BUILD)/tests/test_processes: tests/processes/test_processes.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
