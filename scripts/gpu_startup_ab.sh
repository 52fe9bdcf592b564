#!/usr/bin/env bash
# scripts/gpu_startup_ab.sh: scord's start-up, before and after, in one lease. Builds
# this tree and the tree of a `git archive` tarball of an earlier commit, then times
# whole small programs (the bundled example, three bench workloads with one pipeline
# run) natively, under each scord with no module cache (every module compiled), and
# with a warm cache (a second run on a populated --cache-dir). One run each: wall
# milliseconds, and the exit codes, which must be 0.
#
# Usage: scripts/gpu_startup_ab.sh BASE.tar OUTDIR   (writes OUTDIR/startup.txt)
# Environment: JOBS (make -j, default 16).
set -u -o pipefail
if [ $# -ne 2 ] || [ ! -s "$1" ]; then
    echo "usage: $0 BASE.tar OUTDIR" >&2
    exit 2
fi
BASE_TAR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2" || exit 2
OUTF=$(cd "$2" && pwd)/startup.txt
cd "$(dirname "$0")/.." || exit 2
JOBS=${JOBS:-16}
base=$(mktemp -d /tmp/scord-startup-base.XXXXXX)
tar -xf "$BASE_TAR" -C "$base" || exit 1
make -j"$JOBS" BUILD=build all bench-progs build/examples/racy_histogram >/tmp/startup-new-build.log 2>&1 ||
    { tail -n 20 /tmp/startup-new-build.log; exit 1; }
make -C "$base" -j"$JOBS" BUILD=build all >/tmp/startup-base-build.log 2>&1 ||
    { tail -n 20 /tmp/startup-base-build.log; exit 1; }

# "MS RC" of one run of the command.
ms() {
    local s e rc
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    rc=$?
    e=$(date +%s%N)
    echo "$(((e - s) / 1000000)) $rc"
}

progs=("build/examples/racy_histogram" "build/bench/reduce_block --iters 1 --warmup 0"
       "build/bench/sgemm_cp_async --iters 1 --warmup 0" "build/bench/transpose_mbarrier --iters 1 --warmup 0")
printf '%-24s %8s %9s %9s %9s %9s  %s\n' program native base_cold new_cold base_warm new_warm \
    "exit codes (native base cold/warm new cold/warm)" >"$OUTF"
for p in "${progs[@]}"; do
    read -r -a cmd <<<"$p"
    nat=$(ms "${cmd[@]}")
    row=()
    for scord in "$base/build/bin/scord" build/bin/scord; do
        cache=$(mktemp -d /tmp/scord-startup-cache.XXXXXX)
        row+=("$(ms "$scord" --no-cache "${cmd[@]}")")
        ms "$scord" --cache-dir "$cache" "${cmd[@]}" >/dev/null
        row+=("$(ms "$scord" --cache-dir "$cache" "${cmd[@]}")")
        rm -rf "$cache"
    done
    printf '%-24s %8s %9s %9s %9s %9s  %s\n' "${cmd[0]##*/}" "${nat% *}" "${row[0]% *}" "${row[2]% *}" \
        "${row[1]% *}" "${row[3]% *}" "${nat#* } ${row[0]#* }/${row[1]#* } ${row[2]#* }/${row[3]#* }" >>"$OUTF"
done
cat "$OUTF"
