#!/usr/bin/env bash
# scripts/gpu_passthrough.sh: on a GPU machine, runs every pass-through program of
# tests/gpu/passthrough natively and under `scord --verbose`, and checks that scord
# changed nothing: same exit code, byte-identical stdout, and each module loaded from
# scord's PTX (or, for the cubin-only program, reported unchecked).
#
# Usage: scripts/gpu_passthrough.sh OUTDIR
# Writes OUTDIR/passthrough.tsv (one row per program and loading mode),
# OUTDIR/passthrough.log (build and run narrative, details of every failed row) and
# OUTDIR/passthrough-runs.tar.gz (each run's stdout, stderr and scord log, and the
# build logs). Runs every row whatever fails before it; exits 1 if any row or build
# failed, 2 on bad usage.
# Environment: BUILD (build tree, default build), JOBS (make -j, default 16),
# RUN_TIMEOUT (seconds per program run, default 30), BUDGET (seconds after which the
# rows not yet run fail as `time-budget`, default 420, so that the results come back
# from a GPU machine that allows 10 minutes a command), SCORD (default $BUILD/bin/scord).
set -u -o pipefail

# What libscord prints under --verbose for each module it loads from its own PTX and
# for each module it lets run unchanged. Adjust here if those messages change.
PTX_PATTERN='scord: module .* loaded from PTX'
UNCHECKED_PATTERN='scord: module .* unchecked'
FALLBACK_PATTERN="scord: module .* runs unchecked: the driver rejected scord's PTX"

# program            modes (CUDA_MODULE_LOADING, or fault[-eager]: scord's PTX is rejected)
#                                        module lines expected under scord
PROGRAMS='
static_cudart        default,lazy,eager  ptx>=2
static_cudart        fault-eager         fallback>=2
driver_fatbin        fault               fallback>=2
shared_cudart        default             ptx>=2
driver_ptx           default             ptx>=2
driver_cubin         default             unchecked>=2
driver_fatbin        default             ptx>=2
nvrtc                default             ptx>=1
culink               default             ptx>=2
cudalibrary          default             ptx>=2
graph                default,lazy,eager  ptx>=1
streams              default             ptx>=1
rdc                  default             ptx>=1
per_thread_stream    default             ptx>=1
cooperative          default             ptx>=1
launch_ex            default             ptx>=1
devices              default             ptx>=1
'

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
mkdir -p "$1" || exit 2
OUTDIR=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
JOBS=${JOBS:-16}
RUN_TIMEOUT=${RUN_TIMEOUT:-30}
BUDGET=${BUDGET:-420}
SCORD=${SCORD:-$BUILD/bin/scord}
GPU_DIR=$BUILD/gpu
RUNS=$BUILD/gpu-runs
TSV=$OUTDIR/passthrough.tsv
LOG=$OUTDIR/passthrough.log

rm -rf "$RUNS"
mkdir -p "$RUNS" || exit 2
: >"$LOG"
failed=0

log() { printf '%s\n' "$*" >>"$LOG"; }
say() { printf '%s\n' "$*" | tee -a "$LOG"; }
now() { printf '%s' "${EPOCHREALTIME:-$(date +%s.%N)}"; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# Runs make with its output in a log of its own; on failure says so and keeps going,
# so that whatever did build still runs.
build() {
    local what=$1 logfile=$2
    shift 2
    say "build: make $* (log: $(basename "$logfile") in the runs archive)"
    if ! make "$@" >"$logfile" 2>&1; then
        say "build: FAILED: $what; last lines:"
        tail -n 30 "$logfile" | tee -a "$LOG"
        failed=1
    fi
}

# Counts the lines of the scord log and of scord's stderr that match a pattern.
count_lines() {
    local pattern=$1 base=$2
    cat "$base.scord.log" "$base.scord.err" 2>/dev/null | grep -c -E -e "$pattern"
}

# Decides whether the module lines fit the expectation (ptx>=N, unchecked>=N or
# fallback>=N): at least N lines of the expected kind and none of the others (a
# fallback line is also an unchecked line).
verdict_ok() {
    local expect=$1 ptx=$2 unchecked=$3 fallback=$4
    local kind=${expect%%>=*} min=${expect##*>=}
    case $kind in
        ptx) [ "$ptx" -ge "$min" ] && [ "$unchecked" -eq 0 ] ;;
        unchecked) [ "$unchecked" -ge "$min" ] && [ "$ptx" -eq 0 ] && [ "$fallback" -eq 0 ] ;;
        fallback) [ "$fallback" -ge "$min" ] && [ "$ptx" -eq 0 ] ;;
        *) echo "gpu_passthrough.sh: bad expectation '$expect'" >&2; return 1 ;;
    esac
}

printf 'program\tmode\tnative_rc\tscord_rc\toutput_identical\tmodule_verdict\tnative_s\tscord_s\tresult\n' >"$TSV"

