#!/usr/bin/env bash
# Creates the repository's Python environment (.venv at the repository root) with the wonderlab
# package installed editable, its test dependencies and the trainer's (torch, CPU): what
# test/python.test.ts and .ci/run use.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# --retries 0: on a machine whose default index is unreachable, fall through to the configured
# extra index at once instead of retrying it.
.venv/bin/pip install --disable-pip-version-check --retries 0 -q -e "python[test,train]"
