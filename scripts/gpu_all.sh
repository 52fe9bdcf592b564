#!/usr/bin/env bash
# scripts/gpu_all.sh: the one script run on the GPU machine. Records the environment,
# runs every GPU section, and leaves in $OUT (default ./gpu-out) a few flat files that
# come back from the machine, among them results-<date>.md, ready to commit under results/.
#
# Usage: bash scripts/gpu_all.sh            (from anywhere; OUT=DIR to choose the folder)
# Each section NAME is one script that writes NAME.tsv (one row per check, last column
# `result`: "pass" or why not), NAME.log and optionally NAME.summary (a line the results
# file prints after the section's table) and NAME-*.tar.gz into $OUT. Only 8
# files, in no folders, come back from the machine, so $OUT ends as env.txt,
# gpu_all.log (this console output), results-<date>.md, one NAME.tsv per section and
# logs-<date>.tar.gz holding every section's log and archives. Exits 1 if any section failed.
# A section whose script does not exist yet is skipped, and says so.
# The GPU machine allows 10 minutes a command, so the run ends within DEADLINE seconds:
# each section gets a budget (after it, it starts nothing new) from the time left.
# Environment: OUT, BUILD (build tree, default build), JOBS (make -j, default 16),
# DEADLINE (default 560), PASSTHROUGH_BUDGET (default 120), RACE_TIMEOUT (seconds per
# race-suite run, default 150), BENCH_RESERVE (seconds the races leave for the bench,
# default 270), ONLY (section names to run, default all); docs/testing-gpu.md has the
# arithmetic.
set -u -o pipefail

cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd) || exit 2
export BUILD=${BUILD:-build}
export JOBS=${JOBS:-16}
DEADLINE=${DEADLINE:-560}
PASSTHROUGH_BUDGET=${PASSTHROUGH_BUDGET:-120}
RACE_TIMEOUT=${RACE_TIMEOUT:-150}
BENCH_RESERVE=${BENCH_RESERVE:-270}
# Sections to run, by name (default all): a run of every section may not fit in one
# 10-minute command, so the sections can be run in two commands.
ONLY=${ONLY:-}
# Kept at the end for the results file, the logs archive and the summary.
FINISH_S=15
DATE=$(date -u +%Y-%m-%d)
RESULTS=$OUT/results-$DATE.md
LOGS=logs-$DATE.tar.gz
SECTIONS=()
SKIPPED=()

# The commit under test: whoever copies the tree to the GPU machine writes its commit id
# into a file COMMIT at its root (untracked), which wins over a .git there: the lent
# machine can keep the .git of an earlier copy (seen: a run of 7be5c5a's tree labelled
# with the session's first commit "plus uncommitted changes").
commit_id() {
    if [ -s COMMIT ]; then
        echo "$(head -n 1 COMMIT) (from the COMMIT file)"
    elif [ -e .git ] && command -v git >/dev/null 2>&1 && git rev-parse HEAD >/dev/null 2>&1; then
        local dirty=''
        [ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=' (plus uncommitted changes)'
        echo "$(git rev-parse HEAD)$dirty"
    else
        echo "unknown (no git checkout and no COMMIT file)"
    fi
}

# The output of a command, or why there is none; never stops the run.
probe() {
    local out
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "$1 not found"
    elif ! out=$("$@" 2>&1); then
        echo "$1 failed: $(printf '%s' "$out" | head -n 1)"
    else
        printf '%s\n' "$out"
    fi
}

# The part of a probe's output that matches an extended regex, else its first line.
probe_match() {
    local pattern=$1 out line
    shift
    out=$(probe "$@")
    line=$(printf '%s\n' "$out" | grep -o -i -m 1 -E -e "$pattern") ||
        line=$(printf '%s\n' "$out" | head -n 1)
    echo "$line"
}

write_env() {
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "commit: $(commit_id)"
        probe nvidia-smi --query-gpu=index,name,compute_cap,memory.total,driver_version \
            --format=csv,noheader | sed 's/^/gpu: /'
        echo "driver: $(probe_match 'CUDA Version: [0-9.]+' nvidia-smi)"
        echo "nvcc: $(probe_match 'release [0-9.]+, V[0-9.]+' nvcc --version)"
        echo "compute-sanitizer: $(probe_match 'Version [0-9.]+' compute-sanitizer --version)"
        echo "host: $(uname -srm), $(nproc) CPUs"
        # Options every scord run of the job takes from the environment (--quick, ...).
        echo "scord options: ${SCORD_OPTIONS:-(defaults)}"
        # A real-programs section narrowed to some programs says so.
        [ -z "${REAL_PROGRAMS:-}" ] || echo "real programs run: only ${REAL_PROGRAMS}"
    } >"$OUT/env.txt"
    cat "$OUT/env.txt"
}

