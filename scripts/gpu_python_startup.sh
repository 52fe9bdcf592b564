#!/usr/bin/env bash
# scripts/gpu_python_startup.sh: what scord adds to a Python program's whole run, on a
# GPU machine with nothing else running. For each program (PyTorch's own kernels, which
# scord lists as unchecked, and the race-free Python programs of the real-programs
# corpus: a Triton kernel, a CuPy RawKernel, a Numba kernel, a PyTorch load_inline
# extension), one warm-up run natively and one under scord fill every cache (Triton's,
# Numba's, the extension build, scord's module cache: the state of a user's second
# run), then REPS runs natively and REPS under scord, alternating, and one under scord
# with --no-cache (every instrumented module compiled again). Wall milliseconds of the
# whole process: interpreter start, imports, compiles, kernels, exit.
#
# Usage: scripts/gpu_python_startup.sh OUTDIR   (writes OUTDIR/python-startup.txt)
# Environment: REPS (default 3), PROGRAMS (names of the programs below, separated by
# spaces; default all), JOBS (make -j, default 16), SCORD (default build/bin/scord).
set -u -o pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
mkdir -p "$1" || exit 2
OUTF=$(cd "$1" && pwd)/python-startup.txt
cd "$(dirname "$0")/.." || exit 2
REPS=${REPS:-3}
JOBS=${JOBS:-16}
SCORD=${SCORD:-build/bin/scord}
make -j"$JOBS" all >/tmp/python-startup-build.log 2>&1 || { tail -n 20 /tmp/python-startup-build.log; exit 1; }
tmp=$(mktemp -d /tmp/scord-python-startup.XXXXXX)
cat >"$tmp/torch_own.py" <<'EOF'
import torch
x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
print(float((x * 2).sum().item()))
EOF

declare -A script=(
    [torch_own]="$tmp/torch_own.py"
    [triton]=tests/real/global_triton_sum_norace.py
    [cupy]=tests/real/shared_cupy_rawkernel_norace.py
    [numba]=tests/real/shared_numba_cuda_norace.py
    [torch_extension]=tests/real/shared_torch_extension_norace.py
)
read -r -a programs <<<"${PROGRAMS:-torch_own triton cupy numba torch_extension}"

# "MS RC" of one run of the command, its output in $tmp/last.out.
ms() {
    local s e rc
    s=$(date +%s%N)
    "$@" >"$tmp/last.out" 2>&1
    rc=$?
    e=$(date +%s%N)
    echo "$(((e - s) / 1000000)) $rc"
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

{
    echo "# python start-up: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)," \
        "commit $(cat COMMIT 2>/dev/null || git rev-parse --short HEAD 2>/dev/null), $(date -u +%FT%TZ), REPS=$REPS"
    printf '%-16s %10s %10s %7s %12s  %s\n' program native_ms scord_ms ratio nocache_ms "runs (native | scord), exit codes"
} >"$OUTF"
for p in "${programs[@]}"; do
    cmd=(python3 "${script[$p]}")
    first=$(ms "${cmd[@]}")
    if grep -q '^SKIP:' "$tmp/last.out"; then
        printf '%-16s %s\n' "$p" "skipped: $(grep -m1 '^SKIP:' "$tmp/last.out")" >>"$OUTF"
        continue
    fi
    ms "$SCORD" "${cmd[@]}" >/dev/null
    nat=() sc=() codes="${first#* }"
    for _ in $(seq "$REPS"); do
        r=$(ms "${cmd[@]}"); nat+=("${r% *}"); codes+=" ${r#* }"
        r=$(ms "$SCORD" "${cmd[@]}"); sc+=("${r% *}"); codes+=" ${r#* }"
    done
    cold=$(ms "$SCORD" --no-cache "${cmd[@]}"); codes+=" ${cold#* }"
    n=$(median "${nat[@]}") s=$(median "${sc[@]}")
    printf '%-16s %10s %10s %7s %12s  %s | %s, %s\n' "$p" "$n" "$s" "$(awk -v a="$s" -v b="$n" 'BEGIN {printf "%.2f", a / b}')" \
        "${cold% *}" "${nat[*]}" "${sc[*]}" "$codes" >>"$OUTF"
done
rm -rf "$tmp"
cat "$OUTF"
