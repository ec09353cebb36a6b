#!/usr/bin/env bash
# Full steps with contacts against MuJoCo on the models of the constraint issue, as is and like for
# like (bench/smooth_models.py --contacts), one `gauss bench` per line, then a table of the medians.
#
#   bash bench/contact_table.sh [GAUSS] [STEPS] [ROUNDS]
#
# GAUSS: the gauss command (default build/release/gauss); STEPS per round (default 10000; the
# pile runs a fiftieth of that); ROUNDS (default 5). Each bench's full output, with its stage
# breakdown, is kept in build/bench/out/.
set -euo pipefail
cd "$(dirname "$0")/.."

GAUSS=${1:-build/release/gauss}
STEPS=${2:-10000}
ROUNDS=${3:-5}
PY=${GAUSS_PEER_PYTHON:-.venv/bin/python}
export GAUSS_PEER_PYTHON=$PY
OUT=build/bench/out
mkdir -p "$OUT"

G=tests/models/gymnasium
C=tests/models/dm_control
S=build/bench/contacts
"$PY" bench/smooth_models.py --contacts $G/humanoid.xml $G/ant.xml $C/humanoid.xml \
  $C/quadruped.xml >/dev/null

PILE=$((STEPS / 50))
# name | model | options | steps
RUNS=(
  "gym humanoid (RK4, PGS)|$G/humanoid.xml||$STEPS"
  "gym humanoid (RK4, PGS) l4l|$S/gymnasium/humanoid.xml||$STEPS"
  "gym humanoid (Euler, Newton)|$G/humanoid.xml|--integrator Euler --solver Newton|$STEPS"
  "gym humanoid (Euler, Newton) l4l|$S/gymnasium/humanoid.xml|--integrator Euler --solver Newton|$STEPS"
  "gym ant (RK4, Newton)|$G/ant.xml||$STEPS"
  "gym ant (RK4, Newton) l4l|$S/gymnasium/ant.xml||$STEPS"
  "dmc humanoid (Euler, Newton)|$C/humanoid.xml||$STEPS"
  "dmc humanoid (Euler, Newton) l4l|$S/dm_control/humanoid.xml||$STEPS"
  "dmc quadruped (Euler, Newton)|$C/quadruped.xml||$STEPS"
  "dmc quadruped (Euler, Newton) l4l|$S/dm_control/quadruped.xml||$STEPS"
  "pile100 (Euler, Newton)|bench/models/pile100.xml||$PILE"
  "pile100 (Euler, CG)|bench/models/pile100.xml|--solver CG|$PILE"
  "pile100 (Euler, PGS)|bench/models/pile100.xml|--solver PGS|$PILE"
)

printf '| %-34s | %10s | %10s | %6s | %-40s |\n' run "gauss /s" "mujoco /s" ratio \
  "gauss ncon/nefc/iter; mujoco"
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..36})" "------------" "------------" \
  "--------" "$(printf -- '-%.0s' {1..42})"
i=0
for run in "${RUNS[@]}"; do
  IFS='|' read -r name model opts steps <<<"$run"
  i=$((i + 1))
  log=$OUT/$(printf '%02d' $i).txt
  # shellcheck disable=SC2086
  "$GAUSS" bench "$model" $opts --steps "$steps" --rounds "$ROUNDS" >"$log" 2>&1 || true
  med=$(grep '^median' "$log" || echo "median gauss ? steps/s mujoco ? steps/s ratio gauss/mujoco ?")
  g=$(awk '{print $3}' <<<"$med")
  m=$(awk '{print $6}' <<<"$med")
  r=$(awk '{print $NF}' <<<"$med")
  sg=$(grep 'per step: gauss' "$log" | sed 's/.*ncon \([^ ]*\)  nefc \([^ ]*\)  solver iterations \(.*\)/\1\/\2\/\3/')
  sm=$(grep '^ *mujoco  ncon' "$log" | sed 's/.*ncon \([^ ]*\)  nefc \([^ ]*\)  solver iterations \(.*\)/\1\/\2\/\3/')
  printf '| %-34s | %10s | %10s | %6s | %-40s |\n' "$name" "$g" "$m" "$r" "$sg; $sm"
done
echo "full outputs with stage breakdowns: $OUT/NN.txt, in the order above"
