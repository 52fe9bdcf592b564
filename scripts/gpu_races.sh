#!/usr/bin/env bash
# scripts/gpu_races.sh: on a GPU machine, runs the race suite of tests/races natively,
# under scord and under compute-sanitizer racecheck (scripts/race_suite.py, several
# programs at once), and the bundled example under scord, whose report must name the
# races tagged in examples/racy_histogram.cu.
#
# Usage: scripts/gpu_races.sh OUTDIR
# Writes OUTDIR/races.tsv (one row per race-suite program, then the rows `example` and
# `processes`: one process per GPU, see processes_row),
# OUTDIR/races.log (build narrative, every program's status, the misses and false
# alarms, the example's report) and OUTDIR/races-runs.tar.gz (race_suite.json,
# race_suite.md, every run's stdout, stderr, scord JSON and racecheck log, the
# example's, and the build log). Runs every row whatever fails before it; exits 1 if any
# row or the build failed, 2 on bad usage.
# Environment: BUILD (build tree, default build), JOBS (make -j, default 16), RACE_JOBS
# (programs run at once, default 8), RACE_TIMEOUT (seconds per program run, default 150),
# RACES_BUDGET (seconds from this script's start after which no program or run starts,
# default 300; the script then ends within about RACE_TIMEOUT more), SCORD (default
# $BUILD/bin/scord).
set -u -o pipefail

EXAMPLE_SOURCE=examples/racy_histogram.cu
# race_suite.py's TSV_COLUMNS, for a TSV it did not write.
TSV_HEADER=$'program\tcategory\texpect\tscord\tracecheck\toutput\tresult'

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
mkdir -p "$1" || exit 2
OUTDIR=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
JOBS=${JOBS:-16}
RACE_JOBS=${RACE_JOBS:-8}
RACE_TIMEOUT=${RACE_TIMEOUT:-150}
RACES_BUDGET=${RACES_BUDGET:-300}
SCORD=${SCORD:-$BUILD/bin/scord}
EXAMPLE=$BUILD/examples/racy_histogram
RUNS=$BUILD/races-runs
TSV=$OUTDIR/races.tsv
LOG=$OUTDIR/races.log

rm -rf "$RUNS"
mkdir -p "$RUNS" || exit 2
: >"$LOG"
failed=0

log() { printf '%s\n' "$*" >>"$LOG"; }
say() { printf '%s\n' "$*" | tee -a "$LOG"; }

say "gpu_races: build tree $BUILD, outputs in $OUTDIR, budget ${RACES_BUDGET}s"

# One make for scord, the suite and the example, so that they build side by side; -k so
# that whatever did build still runs.
say "build: make -k -j$JOBS all race-suite $EXAMPLE (log: build.log in the runs archive)"
if ! make -k -j"$JOBS" BUILD="$BUILD" all race-suite "$EXAMPLE" >"$RUNS/build.log" 2>&1; then
    say "build: FAILED; last lines:"
    tail -n 30 "$RUNS/build.log" | tee -a "$LOG"
    failed=1
fi
say "build: done after ${SECONDS}s"

# ---- The bundled example under scord: its report against the example's race tags.
example_row() {
    local expect verdict=- why=''
    expect=$(sed -n 's|^// SCORD-EXPECT: *\([0-9][0-9]*\) race.*|\1|p' "$EXAMPLE_SOURCE")
    log ""
    log "== example: $SCORD $EXAMPLE"
    if [ "$SECONDS" -ge "$RACES_BUDGET" ]; then
        why='time-budget'
    elif [ ! -x "$EXAMPLE" ]; then
        why='not-built'
    elif [ ! -x "$SCORD" ]; then
        why='no-scord'
    else
        local base=$RUNS/example rc
        timeout -k 10 "$RACE_TIMEOUT" "$SCORD" --json-file "$base.scord.json" -- "$EXAMPLE" \
            >"$base.stdout" 2>"$base.stderr"
        rc=$?
        log "scord: rc=$rc; stdout: $(head -n 1 "$base.stdout")"
        log "-- scord's summary lines:"
        grep -E '^(SUMMARY|scord:)' "$base.stderr" >>"$LOG"
        [ "$rc" -eq 0 ] || why="scord rc $rc; "
        local matched=yes
        python3 scripts/race_suite.py --match-report "$base.scord.json" \
            --source "$EXAMPLE_SOURCE" >"$base.match" 2>&1 || matched=no
        verdict=$(head -n 1 "$base.match")
        log "-- the report against the tags of $EXAMPLE_SOURCE:"
        cat "$base.match" >>"$LOG"
        [ "$matched" = yes ] || why+="report: $verdict; "
        why=${why%; }
    fi
    local result=${why:-pass}
    [ "$result" = pass ] || failed=1
    log "result: $result"
    EXAMPLE_LINE=$(printf 'example\t-\t%s\t%s\t-\t-\t%s' "$expect" "$verdict" "$result")
}
example_row

