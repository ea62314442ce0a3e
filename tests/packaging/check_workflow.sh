#!/usr/bin/env bash
# The release workflow (.github/workflows/release.yml) is valid and keeps
# to its rule: every step is a known action (checkout, setup-python,
# upload-artifact) or runs one of the project's scripts or a named tool
# (cmake, ctest, cpack). actionlint checks it fully where it is installed
# (scripts/setup builds it with Go); without it, the YAML and the shape of
# the jobs are checked here.
#
#   check_workflow.sh SOURCE_DIR
set -euo pipefail
src=$1
workflow=$src/.github/workflows/release.yml
status=0
python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" - "$workflow" <<'PY' || status=1
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
assert on, "no triggers"
jobs = doc["jobs"]
assert {"linux", "macos", "windows"} <= set(jobs), f"jobs: {sorted(jobs)}"
actions = ("actions/checkout@", "actions/setup-python@", "actions/upload-artifact@")
tools = ("scripts/", "cmake", "ctest", "cpack")
for name, job in jobs.items():
    assert "runs-on" in job, f"{name}: no runs-on"
    for step in job["steps"]:
        if "uses" in step:
            assert step["uses"].startswith(actions), f"{name}: unexpected action {step['uses']}"
        else:
            first = step["run"].split()[0]
            assert first.startswith(tools), f"{name}: step runs {first!r}, not a project script or named tool"
print(f"workflow: {len(jobs)} jobs, every step a known action, a project script or a named tool")
PY
actionlint=$(command -v actionlint || true)
cache=${HEARTH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hearth}
[ -n "$actionlint" ] || [ ! -x "$cache/go-bin/actionlint" ] || actionlint=$cache/go-bin/actionlint
if [ -n "$actionlint" ]; then
    if (cd "$src" && "$actionlint" .github/workflows/release.yml); then
        echo "actionlint: ok"
    else
        status=1
    fi
else
    echo "actionlint not installed (scripts/setup builds it with Go): the checks above only"
fi
exit $status
