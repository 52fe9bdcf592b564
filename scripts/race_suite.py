#!/usr/bin/env python3
"""race_suite.py: runs the race suite of tests/races natively, under scord and under
compute-sanitizer racecheck, and compares each tool's races with the expectations tagged
in the program sources (SCORD-* header lines and inline race(ID) tags).

Usage:
  race_suite.py --build-dir build --out OUTDIR [--scord build/bin/scord] [--racecheck]
                [--timeout 120] [--jobs N] [--budget S] [--tsv FILE] [programs...]
  race_suite.py --match-report REPORT.json --source FILE.cu     (one scord report, no GPU)
  race_suite.py --check-ptx --build-dir build [programs...]     (no GPU; needs nvcc)
  race_suite.py --self-test

The programs are built beforehand by `make race-suite BUILD=<build-dir>` (and their PTX,
for --check-ptx, by `make race-suite-ptx`). Only the Python standard library is used.
"""

import argparse
import concurrent.futures
import datetime
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from run_env import capture, commit_id

REPO = Path(__file__).resolve().parent.parent
SUITE_DIR = REPO / "tests" / "races"
REAL_DIR = REPO / "tests" / "real"  # the real-programs corpus, in the same tag format
# The make target that builds each suite's programs into BUILD/<folder of the suite>.
MAKE_TARGETS = {"races": "race-suite", "real": "real-programs"}
HEADER_LINES = 20

# Cause names and severities of /work contracts (docs/race-suite.md repeats them).
CAUSES = {
    "missing_barrier": "error",
    "missing_syncwarp": "error",
    "divergent_branch": "error",
    "same_store_lanes": "error",
    "same_store_lanes_benign": "info",
    "unsynchronized_blocks": "error",
    "atomic_vs_plain": "error",
    "atomic_scope": "error",
    "missing_fence": "error",
    "fence_scope": "error",
    "lock_missing": "error",
    "lock_scope": "error",
    "lock_no_fence": "error",
    "non_strong_sync": "error",
    "grid_dependency": "error",
    "strong_vs_rmw": "warning",
    "barrier_divergence": "error",
    "grid_completion": "warning",
    "unordered_streams": "error",
}
SPACES = ("shared", "global")
SCOPES = ("cta", "cluster", "gpu", "sys")
# copy.read and copy.write: an asynchronous copy or memset the host issues, tagged at
# its call; scord's report gives it no line (its access's `who` is `copy`).
KINDS = ("read", "write", "atomic", "barrier", "copy.read", "copy.write") + tuple("atomic." + s for s in SCOPES)

# SPEC.md's categories; a program names its own with SCORD-CATEGORY.
CATEGORIES = {
    1: "shared memory, barrier epochs",
    2: "global atomicity",
    3: "mixed sizes and granularity",
    4: "intra-warp under ITS",
    5: "scoped atomics",
    6: "scoped fences and message passing",
    7: "locks",
    8: "memory-model policy cases",
    9: "barrier divergence and misuse",
    10: "inter-kernel and stream races",
    11: "input-dependent races",
    12: "Hopper-era features",
    13: "false-positive traps",
    14: "robustness and scale",
}

TAG_START_RE = re.compile(r"\brace\(")
TAG_RE = re.compile(r"race\(([A-Za-z0-9_]+)\)\s+([a-z.,]+)(?:\s+(shared|global)\b)?")
DIRECTIVE_RE = re.compile(r"^\s*//\s*SCORD-([A-Z]+):\s*(.*?)\s*$")
NAME_RE = re.compile(r"^(shared|global)_([a-z0-9_]+?)_(race|norace)$")


# ---------------------------------------------------------------------------------
# Expectations: parsing the header and the inline tags of one program


@dataclass
class Expected:
    rid: str
    cause: str = ""
    space: str = ""        # "" for barrier_divergence, whose ends are barriers
    ends: list = field(default_factory=list)    # [(line, kind)], two of them


@dataclass
class Program:
    name: str
    source: str            # file name, as reports name it
    category: int = 0
    run_args: list = field(default_factory=list)
    scord_options: list = field(default_factory=list)  # SCORD-OPTIONS: scord's own, before the program
    no_ptx_ok: bool = False  # SCORD-UNCHECKED: no-ptx: modules with no PTX (a library's) may stay unchecked
    requires: str = ""
    expect_count: int = -1
    races: dict = field(default_factory=dict)   # rid -> Expected
    prints_done: bool = False
    errors: list = field(default_factory=list)


def parse_program(name, text, source=None, require_causes=True):
    """Reads the expectations of one program; problems go to Program.errors as
    'file:line: message' strings, so a malformed file names the line to fix.
    require_causes=False accepts races without SCORD-CAUSE (the bundled example, whose
    tags are checked by line and kind only)."""
    src = source or name + ".cu"
    prog = Program(name=name, source=src)
    err = prog.errors.append
    causes = {}
    space_seen = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        m = DIRECTIVE_RE.match(line)
        if m:
            key, value = m.group(1), m.group(2)
            where = f"{src}:{lineno}"
            if lineno > HEADER_LINES:
                err(f"{where}: SCORD-{key} must be within the first {HEADER_LINES} lines")
                continue
            if key == "EXPECT":
                em = re.fullmatch(r"(?:no race|(\d+) races?)", value)
                if prog.expect_count >= 0:
                    err(f"{where}: second SCORD-EXPECT")
                elif not em:
                    err(f"{where}: SCORD-EXPECT must be 'no race' or 'N race(s)', not '{value}'")
                else:
                    prog.expect_count = int(em.group(1)) if em.group(1) else 0
                    if em.group(1) and prog.expect_count == 0:
                        err(f"{where}: write 'SCORD-EXPECT: no race' instead of '0 races'")
            elif key == "CAUSE":
                cm = re.fullmatch(r"([A-Za-z0-9_]+)\s+([a-z_]+)", value)
                if not cm:
                    err(f"{where}: SCORD-CAUSE must be '<id> <cause>', not '{value}'")
                elif cm.group(2) not in CAUSES:
                    err(f"{where}: unknown cause '{cm.group(2)}' (known: {', '.join(CAUSES)})")
                elif cm.group(1) in causes:
                    err(f"{where}: second SCORD-CAUSE for race {cm.group(1)}")
                else:
                    causes[cm.group(1)] = cm.group(2)
            elif key in ("RUN", "OPTIONS"):
                try:
                    words = shlex.split(value)
                except ValueError as e:
                    err(f"{where}: SCORD-{key} arguments do not parse: {e}")
                    continue
                if key == "RUN":
                    prog.run_args = words
                elif not all(w.startswith("--") for w in words[::2]):
                    err(f"{where}: SCORD-OPTIONS must be scord options (--name value ...), not '{value}'")
                else:
                    prog.scord_options = words
            elif key == "UNCHECKED":
                if value != "no-ptx":
                    err(f"{where}: SCORD-UNCHECKED must be 'no-ptx', not '{value}'")
                else:
                    prog.no_ptx_ok = True
            elif key == "REQUIRES":
                if not re.fullmatch(r"sm_\d+[a-z]?", value):
                    err(f"{where}: SCORD-REQUIRES must name an architecture like sm_90, not '{value}'")
                else:
                    prog.requires = value
            elif key == "CATEGORY":
                if not value.isdigit() or int(value) not in CATEGORIES:
                    err(f"{where}: SCORD-CATEGORY must be a SPEC.md category number 1-14, not '{value}'")
                else:
                    prog.category = int(value)
            else:
                err(f"{where}: unknown directive SCORD-{key} "
                    "(known: RUN, OPTIONS, UNCHECKED, REQUIRES, EXPECT, CAUSE, CATEGORY)")
            continue
        if "rs_done()" in line or '"DONE' in line:
            prog.prints_done = True
        tag = TAG_START_RE.search(line)
        if not tag:
            continue
        start = tag.start()
        comment = line.rfind("//", 0, start)
        if comment < 0:
            err(f"{src}:{lineno}: race tag outside a // comment")
            continue
        tail = line[comment + 2:]
        rest = tail
        for tm in TAG_RE.finditer(tail):
            rest = rest.replace(tm.group(0), "", 1)
            rid, kinds, space = tm.group(1), tm.group(2).split(","), tm.group(3) or ""
            where = f"{src}:{lineno}"
            bad = [k for k in kinds if k not in KINDS]
            if bad:
                err(f"{where}: race({rid}): unknown kind '{bad[0]}' (known: {', '.join(KINDS)})")
                continue
            barrier = [k == "barrier" for k in kinds]
            if any(barrier) and not all(barrier):
                err(f"{where}: race({rid}): 'barrier' cannot be mixed with memory kinds")
                continue
            if all(barrier) and space:
                err(f"{where}: race({rid}): a barrier end has no memory space")
                continue
            if not all(barrier) and not space:
                err(f"{where}: race({rid}): the memory space (shared or global) is missing")
                continue
            if rid in space_seen and space_seen[rid] != space:
                err(f"{where}: race({rid}): space '{space}' differs from '{space_seen[rid]}' "
                    "on its other end")
                continue
            space_seen[rid] = space
            exp = prog.races.setdefault(rid, Expected(rid=rid, space=space))
            exp.ends.extend((lineno, k) for k in kinds)
        if TAG_START_RE.search(rest):
            err(f"{src}:{lineno}: malformed race tag '{tail.strip()}' "
                "(expected: race(ID) KIND[,KIND] shared|global)")
    for rid, exp in prog.races.items():
        if len(exp.ends) != 2:
            lines = ", ".join(str(l) for l, _ in exp.ends)
            err(f"{src}: race {rid} has {len(exp.ends)} ends (lines {lines}); it needs exactly two")
        if rid not in causes:
            if require_causes:
                err(f"{src}: race {rid} has tags but no 'SCORD-CAUSE: {rid} <cause>' line")
            continue
        exp.cause = causes[rid]
        is_barrier = all(k == "barrier" for _, k in exp.ends)
        if is_barrier != (exp.cause == "barrier_divergence"):
            err(f"{src}: race {rid}: barrier ends go with cause barrier_divergence, and only with it")
    for rid in causes:
        if rid not in prog.races:
            err(f"{src}: SCORD-CAUSE names race {rid}, but no line is tagged race({rid})")
    if prog.expect_count < 0:
        err(f"{src}: no SCORD-EXPECT line in the first {HEADER_LINES} lines")
    elif prog.expect_count != len(prog.races):
        err(f"{src}: SCORD-EXPECT says {prog.expect_count} race(s) but {len(prog.races)} "
            "race id(s) are tagged")
    return prog


