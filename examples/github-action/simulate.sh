#!/bin/sh
# Run the GitHub Action's step (scripts/github_action.py, what action.yml runs) on the git
# repository of the current folder, with a simulated event: the sample event file of this
# folder, its @BASE@ and @HEAD@ filled with commits of the repository.
#
#   examples/github-action/simulate.sh [push|pull_request|workflow_dispatch] [BASE [HEAD]]
#
# BASE defaults to HEAD~1 (the commit before the push, the pull request's base), HEAD to
# HEAD. INPUT_FAIL_ON, INPUT_ARGS, INPUT_SCAN, INPUT_JIE... are read from the environment as
# the action passes its inputs; WUKONG_LINT names the executable (default: wukong-lint).
# Prints the step's output (annotations), then its outputs and job summary; exits with the
# step's exit code. Everything is written to a temporary folder it names (the SARIF file
# too, unless INPUT_SARIF_FILE says where): nothing in the repository.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
event=${1:-push}
if [ ! -f "$here/$event.json" ]; then
    echo "simulate.sh: no sample event '$event' (push, pull_request, workflow_dispatch)" >&2
    exit 2
fi
base=$(git rev-parse --verify "${2:-HEAD~1}^{commit}")
head=$(git rev-parse --verify "${3:-HEAD}^{commit}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wukong-action.XXXXXX")
sed -e "s/@BASE@/$base/g" -e "s/@HEAD@/$head/g" "$here/$event.json" > "$tmp/event.json"
: > "$tmp/output"
code=0
GITHUB_EVENT_NAME=$event GITHUB_EVENT_PATH=$tmp/event.json GITHUB_WORKSPACE=$(pwd) \
    GITHUB_OUTPUT=$tmp/output GITHUB_STEP_SUMMARY=$tmp/summary.md RUNNER_TEMP=$tmp \
    INPUT_FAIL_ON=${INPUT_FAIL_ON:-high} INPUT_SARIF_FILE=${INPUT_SARIF_FILE:-$tmp/wukong-lint.sarif} \
    python3 "$here/../../scripts/github_action.py" || code=$?
echo "--- outputs ($tmp/output)"
cat "$tmp/output"
if [ -f "$tmp/summary.md" ]; then
    echo "--- job summary ($tmp/summary.md)"
    cat "$tmp/summary.md"
fi
exit "$code"