# One section: a script of its own, writing its files into $OUT.
run_section() {
    local name=$1
    shift
    echo
    echo "==== section $name: $*"
    local t0=$SECONDS rc=0
    "$@" || rc=$?
    SECTIONS+=("$name $rc $((SECONDS - t0))")
}

# A section run by a script of scripts/ given $OUT and, in its environment, the
# VAR=VALUE arguments; skipped, with a line saying so, while the script does not exist.
run_script_section() {
    local name=$1 script=$2
    shift 2
    if [ ! -f "$script" ]; then
        echo
        echo "==== section $name: skipped: $script does not exist"
        SKIPPED+=("$name: $script does not exist")
        return 0
    fi
    if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]]; then
        echo
        echo "==== section $name: skipped: not in ONLY ($ONLY)"
        SKIPPED+=("$name: not in ONLY ($ONLY)")
        return 0
    fi
    run_section "$name" env "$@" bash "$script" "$OUT"
}

# Seconds left until the deadline, less the reserves named (never below 0).
seconds_left() {
    local left=$((DEADLINE - (SECONDS - T0) - FINISH_S)) reserve
    for reserve in "$@"; do
        left=$((left - reserve))
    done
    echo $((left > 0 ? left : 0))
}

# "N of M rows passed" from a section's TSV.
tsv_summary() {
    local tsv=$OUT/$1.tsv
    if [ ! -s "$tsv" ]; then
        echo "no $1.tsv written"
        return
    fi
    awk -F'\t' 'NR > 1 { n++; if ($NF == "pass") p++ }
                END { printf "%d of %d rows passed\n", p, n }' "$tsv"
}

tsv_to_markdown() {
    awk -F'\t' '{ line = "|"; for (i = 1; i <= NF; i++) line = line " " $i " |"; print line
                  if (NR == 1) { line = "|"; for (i = 1; i <= NF; i++) line = line " --- |"; print line } }' "$1"
}

write_results() {
    {
        echo "# scord GPU results, $DATE"
        echo
        echo "Produced by \`bash scripts/gpu_all.sh\`; the raw files are env.txt and one TSV per section."
        echo
        echo "## Environment"
        echo
        echo '```text'
        cat "$OUT/env.txt"
        echo '```'
        echo
        echo "## Sections"
        echo
        echo "| section | exit code | seconds | rows |"
        echo "| --- | --- | --- | --- |"
        local s name rc secs
        for s in "${SECTIONS[@]}"; do
            read -r name rc secs <<<"$s"
            echo "| $name | $rc | $secs | $(tsv_summary "$name") |"
        done
        for s in "${SKIPPED[@]}"; do
            echo "| ${s%%:*} | skipped | - | ${s#*: } |"
        done
        for s in "${SECTIONS[@]}"; do
            read -r name rc secs <<<"$s"
            [ -s "$OUT/$name.tsv" ] || continue
            echo
            echo "## $name"
            echo
            tsv_to_markdown "$OUT/$name.tsv"
            if [ -s "$OUT/$name.summary" ]; then
                echo
                cat "$OUT/$name.summary"
            fi
        done
    } >"$RESULTS"
}