def lint_suite(programs, readme=""):
    """Suite-wide rules: names, twins, category, DONE, a row in the README. Returns
    {name: [problems]}."""
    problems = {}
    names = {p.name for p in programs}
    for p in programs:
        errs = list(p.errors)
        m = NAME_RE.match(p.name)
        if m and f"| {p.name[: -len(m.group(3)) - 1]} |" not in readme:
            errs.append(f"{p.source}: not listed in tests/races/README.md")
        if not m:
            errs.append(f"{p.source}: the name must be <shared|global>_<pattern>_<race|norace>.cu")
        else:
            stem, variant = p.name[: -len(m.group(3)) - 1], m.group(3)
            if variant == "race":
                if stem + "_norace" not in names:
                    errs.append(f"{p.source}: racy program without its race-free twin {stem}_norace.cu")
                if p.expect_count == 0:
                    errs.append(f"{p.source}: a _race program must expect at least one race")
            elif p.expect_count > 0:
                errs.append(f"{p.source}: a _norace program must expect 'no race'")
        if p.category == 0:
            errs.append(f"{p.source}: no SCORD-CATEGORY line in the first {HEADER_LINES} lines")
        if not p.prints_done:
            errs.append(f"{p.source}: never prints DONE (call rs_done() at the end of main)")
        problems[p.name] = errs
    return problems


def load_programs(selection=None, suite_dir=SUITE_DIR):
    """Every tests/races/*.cu (and *.py, the real-programs corpus's Python programs), or
    those named (with or without .cu / .py / a directory)."""
    paths = sorted(list(Path(suite_dir).glob("*.cu")) + list(Path(suite_dir).glob("*.py")))
    if selection:
        wanted = {Path(s).name.removesuffix(".cu").removesuffix(".py") for s in selection}
        unknown = wanted - {p.stem for p in paths}
        if unknown:
            raise SystemExit(f"race_suite: no such program in {suite_dir}: {', '.join(sorted(unknown))}")
        paths = [p for p in paths if p.stem in wanted]
    return [parse_program(p.stem, p.read_text(), p.name) for p in paths]


# ---------------------------------------------------------------------------------
# Reports of the tools, reduced to comparable races


@dataclass
class Reported:
    cause: str
    severity: str
    space: str
    ends: list             # [(line or None, kind, where)]; where is "" in the program's file
    text: str = ""         # the report as one line, for the results


def resolve_frame(access, source):
    """(line, where) of an access in the program's source file: the innermost frame of
    the access and its inlined-at chain that lies in that file. where is "" there, or
    the access's own file:line when no frame does (a report in a header counts as
    elsewhere, never as a line of the program)."""
    frames = [(access.get("file"), access.get("line"))]
    frames += [(f.get("file"), f.get("line")) for f in access.get("inlined_at") or []]
    for f, line in frames:
        if f and line is not None and os.path.basename(f) == source:
            return line, ""
    f, line = frames[0]
    if f is None:
        return None, f"ptx line {access.get('ptx_line')}"
    return None, f"{os.path.basename(f)}:{line}"


def access_kind(access):
    kind = access.get("kind") or "?"
    scope = access.get("scope")
    if kind == "atomic" and scope:
        return f"atomic.{scope}"
    return kind


SCORD_SCHEMA = "scord-report/1"


def scord_races(report, source):
    """The races of one scord JSON report (docs/report-format.md), as Reported records.
    A report of another schema number is refused (ValueError): its fields may mean
    something else."""
    schema = report.get("schema", SCORD_SCHEMA)
    if schema != SCORD_SCHEMA:
        raise ValueError(f"the report's schema is {schema}, this script reads {SCORD_SCHEMA}")
    out = []
    for r in report.get("races", []):
        ends = []
        for a in r.get("accesses", []):
            if a.get("who") == "copy":
                ends.append((None, "copy." + (a.get("kind") or "?"), ""))
                continue
            line, where = resolve_frame(a, source)
            ends.append((line, access_kind(a), where))
        desc = ", ".join(f"{source}:{l} {k}" if not w else f"{w} {k}" for l, k, w in ends)
        out.append(Reported(cause=r.get("cause", "?"), severity=r.get("severity", "error"),
                            space=r.get("space") or "", ends=ends,
                            text=f"{r.get('cause', '?')} {r.get('space') or '-'}: {desc}"))
    return out


def kind_matches(tag_kind, reported_kind, coarse=False):
    """A tag `atomic` accepts any scope. coarse (racecheck): an atomic end may be reported
    as a write, since racecheck names only reads and writes."""
    if tag_kind == reported_kind:
        return True
    if tag_kind == "atomic" and reported_kind.startswith("atomic"):
        return True
    if coarse and tag_kind.startswith("atomic") and reported_kind in ("write", "atomic"):
        return True
    return False


def race_matches(exp, rep, coarse=False, check_cause=True):
    if check_cause and exp.cause != rep.cause:
        return False
    if exp.cause == "barrier_divergence":
        # A divergent barrier may be reported once per barrier instruction or once for
        # both, and an end may be a thread that exited (kind "exit", no line): every
        # barrier end must be one of the tagged barriers.
        lines = {l for l, _ in exp.ends}
        ends = [(l, w) for l, k, w in rep.ends if k != "exit"]
        return bool(ends) and all(not w and l in lines for l, w in ends)
    if not coarse and exp.space != rep.space:
        return False
    if len(rep.ends) != 2 or any(w for _, _, w in rep.ends):
        return False
    (l1, k1), (l2, k2) = exp.ends
    (m1, j1, _), (m2, j2, _) = rep.ends

    def end_matches(line, kind, rep_line, rep_kind):
        # A copy's end has no line in the report: its kind alone says which it is.
        if kind.startswith("copy.") or rep_kind.startswith("copy."):
            return kind == rep_kind
        return line == rep_line and kind_matches(kind, rep_kind, coarse)

    straight = end_matches(l1, k1, m1, j1) and end_matches(l2, k2, m2, j2)
    crossed = end_matches(l1, k1, m2, j2) and end_matches(l2, k2, m1, j1)
    return straight or crossed


def ends_text(exp):
    return " / ".join(f"{l} {k}" for l, k in exp.ends)


def compare(expected, reported, coarse=False, warnings_apart=False):
    """Expected races (rid -> Expected) against reported ones. A report that matches no
    expected race is a false alarm; an expected race that no report matches is missed;
    so a report with a wrong line, kind, space or cause counts as both. Info-level
    reports (benign same-value stores) count only when they match. With warnings_apart
    (the real-programs corpus, whose bar is no false alarm at error level) a
    warning-level report that matches nothing is listed under "warnings" instead."""
    found, false_alarms, warnings, seen = {}, [], [], set()
    for rep in reported:
        hits = [rid for rid, exp in expected.items() if race_matches(exp, rep, coarse)]
        for rid in hits:
            found.setdefault(rid, rep.text)
        key = (rep.cause, rep.space, tuple(sorted(map(str, rep.ends))))
        if hits or rep.severity == "info" or key in seen:
            continue
        seen.add(key)
        near = [rid for rid, exp in expected.items()
                if race_matches(exp, rep, coarse, check_cause=False)]
        note = f" (lines of race {near[0]}, which expects {expected[near[0]].cause})" if near else ""
        (warnings if warnings_apart and rep.severity == "warning" else false_alarms).append(rep.text + note)
    return {
        "found": [{"id": rid, "cause": expected[rid].cause, "space": expected[rid].space,
                   "ends": ends_text(expected[rid]), "report": found[rid]}
                  for rid in sorted(found)],
        "missed": [{"id": rid, "cause": exp.cause, "space": exp.space, "ends": ends_text(exp)}
                   for rid, exp in sorted(expected.items()) if rid not in found],
        "false_alarms": false_alarms,
        "warnings": warnings,
    }


def racecheck_expected(prog):
    """racecheck checks only shared memory and knows no barrier divergence."""
    return {rid: e for rid, e in prog.races.items()
            if e.space == "shared" and e.cause != "barrier_divergence"}


RC_PREFIX_RE = re.compile(r"^=+ ?")
RC_RACE_RE = re.compile(r"\b(Error|Warning|ERROR|WARNING|WARN|Info|INFO)\b.*?Race reported between\s+"
                        r"(\w+) access at (.*)$")
RC_AND_RE = re.compile(r"^\s*and (\w+) access at (.*)$")
RC_HAZARD_RE = re.compile(r"\b(Error|Warning|ERROR|WARNING|WARN|Info|INFO)\b.*Potential (\w+) hazard detected")
RC_THREAD_RE = re.compile(r"^\s*(\w+) Thread \(.*?\) at (.*)$")
RC_FILE_RE = re.compile(r"\bin (\S+?\.[A-Za-z0-9_]+):(\d+)\b")


def racecheck_location(text):
    """(file, line) of one racecheck access description, or (None, None) without line
    info. The file:line is either last ('...+0x90 in f.cu:41 [8 hazards]') or first after
    the offset ('0x418 in /p/f.hpp:586:function')."""
    hits = RC_FILE_RE.findall(text)
    if not hits:
        return None, None
    f, line = hits[-1]
    return os.path.basename(f), int(line)


def parse_racecheck(text, source):
    """Races of a compute-sanitizer racecheck log, analysis ('Race reported between A
    and B [N hazards]', further 'and C' lines pair with A) and hazard ('Potential RAW
    hazard detected' + two 'Read/Write Thread ... at ... in f:l' lines) formats."""
    races = []
    first, severity, pending = None, "", None
    for raw in text.splitlines():
        line = RC_PREFIX_RE.sub("", raw, count=1)
        m = RC_RACE_RE.search(line)
        if m:
            severity, first, pending = m.group(1).lower(), (m.group(2), m.group(3)), None
            continue
        m = RC_AND_RE.match(line)
        if m and first:
            races.append((severity, [first, (m.group(1), m.group(2))]))
            continue
        m = RC_HAZARD_RE.search(line)
        if m:
            severity, first, pending = m.group(1).lower(), None, []
            continue
        m = RC_THREAD_RE.match(line)
        if m and pending is not None:
            pending.append((m.group(1), m.group(2)))
            if len(pending) == 2:
                races.append((severity, pending))
                pending = None
            continue
        if not line.strip():
            first = None
    out = []
    for severity, accesses in races:
        ends = []
        for kind, where_text in accesses:
            f, line = racecheck_location(where_text)
            if f == source:
                ends.append((line, kind.lower(), ""))
            else:
                ends.append((None, kind.lower(), f"{f}:{line}" if f else "no line info"))
        desc = ", ".join(f"{source}:{l} {k}" if not w else f"{w} {k}" for l, k, w in ends)
        out.append(Reported(cause="", severity="error" if severity.startswith("err") else severity,
                            space="shared", ends=ends, text=f"racecheck: {desc}"))
    return out


