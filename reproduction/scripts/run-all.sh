#!/usr/bin/env bash
# The one-machine alternative to reproduction/scripts/lab.mjs (which plays the presets on a running lab):
# plays every preset at the sizes REPRODUCTION.md reports (Table 7.2 with all nine values of C)
# and writes each one's aggregates to reproduction/in-sample/<preset>.json, the earlier runs' folder.
# Several hours on 2 cores; run one line alone to redo one table. Then:
# node reproduction/scripts/history.mjs > reproduction/history.md (REPRODUCTION.md is the confirmation's, confirm.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
run() {
  local preset="$1"; shift
  echo "== $preset $*" >&2
  node --single-threaded-gc bin/wonderlab.mjs sweep run "$preset" --json --quiet "$@" > "reproduction/in-sample/$preset.json.tmp"
  mv "reproduction/in-sample/$preset.json.tmp" "reproduction/in-sample/$preset.json"
}
run thesis-7.1-seating --deals 84
run thesis-7.3-depth --deals 24
run thesis-7.2-exploration --deals 24
run thesis-7.4-iterations --deals 50
run robilliard-2014-table2 --deals 25
run thesis-7.5-mcts-matrix --deals 50
run robilliard-2014-table5-widening --deals 5
run robilliard-2014-table3-kuct --deals 5
run robilliard-2014-table6-kscore --deals 5
run robilliard-2014-table4-scaling --deals 5
