# tests/instr/instr.mk: tests of the instrumentation pass (tests/unit/test_instr.c).
#   tests/instr/golden/NAME.ptx      hand-written inputs; NAME.expected is the instrumented
#                                    module followed by its site table as // comments
#   tests/instr/runtime_stub.ptx     a stand-in device runtime with devrt_abi.h's signatures
#   tests/instr/cuda/*.cu            realistic kernels; tests/ptx/corpus.mk builds them into
#                                    $(BUILD)/ptx-corpus/tests-instr-cuda-NAME.<target>[.lineinfo|.G].ptx
#                                    with the rest of the corpus, which the test instruments whole
UNIT_TESTS += test_instr
