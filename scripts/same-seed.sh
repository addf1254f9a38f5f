#!/usr/bin/env bash
# Same seed, same result: runs a set of seeded runs (profiles, a reading, faults, fail-fast, a
# shard, concurrency 1) with the working tree and with another commit (default HEAD~1), and
# compares what a refactor must not change (scripts/run-fingerprint.ts). Exit 1 on a difference.
#   bash scripts/same-seed.sh [REF]
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
)
status=0
for entry in "${runs[@]}"; do
  name=${entry%%|*}
  flags=${entry#*|}
  for side in base head; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$PWD")
    # shellcheck disable=SC2086
    (cd "$dir" && node bin/conformance.js run --seed 42 --concurrency 8 $flags --report-dir "$out/$side-$name" --quiet >/dev/null 2>&1) || true
    node --import tsx scripts/run-fingerprint.ts "$out/$side-$name" >"$out/$side-$name.json"
  done
  requests=$(node -e "console.log(require('$out/head-$name.json').requests)")
  if cmp -s "$out/base-$name.json" "$out/head-$name.json"; then
    echo "same       $name ($requests requests) --seed 42 $flags"
  else
    echo "DIFFERENT  $name --seed 42 $flags"
    diff "$out/base-$name.json" "$out/head-$name.json" | head -20 || true
    status=1
  fi
done
exit $status
