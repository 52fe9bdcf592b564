#!/usr/bin/env bash
# scripts/gpu_bench.sh: the benchmark section of gpu_all.sh, on a GPU machine: builds
# scord and the workloads of bench/workloads, and runs scripts/bench.py, which times
# each workload natively, under scord and under compute-sanitizer racecheck
# (docs/benchmark.md).
#
# Usage: scripts/gpu_bench.sh OUTDIR
# Writes OUTDIR/bench.tsv (one row per workload and a geomean row, last column
# `result`), OUTDIR/bench.log (build narrative, the runs, the table, the bars and the
# notes) and OUTDIR/bench-runs.tar.gz (bench.md, bench.json, every run's output, scord's
# JSON reports, racecheck's logs and the build logs). Runs every workload whatever
# fails before it; exits 1 if a build or a row failed, 2 on bad usage.
# Environment: BUILD (build tree, default build), JOBS (make -j, default 16), SCORD
# (default $BUILD/bin/scord), BENCH_TIMEOUT (seconds per run, default 200; a racecheck
# run stopped by it counts as a lower bound), BENCH_BUDGET (seconds the section may take
# from its start to its end, builds included, default 240; gpu_all.sh sets it: a run
# gets what is left if that is less than its timeout, and rows whose runs could not
# start in time fail as `time-budget`).
set -u -o pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
mkdir -p "$1" || exit 2
OUTDIR=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
JOBS=${JOBS:-16}
SCORD=${SCORD:-$BUILD/bin/scord}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-200}
BENCH_BUDGET=${BENCH_BUDGET:-240}
# Kept at the end for the table, the copies and the archive.
FINISH_S=5
RUNS=$BUILD/bench-runs
TSV=$OUTDIR/bench.tsv
LOG=$OUTDIR/bench.log
START=$SECONDS

rm -rf "$RUNS"
mkdir -p "$RUNS" || exit 2
: >"$LOG"
failed=0

say() { printf '%s\n' "$*" | tee -a "$LOG"; }

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

say "gpu_bench: build tree $BUILD, outputs in $OUTDIR"
build "scord (make all)" "$RUNS/build-scord.log" -j"$JOBS" BUILD="$BUILD" all
build "workloads (make bench-progs)" "$RUNS/build-bench-progs.log" \
    -k -j"$JOBS" BUILD="$BUILD" bench-progs

# What is left of the budget once the builds are done goes to the runs; with nothing
# left, bench.py starts no run and every row says time-budget.
left=$((BENCH_BUDGET - (SECONDS - START) - FINISH_S))
say "gpu_bench: scripts/bench.py with ${left}s of the ${BENCH_BUDGET}s budget, ${BENCH_TIMEOUT}s per run"
PYTHONUNBUFFERED=1 python3 scripts/bench.py --build-dir "$BUILD" --scord "$SCORD" \
    --out "$RUNS" --timeout "$BENCH_TIMEOUT" --budget "$left" 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || failed=1

if [ -s "$RUNS/bench.tsv" ]; then
    cp "$RUNS/bench.tsv" "$TSV" || failed=1
else
    # gpu_all.sh reads the section's rows from its TSV: say why there are none.
    say "gpu_bench: scripts/bench.py wrote no bench.tsv (exit $rc)"
    printf 'workload\tresult\nall\tFAIL:bench.py-exit-%s\n' "$rc" >"$TSV"
    failed=1
fi
if [ -s "$RUNS/bench.md" ]; then
    { echo; cat "$RUNS/bench.md"; } >>"$LOG"
fi

tar -czf "$OUTDIR/bench-runs.tar.gz" -C "$(dirname "$RUNS")" "$(basename "$RUNS")" ||
    { say "gpu_bench: could not write the runs archive"; failed=1; }
say "gpu_bench: finished in $((SECONDS - START))s, exit $failed"
exit "$failed"
