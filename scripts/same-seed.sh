#!/usr/bin/env bash
# Same seed, same result: runs a set of seeded runs (profiles, a reading, faults, fail-fast, a
# shard, concurrency 1) with the working tree and with another commit (default HEAD~1), and
# compares what a refactor must not change (scripts/run-fingerprint.ts). Exit 1 on a difference.
# SEEDS (default 42) repeats every run under each seed:
#   bash scripts/same-seed.sh [REF]
#   SEEDS="42 7 20261127" bash scripts/same-seed.sh REF
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-HEAD~1}
out=$(mktemp -d)
base="$out/base"
git worktree add -q --detach "$base" "$ref"
trap 'git worktree remove --force "$base"; rm -rf "$out"' EXIT
ln -s "$PWD/node_modules" "$base/node_modules"
(cd "$base" && npm run build --silent)
npm run build --silent

runs=(
  "quick|--profile quick"
  "standard|"
  "merge|--profile quick --reading metadata-update=merge"
  "utf16|--fault metadata-counts-utf16"
  "race|--profile quick --fault id-ref-id-race"
  "dies|--profile quick --fault dies-mid-run"
  "fa500|--profile quick --fault fa-500-always"
  "failfast|--profile quick --fault id-dob-previous-day --fail-fast"
  "shard|--profile quick --shard 2/3 --fault id-names-truncated"
  "c1|--profile quick --concurrency 1 --fault id-govt-id-differs --strict"
  "readings|--profile quick --reading placement=top --reading duplicate-ref-id=same --reading reject-status=400 --reading empty-body=empty-object"
  "insensitive|--profile quick --reading ref-id-case=insensitive --reading tax-entry-members=required --reading created-status=200 --strict"
)
seeds=(${SEEDS:-42})
status=0
for seed in "${seeds[@]}"; do
for entry in "${runs[@]}"; do
  name=${entry%%|*}-$seed
  flags=${entry#*|}
  for side in base head; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$PWD")
    # shellcheck disable=SC2086
    (cd "$dir" && node bin/conformance.js run --seed "$seed" --concurrency 8 $flags --report-dir "$out/$side-$name" --quiet >/dev/null 2>&1) || true
    node --import tsx scripts/run-fingerprint.ts "$out/$side-$name" >"$out/$side-$name.json"
  done
  requests=$(node -e "console.log(require('$out/head-$name.json').requests)")
  if cmp -s "$out/base-$name.json" "$out/head-$name.json"; then
    echo "same       $name ($requests requests) --seed $seed $flags"
  else
    echo "DIFFERENT  $name --seed $seed $flags"
    diff "$out/base-$name.json" "$out/head-$name.json" | head -20 || true
    status=1
  fi
done
done
exit $status