# Moves each section's log, summary line and archives into one archive, keeping $OUT small.
bundle_logs() {
    local s name rc secs f files=()
    for s in "${SECTIONS[@]}"; do
        read -r name rc secs <<<"$s"
        for f in "$OUT/$name.log" "$OUT/$name.summary" "$OUT/$name"-*.tar.gz; do
            [ -e "$f" ] && files+=("$(basename "$f")")
        done
    done
    [ "${#files[@]}" -gt 0 ] || return 0
    if tar -czf "$OUT/$LOGS" -C "$OUT" "${files[@]}"; then
        (cd "$OUT" && rm -f -- "${files[@]}")
    else
        echo "gpu_all: could not write $OUT/$LOGS; the logs stay as they are"
    fi
}

print_summary() {
    echo
    echo "==== summary ($DATE, commit $(commit_id), scord options ${SCORD_OPTIONS:-(defaults)})"
    printf '%-14s %-5s %-8s %s\n' section rc seconds rows
    local s name rc secs failed=0
    for s in "${SECTIONS[@]}"; do
        read -r name rc secs <<<"$s"
        printf '%-14s %-5s %-8s %s\n' "$name" "$rc" "$secs" "$(tsv_summary "$name")"
        [ "$rc" -eq 0 ] || failed=1
        [ -s "$OUT/$name.tsv" ] && awk -F'\t' -v s="$name" 'NR > 1 && $NF != "pass" {
            printf "  %s: %s %s: %s\n", s, $1, $2, $NF }' "$OUT/$name.tsv"
    done
    for s in "${SKIPPED[@]}"; do
        printf '%-14s skipped: %s\n' "${s%%:*}" "${s#*: }"
    done
    echo "results: $RESULTS (copy to results/ to commit); logs: $OUT/$LOGS"
    return "$failed"
}

main() {
    T0=$SECONDS
    echo "==== gpu_all: $(pwd), outputs in $OUT, deadline ${DEADLINE}s"
    write_env

    # env.txt, gpu_all.log, the results file, the logs archive and one TSV per
    # section (four sections) are the files that come back.

    # ---- Foundation (issue 2): every pass-through program natively and under scord
    # (about 60 s on an H100, builds included). A row in flight at the budget takes at
    # most two RUN_TIMEOUTs more.
    run_script_section passthrough scripts/gpu_passthrough.sh BUDGET="$PASSTHROUGH_BUDGET"

    # ---- The race suite natively, under scord and under racecheck, and the example
    # (issue 4). It leaves the bench its reserve, and the run in flight when its budget
    # ends one RACE_TIMEOUT.
    local bench_reserve=0
    [ -f scripts/gpu_bench.sh ] && { [ -z "$ONLY" ] || [[ " $ONLY " == *" bench "* ]]; } &&
        bench_reserve=$BENCH_RESERVE
    run_script_section races scripts/gpu_races.sh RACE_TIMEOUT="$RACE_TIMEOUT" \
        RACES_BUDGET="$(seconds_left "$bench_reserve" "$RACE_TIMEOUT")"

    # ---- The real-programs corpus (issue 22) natively and under scord: about two
    # minutes on an H100, builds included. Run alone with ONLY=real when the races
    # and the bench fill the command.
    run_script_section real scripts/gpu_real.sh REAL_BUDGET="$(seconds_left "$bench_reserve")"

    # ---- The benchmarks (about 4 minutes): BENCH_BUDGET is the seconds the section
    # may take, from its start to its end.
    run_script_section bench scripts/gpu_bench.sh BENCH_BUDGET="$(seconds_left)"

    write_results
    bundle_logs
    print_summary
}

main 2>&1 | tee "$OUT/gpu_all.log"
exit "${PIPESTATUS[0]}"
