#!/usr/bin/env bash
# scripts/gpu_profile.sh: where an access's time goes, section by section. Builds scord a
# second time with the profiling device runtime (DEVRT_PROFILE=1, a tree of its own),
# runs each bench workload once under it, and prints per workload the warp cycles of
# each section of the access path as a share of the cycles inside __scord_access, and
# the events per call (docs/benchmark.md, "Where an access's time goes").
#
# Usage: scripts/gpu_profile.sh OUTDIR
# Writes OUTDIR/profile.md (the table) and OUTDIR/profile-<workload>.log (scord's
# output, the scord-profile lines last). Environment: BUILD (the tree with the bench
# programs, default build), PROF_BUILD (default build-prof), JOBS (default 16),
# ONLY_WORKLOADS (comma-separated names, as for gpu_ab.sh; default all), PROF_TIMEOUT (seconds per run,
# default 120).
set -u -o pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
mkdir -p "$1" || exit 2
OUTDIR=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
PROF_BUILD=${PROF_BUILD:-build-prof}
JOBS=${JOBS:-16}
PROF_TIMEOUT=${PROF_TIMEOUT:-120}

make -j"$JOBS" BUILD="$BUILD" bench-progs >"$OUTDIR/profile-build.log" 2>&1 &&
    make -j"$JOBS" BUILD="$PROF_BUILD" DEVRT_PROFILE=1 all >>"$OUTDIR/profile-build.log" 2>&1 || {
    tail -n 20 "$OUTDIR/profile-build.log"
    exit 1
}

workloads=$(echo "${ONLY_WORKLOADS:-$(ls bench/workloads/*.cu | xargs -n1 basename | sed 's/\.cu$//')}" | tr ',' ' ')
status=0
for w in $workloads; do
    echo "gpu_profile: $w"
    timeout "$PROF_TIMEOUT" "$PROF_BUILD/bin/scord" -- "$BUILD/bench/$w" --iters 1 --warmup 0 \
        >"$OUTDIR/profile-$w.log" 2>&1 || status=1
done

python3 - "$OUTDIR" $workloads >"$OUTDIR/profile.md" <<'EOF' || status=1
import re, sys

out, names = sys.argv[1], sys.argv[2:]


def counters(w):
    """The scord-profile: lines of workload w's log, by name."""
    p = {}
    try:
        for line in open(f"{out}/profile-{w}.log"):
            m = re.match(r"scord-profile: (\w+) (\d+)", line)
            if m:
                p[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return p


profiles = {w: counters(w) for w in names}
cols = ["GROUP", "CHECK", "LOOKUP", "SHADOW", "LOAD", "COVER", "DECIDE", "WRITE", "REPORT", "WAIT"]
print("| workload | quick | calls | checks/call | words/call | unchanged/word | writes/word | retries/write |"
      " covers/word | cycles/call | " + " | ".join(c.lower() + " %" for c in cols) + " |")
print("|---" * (10 + len(cols)) + "|")
for w in names:
    p = profiles[w]
    calls = p.get("CALLS", 0)
    if not calls:
        what = f"{p['QUICK']} | no slow-path calls" if "QUICK" in p else "- | no profile"
        print(f"| {w} | {what} |" + " |" * (7 + len(cols)))
        continue
    div = lambda a, b: p.get(a, 0) / p[b] if p.get(b) else 0.0
    total = p.get("CALL_CYCLES", 0) or 1
    shares = [100.0 * p.get(c + "_CYCLES", 0) / total for c in cols]
    print(f"| {w} | {p.get('QUICK', 0)} | {calls} | {div('CHECKS', 'CALLS'):.2f} | {div('WORDS', 'CALLS'):.2f} | "
          f"{div('UNCHANGED', 'WORDS'):.2f} | {div('WRITES', 'WORDS'):.2f} | {div('RETRIES', 'WRITES'):.2f} | "
          f"{div('COVERS', 'WORDS'):.2f} | {total / calls:.0f} | " + " | ".join(f"{s:.1f}" for s in shares) + " |")
print()
bails = ["NOT_OWN", "CLOCKS", "THREAD", "SPACE", "HELD", "RULES", "TRAIL", "SWAP"]
print("| workload | " + " | ".join("sent on: " + b.lower() for b in bails) + " |")
print("|---" * (1 + len(bails)) + "|")
for w in names:
    print(f"| {w} | " + " | ".join(str(profiles[w].get("QUICK_" + b, 0)) for b in bails) + " |")
print()
print("Sent on: the quick path's reasons for leaving an access to the slow path, each counted once per"
      " warp and reason (the lowest lane that gave it), in the order the quick path tests them.")
print()
print("Quick: warp calls of __scord_access_quick in which the quick path decided lanes; calls: warp"
      " calls of __scord_access, the slow path. Shares are of the warp cycles from the first to"
      " the last statement of __scord_access (the call, its prologue and epilogue excluded); a section's cycles are those of the"
      " lowest active lane, summed over warps. Nested: check holds lookup and shadow (one"
      " word's decision, whole), shadow holds load, cover, decide, write and report; group,"
      " check and wait follow one another.")
EOF
cat "$OUTDIR/profile.md"
exit $status
