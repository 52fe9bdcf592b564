#!/usr/bin/env python3
"""bench.py: times the workloads of bench/workloads natively, under scord and under
compute-sanitizer racecheck, in one invocation, and reports scord's and racecheck's
slowdowns and scord's device memory as ratios (docs/benchmark.md).

Usage:
  bench.py [--build-dir build] [--out DIR] [--scord PATH] [--only NAME[,NAME...]]
           [--no-racecheck] [--timeout 120] [--budget SECONDS] [--iters 10] [--cuts]
  bench.py --self-test                                   (no GPU)

The workloads are built beforehand by `make bench-progs BUILD=<build-dir>` and scord by
`make BUILD=<build-dir>`. Writes DIR/bench.tsv, DIR/bench.md, DIR/bench.json and every
run's output under DIR/logs. Exits 1 if any row failed. Standard library only.
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from run_env import capture, commit_id

REPO = Path(__file__).resolve().parent.parent
WORKLOAD_DIR = REPO / "bench" / "workloads"

# Every workload, in the order they run. The racecheck runs come after all native and
# scord runs in this order too, cheapest first, so that a time budget cuts the slow
# ones (sgemm_tiled takes racecheck tens of seconds per launch) rather than the rest.
WORKLOADS = ("reduce_block", "histogram_shared", "scan", "transpose", "transpose_mbarrier", "bfs",
             "stencil_2d", "reduce_last_block", "histogram_locked", "work_queue", "radix_sort_scan", "nbody",
             "sgemm_tiled", "sgemm_cp_async")

WARMUP = 1
# racecheck runs one timed iteration and no warm-up: its launches are slow enough.
RACECHECK_ITERS = 1
RACECHECK_WARMUP = 0
# No run is started with less than this left of the budget.
MIN_RUN_TIMEOUT = 15.0
MIB = 1 << 20

# SPEC.md's quality bars.
KERNEL_BAR = 2.0
MEMORY_BAR = 1.0
RACECHECK_BAR = 100.0
RACECHECK_BAR_WORKLOADS = ("sgemm_tiled", "reduce_block", "histogram_shared")

COLUMNS = ("workload", "native_kernel_ms", "scord_kernel_ms", "racecheck_kernel_ms", "scord_x",
           "racecheck_x", "racecheck_over_scord", "native_wall_s", "scord_wall_s",
           "racecheck_wall_s", "app_mb", "scord_extra_mem_mb", "mem_overhead_x", "scord_races",
           "output_identical", "result")
RATIO_COLUMNS = ("scord_x", "racecheck_x", "racecheck_over_scord", "mem_overhead_x")


# ---------------------------------------------------------------------------------
# --cuts: scord again with its hot path cut at each named point (scord --cut, in the
# order the access path reaches them), and whole but without static pruning: the
# attribution of the kernel time, as docs/benchmark.md describes.
CUT_POINTS = ("hooks", "access", "grouping", "shadow")
CUT_MODES = tuple(f"cut-{p}" for p in CUT_POINTS) + ("no-prune",)

# Figures: a value, or a lower bound where a run was cut short


@dataclass
class Figure:
    value: float
    at_least: bool = False


def ratio(num, den):
    """num / den; a lower bound when num is one. None when either is missing, or the
    denominator is a bound (the quotient would be bounded in no direction)."""
    if num is None or den is None or den.at_least or den.value <= 0:
        return None
    return Figure(num.value / den.value, num.at_least)


def geomean(figures):
    """The geometric mean of the figures present, a lower bound if any of them is one;
    None if none is present or one is not positive (no geometric mean exists)."""
    present = [f for f in figures if f is not None]
    if not present or any(f.value <= 0 for f in present):
        return None
    value = math.exp(sum(math.log(f.value) for f in present) / len(present))
    return Figure(value, any(f.at_least for f in present))


def fmt(fig, decimals=None):
    """A figure for the tables: '-' when missing, '>' before a lower bound. Without
    decimals, the precision follows the size (4 decimals below 1, none from 1000)."""
    if fig is None:
        return "-"
    v = fig.value
    if decimals is None:
        a = abs(v)
        decimals = 4 if a < 1 else 2 if a < 100 else 1 if a < 1000 else 0
    return (">" if fig.at_least else "") + f"{v:.{decimals}f}"


def figure_json(fig):
    return None if fig is None else {"value": fig.value, "at_least": fig.at_least}


# ---------------------------------------------------------------------------------
# Parsing what the workloads, scord and racecheck print

BENCH_FIELDS = {"name": str, "iters": int, "kernel_ms_median": float, "kernel_ms_min": float,
                "app_bytes": int, "dev_used_bytes": int}


def parse_bench_line(stdout):
    """The fields of the workload's `bench name=... ` line, or None if it printed none
    or a malformed one. `launches` (kernel launches of the whole process) is optional."""
    found = None
    for line in stdout.splitlines():
        if line.startswith("bench "):
            found = line
    if found is None:
        return None
    fields = dict(tok.split("=", 1) for tok in found.split()[1:] if "=" in tok)
    out = {}
    try:
        for key, kind in BENCH_FIELDS.items():
            out[key] = kind(fields[key])
        if "launches" in fields:
            out["launches"] = int(fields["launches"])
    except (KeyError, ValueError):
        return None
    return out


def comparable_output(stdout):
    """What must be identical between two runs: everything but the timing lines."""
    return "\n".join(line for line in stdout.splitlines()
                     if not line.startswith(("bench ", "bench-start ")))


SCORD_REPORTED_RE = re.compile(r"^scord: reported (\d+) races? \((\d+) hazards?\) in (\d+) of "
                               r"(\d+) kernel launch(?:es)?", re.M)
SCORD_LAUNCHES_RE = re.compile(r"^scord: \d+ modules?: .*?; (\d+) kernel launch(?:es)? "
                               r"\((\d+) checked\)", re.M)
SCORD_PARTIAL_RE = re.compile(r"^scord: (\d+) accesses outside tracked memory and (\d+) blocks "
                              r"without device-runtime state were not checked", re.M)
SCORD_UNSPLIT_RE = re.compile(r"^scord: (\d+) accesses were not checked: their words needed a "
                              r"history per byte", re.M)
SCORD_MODULE_PROBLEM_RE = re.compile(r"^scord:\s+module .*(?: loaded uninstrumented: | unchecked: ).*$",
                                     re.M)


def parse_scord_log(text):
    """scord's closing summary on stderr: races reported, kernel launches and how many
    were checked, accesses and blocks left unchecked, modules not instrumented."""
    out = {"races": None, "launches": None, "checked": None, "unchecked_accesses": 0,
           "unchecked_blocks": 0, "module_problems": SCORD_MODULE_PROBLEM_RE.findall(text)}
    m = SCORD_REPORTED_RE.search(text)
    if m:
        out["races"] = int(m.group(1))
    m = SCORD_LAUNCHES_RE.search(text)
    if m:
        out["launches"], out["checked"] = int(m.group(1)), int(m.group(2))
    m = SCORD_PARTIAL_RE.search(text)
    if m:
        out["unchecked_accesses"], out["unchecked_blocks"] = int(m.group(1)), int(m.group(2))
    m = SCORD_UNSPLIT_RE.search(text)
    if m:
        out["unchecked_accesses"] += int(m.group(1))
    return out


def parse_scord_json(text):
    """The counts of scord's JSON report (docs/report-format.md); ValueError if it is
    not one."""
    doc = json.loads(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("races"), list):
        raise ValueError("not a scord report (no races list)")
    summary = doc.get("summary") or {}
    return {"races": len(doc["races"]),
            "kernel_launches": summary.get("kernel_launches"),
            "unchecked_kernels": list(summary.get("unchecked_kernels") or []),
            "causes": sorted({r.get("cause", "?") for r in doc["races"]})}


RACECHECK_SUMMARY_RE = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, "
                                  r"(\d+) warnings?\)")


def parse_racecheck_summary(text):
    """Hazards racecheck displayed: 0 when it says nothing (racecheck prints its
    summary only when it found something), None when there is no log at all."""
    if text is None:
        return None
    m = RACECHECK_SUMMARY_RE.search(text)
    return int(m.group(1)) if m else 0


# ---------------------------------------------------------------------------------
# Running the programs


@dataclass
class Run:
    status: str                 # ok, exit N, killed by signal N, timeout, could not start: ...
    rc: object = None
    wall_s: float = 0.0
    stdout: str = ""
    stderr: str = ""
    timeout_s: float = 0.0
    capped: bool = False        # its timeout was cut short to fit the budget
    timing_started_s: object = None   # when the bench-start line came, from the start

    def summary(self):
        return {"status": self.status, "rc": self.rc, "wall_s": round(self.wall_s, 3),
                "timeout_s": self.timeout_s, "timeout_capped_by_budget": self.capped,
                "timing_started_s": None if self.timing_started_s is None
                else round(self.timing_started_s, 3)}


def run_command(cmd, timeout, log_prefix, capped=False, env=None):
    """Runs cmd in a process group of its own, so that a timeout ends the program that a
    launcher (scord, compute-sanitizer) started as well as the launcher. Stdout is read
    as it comes, to note when the timed runs began (the bench-start line)."""
    start = time.monotonic()
    err_path = Path(log_prefix + ".stderr")
    lines = []
    started = [None]
    with open(err_path, "w") as err:
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                                    errors="replace", start_new_session=True, env=env)
        except OSError as e:
            return Run(status=f"could not start: {e}", timeout_s=timeout, capped=capped)

        def read():
            for line in proc.stdout:
                if started[0] is None and line.startswith("bench-start "):
                    started[0] = time.monotonic() - start
                lines.append(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        wall = time.monotonic() - start
        # A child that outlives the program may hold stdout open: do not wait for it.
        reader.join(timeout=10)
    stdout = "".join(lines)
    Path(log_prefix + ".stdout").write_text(stdout)
    stderr = err_path.read_text(errors="replace")
    if timed_out:
        status = "timeout"
    elif proc.returncode < 0:
        status = f"killed by signal {-proc.returncode}"
    elif proc.returncode:
        status = f"exit {proc.returncode}"
    else:
        status = "ok"
    return Run(status=status, rc=proc.returncode, wall_s=wall, stdout=stdout, stderr=stderr,
               timeout_s=timeout, capped=capped, timing_started_s=started[0])


def find_tool(name):
    """A tool on PATH, else beside nvcc (CUDA's bin is not always on PATH); None if neither."""
    found = shutil.which(name)
    if found:
        return found
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    beside = Path(nvcc).parent / name
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def environment(compute_sanitizer):
    gpus = capture(["nvidia-smi", "--query-gpu=name,memory.total,driver_version,compute_cap",
                    "--format=csv,noheader"]).splitlines()
    smi = capture(["nvidia-smi"])
    cuda = re.search(r"CUDA Version: ([0-9.]+)", smi)
    nvcc = re.search(r"release [0-9.]+, V[0-9.]+", capture([find_tool("nvcc") or "nvcc", "--version"]))
    cs = capture([compute_sanitizer, "--version"]).splitlines() if compute_sanitizer else []
    cs_version = next((m.group(0) for m in map(re.compile(r"Version [0-9.]+").search, cs) if m), "")
    commit = commit_id(REPO)
    return {
        "gpus": gpus or ["unknown (nvidia-smi gave nothing)"],
        "driver_cuda": cuda.group(1) if cuda else "unknown",
        "nvcc": "nvcc " + nvcc.group(0) if nvcc else "nvcc unknown (not found)",
        "compute_sanitizer": cs_version or ("not found" if not compute_sanitizer else "unknown"),
        "commit": commit or "unknown",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "host": f"{platform.system()} {platform.release()} {platform.machine()}, "
                f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
    }


# ---------------------------------------------------------------------------------
# One workload's row


@dataclass
class Row:
    name: str
    runs: dict = field(default_factory=dict)       # mode -> Run
    skipped: dict = field(default_factory=dict)    # mode -> why it was not run
    scord_log: dict = field(default_factory=dict)
    scord_report: object = None                    # parse_scord_json's dict
    scord_report_error: str = ""
    racecheck_hazards: object = None


def kernel_figure(run, bench):
    """The median kernel time of a run; for a run killed during its one timed iteration,
    a lower bound: how long that iteration had run."""
    if bench is not None:
        return Figure(bench["kernel_ms_median"])
    if run is not None and run.status == "timeout" and run.timing_started_s is not None:
        return Figure(max(run.wall_s - run.timing_started_s, 0.0) * 1000.0, at_least=True)
    return None


def evaluate(row):
    """The row's figures, reasons for failing and result, from its runs."""
    native, scord, rc = (row.runs.get(m) for m in ("native", "scord", "racecheck"))
    nb, sb, rb = (parse_bench_line(r.stdout) if r else None for r in (native, scord, rc))
    reasons = []
    for mode in ("native", "scord", "racecheck"):
        why = row.skipped.get(mode)
        if why and why not in reasons:
            reasons.append(why)
    # native and scord must run to the end; a racecheck timeout is a lower bound.
    for mode, run, bench in (("native", native, nb), ("scord", scord, sb)):
        if run is None:
            continue
        if run.status == "timeout" and run.capped:
            reasons.append("time-budget")
        elif run.status != "ok":
            reasons.append(f"{mode}-" + run.status.replace(" ", "-"))
        elif bench is None:
            reasons.append(f"{mode}-no-bench-line")
    if rc is not None and rc.status != "timeout":
        if rc.status != "ok":
            reasons.append("racecheck-" + rc.status.replace(" ", "-"))
        elif rb is None:
            reasons.append("racecheck-no-bench-line")

    races = None
    same = None
    if scord is not None and scord.status == "ok":
        same = comparable_output(scord.stdout) == comparable_output(native.stdout)
        if not same:
            reasons.append("output-differs")
        log = row.scord_log
        if row.scord_report is None:
            reasons.append("scord-no-report")
            races = log.get("races")
        else:
            races = row.scord_report["races"]
        if races:
            reasons.append("scord-races")
        checked = row.scord_report["kernel_launches"] if row.scord_report else log.get("checked")
        wanted = sb.get("launches") if sb else None
        unchecked = (log.get("module_problems") or log.get("unchecked_accesses")
                     or log.get("unchecked_blocks")
                     or (row.scord_report and row.scord_report["unchecked_kernels"])
                     or checked is None or (wanted is not None and checked != wanted))
        if unchecked:
            reasons.append("scord-unchecked")

    nk, sk = kernel_figure(native, nb), kernel_figure(scord, sb)
    rk = kernel_figure(rc, rb)
    app = nb["app_bytes"] if nb else None
    extra = (sb["dev_used_bytes"] - nb["dev_used_bytes"]) if nb and sb else None

    def wall(run):
        if run is None or run.status.startswith("could not start"):
            return None
        return Figure(run.wall_s, at_least=run.status == "timeout")

    figures = {
        "native_kernel_ms": nk, "scord_kernel_ms": sk, "racecheck_kernel_ms": rk,
        "scord_x": ratio(sk, nk), "racecheck_x": ratio(rk, nk), "racecheck_over_scord": ratio(rk, sk),
        "native_wall_s": wall(native), "scord_wall_s": wall(scord), "racecheck_wall_s": wall(rc),
        "app_mb": Figure(app / MIB) if app is not None else None,
        "scord_extra_mem_mb": Figure(extra / MIB) if extra is not None else None,
        "mem_overhead_x": Figure(extra / app) if extra is not None and app else None,
    }
    return {"figures": figures, "races": races, "output_identical": same, "reasons": reasons,
            "result": "pass" if not reasons else "FAIL:" + "+".join(reasons),
            "bench": {"native": nb, "scord": sb, "racecheck": rb}}


def tsv_cells(name, ev):
    f = ev["figures"]
    same = ev["output_identical"]
    cells = [name]
    for col in COLUMNS[1:13]:
        decimals = 2 if col.endswith(("_s", "_mb")) else None
        cells.append(fmt(f[col], decimals))
    cells += ["-" if ev["races"] is None else str(ev["races"]),
              "-" if same is None else "yes" if same else "no", ev["result"]]
    return cells


def summarize(evals):
    """The geomean row and the bars, over the workloads that have each figure."""
    means = {col: geomean([ev["figures"][col] for ev in evals.values()]) for col in RATIO_COLUMNS}
    counts = {col: sum(ev["figures"][col] is not None for ev in evals.values()) for col in RATIO_COLUMNS}
    failed = [name for name, ev in evals.items() if ev["result"] != "pass"]
    races = [ev["races"] for ev in evals.values() if ev["races"] is not None]
    cells = ["geomean"] + ["-"] * 12 + [str(sum(races)) if races else "-", "-",
                                         "pass" if not failed else f"FAIL:{len(failed)}-rows-failed"]
    for col in RATIO_COLUMNS:
        cells[COLUMNS.index(col)] = fmt(means[col])
    mem = [ev["figures"]["mem_overhead_x"] for ev in evals.values() if ev["figures"]["mem_overhead_x"]]
    mem_max = max(mem, key=lambda f: f.value) if mem else None
    bars = [{"bar": f"scord kernel-time slowdown, geomean <= {KERNEL_BAR:g}x",
             "value": fmt(means["scord_x"]) + "x" if means["scord_x"] else "-",
             "met": None if not means["scord_x"] else means["scord_x"].value <= KERNEL_BAR},
            {"bar": f"scord device memory beyond the program's, worst workload <= {MEMORY_BAR:g}x "
                    "its allocations",
             "value": fmt(mem_max) + "x" if mem_max else "-",
             "met": None if not mem_max else mem_max.value <= MEMORY_BAR}]
    for name in RACECHECK_BAR_WORKLOADS:
        if name not in evals:
            continue
        r = evals[name]["figures"]["racecheck_over_scord"]
        bars.append({"bar": f"racecheck / scord kernel time on {name} >= {RACECHECK_BAR:g}x",
                     "value": fmt(r) + "x" if r else "-",
                     "met": None if r is None else r.value >= RACECHECK_BAR})
    return {"cells": cells, "geomeans": {c: figure_json(means[c]) for c in RATIO_COLUMNS},
            "workloads_in_geomean": counts, "failed": failed, "bars": bars}


# ---------------------------------------------------------------------------------
# Outputs


def write_tsv(path, rows):
    Path(path).write_text("".join("\t".join(r) + "\n" for r in [list(COLUMNS)] + rows))


def markdown_table(rows):
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def cut_figures(row):
    """Kernel time (ms) natively, under scord cut at each point, whole, and whole
    without pruning; None where a run is missing or printed no timing."""
    figs = {}
    for mode in ("native",) + CUT_MODES[:len(CUT_POINTS)] + ("scord", "no-prune"):
        run = row.runs.get(mode)
        bench = parse_bench_line(run.stdout) if run is not None and run.status == "ok" else None
        figs[mode] = Figure(bench["kernel_ms_median"]) if bench else None
    return figs


def cut_table(cuts):
    """The attribution table of --cuts: one row per workload, ms per point."""
    md = ["| workload | native | " + " | ".join(f"cut at {p}" for p in CUT_POINTS)
          + " | full | full, no pruning |", "|---" * (len(CUT_POINTS) + 4) + "|"]
    for name, figs in cuts.items():
        md.append(f"| {name} | " + " | ".join(fmt(f) if f is not None else "-" for f in figs.values()) + " |")
    return md


def write_markdown(path, env, settings, rows, summary, notes, cuts=None):
    yesno = {True: "yes", False: "no", None: "not measured"}
    budget = "none" if settings["budget_s"] is None else f"{settings['budget_s']:g} s"
    md = ["# scord benchmark", "",
          f"{'; '.join(env['gpus'])}; driver CUDA {env['driver_cuda']}; {env['nvcc']}; "
          f"compute-sanitizer {env['compute_sanitizer']}; commit {env['commit']}; {env['date']}.", "",
          f"Native and scord runs: `--iters {settings['iters']} --warmup {WARMUP}`; racecheck: "
          f"`--iters {RACECHECK_ITERS} --warmup {RACECHECK_WARMUP}`; timeout {settings['timeout_s']:g} s "
          f"per run; budget {budget}. Kernel times are medians of the timed "
          "runs of the whole pipeline (ms); `_x` columns are slowdowns against native; `>` marks a "
          "lower bound (a racecheck run stopped at its timeout); memory in MiB "
          "(docs/benchmark.md).", ""]
    md += markdown_table(rows + [summary["cells"]])
    md += ["", "The geomean row is over the workloads that have each ratio: "
           + geomean_coverage(summary, len(rows)) + "."]
    md += ["", "## Bars (SPEC.md)", "", "| bar | measured | met |", "|---|---|---|"]
    md += [f"| {b['bar']} | {b['value']} | {yesno[b['met']]} |" for b in summary["bars"]]
    if cuts:
        md += ["", "## Attribution by cut point (`--cuts`)", "",
               "Kernel time (ms) under scord with every check cut at a named point of the hot "
               "path (`scord --cut`: `hooks`, every runtime call returns at once; `access`, the "
               "access hook does; `grouping`, after the lanes are grouped and synchronization "
               "is noted; `shadow`, before the shadow words are read), whole, and whole without "
               "static pruning (`--prune=false`: every shared and global read checked). Each "
               "step's cost is the difference to the "
               "column before it.", ""]
        md += cut_table(cuts)
    if notes:
        md += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    Path(path).write_text("\n".join(md) + "\n")


def geomean_coverage(summary, workloads):
    return ", ".join(f"{col} {n} of {workloads}" for col, n in summary["workloads_in_geomean"].items())


def console_table(rows):
    widths = [max(len(r[i]) for r in [list(COLUMNS)] + rows) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                     for r in [list(COLUMNS)] + rows)


def row_notes(row, ev):
    """What a reader of the results needs to know about one row beyond its cells."""
    notes = []
    for mode, run in row.runs.items():
        if run.status == "timeout" and mode == "racecheck":
            what = ("its kernel time is how long the one timed iteration had run"
                    if run.timing_started_s is not None else "before its timed iteration began")
            notes.append(f"{row.name}: racecheck stopped after {run.timeout_s:g} s "
                         f"({'the budget' if run.capped else 'the timeout'}); {what}")
        elif run.status != "ok":
            tail = " / ".join(run.stderr.strip().splitlines()[-3:])
            notes.append(f"{row.name}: {mode} run: {run.status}" + (f": {tail}" if tail else ""))
    for mode, why in row.skipped.items():
        notes.append(f"{row.name}: {mode} run not made: {why}")
    if row.scord_report and row.scord_report["races"]:
        notes.append(f"{row.name}: scord reported {row.scord_report['races']} race(s) on a race-free "
                     f"workload (false alarms): {', '.join(row.scord_report['causes'])}")
    if row.scord_report_error:
        notes.append(f"{row.name}: scord's JSON report: {row.scord_report_error}")
    log = row.scord_log
    if log:
        if log.get("module_problems"):
            notes.append(f"{row.name}: " + "; ".join(p.strip() for p in log["module_problems"]))
        if log.get("unchecked_accesses") or log.get("unchecked_blocks"):
            notes.append(f"{row.name}: scord left {log['unchecked_accesses']} accesses and "
                         f"{log['unchecked_blocks']} blocks unchecked")
        sb = ev["bench"]["scord"]
        checked = row.scord_report["kernel_launches"] if row.scord_report else log.get("checked")
        if sb and sb.get("launches") is not None and checked != sb["launches"]:
            notes.append(f"{row.name}: scord checked {checked} of the program's {sb['launches']} "
                         "kernel launches")
    if row.racecheck_hazards:
        notes.append(f"{row.name}: racecheck displayed {row.racecheck_hazards} hazard(s)")
    return notes


# ---------------------------------------------------------------------------------
# The benchmark


def select(only):
    if not only:
        return list(WORKLOADS)
    wanted = [n for item in only for n in item.split(",") if n]
    unknown = sorted(set(wanted) - set(WORKLOADS))
    if unknown:
        raise SystemExit(f"bench: unknown workload(s): {', '.join(unknown)} "
                         f"(known: {', '.join(WORKLOADS)})")
    return [n for n in WORKLOADS if n in wanted]


class Budget:
    """Ends every run by the deadline, `seconds` from now (None: no deadline): a run
    gets the timeout or what is left, whichever is less, and none starts with less
    than MIN_RUN_TIMEOUT left."""

    def __init__(self, seconds, timeout):
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.timeout = timeout

    def next_timeout(self):
        """(timeout, capped) for the next run, or None when the budget is spent."""
        if self.deadline is None:
            return self.timeout, False
        left = self.deadline - time.monotonic()
        if left < MIN_RUN_TIMEOUT:
            return None
        return min(self.timeout, left), left < self.timeout


def run_mode(row, mode, cmd, budget, logs, env=None):
    slot = budget.next_timeout()
    if slot is None:
        row.skipped[mode] = "time-budget"
        print(f"{row.name} {mode}: not run (time-budget)", flush=True)
        return None
    run = run_command(cmd, slot[0], str(logs / f"{row.name}.{mode}"), capped=slot[1], env=env)
    row.runs[mode] = run
    bench = parse_bench_line(run.stdout)
    kernel = f", kernel {bench['kernel_ms_median']:g} ms" if bench else ""
    print(f"{row.name} {mode}: {run.status} in {run.wall_s:.2f} s{kernel}", flush=True)
    return run


def main_run(args):
    names = select(args.only)
    build = Path(args.build_dir)
    out = Path(args.out or build / "bench-results")
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    scord = args.scord or str(build / "bin" / "scord")
    scord_ok = shutil.which(scord) is not None
    sanitizer = find_tool(args.compute_sanitizer) if args.racecheck else None
    env_info = environment(find_tool(args.compute_sanitizer))
    budget = Budget(args.budget, args.timeout)
    timed = ["--iters", str(args.iters), "--warmup", str(WARMUP)]
    rows = {name: Row(name) for name in names}

    for name, row in rows.items():
        prog = build / "bench" / name
        if not prog.is_file():
            row.skipped["native"] = "not-built"
            print(f"{name}: {prog} is not built (make bench-progs BUILD={args.build_dir})", flush=True)
            continue
        native = run_mode(row, "native", [str(prog)] + timed, budget, logs)
        if native is None or native.status != "ok":
            continue
        if not scord_ok:
            row.skipped["scord"] = "no-scord"
            continue
        report = logs / f"{name}.scord.json"
        if report.exists():
            report.unlink()
        run = run_mode(row, "scord", [scord, "--json-file", str(report), "--", str(prog)] + timed,
                       budget, logs)
        if run is None:
            continue
        row.scord_log = parse_scord_log(run.stderr)
        try:
            row.scord_report = parse_scord_json(report.read_text())
        except (OSError, ValueError) as e:
            row.scord_report_error = str(e)
        if args.cuts and run.status == "ok":
            for mode in CUT_MODES:
                option = "--prune=false" if mode == "no-prune" else f"--cut={mode[4:]}"
                run_mode(row, mode, [scord, option, "--", str(prog)] + timed, budget, logs)

    if args.racecheck:
        for name, row in rows.items():
            if "native" not in row.runs or row.runs["native"].status != "ok":
                continue
            if not sanitizer:
                row.skipped["racecheck"] = "racecheck-not-found"
                continue
            log = logs / f"{name}.racecheck.log"
            cmd = [sanitizer, "--tool", "racecheck", "--racecheck-report", "analysis",
                   "--log-file", str(log), str(build / "bench" / name),
                   "--iters", str(RACECHECK_ITERS), "--warmup", str(RACECHECK_WARMUP)]
            if run_mode(row, "racecheck", cmd, budget, logs) is not None:
                row.racecheck_hazards = parse_racecheck_summary(
                    log.read_text(errors="replace") if log.exists() else None)

    evals = {name: evaluate(row) for name, row in rows.items()}
    cells = [tsv_cells(name, ev) for name, ev in evals.items()]
    summary = summarize(evals)
    notes = [n for name, row in rows.items() for n in row_notes(row, evals[name])]
    settings = {"iters": args.iters, "warmup": WARMUP, "racecheck_iters": RACECHECK_ITERS,
                "racecheck_warmup": RACECHECK_WARMUP, "timeout_s": args.timeout,
                "budget_s": args.budget, "racecheck": args.racecheck, "scord": scord,
                "compute_sanitizer": sanitizer, "build_dir": str(build)}
    cuts = {name: cut_figures(row) for name, row in rows.items()} if args.cuts else {}
    write_tsv(out / "bench.tsv", cells + [summary["cells"]])
    write_markdown(out / "bench.md", env_info, settings, cells, summary, notes, cuts)
    doc = {"environment": env_info, "settings": settings,
           "workloads": [{"name": name, "result": ev["result"], "reasons": ev["reasons"],
                          "figures": {k: figure_json(v) for k, v in ev["figures"].items()},
                          "scord_races": ev["races"], "output_identical": ev["output_identical"],
                          "bench_lines": ev["bench"],
                          "runs": {m: r.summary() for m, r in rows[name].runs.items()},
                          "not_run": rows[name].skipped, "scord_log": rows[name].scord_log,
                          "scord_report": rows[name].scord_report,
                          "racecheck_hazards": rows[name].racecheck_hazards,
                          "cuts_ms": {m: figure_json(f) for m, f in cuts.get(name, {}).items()}}
                         for name, ev in evals.items()],
           "geomean": summary["geomeans"], "workloads_in_geomean": summary["workloads_in_geomean"],
           "bars": summary["bars"], "notes": notes}
    (out / "bench.json").write_text(json.dumps(doc, indent=1) + "\n")

    print()
    print(console_table(cells + [summary["cells"]]))
    print(f"geomeans over: {geomean_coverage(summary, len(cells))}")
    print()
    for b in summary["bars"]:
        verdict = {True: "met", False: "not met", None: "not measured"}[b["met"]]
        print(f"bar: {b['bar']}: {b['value']} ({verdict})")
    for n in notes:
        print(f"note: {n}")
    passed = len(evals) - len(summary["failed"])
    print(f"\n{passed} of {len(evals)} workloads passed; results in {out}/bench.md")
    return 1 if summary["failed"] else 0


# ---------------------------------------------------------------------------------
# Self-test: the parsing, the figures and a whole run with stand-in programs, no GPU

CANNED_STDOUT = """\
bench-start name=scan
bench name=scan iters=10 kernel_ms_median=0.5000 kernel_ms_min=0.4800 app_bytes=134348800 \
dev_used_bytes=136314880 launches=33
checksum scan 0123456789abcdef
scan: ok (16777216 elements, total 125829120)
"""

CANNED_SCORD_LOG = """\
scord: 1 module: 1 loaded from scord's PTX (1 instrumented), 0 unchecked (no PTX), 0 fell back \
to the original code; 33 kernel launches (33 checked), 0 graph launches (0 issued node by node, their kernels counted above)
scord: reported 0 races (0 hazards) in 0 of 33 kernel launches; 0 suppressed
"""

CANNED_SCORD_LOG_BAD = """\
scord: 2 modules: 1 loaded from scord's PTX (0 instrumented), 1 unchecked (no PTX), 0 fell back \
to the original code; 1 kernel launch (0 checked), 0 graph launches (0 issued node by node, their kernels counted above)
scord:   module 1 (cudart, fatbin) loaded uninstrumented: no room for the runtime
scord:   module 2 (cudart, fatbin) unchecked: no PTX; rebuild with -gencode
scord: 12 accesses outside tracked memory and 3 blocks without device-runtime state were not checked
scord: 5 accesses were not checked: their words needed a history per byte and no split group \
was left (the device could not give one per word, or the words were in cached chunks: the pool had 65536)
scord: reported 2 races (9 hazards) in 1 of 1 kernel launch; 0 suppressed
"""

CANNED_RACECHECK = """\
========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at k(int *)+0x90 in x.cu:8
=========     and Read access at k(int *)+0x100 in x.cu:9 [508 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""

FAKE_PROGRAM = """\
#!%(python)s -S
# A stand-in workload: prints the canned lines of its name; FAKE_SLOW makes it sleep
# once its timed runs have begun, FAKE_SCORD changes its times and memory.
import json, os, sys, time
name = os.path.basename(sys.argv[0])
spec = json.loads(%(specs)r)[name]
slow, scord = os.environ.get("FAKE_SLOW") == name, os.environ.get("FAKE_SCORD") == "1"
iters = sys.argv[sys.argv.index("--iters") + 1]
print("bench-start name=" + name, flush=True)
if slow:
    time.sleep(30)
ms = spec["ms"] * (spec["scord_x"] if scord else 1)
used = spec["app"] + (spec["extra"] if scord else 0)
if scord and spec.get("scord_fails"):
    sys.exit(3)
launches = "" if spec.get("uncounted") else f" launches={spec['launches']}"
print(f"bench name={name} iters={iters} kernel_ms_median={ms:.4f} kernel_ms_min={ms:.4f} "
      f"app_bytes={spec['app']} dev_used_bytes={used}{launches}")
print(f"checksum {name} " + ("ffff" if scord and spec.get("differs") else "1234"))
sys.exit(spec.get("rc", 0))
"""

FAKE_SCORD = """\
#!%(python)s -S
# A stand-in for scord: runs the program with FAKE_SCORD=1, writes the canned report
# and summary of its name.
import json, os, subprocess, sys
specs = json.loads(%(specs)r)
args = sys.argv[1:]
report = args[args.index("--json-file") + 1] if "--json-file" in args else None
prog = args[args.index("--") + 1:]
spec = specs[os.path.basename(prog[0])]
p = subprocess.run(prog, env=dict(os.environ, FAKE_SCORD="1"))
checked = spec.get("checked", spec["launches"])
races = [{"cause": "missing_barrier"}] * spec.get("races", 0)
if report:
    with open(report, "w") as f:
        json.dump({"tool": "scord", "races": races,
                   "summary": {"races": len(races), "kernel_launches": checked,
                               "unchecked_kernels": []}}, f)
sys.stderr.write(f"scord: 1 module: 1 loaded from scord's PTX (1 instrumented), 0 unchecked "
                 f"(no PTX), 0 fell back to the original code; {spec['launches']} kernel launches "
                 f"({checked} checked), 0 graph launches (0 issued node by node, their kernels counted above)\\n"
                 f"scord: reported {len(races)} races (0 hazards) in 0 of {checked} kernel "
                 f"launches; 0 suppressed\\n")
sys.exit(p.returncode)
"""

FAKE_SANITIZER = """\
#!%(python)s -S
# A stand-in for compute-sanitizer: writes an empty log and runs the program at its
# native speed, except sgemm_tiled, which it makes outlast any timeout.
import os, subprocess, sys
args = sys.argv[1:]
log = args[args.index("--log-file") + 1]
prog = args[args.index("--log-file") + 2:]
open(log, "w").close()
env = dict(os.environ, FAKE_SLOW="sgemm_tiled")
sys.exit(subprocess.run(prog, env=env).returncode)
"""


def fake_specs():
    base = {"ms": 1.0, "scord_x": 1.5, "app": 64 * MIB, "extra": 32 * MIB, "launches": 11}
    specs = {name: dict(base) for name in WORKLOADS}
    specs["scan"].update(races=2)
    specs["bfs"].update(differs=True)
    specs["transpose"].update(checked=5)
    specs["stencil_2d"].update(rc=1)
    specs["histogram_shared"].update(scord_fails=True)
    specs["radix_sort_scan"].update(uncounted=True)
    return specs


def end_to_end(check):
    """main_run on stand-in workloads, scord and compute-sanitizer."""
    import contextlib
    import io
    import tempfile
    # The interpreter running this, not whatever `python3` is on PATH: faster to start.
    fill = {"python": sys.executable, "specs": json.dumps(fake_specs())}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "build" / "bench").mkdir(parents=True)
        (root / "build" / "bin").mkdir()
        for name in WORKLOADS:
            p = root / "build" / "bench" / name
            p.write_text(FAKE_PROGRAM % fill)
            p.chmod(0o755)
        for path, text in ((root / "build" / "bin" / "scord", FAKE_SCORD % fill),
                           (root / "compute-sanitizer", FAKE_SANITIZER % fill)):
            path.write_text(text)
            path.chmod(0o755)
        args = argparse.Namespace(build_dir=str(root / "build"), out=str(root / "out"), scord=None,
                                  only=None, racecheck=True, timeout=2.0, budget=None, iters=10,
                                  cuts=False, compute_sanitizer=str(root / "compute-sanitizer"))
        with contextlib.redirect_stdout(io.StringIO()) as console:
            rc = main_run(args)
        check(rc == 1, f"end to end: exit status 1 when a row fails (got {rc})")
        lines = (root / "out" / "bench.tsv").read_text().splitlines()
        check(lines[0].split("\t") == list(COLUMNS), f"end to end: TSV header: {lines[:1]}")
        rows = {c[0]: dict(zip(COLUMNS, c)) for c in (line.split("\t") for line in lines[1:])}
        check(list(rows) == list(WORKLOADS) + ["geomean"], f"end to end: rows in order: {list(rows)}")
        r = rows.get("reduce_block", {})
        check(r.get("result") == "pass" and r.get("scord_x") == "1.50" and r.get("racecheck_x") == "1.00"
              and r.get("app_mb") == "64.00" and r.get("scord_extra_mem_mb") == "32.00"
              and r.get("mem_overhead_x") == "0.5000" and r.get("scord_races") == "0"
              and r.get("output_identical") == "yes", f"end to end: a good row: {r}")
        u = rows.get("radix_sort_scan", {})
        check(u.get("result") == "pass", f"end to end: a workload that cannot count its launches passes: {u}")
        s = rows.get("sgemm_tiled", {})
        check(s.get("result") == "pass" and s.get("racecheck_kernel_ms", "").startswith(">")
              and s.get("racecheck_x", "").startswith(">")
              and s.get("racecheck_wall_s", "").startswith(">"),
              f"end to end: a racecheck timeout is a lower bound and passes: {s}")
        want = {"scan": "FAIL:scord-races", "bfs": "FAIL:output-differs",
                "transpose": "FAIL:scord-unchecked", "stencil_2d": "FAIL:native-exit-1",
                "histogram_shared": "FAIL:scord-exit-3"}
        for name, result in want.items():
            got = rows.get(name, {}).get("result")
            check(got == result, f"end to end: {name} gives {result}, got {got}")
        g = rows.get("geomean", {})
        check(g.get("scord_x") == "1.50" and g.get("result") == "FAIL:5-rows-failed"
              and g.get("racecheck_x", "").startswith(">"),
              f"end to end: the geomean row: {g}")
        md = (root / "out" / "bench.md").read_text()
        check("## Bars" in md and "| geomean |" in md and "racecheck stopped after" in md
              and f"scord_x {len(WORKLOADS) - 2} of {len(WORKLOADS)}" in md,
              "end to end: bench.md has the table, the bars and the notes")
        doc = json.loads((root / "out" / "bench.json").read_text())
        check(doc["workloads"][0]["figures"]["scord_x"]["value"] == 1.5
              and doc["workloads_in_geomean"]["scord_x"] == len(WORKLOADS) - 2,
              f"end to end: bench.json figures: {doc['workloads_in_geomean']}")
        check("reduce_block native: ok" in console.getvalue(), "end to end: progress is printed")

        args.cuts, args.racecheck, args.only, args.out = True, False, ["reduce_block"], str(root / "out-cuts")
        with contextlib.redirect_stdout(io.StringIO()):
            main_run(args)
        md = (root / "out-cuts" / "bench.md").read_text()
        row = [line for line in md.splitlines() if line.startswith("| reduce_block | ") and "cut" not in line]
        check("## Attribution by cut point" in md and len(row) == 2
              and row[-1].count("|") == len(CUT_POINTS) + 5 and " - " not in row[-1],
              f"end to end: --cuts times every point: {row}")
        doc = json.loads((root / "out-cuts" / "bench.json").read_text())
        check(set(doc["workloads"][0]["cuts_ms"]) == {"native", "scord"} | set(CUT_MODES),
              f"end to end: bench.json has the cut times: {doc['workloads'][0]['cuts_ms']}")
        args.cuts, args.racecheck = False, True

        args.budget, args.only, args.out = 0, ["reduce_block,scan"], str(root / "out2")
        with contextlib.redirect_stdout(io.StringIO()):
            main_run(args)
        lines = (root / "out2" / "bench.tsv").read_text().splitlines()
        check([line.split("\t")[-1] for line in lines[1:3]] == ["FAIL:time-budget"] * 2,
              f"end to end: a spent budget fails the rows not run: {lines}")


def self_test():
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}")

    b = parse_bench_line(CANNED_STDOUT)
    check(b == {"name": "scan", "iters": 10, "kernel_ms_median": 0.5, "kernel_ms_min": 0.48,
                "app_bytes": 134348800, "dev_used_bytes": 136314880, "launches": 33},
          f"bench line parsed: {b}")
    check(parse_bench_line("checksum x 1\n") is None, "no bench line: None")
    check(parse_bench_line("bench name=x iters=ten kernel_ms_median=1 kernel_ms_min=1 "
                           "app_bytes=1 dev_used_bytes=1\n") is None, "malformed bench line: None")
    check(parse_bench_line("bench name=x iters=1 kernel_ms_median=1 kernel_ms_min=1 app_bytes=1 "
                           "dev_used_bytes=-5 extra=1\n")["dev_used_bytes"] == -5,
          "negative memory and extra fields are accepted")
    other = CANNED_STDOUT.replace("0.5000", "9.9000").replace("bench-start name=scan\n", "")
    check(comparable_output(CANNED_STDOUT) == comparable_output(other),
          "timing lines do not count in the comparison")
    check(comparable_output(CANNED_STDOUT) != comparable_output(other.replace("abcdef", "abcdee")),
          "a checksum does")

    log = parse_scord_log(CANNED_SCORD_LOG)
    check((log["races"], log["launches"], log["checked"], log["module_problems"]) == (0, 33, 33, []),
          f"scord summary: {log}")
    log = parse_scord_log(CANNED_SCORD_LOG_BAD)
    check((log["races"], log["launches"], log["checked"], log["unchecked_accesses"],
           log["unchecked_blocks"], len(log["module_problems"])) == (2, 1, 0, 17, 3, 2),
          f"scord summary with problems: {log}")
    check(parse_scord_log("")["races"] is None, "no summary: races unknown")
    rep = parse_scord_json(json.dumps({"races": [{"cause": "missing_barrier"}],
                                       "summary": {"kernel_launches": 4, "unchecked_kernels": ["k"]}}))
    check(rep == {"races": 1, "kernel_launches": 4, "unchecked_kernels": ["k"],
                  "causes": ["missing_barrier"]}, f"scord JSON: {rep}")
    try:
        parse_scord_json("[]")
        check(False, "a JSON array is not a scord report")
    except ValueError:
        check(True, "")
    check(parse_racecheck_summary(CANNED_RACECHECK) == 1, "racecheck summary")
    check(parse_racecheck_summary("========= COMPUTE-SANITIZER\n") == 0, "racecheck without hazards")
    check(parse_racecheck_summary(None) is None, "no racecheck log")

    check(ratio(Figure(10), Figure(4)) == Figure(2.5), "ratio")
    check(ratio(Figure(10, True), Figure(4)) == Figure(2.5, True), "a lower bound over a value is one")
    check(ratio(Figure(10), Figure(4, True)) is None, "a value over a lower bound is nothing")
    check(ratio(None, Figure(1)) is None and ratio(Figure(1), Figure(0)) is None, "missing or zero")
    g = geomean([Figure(2), Figure(8), None])
    check(g is not None and abs(g.value - 4) < 1e-12 and not g.at_least, f"geomean: {g}")
    g = geomean([Figure(2), Figure(8, True)])
    check(g is not None and g.at_least, "a geomean with a lower bound is one")
    check(geomean([None]) is None and geomean([Figure(1), Figure(-1)]) is None,
          "no geomean of nothing or of a non-positive value")
    check([fmt(Figure(0.03312)), fmt(Figure(12.345)), fmt(Figure(25000.4, True)), fmt(None),
           fmt(Figure(1.5), 2)] == ["0.0331", "12.35", ">25000", "-", "1.50"], "formatting")

    good = Row("scan", runs={"native": Run("ok", 0, 1.0, CANNED_STDOUT),
                             "scord": Run("ok", 0, 3.0, CANNED_STDOUT.replace("0.5000", "1.0000")),
                             "racecheck": Run("timeout", -9, 120.0, "bench-start name=scan\n",
                                              timeout_s=120.0, timing_started_s=20.0)},
               scord_log=parse_scord_log(CANNED_SCORD_LOG),
               scord_report={"races": 0, "kernel_launches": 33, "unchecked_kernels": [], "causes": []})
    ev = evaluate(good)
    f = ev["figures"]
    check(ev["result"] == "pass" and f["scord_x"] == Figure(2.0)
          and f["racecheck_kernel_ms"] == Figure(100000.0, True)
          and f["racecheck_over_scord"] == Figure(100000.0, True), f"evaluate a good row: {ev}")
    good.runs["racecheck"] = Run("timeout", -9, 120.0, "", timeout_s=120.0)
    ev = evaluate(good)
    check(ev["result"] == "pass" and ev["figures"]["racecheck_kernel_ms"] is None,
          f"a racecheck timeout before timing: no kernel figure, still a pass: {ev['result']}")
    good.scord_report = dict(good.scord_report, kernel_launches=32)
    check(evaluate(good)["result"] == "FAIL:scord-unchecked", "fewer checked launches than made")
    good.runs["native"] = Run("timeout", -9, 15.0, "", timeout_s=15.0, capped=True)
    check(evaluate(good)["reasons"][0] == "time-budget", "a native run cut by the budget")

    end_to_end(check)

    # The workloads: every source is listed, and names itself as its file.
    sources = sorted(p.stem for p in WORKLOAD_DIR.glob("*.cu"))
    check(sources == sorted(WORKLOADS), f"WORKLOADS lists bench/workloads/*.cu: {sources}")
    for name in sources:
        text = (WORKLOAD_DIR / (name + ".cu")).read_text()
        check(f'bench_init(&run, "{name}", argc, argv)' in text or f'_main(argc, argv, "{name}"' in text,
              f"{name}.cu calls bench_init, or the host side it shares, with its own name")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build", help="the BUILD of `make bench-progs` and of "
                    "scord (default build)")
    ap.add_argument("--out", help="folder for bench.tsv, bench.md, bench.json and logs/ "
                    "(default BUILD/bench-results)")
    ap.add_argument("--scord", help="the scord launcher (default BUILD/bin/scord)")
    ap.add_argument("--only", action="append", metavar="NAMES",
                    help="comma-separated workloads to run (default all); may be repeated")
    ap.add_argument("--cuts", action="store_true",
                    help="also time scord cut at each point of its hot path and without static "
                    "pruning, for the attribution table")
    ap.add_argument("--no-racecheck", dest="racecheck", action="store_false",
                    help="skip the compute-sanitizer racecheck runs")
    ap.add_argument("--compute-sanitizer", default="compute-sanitizer", help="compute-sanitizer command")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run (default 120); "
                    "a racecheck run stopped by it counts as a lower bound")
    ap.add_argument("--budget", type=float, help="seconds within which every run ends: a run "
                    "gets what is left if that is less than its timeout, and none starts with less "
                    f"than {MIN_RUN_TIMEOUT:g} s left (its row fails as time-budget)")
    ap.add_argument("--iters", type=int, default=10, help="timed runs natively and under scord "
                    "(default 10)")
    ap.add_argument("--self-test", action="store_true", help="test the parsing and the figures; no GPU")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.iters < 1:
        ap.error("--iters must be at least 1")
    return main_run(args)


if __name__ == "__main__":
    sys.exit(main())
