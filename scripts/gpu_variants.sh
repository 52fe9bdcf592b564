#!/usr/bin/env bash
# scripts/gpu_variants.sh: one program of the race suite or of the real-programs corpus
# under several builds of scord at once, on one GPU: this tree's and each VARIANT.tar's
# (a `git archive` of a commit, or a tarball of a tree with a change in it). The
# program is built once, from this tree; race_suite.py runs it natively and under each
# scord, all builds at the same time, with its time limit and, for a run that passes
# it, cuda-gdb's reading (<program>.scord.hang.txt in the logs). For running the parts
# of a change apart: the quick hook's read-group hang took six variants of one CUB
# program (results/2026-11-29-quick-groups-hang-h200.md).
#
# Usage: scripts/gpu_variants.sh OUTDIR PROGRAM [VARIANT.tar...]
# Writes OUTDIR/variants.md (one row per build: race_suite.py's row for the program)
# and OUTDIR/variants-logs.tar.gz (each build's race_suite.json and run logs). Exits 1
# when a build failed or a row did not pass, 2 on bad usage.
# Environment: TIMEOUT (seconds per run, default 120), JOBS (make -j, default 16).
set -u -o pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 OUTDIR PROGRAM [VARIANT.tar...]" >&2
    exit 2
fi
mkdir -p "$1" || exit 2
OUTDIR=$(cd "$1" && pwd)
PROGRAM=$2
shift 2
tars=()
for t in "$@"; do
    [ -s "$t" ] || { echo "$0: no tarball $t" >&2; exit 2; }
    tars+=("$(cd "$(dirname "$t")" && pwd)/$(basename "$t")")
done
cd "$(dirname "$0")/.." || exit 2
TIMEOUT=${TIMEOUT:-120}
JOBS=${JOBS:-16}

suite_args=()
if [ -f "tests/real/$PROGRAM.cu" ] || [ -f "tests/real/$PROGRAM.py" ]; then
    suite_args=(--suite-dir tests/real --warnings-apart)
    target=build/real/$PROGRAM
elif [ -f "tests/races/$PROGRAM.cu" ]; then
    target=build/races/$PROGRAM
else
    echo "$0: no program $PROGRAM in tests/real or tests/races" >&2
    exit 2
fi
[ -f "tests/real/$PROGRAM.py" ] && target=

work=$(mktemp -d /tmp/scord-variants.XXXXXX)
failed=0
names=(this) trees=(.)
for i in "${!tars[@]}"; do
    names+=("$(basename "${tars[$i]}" .tar)") trees+=("$work/v$i")
    mkdir -p "$work/v$i" && tar -xf "${tars[$i]}" -C "$work/v$i" || exit 1
done
per_build=$((JOBS / ${#trees[@]} > 0 ? JOBS / ${#trees[@]} : 1))
for i in "${!trees[@]}"; do
    extra=()
    [ "$i" -eq 0 ] && [ -n "$target" ] && extra=("$target")
    (make -C "${trees[$i]}" -j"$per_build" BUILD=build all "${extra[@]}" >"$work/build-$i.log" 2>&1 ||
        { echo "build of ${names[$i]} failed; last lines:"; tail -n 20 "$work/build-$i.log"; }) &
done
wait
for i in "${!trees[@]}"; do
    if [ ! -x "${trees[$i]}/build/bin/scord" ]; then
        tail -n 20 "$work/build-$i.log"
        failed=1
    fi
done

mkdir -p "$work/runs"
for i in "${!trees[@]}"; do
    [ -x "${trees[$i]}/build/bin/scord" ] || continue
    PYTHONUNBUFFERED=1 python3 scripts/race_suite.py "${suite_args[@]}" --build-dir build \
        --scord "${trees[$i]}/build/bin/scord" --out "$work/runs/${names[$i]}" --timeout "$TIMEOUT" --jobs 1 \
        --tsv "$work/runs/${names[$i]}.tsv" "$PROGRAM" >"$work/runs-${names[$i]}.log" 2>&1 &
done
wait

{
    echo "# $PROGRAM under $((${#trees[@]})) builds of scord: $(nvidia-smi --query-gpu=name,driver_version \
        --format=csv,noheader 2>/dev/null | head -1), $(date -u +%FT%TZ), TIMEOUT=$TIMEOUT"
    echo
    echo "| build | row (program, category, expect, scord, racecheck, output, result) |"
    echo "|---|---|"
    for name in "${names[@]}"; do
        row=$(tail -n +2 "$work/runs/$name.tsv" 2>/dev/null | head -1)
        echo "| $name | ${row:-no row: see runs-$name.log} |"
        case $row in *$'\t'pass) ;; *) failed=1 ;; esac
    done
} >"$OUTDIR/variants.md"
tar -czf "$OUTDIR/variants-logs.tar.gz" -C "$work" runs $(cd "$work" && ls runs-*.log build-*.log)
rm -rf "$work"
cat "$OUTDIR/variants.md"
exit "$failed"
