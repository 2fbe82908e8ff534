#!/usr/bin/env bash
# Creates the repository's Python environment (.venv at the repository root), or adds to it:
#   bash python/setup.sh          the wonderlab package (editable) and its tests' dependencies
#                                 (pytest, onnx, onnxruntime): the `test` extra
#   bash python/setup.sh --train  and the trainer's, torch (CPU, about 1 GB): the `train` extra,
#                                 for wonderlab.train, wonderlab.dqn and `wonderlab learn`
# The trainer's tests skip without torch; the test suite runs them, so .ci/run and vitest's global
# setup (test/support/python-env.ts) pass --train.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  "") extras="test" ;;
  --train) extras="test,train" ;;
  *)
    echo "usage: bash python/setup.sh [--train]   (--train: add torch, for the trainer)" >&2
    exit 2
    ;;
esac
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# --retries 0: on a machine whose default index is unreachable, fall through to the configured
# extra index at once instead of retrying it.
.venv/bin/pip install --disable-pip-version-check --retries 0 -q -e "python[$extras]"
