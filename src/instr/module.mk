# The instrumentation pass (src/instr/instr.h): runtime calls into parsed PTX, site and kernel tables, runtime linking.
CORE_SRCS += src/instr/instr_module.c src/instr/instr_plan.c src/instr/instr_site.c src/instr/instr_emit.c \
             src/instr/instr_link.c src/instr/instr_cfg.c src/instr/instr_prune.c \
             src/instr/instr_roots.c
