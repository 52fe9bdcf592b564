"""check_sarif.py: every SARIF report of the report goldens (tests/golden/report/*.sarif.expected,
which test_report keeps equal to what scord writes) against scord's SARIF 2.1.0 subset
schema (sarif-2.1.0-subset.schema.json), and the rules the standard states in prose: a
result's ruleIndex names the rule its ruleId names, related locations have distinct
ids. Prints `N passed, N failed`; without python3-jsonschema it says so and passes
nothing (0 passed, 1 failed), as a missing install step must not look like a pass."""
import glob
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def rule_problems(log):
    problems = []
    for run in log.get("runs", []):
        rules = [r["id"] for r in run.get("tool", {}).get("driver", {}).get("rules", [])]
        for i, res in enumerate(run.get("results", [])):
            index, rid = res.get("ruleIndex", -1), res.get("ruleId")
            if index >= 0 and (index >= len(rules) or rules[index] != rid):
                problems.append(f"result {i}: ruleIndex {index} does not name ruleId {rid}")
            ids = [loc["id"] for loc in res.get("relatedLocations", []) if "id" in loc]
            if len(ids) != len(set(ids)):
                problems.append(f"result {i}: related locations share an id")
    return problems


def main():
    try:
        import jsonschema
    except ImportError:
        print("check_sarif: python3-jsonschema is not installed (.ci/run installs it)")
        print("0 passed, 1 failed")
        return 1
    schema = json.loads((HERE / "sarif-2.1.0-subset.schema.json").read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    passed = failed = 0
    files = sorted(glob.glob(str(ROOT / "tests/golden/report/*.sarif.expected")))
    # The schema refuses what SARIF refuses: a made-up property, a bad level.
    bad = {"runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}],
           "version": "2.1.0", "notSarif": 1}
    cases = [(f, json.loads(Path(f).read_text()), True) for f in files] + [("a made-up log", bad, False)]
    for name, log, want_valid in cases:
        errors = [e.message for e in validator.iter_errors(log)] + (rule_problems(log) if want_valid else [])
        if bool(errors) != want_valid:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {Path(name).name}: " + ("; ".join(errors[:3]) if errors else "accepted"))
    if not files:
        failed += 1
        print("FAIL no SARIF goldens found")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