# One row: the program natively, then under scord, in one loading mode.
run_row() {
    local name=$1 mode=$2 expect=$3
    local prog=$GPU_DIR/$name base=$RUNS/$name.$mode
    local -a envcmd
    case $mode in
        default) envcmd=(env -u CUDA_MODULE_LOADING) ;;
        lazy) envcmd=(env CUDA_MODULE_LOADING=LAZY) ;;
        eager) envcmd=(env CUDA_MODULE_LOADING=EAGER) ;;
        fault) envcmd=(env -u CUDA_MODULE_LOADING SCORD_FAULT=reject_ptx) ;;
        # Lazy loading defers the JIT to the first use, where a rejection can no longer
        # fall back (DESIGN.md, known limitations): the runtime's fallback is tested eagerly.
        fault-eager) envcmd=(env CUDA_MODULE_LOADING=EAGER SCORD_FAULT=reject_ptx) ;;
        *) echo "gpu_passthrough.sh: unknown mode '$mode'" >&2; return 1 ;;
    esac
    local nrc=- src=- same=- verdict=- ns=- ss=- why=''
    log ""
    log "== $name ($mode)"
    if [ "$SECONDS" -ge "$BUDGET" ]; then
        why='time-budget'
        log "not run: the script has run ${SECONDS}s, its budget is ${BUDGET}s"
    elif [ ! -x "$prog" ]; then
        why='not-built'
        log "$prog was not built: see the gpu-progs build log"
    else
        local t0 t1 t2
        t0=$(now)
        "${envcmd[@]}" timeout -k 10 "$RUN_TIMEOUT" "$prog" \
            >"$base.native.out" 2>"$base.native.err"
        nrc=$?
        t1=$(now)
        ns=$(seconds "$t0" "$t1")
        [ "$nrc" -eq 0 ] || why+='native-rc+'
        [ -s "$base.native.out" ] || why+='native-no-output+'
        if [ ! -x "$SCORD" ]; then
            why+='no-scord+'
        else
            t1=$(now)
            "${envcmd[@]}" timeout -k 10 "$RUN_TIMEOUT" "$SCORD" --verbose \
                --log-file "$base.scord.log" -- "$prog" \
                >"$base.scord.out" 2>"$base.scord.err"
            src=$?
            t2=$(now)
            ss=$(seconds "$t1" "$t2")
            [ "$src" = "$nrc" ] || why+='rc-differs+'
            if cmp -s "$base.native.out" "$base.scord.out"; then
                same=yes
            else
                same=no
                why+='output-differs+'
            fi
            local ptx unchecked fallback
            ptx=$(count_lines "$PTX_PATTERN" "$base")
            unchecked=$(count_lines "$UNCHECKED_PATTERN" "$base")
            fallback=$(count_lines "$FALLBACK_PATTERN" "$base")
            verdict="ptx=$ptx,unchecked=$unchecked,fallback=$fallback;want:$expect"
            verdict_ok "$expect" "$ptx" "$unchecked" "$fallback" || why+='module-verdict+'
            log "module lines under scord:"
            cat "$base.scord.log" "$base.scord.err" 2>/dev/null |
                grep -E -e "$PTX_PATTERN" -e "$UNCHECKED_PATTERN" | head -n 20 >>"$LOG"
        fi
        log "native: rc=$nrc ${ns}s; scord: rc=$src ${ss}s; stdout identical: $same"
    fi
    local result=pass
    if [ -n "$why" ]; then
        result="FAIL:${why%+}"
        failed=1
        if [ -e "$base.native.out" ]; then
            log "-- native stdout (first lines):"
            head -n 10 "$base.native.out" >>"$LOG"
            log "-- native stderr (last lines):"
            tail -n 10 "$base.native.err" >>"$LOG"
        fi
        if [ -e "$base.scord.out" ]; then
            log "-- diff native scord stdout (first lines):"
            diff "$base.native.out" "$base.scord.out" | head -n 20 >>"$LOG"
            log "-- scord stderr (last lines):"
            tail -n 10 "$base.scord.err" >>"$LOG"
            log "-- scord log (last lines):"
            tail -n 20 "$base.scord.log" >>"$LOG" 2>/dev/null
        fi
    fi
    log "result: $result"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$nrc" "$src" "$same" \
        "$verdict" "$ns" "$ss" "$result" >>"$TSV"
}

say "gpu_passthrough: build tree $BUILD, outputs in $OUTDIR"
build "scord (make all)" "$RUNS/build-scord.log" -j"$JOBS" BUILD="$BUILD" all
build "pass-through programs (make gpu-progs)" "$RUNS/build-gpu-progs.log" \
    -k -j"$JOBS" BUILD="$BUILD" gpu-progs
[ -x "$SCORD" ] || say "gpu_passthrough: $SCORD does not exist: every row fails (no-scord)"

while read -r name modes expect; do
    [ -n "$name" ] || continue
    IFS=, read -r -a mode_list <<<"$modes"
    for mode in "${mode_list[@]}"; do
        run_row "$name" "$mode" "$expect"
    done
done <<<"$PROGRAMS"

tar -czf "$OUTDIR/passthrough-runs.tar.gz" -C "$(dirname "$RUNS")" "$(basename "$RUNS")" ||
    { say "gpu_passthrough: could not write the runs archive"; failed=1; }

rows=$(($(wc -l <"$TSV") - 1))
passed=$(awk -F'\t' 'NR > 1 && $9 == "pass"' "$TSV" | wc -l)
echo
awk -F'\t' '{ printf "%-18s %-7s %-6s %-6s %-9s %-36s %-8s %-8s %s\n",
              $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$TSV"
say "gpu_passthrough: $passed of $rows rows passed"
exit "$failed"
