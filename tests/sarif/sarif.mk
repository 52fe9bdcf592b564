# tests/sarif/sarif.mk: test_sarif checks the SARIF reports of the report goldens against
# scord's SARIF 2.1.0 subset schema (python3-jsonschema, which .ci/run installs).
UNIT_TESTS += test_sarif
$(BUILD)/tests/test_sarif: tests/sarif/test_sarif.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