def compare_without_causes(expected, reported, coarse=False):
    """compare() on lines, kinds and spaces only, for reports or tags that have no causes."""
    for r in reported:
        r.cause = ""
    plain = {rid: Expected(rid=e.rid, cause="", space=e.space, ends=e.ends)
             for rid, e in expected.items()}
    result = compare(plain, reported, coarse)
    for item in result["found"] + result["missed"]:
        item["cause"] = expected[item["id"]].cause
    return result


def compare_racecheck(prog, reported):
    return compare_without_causes(racecheck_expected(prog), reported, coarse=True)


# ---------------------------------------------------------------------------------
# Static check of the tags against the PTX nvcc generated (no GPU needed)

PTX_LOC_RE = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:,.*?inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?")
PTX_FILE_RE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"')


def ptx_class(instr):
    """(kind, space) of one PTX instruction, or None if it is not a memory or barrier
    instruction the suite tags. space is "" for generic addresses."""
    text = re.sub(r"^@!?%\w+\s+", "", instr.strip())
    if not text or text.startswith((".", "//", "{", "}")) or text.endswith(":"):
        return None
    op = text.split()[0]
    parts = op.split(".")
    mods = set(parts[1:])
    if parts[0] in ("bar", "barrier") and "warp" not in mods and "cluster" not in mods:
        return ("barrier", "")
    space = "shared" if any(m.startswith("shared") for m in mods) else "global" if "global" in mods else ""
    if mods & {"param", "local", "const"}:
        return None
    if parts[0] in ("ld", "ldu"):
        return ("read", space)
    if parts[0] == "st":
        return ("write", space)
    if parts[0] in ("atom", "red"):
        scope = next((s for s in SCOPES if s in mods), "gpu")
        return (f"atomic.{scope}", space)
    if op.startswith(("cp.async.ca.", "cp.async.cg.")):
        return ("write", "shared")  # and a read of global memory, which no tag names yet
    if op.startswith("cp.async.bulk.tensor.") and "prefetch" not in mods:
        # cp.async.bulk.tensor.Nd.<dst>.<src>...: the destination's space after the
        # dimensionality. The source read is not tagged yet.
        dst = parts[5] if len(parts) > 5 else ""
        if dst in ("shared::cluster", "shared::cta", "global"):
            return ("write", "shared" if dst.startswith("shared") else "global")
        return None
    if (op.startswith("cp.async.bulk.") and len(parts) > 3 and parts[3] in ("shared::cluster", "shared::cta", "global")
            and "prefetch" not in mods):
        # The destination's space comes first: shared::cluster or shared::cta <- global,
        # global <- shared::cta. The source read is not tagged yet.
        return ("write", "shared" if parts[3].startswith("shared") else "global")
    return None


def ptx_lines(ptx, source):
    """{line of the program's source: [(kind, space, instruction)]} for the memory and
    barrier instructions of a PTX module, each attributed to the innermost frame of its
    .loc and inlined-at chain that lies in the program's file."""
    # nvcc writes the .file directives after the functions.
    files = {m.group(1): os.path.basename(m.group(2))
             for m in map(PTX_FILE_RE.match, ptx.splitlines()) if m}
    parent, out = {}, {}
    current = None
    for raw in ptx.splitlines():
        m = PTX_LOC_RE.match(raw)
        if m:
            loc = (m.group(1), int(m.group(2)), int(m.group(3)))
            up = (m.group(4), int(m.group(5)), int(m.group(6))) if m.group(4) else None
            parent[loc] = up
            current = loc
            continue
        cls = ptx_class(raw)
        if not cls or current is None:
            continue
        loc, hops = current, 0
        while loc is not None and hops < 64:
            if files.get(loc[0]) == source:
                out.setdefault(loc[1], []).append((cls[0], cls[1], raw.strip()))
                break
            loc, hops = parent.get(loc), hops + 1
    return out


def check_ptx(prog, ptx):
    """Problems with the tags of one program against its PTX: every tagged end must be a
    memory instruction of its kind and space (or generic) on its line, or a barrier."""
    by_line = ptx_lines(ptx, prog.source)
    problems = []
    for rid, exp in sorted(prog.races.items()):
        for line, kind in exp.ends:
            have = by_line.get(line, [])
            ok = any(kind_matches(kind, k) and (kind == "barrier" or s in ("", exp.space))
                     for k, s, _ in have)
            if not ok:
                seen = "; ".join(i for _, _, i in have) or "no memory or barrier instruction"
                problems.append(f"{prog.source}:{line}: race {rid} expects a {kind} "
                                f"{exp.space or ''} access, PTX has: {seen}")
    return problems


# ---------------------------------------------------------------------------------
# Running the programs


@dataclass
class Run:
    status: str            # ok, failed (exit N), timeout, missing
    rc: int = 0
    seconds: float = 0.0
    stdout: str = ""
    stderr: str = ""
    done: bool = False


def cuda_gdb():
    """cuda-gdb, for what a hung run's GPU threads are doing; None where it is not
    installed or SCORD_HANG_GDB=0 turns it off."""
    if os.environ.get("SCORD_HANG_GDB", "1") == "0":
        return None
    return shutil.which("cuda-gdb") or next(
        (str(p) for p in [Path("/usr/local/cuda/bin/cuda-gdb")] if p.is_file()), None)


def group_leaves(pgid):
    """The processes of process group pgid that have no child in it: the program itself,
    under a launcher or not."""
    members = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:
            members[int(stat.parent.name)] = int(fields[1])
    return sorted(pid for pid in members if pid not in members.values())


def hang_forensics(pgid, log_prefix, gdb):
    """A run past its time limit, before it is killed: cuda-gdb, attached once to each
    program of its process group (capture's 60 s at most), lists the kernels, warps and
    lanes, then gives each lane of the warp it stops in its frames, its instruction and
    R15 (a lane the warp lacks is an error that leaves the focus where it was); into
    LOG.hang.txt. The quick hook's read-group hang took three GPU calls to read by hand
    (results/2026-11-29-quick-groups-hang-h200.md)."""
    commands = ["info cuda kernels", "info cuda warps", "info cuda lanes"] + [
        c for n in range(32) for c in (f"cuda lane {n}", "bt 4", "x/2i $pc", "info registers R15")]
    text = [f"== pid {pid}\n" + capture([gdb, "-p", str(pid), "-batch"] + [a for c in commands for a in ("-ex", c)])
            for pid in group_leaves(pgid)]
    Path(log_prefix + ".hang.txt").write_text("\n".join(text) or "no program left in the process group\n")


