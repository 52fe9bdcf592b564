"""Shared by race_suite.py and bench.py: a command's output, and the commit a run
names in its report."""

import subprocess


def capture(cmd):
    """The command's stripped standard output, "" when it cannot run."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def commit_id(repo):
    """The commit of the tree at `repo`: its COMMIT file first, as in gpu_all.sh (a lent
    machine keeps the .git of an earlier copy of the tree: seen, 883c4e7's named in
    the reports of 2b8423c's run), else `git rev-parse HEAD`; "" when neither says."""
    if (repo / "COMMIT").is_file():
        commit = (repo / "COMMIT").read_text().split("\n")[0].strip()
        if commit:
            return commit + " (from the COMMIT file)"
    commit = capture(["git", "-C", str(repo), "rev-parse", "HEAD"])
    if commit and capture(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"]):
        commit += " (plus uncommitted changes)"
    return commit
