#!/usr/bin/env bash
# test_layers.sh: the modules of src/ include one another only down the pipeline's
# layers, so that the graph has no cycle (the interposer may use the reports, never
# the other way round). A module is a directory of src/; its files name another
# module by `#include "module/..."`. Layers, lowest first:
#   0  common, rules        shared helpers; the per-location rules (no libc)
#   1  fatbin, ptx, report  readers of the inputs; the reports
#   2  devrt                the device runtime (its cause list comes from report)
#   3  instr, hostrt        instrumentation (links devrt); decoding devrt's records
#   4  intercept, cli       the interposer and the launcher
# An include of a module of the same or a higher layer, or of an unknown module, fails.
# Run by tests/run_unit.sh from the repository root; the checker is also run on a
# scratch tree with a wrong include, which it must refuse.
set -u
. tests/sc_test.sh

layer_of() {
    case $1 in
    common | rules) echo 0 ;;
    fatbin | ptx | report) echo 1 ;;
    devrt) echo 2 ;;
    instr | hostrt) echo 3 ;;
    intercept | cli) echo 4 ;;
    *) echo -1 ;;
    esac
}

# Prints every include that breaks the layers under ROOT (a copy of src/); returns
# whether there was none.
check_layers() {
    local root=$1 bad=0 file mod dep line lm ld
    for file in "$root"/*/*; do
        case $file in *.c | *.h | *.cu | *.cuh | *.def) ;; *) continue ;; esac
        mod=$(basename "$(dirname "$file")")
        lm=$(layer_of "$mod")
        if [ "$lm" -lt 0 ]; then
            echo "  $file: module '$mod' has no layer"
            bad=1
            continue
        fi
        while IFS= read -r line; do
            dep=${line#*\"}
            dep=${dep%%/*}
            [ "$dep" = "$mod" ] && continue
            ld=$(layer_of "$dep")
            if [ "$ld" -lt 0 ] || [ "$ld" -ge "$lm" ]; then
                echo "  $file: $mod (layer $lm) includes $dep (layer $ld): $line"
                bad=1
            fi
        done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$file")
    done
    return "$bad"
}

check "src/ keeps to the layers" check_layers src

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r src "$scratch/src"
echo '#include "intercept/intercept.h"' >>"$scratch/src/report/report_text.c"
check "an include up the layers is refused" eval '! check_layers "$scratch/src" >/dev/null'
cp src/report/report_text.c "$scratch/src/report/report_text.c"
mkdir -p "$scratch/src/extra"
echo '#include "common/sc_defs.h"' >"$scratch/src/extra/extra.c"
check "a module with no layer is refused" eval '! check_layers "$scratch/src" >/dev/null'
rm -rf "$scratch/src/extra"
echo '#include "devrt/devrt_abi.h"' >>"$scratch/src/devrt/devrt.h"
check "an include within a module is allowed" check_layers "$scratch/src"
report
