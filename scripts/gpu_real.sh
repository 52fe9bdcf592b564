#!/usr/bin/env bash
# scripts/gpu_real.sh: on a GPU machine, runs the real-programs corpus of tests/real
# natively and under scord (scripts/race_suite.py --suite-dir tests/real --warnings-apart):
# output identical, no crash, no hang, no false alarm at error level (warnings are
# listed, not failed), every injected race found.
#
# Usage: scripts/gpu_real.sh OUTDIR
# Writes OUTDIR/real.tsv (one row per program), OUTDIR/real.summary (the corpus's line:
# real programs: N of M passed, F false alarms, C crashes, H hangs, R of E races found),
# OUTDIR/real.log and
# OUTDIR/real-runs.tar.gz (race_suite.json and .md, every run's stdout, stderr and scord
# JSON, the build log). Exits 1 if any row or the build failed, 2 on bad usage.
# Environment: BUILD (default build), JOBS (make -j, default 16), REAL_JOBS (programs run
# at once, default 4), REAL_TIMEOUT (seconds per run, default 240: the grid.sync()
# reduction takes about 116 s under scord, 0.8 s natively), REAL_BUDGET (seconds after
# which no run starts, default 300), SCORD (default $BUILD/bin/scord), REAL_PROGRAMS
# (names of tests/real programs, separated by commas or spaces: only those are built and
# run; default all), e.g. to rerun one program that failed in a minute.
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
REAL_JOBS=${REAL_JOBS:-4}
REAL_TIMEOUT=${REAL_TIMEOUT:-240}
REAL_BUDGET=${REAL_BUDGET:-300}
SCORD=${SCORD:-$BUILD/bin/scord}
RUNS=$BUILD/real-runs
TSV=$OUTDIR/real.tsv
LOG=$OUTDIR/real.log

rm -rf "$RUNS"
mkdir -p "$RUNS" || exit 2
: >"$LOG"
failed=0
say() { printf '%s\n' "$*" | tee -a "$LOG"; }

say "gpu_real: build tree $BUILD, outputs in $OUTDIR, budget ${REAL_BUDGET}s"
read -r -a programs <<<"$(echo "${REAL_PROGRAMS:-}" | tr ',' ' ')"
targets=(real-programs)
[ "${#programs[@]}" -eq 0 ] || targets=("${programs[@]/#/$BUILD/real/}")
if ! make -k -j"$JOBS" BUILD="$BUILD" all "${targets[@]}" >"$RUNS/build.log" 2>&1; then
    say "build: FAILED; last lines:"
    tail -n 30 "$RUNS/build.log" | tee -a "$LOG"
    failed=1
fi
say "build: done after ${SECONDS}s"

left=$((REAL_BUDGET - SECONDS))
[ "$left" -gt 0 ] || left=0
rm -f "$TSV"
PYTHONUNBUFFERED=1 python3 scripts/race_suite.py --suite-dir tests/real --warnings-apart --build-dir "$BUILD" \
    --out "$RUNS/suite" --scord "$SCORD" --jobs "$REAL_JOBS" --timeout "$REAL_TIMEOUT" \
    --budget "$left" --tsv "$TSV" --corpus-line "$OUTDIR/real.summary" "${programs[@]}" 2>&1 | tee -a "$LOG"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
if [ ! -s "$TSV" ]; then
    say "gpu_real: race_suite.py wrote no results"
    printf 'program\tresult\nrace_suite\tno results (see real.log)\n' >"$TSV"
    failed=1
fi
if [ -s "$RUNS/suite/race_suite.md" ]; then
    sed -n '/^## Misses and false alarms/,$p' "$RUNS/suite/race_suite.md" >>"$LOG"
fi
tar -czf "$OUTDIR/real-runs.tar.gz" -C "$(dirname "$RUNS")" "$(basename "$RUNS")" ||
    { say "gpu_real: could not write the runs archive"; failed=1; }
[ -s "$OUTDIR/real.summary" ] && say "$(cat "$OUTDIR/real.summary")"
say "gpu_real: $(awk -F'\t' 'NR > 1 && $NF == "pass"' "$TSV" | wc -l) of $(($(wc -l <"$TSV") - 1)) rows passed after ${SECONDS}s"
exit "$failed"