def run_command(cmd, timeout, log_prefix):
    """Runs cmd in a process group of its own, so that a timeout ends the program that a
    launcher (scord, compute-sanitizer) started as well as the launcher; before it does,
    hang_forensics reads where the program's GPU threads are."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                errors="replace", start_new_session=True)
    except OSError as e:
        return Run(status=f"could not start: {e}", rc=-1)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        gdb = cuda_gdb()
        if gdb:
            hang_forensics(proc.pid, log_prefix, gdb)
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        Path(log_prefix + ".stdout").write_text(out)
        Path(log_prefix + ".stderr").write_text(err)
        return Run(status=f"timeout after {timeout:g} s", rc=-1, seconds=timeout, stdout=out)
    Path(log_prefix + ".stdout").write_text(out)
    Path(log_prefix + ".stderr").write_text(err)
    seconds = round(time.monotonic() - start, 3)
    done = out.rstrip().endswith("DONE")
    if proc.returncode < 0:
        status = f"killed by signal {-proc.returncode}"
    elif proc.returncode:
        status = f"exit {proc.returncode}"
    elif not done:
        status = "no DONE line"
    else:
        status = "ok"
    return Run(status=status, rc=proc.returncode, seconds=seconds, stdout=out, stderr=err, done=done)


# scord's run summary names each module it did not check, and why (intercept_ctx.c).
UNCHECKED_MODULE_RE = re.compile(r"^scord:   module \d+ \(.*?\) (?:loaded uninstrumented|unchecked): .*$",
                                 re.MULTILINE)


INSTRUMENTED_RE = re.compile(r"^scord: \d+ modules?: \d+ loaded from scord's PTX \((\d+) instrumented\)", re.MULTILINE)


def unchecked_modules(stderr, no_ptx_ok=False):
    """The summary lines of the modules a scord run left unchecked: a program whose
    output matches only because scord ran it uninstrumented has not passed. With
    no_ptx_ok (SCORD-UNCHECKED: no-ptx: a library's machine code, PyTorch's own kernels)
    modules that hold no PTX do not count, but then one module at least must have been
    instrumented (the program's own), else the summary line counts."""
    lines = UNCHECKED_MODULE_RE.findall(stderr)
    if not no_ptx_ok:
        return lines
    instrumented = INSTRUMENTED_RE.search(stderr)
    if not instrumented or int(instrumented.group(1)) == 0:
        return lines or ["scord:   no module instrumented"]
    return [u for u in lines if not re.search(r"no PTX", u)]


def nvcc():
    return shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"


def environment():
    gpu = capture(["nvidia-smi", "--query-gpu=name,driver_version,compute_cap",
                   "--format=csv,noheader"]).splitlines()
    name, driver, cc = ([s.strip() for s in gpu[0].split(",")] + ["", "", ""])[:3] if gpu else ("", "", "")
    nvcc_version = capture([nvcc(), "--version"]).splitlines()
    commit = commit_id(REPO)
    return {
        "gpu": name or "unknown (nvidia-smi gave nothing)",
        "driver": driver or "unknown",
        "compute_capability": cc or "unknown",
        "cuda": nvcc_version[-1] if nvcc_version else "unknown (nvcc not found)",
        "commit": commit or "unknown",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def requirement_met(requires, compute_capability):
    """SCORD-REQUIRES: sm_90 against the GPU's compute capability '9.0'. Unknown
    capability: run it anyway (a failure then shows)."""
    if not requires:
        return True
    m = re.fullmatch(r"(\d+)\.(\d+)", compute_capability or "")
    if not m:
        return True
    have = int(m.group(1)) * 10 + int(m.group(2))
    return have >= int(re.match(r"sm_(\d+)", requires).group(1))


class Budget:
    """--budget: the time after which no program and no run of a program starts, so that
    a run of the suite ends at most one run's timeout after it. The clock can be
    replaced (the self-test counts calls instead of seconds)."""

    def __init__(self, seconds=None, clock=time.monotonic):
        self.clock = clock
        self.end = None if seconds is None else clock() + seconds

    def spent(self):
        return self.end is not None and self.clock() >= self.end


TIME_BUDGET = "time-budget"


def run_program(prog, args, env_info, logs, budget):
    """One program's runs, natively, under scord and under racecheck, one after the
    other; a run that the budget leaves no time for is not started."""
    folder = getattr(args, "binaries", "races")
    # A Python program of the corpus (CuPy, ...) runs from the suite's folder.
    script = prog.source.endswith(".py")
    binary = Path(args.suite_dir) / prog.source if script else Path(args.build_dir) / folder / prog.name
    result = {"name": prog.name, "category": prog.category, "expect": prog.expect_count,
              "args": prog.run_args, "runs": {}, "tools": {}}
    if prog.errors:
        result["status"] = "bad tags: " + "; ".join(prog.errors)
        return result
    if not requirement_met(prog.requires, env_info["compute_capability"]):
        result["status"] = f"skipped: needs {prog.requires}"
        return result
    if not binary.is_file():
        result["status"] = f"not built: {binary} (run make {MAKE_TARGETS.get(folder, 'race-suite')} BUILD={args.build_dir})"
        return result
    if budget.spent():
        result["status"] = TIME_BUDGET
        return result
    cmd = ([sys.executable] if script else []) + [str(binary)] + prog.run_args
    log = str(logs / prog.name)
    native = run_command(cmd, args.timeout, log + ".native")
    result["runs"]["native"] = {"status": native.status, "seconds": native.seconds}
    if native.stdout.startswith("SKIP:"):
        # What the program needs is not there (a Python package): nothing was checked.
        result["status"] = "skipped: " + native.stdout.splitlines()[0][5:].strip()
        return result
    problems = []
    if native.status != "ok":
        problems.append(f"native run: {native.status}")

    if budget.spent():
        result["status"] = f"{TIME_BUDGET}: only the native run started"
        return result
    json_file = logs / (prog.name + ".scord.json")
    if json_file.exists():
        json_file.unlink()
    scord = run_command([args.scord, *prog.scord_options, "--json-file", str(json_file), "--print-limit", "0"] + cmd,
                        args.timeout, log + ".scord")
    result["runs"]["scord"] = {"status": scord.status, "seconds": scord.seconds}
    tool = {"output": "same" if scord.stdout == native.stdout else "differs"}
    if scord.status != "ok":
        problems.append(f"scord run: {scord.status}")
    unchecked = unchecked_modules(scord.stderr, prog.no_ptx_ok)
    if unchecked:
        tool["unchecked_modules"] = unchecked
        problems.append(f"scord left {len(unchecked)} module(s) unchecked ({unchecked[0].split(': ', 2)[-1]})")
    try:
        report = json.loads(json_file.read_text())
        tool.update(compare(prog.races, scord_races(report, prog.source), warnings_apart=getattr(args, "warnings_apart", False)))
    except (OSError, ValueError) as e:
        problems.append(f"scord report {json_file.name}: {e}")
        tool.update(compare(prog.races, []))
        tool["report_error"] = str(e)
    if tool["output"] == "differs":
        if prog.expect_count == 0:
            problems.append("output under scord differs from the native output")
        else:
            tool["output"] = "differs (racy program: not counted)"
    if tool["missed"]:
        problems.append("scord missed " + ", ".join(f"race {m['id']} ({m['ends']})" for m in tool["missed"]))
    if tool["false_alarms"]:
        problems.append(f"scord raised {len(tool['false_alarms'])} false alarm(s)")
    result["tools"]["scord"] = tool

    if args.racecheck and budget.spent():
        # The program's verdict is scord's; racecheck's is only compared with it.
        result["runs"]["racecheck"] = {"status": TIME_BUDGET, "seconds": 0.0}
    elif args.racecheck:
        rc_log = logs / (prog.name + ".racecheck.log")
        rc = run_command([args.compute_sanitizer, "--tool", "racecheck", "--racecheck-report",
                          "analysis", "--print-limit", "0", "--log-file", str(rc_log)] + cmd,
                         args.timeout, log + ".racecheck")
        result["runs"]["racecheck"] = {"status": rc.status, "seconds": rc.seconds}
        text = rc_log.read_text(errors="replace") if rc_log.exists() else ""
        rtool = compare_racecheck(prog, parse_racecheck(text, prog.source))
        rtool["expected"] = len(racecheck_expected(prog))
        if rc.status != "ok":
            rtool["run"] = rc.status
        result["tools"]["racecheck"] = rtool
    result["status"] = "pass" if not problems else "; ".join(problems)
    return result


# ---------------------------------------------------------------------------------
# Tables


def tally(results, tool):
    t = {"programs": 0, "passed": 0, "expected": 0, "found": 0, "missed": 0, "false_alarms": 0}
    for r in results:
        d = r["tools"].get(tool)
        if d is None:
            continue
        t["programs"] += 1
        t["found"] += len(d["found"])
        t["missed"] += len(d["missed"])
        t["false_alarms"] += len(d["false_alarms"])
        t["expected"] += len(d["found"]) + len(d["missed"])
        if tool == "scord":
            t["passed"] += r["status"] == "pass"
        else:
            t["passed"] += not d["missed"] and not d["false_alarms"] and "run" not in d
    return t


def summarize(results, tools):
    totals = {tool: tally(results, tool) for tool in tools}
    cats = {}
    for c in sorted({r["category"] for r in results}):
        rs = [r for r in results if r["category"] == c]
        cats[c] = {"name": CATEGORIES.get(c, "?"), "programs": len(rs),
                   "skipped": sum(r["status"].startswith(("skipped", "not built", "bad tags", TIME_BUDGET))
                                  for r in rs),
                   "tools": {tool: tally(rs, tool) for tool in tools}}
    return totals, cats


def category_table(cats, tools):
    head = "| category | programs |" + "".join(
        f" {t}: found / expected | {t}: false alarms | {t}: programs passed |" for t in tools)
    rows = [head, "|" + "---|" * (2 + 3 * len(tools))]
    for c, d in cats.items():
        skipped = f" ({d['skipped']} not run)" if d["skipped"] else ""
        row = f"| {c}. {d['name']} | {d['programs']}{skipped} |"
        for t in tools:
            x = d["tools"][t]
            row += f" {x['found']} / {x['expected']} | {x['false_alarms']} | {x['passed']} / {x['programs']} |"
        rows.append(row)
    return "\n".join(rows)


def write_markdown(path, env_info, totals, cats, results, tools):
    md = ["# Race suite results", "",
          f"GPU {env_info['gpu']} (compute capability {env_info['compute_capability']}, driver "
          f"{env_info['driver']}); {env_info['cuda']}; commit {env_info['commit']}; {env_info['date']}.",
          "", "## Totals", "",
          "| tool | programs | races found / expected | missed | false alarms | programs passed |",
          "|---|---|---|---|---|---|"]
    for t in tools:
        x = totals[t]
        md.append(f"| {t} | {x['programs']} | {x['found']} / {x['expected']} | {x['missed']} | "
                  f"{x['false_alarms']} | {x['passed']} / {x['programs']} |")
    if "racecheck" in tools:
        md += ["", "racecheck checks shared memory only: its expected races are the shared-memory "
               "races other than barrier divergence; every report it makes counts."]
    md += ["", "## Per category", "", category_table(cats, tools), "", "## Per program", "",
           "| program | cat. | expected | scord | scord found / missed / false alarms | output |"
           + (" racecheck found / missed / false alarms |" if "racecheck" in tools else ""),
           "|---|---|---|---|---|---|" + ("---|" if "racecheck" in tools else "")]
    for r in results:
        s = r["tools"].get("scord")
        cell = (f"{len(s['found'])} / {len(s['missed'])} / {len(s['false_alarms'])}" if s else "-")
        row = (f"| {r['name']} | {r['category']} | {r['expect']} | {r['status']} | {cell} | "
               f"{s['output'] if s else '-'} |")
        if "racecheck" in tools:
            rc = r["tools"].get("racecheck")
            cell = f"{len(rc['found'])} / {len(rc['missed'])} / {len(rc['false_alarms'])}" if rc else "-"
            row += f" {cell}{' (' + rc['run'] + ')' if rc and 'run' in rc else ''} |"
        md.append(row)
    details = []
    for r in results:
        for t in tools:
            d = r["tools"].get(t)
            if not d or not (d["missed"] or d["false_alarms"]):
                continue
            details.append(f"- {r['name']}, {t}:")
            details += [f"  - missed race {m['id']} ({m['cause']} {m['space']}: {m['ends']})" for m in d["missed"]]
            details += [f"  - false alarm: {fa}" for fa in d["false_alarms"]]
    if details:
        md += ["", "## Misses and false alarms", ""] + details
    Path(path).write_text("\n".join(md) + "\n")


def corpus_line(results):
    """The real-programs corpus in one line (issue 22's bar): programs passed of those
    run (a program skipped for what the machine lacks is in the table, not here), false
    alarms at error level, crashes (scord's run died or failed where the native run did
    not), hangs (scord's run stopped at its timeout) and races found."""
    results = [r for r in results if not r["status"].startswith("skipped")]
    t = tally(results, "scord")
    crashes = hangs = 0
    for r in results:
        native = r["runs"].get("native", {}).get("status")
        run = r["runs"].get("scord", {}).get("status")
        if not run or run == "ok":
            continue
        if run.startswith("timeout"):
            hangs += 1
        elif native == "ok":
            crashes += 1
    return (f"real programs: {t['passed']} of {len(results)} passed, {t['false_alarms']} false alarms, "
            f"{crashes} crashes, {hangs} hangs, {t['found']} of {t['expected']} races found")


def verdict(tool):
    """One tool's comparison in a few words, for the TSV: '2/3 found, missed C, 1 false alarm'."""
    expected = len(tool["found"]) + len(tool["missed"])
    text = f"{len(tool['found'])}/{expected} found"
    if tool["missed"]:
        text += ", missed " + ",".join(m["id"] for m in tool["missed"])
    alarms = len(tool["false_alarms"])
    if alarms:
        text += f", {alarms} false alarm{'s' if alarms > 1 else ''}"
    return text


TSV_COLUMNS = ("program", "category", "expect", "scord", "racecheck", "output", "result")


def tsv_cell(value, limit=300):
    text = re.sub(r"\s+", " ", str(value)).strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


def write_tsv(path, results):
    """One row per program for scripts/gpu_races.sh; result is `pass` or why not (a
    program skipped for SCORD-REQUIRES, too, was not checked)."""
    rows = ["\t".join(TSV_COLUMNS)]
    for r in results:
        scord = r["tools"].get("scord")
        racecheck = r["tools"].get("racecheck")
        rc_run = r["runs"].get("racecheck", {}).get("status", "-")
        if racecheck:
            rc_text = verdict(racecheck) + (f" (run: {rc_run})" if rc_run != "ok" else "")
        else:
            rc_text = rc_run
        row = (r["name"], r["category"], r["expect"], verdict(scord) if scord else "-", rc_text,
               scord["output"] if scord else "-", r["status"])
        rows.append("\t".join(tsv_cell(v) for v in row))
    Path(path).write_text("\n".join(rows) + "\n")


def run_guarded(prog, args, env_info, logs, budget):
    """run_program, with an unexpected error recorded as the program's status, so that
    one program's failure never costs the results of the others."""
    try:
        return run_program(prog, args, env_info, logs, budget)
    except Exception as e:  # whatever it is, the other programs' results still count
        return {"name": prog.name, "category": prog.category, "expect": prog.expect_count,
                "args": prog.run_args, "runs": {}, "tools": {},
                "status": f"runner error: {type(e).__name__}: {e}"}


def main_run(args, suite_dir=SUITE_DIR, clock=time.monotonic):
    programs = load_programs(args.programs, suite_dir)
    args.suite_dir = str(suite_dir)  # where run_program finds the suite's Python programs
    if not shutil.which(args.scord) and not Path(args.scord).is_file():
        raise SystemExit(f"race_suite: scord not found at {args.scord} (build it with make, or pass --scord)")
    out = Path(args.out)
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    env_info = environment()
    if args.compute_capability:
        env_info["compute_capability"] = args.compute_capability
    tools = ["scord"] + (["racecheck"] if args.racecheck else [])
    budget = Budget(args.budget, clock)
    # The programs share the GPU; nothing in the suite is timed, so running several at
    # once changes no verdict, only how long the suite takes (mostly the JIT of scord's
    # PTX, on the CPU). Each program's own runs stay one after the other.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_guarded, prog, args, env_info, logs, budget) for prog in programs]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            r = future.result()
            print(f"[{done}/{len(futures)}] {r['name']}: {r['status']}", flush=True)
    results = [f.result() for f in futures]
    totals, cats = summarize(results, tools)
    doc = {"environment": env_info, "timeout_s": args.timeout, "jobs": args.jobs,
           "budget_s": args.budget, "tools": tools,
           "totals": totals, "categories": {str(c): d for c, d in cats.items()}, "programs": results}
    (out / "race_suite.json").write_text(json.dumps(doc, indent=1) + "\n")
    write_markdown(out / "race_suite.md", env_info, totals, cats, results, tools)
    write_tsv(args.tsv or out / "race_suite.tsv", results)
    if getattr(args, "corpus_line", None):
        Path(args.corpus_line).write_text(corpus_line(results) + "\n")
    print()
    print(category_table(cats, tools))
    failed = [r for r in results if r["status"] != "pass" and not r["status"].startswith("skipped")]
    unstarted = sum(r["status"] == TIME_BUDGET for r in results)
    if unstarted:
        print(f"\n{unstarted} program(s) not started: the budget of {args.budget:g} s was spent")
    print(f"\n{len(results) - len(failed)} of {len(results)} programs passed under scord; "
          f"results in {out / 'race_suite.md'}")
    return 1 if failed else 0


def main_match_report(args):
    """--match-report: one scord JSON report against the tags of one source file (the
    bundled example, which names no causes), by line, kind and space. Prints the
    verdict, then each miss and false alarm; exits 0 if every tagged race is found and
    nothing else is reported."""
    source = Path(args.source)
    prog = parse_program(source.stem, source.read_text(), source.name, require_causes=False)
    if prog.errors:
        print("bad tags: " + "; ".join(prog.errors))
        return 1
    try:
        report = json.loads(Path(args.match_report).read_text())
    except (OSError, ValueError) as e:
        print(f"no report: {e}")
        return 1
    result = compare_without_causes(prog.races, scord_races(report, prog.source))
    print(verdict(result))
    for m in result["missed"]:
        print(f"missed race {m['id']} ({m['space']}: {m['ends']})")
    for alarm in result["false_alarms"]:
        print(f"false alarm: {alarm}")
    return 1 if result["missed"] or result["false_alarms"] else 0


def jit_kernel_ptx(prog, text, workdir):
    """The PTX of the kernel a program compiles at run time (rs_jit_module): its source
    text, after `kernel_line = __LINE__ + 1`, compiled by nvcc as NVRTC would compile
    it (compute_75, -lineinfo, the same #line directive). None if it has no such text."""
    m = re.search(r"kernel_line = __LINE__ \+ 1;\n[^\n]*R\"\(", text)
    if not m:
        return None
    first_line = text.count("\n", 0, m.end()) + 1
    body = text[m.end():text.index(')";', m.end())]
    src = Path(workdir) / (prog.name + ".jit.cu")
    src.write_text(f'#line {first_line} "{prog.source}"\n{body}')
    out = src.with_suffix(".ptx")
    subprocess.run([nvcc(), "-ptx", "-arch=compute_75", "-lineinfo", "-DMODULE_ID=1", "-o", str(out),
                    str(src)], check=True)
    return out.read_text()


def main_check_ptx(args):
    import tempfile
    programs = load_programs(args.programs)
    ptx_dir = Path(args.build_dir) / "races" / "ptx"
    bad = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for prog in programs:
            if prog.errors:
                print("\n".join(prog.errors))
                bad += 1
                continue
            path = ptx_dir / (prog.name + ".ptx")
            text = (SUITE_DIR / prog.source).read_text()
            if "#define RS_JIT" in text:
                ptx = jit_kernel_ptx(prog, text, tmp)
            elif path.is_file():
                ptx = path.read_text()
            else:
                ptx = None
            if ptx is None:
                print(f"{prog.name}: no {path} (run make race-suite-ptx BUILD={args.build_dir})")
                bad += 1
                continue
            problems = check_ptx(prog, ptx)
            checked += 1
            bad += bool(problems)
            for p in problems:
                print(p)
    print(f"{checked} programs checked against their PTX, {bad} with problems")
    return 1 if bad else 0


# ---------------------------------------------------------------------------------
# Self-test: the parser, the comparisons and the suite's own tags, without a GPU

SELF_TEST_GOOD = """\
// demo_race.cu: a racy demo.
// SCORD-CATEGORY: 1
// SCORD-RUN: --dups 3
// SCORD-EXPECT: 3 races
// SCORD-CAUSE: A missing_barrier
// SCORD-CAUSE: B atomic_scope
// SCORD-CAUSE: C unsynchronized_blocks
    tile[t] = in[i];                // race(A) write shared
    out[i] = tile[t + 32];          // race(A) read shared
    atomicAdd_block(c, 1);          // race(B) atomic.cta,atomic.cta global
    x += 1;                         // race(C) read,write global   and a note
    rs_done();
"""

SELF_TEST_BAD = [
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\nx = 1; // race(A) write shared\n",
     "has 1 ends"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\nx = y; // race(A) read,write\n",
     "memory space"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\nx = y; // race(A) load,write shared\n",
     "unknown kind 'load'"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A no_such_cause\nx = y; // race(A) read,write shared\n",
     "unknown cause"),
    ("// SCORD-EXPECT: 2 races\n// SCORD-CAUSE: A missing_barrier\nx = y; // race(A) read,write shared\n",
     "says 2 race(s) but 1"),
    ("// SCORD-EXPECT: 1 race\nx = y; // race(A) read,write shared\n", "no 'SCORD-CAUSE: A"),
    ("// SCORD-EXPECT: no race\n// SCORD-CAUSE: A missing_barrier\n", "no line is tagged race(A)"),
    ("x = 1;\n", "no SCORD-EXPECT"),
    ("// SCORD-EXPECT: some races\n", "must be 'no race'"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\nx = y; // race(A read,write shared\n",
     "malformed race tag"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\n"
     "x = 1; // race(A) write shared\ny = 1; // race(A) read global\n", "differs from 'shared'"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\n"
     "__syncthreads(); // race(A) barrier\n__syncthreads(); // race(A) barrier\n", "barrier ends go with"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A barrier_divergence\n"
     "__syncthreads(); // race(A) barrier shared\n__syncthreads(); // race(A) barrier\n", "no memory space"),
    ("// SCORD-EXPECTS: no race\n", "unknown directive SCORD-EXPECTS"),
    ("// SCORD-EXPECT: no race\n// SCORD-EXPECT: no race\n", "second SCORD-EXPECT"),
    ("// SCORD-EXPECT: no race\n// SCORD-CATEGORY: 99\n", "category number"),
    ("// SCORD-EXPECT: no race\n// SCORD-REQUIRES: hopper\n", "must name an architecture"),
    ("\n" * HEADER_LINES + "// SCORD-EXPECT: no race\n", "within the first 20 lines"),
    ("// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A missing_barrier\n// SCORD-CAUSE: A missing_barrier\n"
     "x = y; // race(A) read,write shared\n", "second SCORD-CAUSE"),
]


def access(line, kind, file="demo_race.cu", scope=None, inlined=None):
    return {"kind": kind, "scope": scope, "file": file, "line": line, "ptx_line": 100,
            "inlined_at": inlined or []}


def scord_report(*races):
    return {"tool": "scord", "races": [
        {"cause": c, "severity": CAUSES.get(c, "error"), "space": s, "accesses": list(a)}
        for c, s, a in races]}


RACECHECK_LOG = """\
========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at rotate(const int *, int *)+0x90 in demo_race.cu:8
=========     and Read access at rotate(const int *, int *)+0x100 in demo_race.cu:9 [508 hazards]
=========     and Read access at rotate(const int *, int *)+0x120 in demo_race.cu:11 [4 hazards]
=========
========= Warning: Race reported between Read access at 0x418 in /home/u/include/cub/x.cuh:586:_ZN3cub1fEv
=========     and Write access at 0x3b8 in /home/u/include/cub/x.cuh:603:_ZN3cub1fEv [992 hazards]
=========
========= Error: Race reported between Write access at 0x3c30 in void k(int *)
=========     and Read access at 0x3d10 in void k(int *) [8 hazards]
=========
========= WARN:(Warp Level Programming) Potential RAW hazard detected at __shared__ 0xf4 in block (0, 0, 0) :
=========     Write Thread (24, 0, 0) at 0x00001ab0 in /x/demo_race.cu:8:_Z1kv
=========     Read Thread (25, 0, 0) at 0x00001ac0 in /x/demo_race.cu:9:_Z1kv
=========     Current Value : 1, Incoming Value : 2
=========
========= RACECHECK SUMMARY: 4 hazards displayed (2 errors, 2 warnings)
"""

PTX_SAMPLE = """\
    .loc 1 8 5
    st.shared.u32 [%r1], %r2;
    .loc 1 9 5
    ld.u32 %r3, [%rd4];
    .loc 1 10 5
    red.global.cta.add.u32 [%rd1], 1;
    .loc 1 11 5
    @%p1 ld.global.u32 %r5, [%rd2];
    ld.param.u64 %rd9, [p];
    .loc 2 40 3, function_name $L__info_string0, inlined_at 1 11 5
    st.global.u32 [%rd2], %r6;
.file 1 "/w/tests/races/demo_race.cu"
.file 2 "/usr/include/cub/reduce.cuh"
"""


FAKE_SCORD = """\
#!/usr/bin/env python3
# A stand-in for scord: writes the canned report of the program, runs it, and changes
# the output of the programs named in CHANGE.
import json, os, subprocess, sys
REPORTS, CHANGE = json.loads(%r)
args = sys.argv[1:]
json_file = args[args.index("--json-file") + 1]
prog = args[args.index("--print-limit") + 2:]
name = os.path.basename(prog[0])
with open(json_file, "w") as f:
    json.dump(REPORTS.get(name, {"tool": "scord", "races": []}), f)
p = subprocess.run(prog, stdout=subprocess.PIPE, text=True)
sys.stdout.write(("changed\\n" if name in CHANGE else "") + p.stdout)
sys.exit(p.returncode)
"""

FAKE_SANITIZER = """\
#!/usr/bin/env python3
# A stand-in for compute-sanitizer: writes the canned racecheck log, runs the program.
import json, os, subprocess, sys
LOGS = json.loads(%r)
args = sys.argv[1:]
log = args[args.index("--log-file") + 1]
prog = args[args.index("--log-file") + 2:]
with open(log, "w") as f:
    f.write(LOGS.get(os.path.basename(prog[0]), ""))
sys.exit(subprocess.run(prog).returncode)
"""


def end_to_end(check):
    """Runs main_run on a made-up suite with stand-in programs, scord and racecheck."""
    import contextlib
    import io
    import tempfile
    racy = SELF_TEST_GOOD.replace("// demo_race.cu: a racy demo.", "// shared_demo_race.cu: demo.")
    sources = {
        "shared_demo_race": racy,
        "shared_demo_norace": "// SCORD-CATEGORY: 1\n// SCORD-EXPECT: no race\nrs_done();\n",
        "global_quiet_norace": "// SCORD-CATEGORY: 2\n// SCORD-EXPECT: no race\nrs_done();\n",
        "global_slow_norace": "// SCORD-CATEGORY: 2\n// SCORD-EXPECT: no race\nrs_done();\n",
        "global_new_norace": "// SCORD-CATEGORY: 14\n// SCORD-REQUIRES: sm_999\n"
                             "// SCORD-EXPECT: no race\nrs_done();\n",
    }
    # A Python program of the corpus whose package is missing: skipped, not failed (named
    # to run last, after the programs the budget checks below count clock looks for).
    python_skip = ('"""shared_zpkg_norace.py\n// SCORD-CATEGORY: 14\n// SCORD-EXPECT: no race\n"""\n'
                   'print("SKIP: no such package")\nprint("DONE")\n')
    src = "shared_demo_race.cu"
    reports = {
        "shared_demo_race": scord_report(
            ("missing_barrier", "shared", [access(8, "write", src), access(9, "read", src)]),
            ("atomic_scope", "global", [access(10, "atomic", src, "cta"), access(10, "atomic", src, "cta")])),
        "global_quiet_norace": scord_report(
            ("unsynchronized_blocks", "global", [access(3, "write", "global_quiet_norace.cu"),
                                                 access(3, "write", "global_quiet_norace.cu")])),
    }
    logs = {"shared_demo_race": RACECHECK_LOG.replace("demo_race.cu", src)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "suite").mkdir()
        (root / "build" / "races").mkdir(parents=True)
        for name, text in sources.items():
            (root / "suite" / (name + ".cu")).write_text(text)
            body = "sleep 5\n" if name == "global_slow_norace" else ""
            exe = root / "build" / "races" / name
            exe.write_text(f"#!/bin/sh\n{body}echo 'result 42'\necho DONE\n")
            exe.chmod(0o755)
        (root / "suite" / "shared_zpkg_norace.py").write_text(python_skip)
        for path, text in (("scord", FAKE_SCORD % json.dumps([reports, ["shared_demo_norace"]])),
                           ("compute-sanitizer", FAKE_SANITIZER % json.dumps(logs))):
            (root / path).write_text(text)
            (root / path).chmod(0o755)

        def run_suite(out, clock=time.monotonic, **options):
            args = argparse.Namespace(programs=[], build_dir=str(root / "build"), out=str(root / out),
                                      scord=str(root / "scord"), racecheck=True, timeout=1,
                                      compute_sanitizer=str(root / "compute-sanitizer"),
                                      compute_capability="9.0", jobs=1, budget=None, tsv=None)
            vars(args).update(options)
            with contextlib.redirect_stdout(io.StringIO()) as console:
                rc = main_run(args, root / "suite", clock)
            return rc, json.loads((root / out / "race_suite.json").read_text()), console.getvalue()

        rc, doc, console = run_suite("out")
        check(rc == 1, f"end to end: exit status 1 when a program fails (got {rc})")
        status = {r["name"]: r["status"] for r in doc["programs"]}
        check(status.get("shared_demo_race", "").startswith("scord missed race C"),
              f"end to end: the unreported race C is a miss: {status.get('shared_demo_race')}")
        demo = next(r for r in doc["programs"] if r["name"] == "shared_demo_race")
        check([f["id"] for f in demo["tools"]["scord"]["found"]] == ["A", "B"]
              and [f["id"] for f in demo["tools"]["racecheck"]["found"]] == ["A"],
              f"end to end: races found by scord and racecheck: {demo['tools']}")
        check("output under scord differs" in status.get("shared_demo_norace", ""),
              f"end to end: changed output fails a race-free program: {status.get('shared_demo_norace')}")
        check("false alarm" in status.get("global_quiet_norace", ""),
              f"end to end: a report on a race-free program is a false alarm: {status.get('global_quiet_norace')}")
        check("timeout after 1 s" in status.get("global_slow_norace", ""),
              f"end to end: a run past the timeout is recorded: {status.get('global_slow_norace')}")
        check(status.get("global_new_norace") == "skipped: needs sm_999",
              f"end to end: SCORD-REQUIRES skips: {status.get('global_new_norace')}")
        check(status.get("shared_zpkg_norace") == "skipped: no such package",
              f"end to end: a Python program that says SKIP natively is skipped: {status.get('shared_zpkg_norace')}")
        t = doc["totals"]["scord"]
        check((t["expected"], t["found"], t["missed"], t["false_alarms"], t["passed"]) == (3, 2, 1, 1, 0),
              f"end to end: scord totals: {t}")
        md = (root / "out" / "race_suite.md").read_text()
        check(md.index("## Totals") < md.index("## Per category") < md.index("## Per program")
              and "missed race C" in md, "end to end: race_suite.md has totals first, then the tables")
        check("1. shared memory, barrier epochs" in console,
              "end to end: the per-category table is printed")

        tsv = [line.split("\t") for line in (root / "out" / "race_suite.tsv").read_text().splitlines()]
        rows = {row[0]: row for row in tsv[1:]}
        check(tsv[0] == list(TSV_COLUMNS) and all(len(row) == len(TSV_COLUMNS) for row in tsv)
              and sorted(rows) == [r["name"] for r in doc["programs"]],
              f"end to end: the TSV has its header and one row per program: {tsv}")
        check(rows.get("shared_demo_race", [])[1:6] == ["1", "3", "2/3 found, missed C",
                                                          "1/1 found, 3 false alarms", "same"]
              and rows["shared_demo_race"][6].startswith("scord missed race C"),
              f"end to end: the TSV row of a racy program: {rows.get('shared_demo_race')}")
        check(rows.get("global_quiet_norace", [])[3:5] == ["0/0 found, 1 false alarm", "0/0 found"]
              and rows.get("global_slow_norace", [])[4].startswith("0/0 found (run: timeout")
              and rows.get("global_new_norace", [])[3:] == ["-", "-", "-", "skipped: needs sm_999"],
              f"end to end: TSV rows of a false alarm, a timeout and a skip: {tsv}")

        # Several programs at once: the same verdicts, in the same order.
        def verdicts(d):
            return [(r["name"], r["status"], r["tools"], {k: v["status"] for k, v in r["runs"].items()})
                    for r in d["programs"]]
        rc4, doc4, _ = run_suite("out4", jobs=4)
        check(rc4 == rc and verdicts(doc4) == verdicts(doc) and doc4["totals"] == doc["totals"],
              f"end to end: --jobs 4 gives the verdicts of --jobs 1: {verdicts(doc4)}")

        # The budget.
        rc, doc, console = run_suite("out-none", budget=0)
        status = {r["name"]: r["status"] for r in doc["programs"]}
        check(rc == 1 and status.pop("global_new_norace").startswith("skipped")
              and set(status.values()) == {TIME_BUDGET} and "5 program(s) not started" in console,
              f"end to end: a spent budget starts nothing and still writes the results: {status}")
        tsv = (root / "out-none" / "race_suite.tsv").read_text().splitlines()
        check(len(tsv) == 7 and sum(line.endswith("\t" + TIME_BUDGET) for line in tsv) == 5,
              f"end to end: unstarted programs are TSV rows failing as time-budget: {tsv}")
        # A clock that advances by one at each look decides exactly which look finds the
        # budget spent: global_quiet_norace looks at 1 (native), 2 (scord), 3 (racecheck),
        # global_slow_norace at 4, 5, 6, shared_demo_norace from 7 on.
        _, doc, _ = run_suite("out-3", clock=itertools.count().__next__, budget=3)
        quiet = next(r for r in doc["programs"] if r["name"] == "global_quiet_norace")
        status = {r["name"]: r["status"] for r in doc["programs"]}
        check(quiet["runs"].get("racecheck") == {"status": TIME_BUDGET, "seconds": 0.0}
              and "racecheck" not in quiet["tools"] and "false alarm" in quiet["status"]
              and status["global_slow_norace"] == TIME_BUDGET,
              f"end to end: no racecheck run after the budget, scord's verdict stands: {quiet}")
        _, doc, _ = run_suite("out-5", clock=itertools.count().__next__, budget=5)
        status = {r["name"]: r["status"] for r in doc["programs"]}
        check(status["global_slow_norace"] == f"{TIME_BUDGET}: only the native run started"
              and status["shared_demo_norace"] == TIME_BUDGET,
              f"end to end: no scord run after the budget: {status}")


def match_example(check):
    """--match-report on the bundled example's own tags (no causes) with canned reports."""
    import contextlib
    import io
    import tempfile
    source = REPO / "examples" / "racy_histogram.cu"
    name = source.name
    races = {
        "A": ("atomic_vs_plain", "shared", [access(33, "read", name),
                                            access(112, "atomic", "device_atomic_functions.hpp", "gpu",
                                                   [{"file": "/w/examples/" + name, "line": 29}])]),
        "B": ("unsynchronized_blocks", "global", [access(36, "write", name), access(36, "read", name)]),
        "C": ("unsynchronized_blocks", "global", [access(36, "write", name), access(36, "write", name)]),
    }
    read_read = ("unsynchronized_blocks", "global", [access(36, "read", name), access(36, "read", name)])
    cases = [
        ([races["A"], races["B"], races["C"]], 0, "3/3 found"),
        ([races["A"], races["B"], read_read], 1, "2/3 found, missed C, 1 false alarm"),
        (None, 1, "no report: "),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for reported, want_rc, want in cases:
            report = Path(tmp) / "report.json"
            report.write_text(json.dumps(scord_report(*reported)) if reported is not None else "{")
            args = argparse.Namespace(match_report=str(report), source=str(source))
            with contextlib.redirect_stdout(io.StringIO()) as console:
                rc = main_match_report(args)
            first = console.getvalue().split("\n")[0]
            check(rc == want_rc and first.startswith(want),
                  f"example report: want rc {want_rc} and '{want}', got {rc}: {console.getvalue()}")


def hang_example(check):
    """A run past its limit: the cuda-gdb on PATH (here a stand-in that echoes what it
    is asked) is asked about the program, not its launcher, before both are killed."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        fake = Path(tmp) / "cuda-gdb"
        fake.write_text("#!/bin/sh\necho \"called: $*\"\n")
        fake.chmod(0o755)
        saved = os.environ.get("PATH", "")
        os.environ["PATH"] = f"{tmp}:{saved}"
        try:
            run = run_command(["sh", "-c", "sleep 30; true"], 0.5, str(Path(tmp) / "prog"))
        finally:
            os.environ["PATH"] = saved
        hang = Path(tmp) / "prog.hang.txt"
        text = hang.read_text() if hang.is_file() else ""
        leaves = re.findall(r"^== pid (\d+)$", text, re.MULTILINE)
        check(run.status.startswith("timeout") and len(leaves) == 1,
              f"a timeout reads the one program of its process group with cuda-gdb: {run.status}, {text[:200]!r}")
        check(text.count("called: ") == 1 and "-ex info cuda lanes -ex cuda lane 0 -ex bt 4" in text
              and "-ex cuda lane 31 -ex bt 4 -ex x/2i $pc -ex info registers R15" in text,
              f"once, for the warp's lanes and then each lane of it: {text!r}")


def self_test():
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}")

    summary = ("scord: 2 modules: 1 loaded from scord's PTX (0 instrumented), 1 unchecked (no PTX), "
               "0 fell back to the original code; 9 kernel launches (0 checked), 0 graph launches "
               "(0 issued node by node, their kernels counted above)\n"
               "scord:   module 1 (cuLibraryLoadData) loaded uninstrumented: the driver rejected the "
               "instrumented PTX (CUDA_ERROR_INVALID_PTX)\n"
               "scord:   module 2 (cuModuleLoadData, cubin) unchecked: no PTX\n"
               "scord:     unchecked kernel k\n")
    check(len(unchecked_modules(summary)) == 2 and unchecked_modules(summary)[0].endswith("(CUDA_ERROR_INVALID_PTX)"),
          f"modules left unchecked are found in the summary: {unchecked_modules(summary)}")
    check(unchecked_modules(summary.split("\n")[0]) == [], "a summary with nothing unchecked names no module")
    torch_like = ("scord: 2 modules: 1 loaded from scord's PTX (1 instrumented), 1 unchecked (no PTX), "
                  "0 fell back to the original code; 2 kernel launches (1 checked)\n"
                  "scord:   module 1 (cuLibraryLoadData, fat binary wrapper: sm_90 ELF) unchecked: it holds no PTX "
                  "that a compute_90 device can JIT\n")
    check(unchecked_modules(torch_like, no_ptx_ok=True) == [] and len(unchecked_modules(torch_like)) == 1,
          "SCORD-UNCHECKED: no-ptx excuses a library's machine code, and only with it")
    check(unchecked_modules(torch_like.replace("(1 instrumented)", "(0 instrumented)"), no_ptx_ok=True) != [],
          "but not when nothing was instrumented")
    check(parse_program("x", "// SCORD-UNCHECKED: no-ptx\n").no_ptx_ok and
          parse_program("x", "// SCORD-UNCHECKED: all\n").errors != [], "SCORD-UNCHECKED takes only no-ptx")
    good = parse_program("demo_race", SELF_TEST_GOOD)
    check(good.errors == [], f"good program parses without errors: {good.errors}")
    check(good.expect_count == 3 and good.category == 1, "header EXPECT and CATEGORY")
    check(good.run_args == ["--dups", "3"], f"SCORD-RUN arguments: {good.run_args}")
    opts = parse_program("global_opts_norace", "// SCORD-CATEGORY: 14\n// SCORD-EXPECT: no race\n"
                         "// SCORD-OPTIONS: --triton-ptx true\nrs_done();\n")
    bad_opts = parse_program("global_opts_norace", "// SCORD-CATEGORY: 14\n// SCORD-EXPECT: no race\n"
                             "// SCORD-OPTIONS: triton-ptx true\nrs_done();\n")
    check(opts.scord_options == ["--triton-ptx", "true"] and not opts.errors
          and any("SCORD-OPTIONS must be scord options" in e for e in bad_opts.errors),
          f"SCORD-OPTIONS: {opts.scord_options} {opts.errors} / {bad_opts.errors}")
    check(good.prints_done, "DONE detected")
    a, b, c = good.races.get("A"), good.races.get("B"), good.races.get("C")
    check(a and a.cause == "missing_barrier" and a.space == "shared"
          and a.ends == [(8, "write"), (9, "read")], f"race A: {a}")
    check(b and b.ends == [(10, "atomic.cta"), (10, "atomic.cta")] and b.space == "global",
          f"race B, both ends on one line: {b}")
    check(c and c.ends == [(11, "read"), (11, "write")], f"race C: {c}")
    two = parse_program("two", "// SCORD-EXPECT: 2 races\n// SCORD-CAUSE: A missing_barrier\n"
                        "// SCORD-CAUSE: B missing_barrier\n"
                        "x += 1; // race(A) read,write global race(B) write,write global\n")
    check(two.errors == [] and len(two.races) == 2, f"two tags on one line: {two.errors}")
    for text, want in SELF_TEST_BAD:
        p = parse_program("bad", text)
        check(any(want in e for e in p.errors), f"malformed input reports '{want}': got {p.errors}")

    # scord reports against the expectations.
    exact = scord_report(
        ("missing_barrier", "shared", [access(9, "read"), access(8, "write")]),
        ("atomic_scope", "global", [access(10, "atomic", scope="cta"), access(10, "atomic", scope="cta")]),
        ("unsynchronized_blocks", "global", [access(11, "write"), access(11, "read")]),
        ("unsynchronized_blocks", "global", [access(11, "read"), access(11, "write")]))
    r = compare(good.races, scord_races(exact, good.source))
    check([f["id"] for f in r["found"]] == ["A", "B", "C"] and not r["missed"] and not r["false_alarms"],
          f"exact report: all found, duplicates fold: {r}")
    r = compare(good.races, scord_races(scord_report(
        ("missing_barrier", "shared", [access(9, "read"), access(7, "write")]),
        ("missing_barrier", "shared", [access(7, "write"), access(9, "read")])), good.source))
    check([m["id"] for m in r["missed"]] == ["A", "B", "C"] and len(r["false_alarms"]) == 1,
          f"wrong line: a miss and one false alarm however its ends are ordered: {r}")
    r = compare(good.races, scord_races(scord_report(
        ("missing_syncwarp", "shared", [access(9, "read"), access(8, "write")])), good.source))
    check("A" in [m["id"] for m in r["missed"]] and len(r["false_alarms"]) == 1
          and "expects missing_barrier" in r["false_alarms"][0], f"wrong cause: miss + false alarm: {r}")
    r = compare(good.races, scord_races(scord_report(
        ("missing_barrier", "global", [access(9, "read"), access(8, "write")])), good.source))
    check("A" in [m["id"] for m in r["missed"]] and len(r["false_alarms"]) == 1, f"wrong space: {r}")
    r = compare(good.races, scord_races(scord_report(
        ("atomic_scope", "global", [access(10, "atomic", scope="gpu"), access(10, "atomic", scope="cta")])),
        good.source))
    check("B" in [m["id"] for m in r["missed"]], f"wrong atomic scope is a miss: {r}")
    loose = parse_program("demo_race", SELF_TEST_GOOD.replace("atomic.cta,atomic.cta", "atomic,atomic"))
    r = compare(loose.races, scord_races(scord_report(
        ("atomic_scope", "global", [access(10, "atomic", scope="gpu"), access(10, "atomic.cta")])),
        loose.source))
    check([f["id"] for f in r["found"]] == ["B"], f"unscoped tag accepts any scope: {r}")
    inl = [{"file": "/x/cub/block_reduce.cuh", "line": 40, "function": "Sum"},
           {"file": "/w/tests/races/demo_race.cu", "line": 9, "function": "k"}]
    r = compare(good.races, scord_races(scord_report(
        ("missing_barrier", "shared", [access(184, "read", file="/x/cub/warp.cuh", inlined=inl),
                                       access(8, "write", file="/w/tests/races/demo_race.cu")])),
        good.source))
    check([f["id"] for f in r["found"]] == ["A"], f"inlined frames resolve to the program's line: {r}")
    r = compare(good.races, scord_races(scord_report(
        ("missing_barrier", "shared", [access(184, "read", file="/x/cub/warp.cuh"), access(8, "write")])),
        good.source))
    check(len(r["false_alarms"]) == 1 and "warp.cuh:184" in r["false_alarms"][0],
          f"a report inside a header is a false alarm naming the header: {r}")
    r = compare(good.races, scord_races(scord_report(
        ("missing_barrier", "shared", [access(None, "read", file=None), access(8, "write")])), good.source))
    check(len(r["false_alarms"]) == 1 and "ptx line 100" in r["false_alarms"][0],
          f"no line info: false alarm with the PTX line: {r}")
    norace = parse_program("demo_norace", "// SCORD-EXPECT: no race\n")
    r = compare(norace.races, scord_races(scord_report(
        ("same_store_lanes_benign", "shared", [access(5, "write"), access(5, "write")])), "demo_norace.cu"))
    check(not r["false_alarms"], f"info-level reports are not false alarms: {r}")
    r = compare(norace.races, scord_races(scord_report(
        ("strong_vs_rmw", "global", [access(5, "write"), access(6, "atomic", scope="gpu")])), "demo_norace.cu"))
    check(len(r["false_alarms"]) == 1, f"warnings count as false alarms: {r}")
    r = compare(norace.races, scord_races(scord_report(
        ("grid_completion", "global", [access(5, "write"), access(6, "read")])), "demo_norace.cu"),
        warnings_apart=True)
    check(not r["false_alarms"] and len(r["warnings"]) == 1, f"warnings apart: {r}")
    r = compare(norace.races, scord_races(scord_report(
        ("grid_dependency", "global", [access(5, "write"), access(6, "read")])), "demo_norace.cu"),
        warnings_apart=True)
    check(len(r["false_alarms"]) == 1 and not r["warnings"], f"errors stay false alarms: {r}")
    copy = parse_program("copy_race", "// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A unordered_streams\n"
                         "  t[i] = 1; // race(A) write global\n"
                         "  cudaMemcpyAsync(h, t, n, k, s2); // race(A) copy.read global\n")
    check(copy.errors == [], f"copy tags: {copy.errors}")
    by_copy = {"kind": "read", "scope": None, "file": None, "line": None, "ptx_line": None,
               "inlined_at": [], "who": "copy"}
    for accesses, want in (([by_copy, access(3, "write", "copy_race.cu")], True),
                           ([access(3, "write", "copy_race.cu"), dict(by_copy, kind="write")], False),
                           ([access(4, "read", "copy_race.cu"), access(3, "write", "copy_race.cu")], False)):
        r = compare(copy.races, scord_races(scord_report(("unordered_streams", "global", accesses)),
                                            "copy_race.cu"))
        check(bool(r["found"]) == want and bool(r["false_alarms"]) != want,
              f"a copy's end matches by its kind alone ({accesses}): {r}")
    try:
        scord_races({"tool": "scord", "schema": "scord-report/2", "races": []}, "demo_norace.cu")
        check(False, "a report of another schema number is refused")
    except ValueError:
        check(True, "a report of another schema number is refused")
    div = parse_program("div", "// SCORD-EXPECT: 1 race\n// SCORD-CAUSE: A barrier_divergence\n"
                        "  __syncthreads(); // race(A) barrier\n  __syncthreads(); // race(A) barrier\n")
    check(div.errors == [], f"barrier divergence tags: {div.errors}")
    for ends, want in (([access(3, "barrier", "div.cu")], True),
                       ([access(3, "barrier", "div.cu"), access(4, "barrier", "div.cu")], True),
                       ([access(3, "barrier", "div.cu"), access(None, "exit", None)], True),
                       ([access(5, "barrier", "div.cu")], False), ([], False)):
        r = compare(div.races, scord_races(scord_report(("barrier_divergence", None, ends)), "div.cu"))
        check(bool(r["found"]) == want, f"barrier divergence with ends {[e['line'] for e in ends]}: {r}")

    # racecheck logs.
    rc = parse_racecheck(RACECHECK_LOG, "demo_race.cu")
    check(len(rc) == 5, f"racecheck: 5 access pairs parsed: {[x.text for x in rc]}")
    check(rc and rc[0].ends[0][:2] == (8, "write") and rc[0].ends[1][:2] == (9, "read")
          and rc[0].severity == "error", f"racecheck analysis pair: {rc[:1]}")
    check(len(rc) > 2 and rc[2].ends[0][2] == "x.cuh:586", f"racecheck -G style location: {rc[2:3]}")
    check(len(rc) > 3 and rc[3].ends[0][2] == "no line info", f"racecheck without line info: {rc[3:4]}")
    check(len(rc) > 4 and rc[4].ends[1][:2] == (9, "read") and rc[4].severity == "warn",
          f"racecheck hazard format: {rc[4:5]}")
    r = compare_racecheck(good, rc)
    check([f["id"] for f in r["found"]] == ["A"] and not r["missed"] and len(r["false_alarms"]) == 3,
          f"racecheck comparison (shared only, no causes): {r}")
    r = compare_racecheck(good, [])
    check([m["id"] for m in r["missed"]] == ["A"], f"racecheck expects only shared races: {r}")

    # The PTX check.
    by_line = ptx_lines(PTX_SAMPLE, "demo_race.cu")
    check([k for k, _, _ in by_line.get(11, [])] == ["read", "write"],
          f"PTX: predicated load and an inlined store attribute to line 11: {by_line.get(11)}")
    check(check_ptx(good, PTX_SAMPLE) == [], f"PTX check of the demo: {check_ptx(good, PTX_SAMPLE)}")
    wrong = parse_program("demo_race", SELF_TEST_GOOD.replace("race(A) read shared", "race(A) write shared"))
    check(len(check_ptx(wrong, PTX_SAMPLE)) == 1, "PTX check finds a wrong kind")
    check(ptx_class("cp.async.cg.shared.global [%r1], [%rd2], 16, 16;") == ("write", "shared")
          and ptx_class("cp.async.commit_group;") is None
          and ptx_class("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 256, [%r4];")
          == ("write", "shared")
          and ptx_class("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 512;") == ("write", "global")
          and ptx_class("cp.async.bulk.commit_group;") is None
          and ptx_class("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                        " [%r1], [%rd1, {%r2}], [%r3];") == ("write", "shared")
          and ptx_class("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r2, %r3}], [%r1];")
          == ("write", "global")
          and ptx_class("cp.async.bulk.prefetch.tensor.2d.L2.global [%rd1, {%r2, %r3}];") is None,
          "PTX: a cp.async is a write of shared memory, a bulk or tensor copy of its destination; groups"
          " and prefetches are not tagged")
    check(requirement_met("sm_90", "9.0") and not requirement_met("sm_90", "8.0")
          and requirement_met("sm_90", "") and requirement_met("", "7.5"), "SCORD-REQUIRES decisions")

    end_to_end(check)
    match_example(check)
    hang_example(check)

    def result(status, native, scord, found=0, missed=0, alarms=0):
        tool = {"found": [{}] * found, "missed": [{}] * missed, "false_alarms": ["x"] * alarms}
        return {"status": status, "runs": {"native": {"status": native}, "scord": {"status": scord}},
                "tools": {"scord": tool}}
    line = corpus_line([result("pass", "ok", "ok", found=2), result("scord raised 1 false alarm(s)", "ok", "ok", alarms=1),
                        result("scord run: timeout after 150 s", "ok", "timeout after 150 s", missed=1),
                        result("scord run: killed by signal 11", "ok", "killed by signal 11"),
                        result("native run: exit 1; scord run: exit 1", "exit 1", "exit 1"),
                        result("skipped: CuPy does not import", "ok", "")])
    check(line == "real programs: 1 of 5 passed, 1 false alarms, 1 crashes, 1 hangs, 2 of 3 races found",
          f"the corpus line counts passes, false alarms, crashes, hangs and races: {line}")

    # Every program of the suite: its tags and the suite's rules.
    for suite in (SUITE_DIR, REAL_DIR):
        programs = load_programs(suite_dir=suite)
        check(len(programs) > 0, f"programs found in {suite}")
        readme = (suite / "README.md").read_text() if (suite / "README.md").is_file() else ""
        for name, errs in sorted(lint_suite(programs, readme).items()):
            check(not errs, f"{name}: " + "; ".join(errs))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", help="program names (default: all of tests/races)")
    ap.add_argument("--build-dir", default="build", help="the BUILD of `make race-suite` (default build)")
    ap.add_argument("--out", help="folder for race_suite.json, race_suite.md and logs/")
    ap.add_argument("--scord", help="the scord launcher (default BUILD/bin/scord)")
    ap.add_argument("--racecheck", action="store_true", help="also run compute-sanitizer racecheck")
    ap.add_argument("--compute-sanitizer", default="compute-sanitizer", help="compute-sanitizer command")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run (default 120)")
    ap.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 8),
                    help="programs run at once (default: the CPUs, at most 8)")
    ap.add_argument("--budget", type=float,
                    help="seconds after which no program or run starts; programs not run "
                    "then fail as time-budget")
    ap.add_argument("--tsv", help="file for one row per program (default OUT/race_suite.tsv)")
    ap.add_argument("--match-report", metavar="JSON",
                    help="compare this scord JSON report with the tags of --source; no GPU")
    ap.add_argument("--source", help="the tagged source file of --match-report")
    ap.add_argument("--compute-capability", help="the GPU's, e.g. 9.0, for SCORD-REQUIRES "
                    "(default: what nvidia-smi says)")
    ap.add_argument("--check-ptx", action="store_true",
                    help="check the tags against BUILD/races/ptx/*.ptx (make race-suite-ptx); no GPU")
    ap.add_argument("--self-test", action="store_true", help="test the parser and comparisons; no GPU")
    ap.add_argument("--warnings-apart", action="store_true",
                    help="a warning-level report that matches no tagged race is listed as a warning, "
                    "not a false alarm (the real-programs corpus: no false alarm at error level)")
    ap.add_argument("--corpus-line", metavar="FILE",
                    help="write the corpus's one-line total (real programs: N of M passed, F false "
                    "alarms, C crashes, H hangs, R of E races found) to FILE")
    ap.add_argument("--suite-dir", default=str(SUITE_DIR),
                    help="the tagged programs (default tests/races; tests/real is the real-programs "
                    "corpus, built by make real-programs into BUILD/real)")
    args = ap.parse_args()
    suite_dir = Path(args.suite_dir).resolve()
    args.binaries = suite_dir.name  # `make race-suite` builds into BUILD/races, `make real-programs` into BUILD/real
    if args.self_test:
        return self_test()
    if args.check_ptx:
        return main_check_ptx(args)
    if args.match_report:
        if not args.source:
            ap.error("--match-report needs --source")
        return main_match_report(args)
    if not args.out:
        ap.error("--out is required to run the suite")
    args.scord = args.scord or str(Path(args.build_dir) / "bin" / "scord")
    return main_run(args, suite_dir)


if __name__ == "__main__":
    sys.exit(main())
