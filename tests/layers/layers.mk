# tests/layers/layers.mk: test_layers checks that the modules of src/ include one
# another only down the pipeline's layers (no cycle between them).
UNIT_TESTS += test_layers
$(BUILD)/tests/test_layers: tests/layers/test_layers.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
