#!/usr/bin/env bash
# The confirmation run (issue 42): every thesis table (7.1-7.5) and every 2014 table (2-6) once
# more at the papers' sizes, with today's agents, on held-out deals: the first seed of
# seeds.json's `confirmation`, which no stored result (the fit's included) was played on.
#
#   reproduction/confirm.sh submit  [--url U] [--token T]   # submits the ten sweeps to a running lab
#   reproduction/confirm.sh collect [--url U] [--token T]   # saves the finished ones to reproduction/confirmation/
#                                                           # and lists them in reproduction/manifest.json
#
# The presets are played at their own sizes, which are the papers': Table 7.1 1000 games per seat
# order (6000), Tables 7.2-7.4 1050 per row (21 wonder sets x 50 deals), Table 7.5 1000 per pair,
# the 2014 Tables 2-6 1000 per row (test/reproduction-seeds.test.ts checks both). Each table gets
# its own priority, cheapest first, so that the lab finishes whole tables early instead of all
# ten late; the order is by CPU time per table estimated from the stored results (pooled ms per
# decision x 18 decisions per seat and game x games at these sizes): 7.3 ~0.1 h, 7.4 ~0.1 h,
# 7.1 ~0.1 h, Table 2 ~0.3 h, 7.2 ~0.3 h, Table 5 ~1.6 h, Table 3 ~2.4 h, Table 6 ~2.7 h,
# 7.5 ~3.0 h, Table 4 ~4.8 h: about 15.5 CPU hours, 8 hours on 2 worker slots.
# collect refuses a sweep played from uncommitted code (lab.mjs collect; --allow-dirty would keep it).
set -euo pipefail
cd "$(dirname "$0")/.."
PRESETS=(
  thesis-7.3-depth
  thesis-7.4-iterations
  thesis-7.1-seating
  robilliard-2014-table2
  thesis-7.2-exploration
  robilliard-2014-table5-widening
  robilliard-2014-table3-kuct
  robilliard-2014-table6-kscore
  thesis-7.5-mcts-matrix
  robilliard-2014-table4-scaling
)
SEED=$(node -p "JSON.parse(require('fs').readFileSync('reproduction/inputs/seeds.json', 'utf8')).confirmation.firstSeed")
command="${1:-}"
shift || true
case "$command" in
  submit)
    priority=1
    for preset in "${PRESETS[@]}"; do
      node reproduction/scripts/lab.mjs submit --presets "$preset" --first-seed "$SEED" --priority "$priority" "$@"
      priority=$((priority + 1))
    done
    ;;
  collect)
    node reproduction/scripts/lab.mjs collect --first-seed "$SEED" --out confirmation "$@"
    node reproduction/scripts/manifest.mjs
    ;;
  *)
    echo "usage: reproduction/confirm.sh submit|collect [--url U] [--token T]" >&2
    exit 2
    ;;
esac