# ---- One process per GPU (issue 23): two race programs started by a shell under one
# scord run, each with a GPU of its own (the machine's first and last; one GPU serves
# both), each writing its JSON file (%p): both must be checked, with their own races.
processes_row() {
    local verdict=- why='' base=$RUNS/processes
    local one=$BUILD/races/global_lost_update_race two=$BUILD/races/global_devices_threads_race
    local gpus
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    [ "$gpus" -ge 1 ] 2>/dev/null || gpus=1
    log ""
    log "== processes: $one on GPU 0 and $two on GPU $((gpus - 1)), under one scord run"
    if [ "$SECONDS" -ge "$RACES_BUDGET" ]; then
        why='time-budget'
    elif [ ! -x "$one" ] || [ ! -x "$two" ]; then
        why='not-built'
    elif [ ! -x "$SCORD" ]; then
        why='no-scord'
    else
        rm -f "$base".*.json
        timeout -k 10 "$RACE_TIMEOUT" "$SCORD" --json-file "$base.%p.json" -- bash -c \
            'CUDA_VISIBLE_DEVICES=0 "$1" & CUDA_VISIBLE_DEVICES="$3" "$2"; wait' \
            sh "$one" "$two" "$((gpus - 1))" >"$base.stdout" 2>"$base.stderr"
        local rc=$?
        grep -E '^(SUMMARY|scord:)' "$base.stderr" >>"$LOG"
        [ "$rc" -eq 0 ] || why="scord rc $rc; "
        # Each program's process wrote a file of its own with its races: 2 and 4.
        verdict=$(python3 - "$base" <<'PY'
import glob, json, sys
counts = sorted(len(json.load(open(f)).get("races", [])) for f in glob.glob(sys.argv[1] + ".*.json"))
print("+".join(str(c) for c in counts if c) or "none")
PY
)
        log "races per process file: $verdict"
        [ "$verdict" = "2+4" ] || why+="races per process $verdict, not 2+4"
        why=${why%; }
    fi
    local result=${why:-pass}
    [ "$result" = pass ] || failed=1
    log "result: $result"
    PROCESSES_LINE=$(printf 'processes\t-\t2+4\t%s\t-\t-\t%s' "$verdict" "$result")
}
processes_row

# ---- The race suite. race_suite.py writes the TSV; it exits 1 when a program fails,
# and only a missing TSV means it wrote no results at all.
left=$((RACES_BUDGET - SECONDS))
[ "$left" -gt 0 ] || left=0
say ""
say "race suite: --jobs $RACE_JOBS --timeout $RACE_TIMEOUT --budget $left"
rm -f "$TSV"
PYTHONUNBUFFERED=1 python3 scripts/race_suite.py --build-dir "$BUILD" --out "$RUNS/suite" \
    --scord "$SCORD" --racecheck --jobs "$RACE_JOBS" --timeout "$RACE_TIMEOUT" \
    --budget "$left" --tsv "$TSV" 2>&1 | tee -a "$LOG"
suite_rc=$?
if [ ! -s "$TSV" ]; then
    say "gpu_races: race_suite.py wrote no results (exit $suite_rc)"
    printf '%s\n' "$TSV_HEADER" >"$TSV"
    printf 'race_suite\t-\t-\t-\t-\t-\tno results (race_suite.py exit %s; see races.log)\n' \
        "$suite_rc" >>"$TSV"
fi
if [ -s "$RUNS/suite/race_suite.md" ]; then
    log ""
    sed -n '/^## Misses and false alarms/,$p' "$RUNS/suite/race_suite.md" >>"$LOG"
fi
printf '%s\n' "$EXAMPLE_LINE" "$PROCESSES_LINE" >>"$TSV"

tar -czf "$OUTDIR/races-runs.tar.gz" -C "$(dirname "$RUNS")" "$(basename "$RUNS")" ||
    { say "gpu_races: could not write the runs archive"; failed=1; }

rows=$(($(wc -l <"$TSV") - 1))
passed=$(awk -F'\t' 'NR > 1 && $NF == "pass"' "$TSV" | wc -l)
[ "$passed" -eq "$rows" ] || failed=1
say ""
say "example: $(tail -n 2 "$TSV" | head -n 1 | cut -f 4,7)"
say "processes: $(tail -n 1 "$TSV" | cut -f 4,7)"
say "gpu_races: $passed of $rows rows passed after ${SECONDS}s"
exit "$failed"
