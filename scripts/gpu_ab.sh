#!/usr/bin/env bash
# scripts/gpu_ab.sh: before and after in one lease. Builds scord twice on the GPU
# machine, from this tree and from a tarball of an earlier commit's tree (`git archive`),
# and times the bench workloads natively and under each (scripts/bench.py, no
# racecheck), one workload after another, so that both run on the same card in the
# same minutes. Prints a table of scord's kernel time per workload, before and after,
# and the speedup; docs/benchmark.md, "Before and after".
#
# Usage: scripts/gpu_ab.sh BASE.tar OUTDIR
#   BASE.tar  `git archive <commit>` of the tree to compare against
# Writes OUTDIR/ab.md (the table), OUTDIR/ab-base.tsv and OUTDIR/ab-new.tsv (bench.py's
# rows for each). Environment: BUILD (this tree's build, default build), JOBS (default
# 16), ITERS (timed pipelines per run, default 3), ONLY_WORKLOADS (bench.py --only),
# AB_BUDGET (seconds for the runs of each side, default 200), BASE_OPTIONS and
# NEW_OPTIONS (scord options for one side only, as SCORD_OPTIONS takes them: with
# `git archive HEAD` as the base, BASE_OPTIONS=quick=false times the default against
# the same tree with one option off).
set -u -o pipefail

if [ $# -ne 2 ] || [ ! -s "$1" ]; then
    echo "usage: $0 BASE.tar OUTDIR" >&2
    exit 2
fi
BASE_TAR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2" || exit 2
OUTDIR=$(cd "$2" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
JOBS=${JOBS:-16}
ITERS=${ITERS:-3}
AB_BUDGET=${AB_BUDGET:-200}
BASE_TREE=$(mktemp -d /tmp/scord-ab-base.XXXXXX)
only=()
[ -z "${ONLY_WORKLOADS:-}" ] || only=(--only "$ONLY_WORKLOADS")

tar -xf "$BASE_TAR" -C "$BASE_TREE" || exit 1
echo "gpu_ab: building this tree ($BUILD) and the base ($BASE_TREE/build)"
make -j"$JOBS" BUILD="$BUILD" all bench-progs >"$OUTDIR/ab-build-new.log" 2>&1 || {
    tail -n 20 "$OUTDIR/ab-build-new.log"
    exit 1
}
make -C "$BASE_TREE" -j"$JOBS" BUILD=build all >"$OUTDIR/ab-build-base.log" 2>&1 || {
    tail -n 20 "$OUTDIR/ab-build-base.log"
    exit 1
}

# The workloads are this tree's programs for both sides: only scord differs.
status=0
for side in base new; do
    scord=$BUILD/bin/scord
    [ "$side" = new ] || scord=$BASE_TREE/build/bin/scord
    with=()
    options=${NEW_OPTIONS:-}
    [ "$side" = new ] || options=${BASE_OPTIONS:-}
    [ -z "$options" ] || with=(env "SCORD_OPTIONS=$options")
    echo "gpu_ab: $side: $scord ${with[*]}"
    "${with[@]}" python3 scripts/bench.py --build-dir "$BUILD" --scord "$scord" --no-racecheck --iters "$ITERS" \
        --budget "$AB_BUDGET" --out "$BUILD/ab-$side" "${only[@]}" >"$OUTDIR/ab-$side.log" 2>&1 || status=1
    cp "$BUILD/ab-$side/bench.tsv" "$OUTDIR/ab-$side.tsv" 2>/dev/null || status=1
done

python3 - "$OUTDIR/ab-base.tsv" "$OUTDIR/ab-new.tsv" >"$OUTDIR/ab.md" <<'EOF' || status=1
import csv, math, sys

def rows(path):
    with open(path) as f:
        return {r["workload"]: r for r in csv.DictReader(f, delimiter="\t")}

base, new = rows(sys.argv[1]), rows(sys.argv[2])
print("| workload | native ms | scord ms before | scord ms after | speedup | after x native | outputs |")
print("|---|---|---|---|---|---|---|")
logs = []
for name, b in base.items():
    n = new.get(name)
    if name == "geomean" or not n:
        continue
    try:
        bm, nm, nat = float(b["scord_kernel_ms"]), float(n["scord_kernel_ms"]), float(n["native_kernel_ms"])
    except (KeyError, ValueError):
        print(f"| {name} | - | {b.get('result')} | {n.get('result')} | - | - | - |")
        continue
    logs.append(math.log(bm / nm))
    same = "identical" if b.get("output_identical") == n.get("output_identical") == "yes" else \
        f"{b.get('output_identical')}/{n.get('output_identical')}"
    print(f"| {name} | {nat:.4g} | {bm:.4g} | {nm:.4g} | {bm / nm:.2f}x | {nm / nat:.0f}x | {same} |")
if logs:
    print(f"| geomean | | | | {math.exp(sum(logs) / len(logs)):.2f}x | | |")
EOF
cat "$OUTDIR/ab.md"
rm -rf "$BASE_TREE"
exit $status
