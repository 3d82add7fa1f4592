#!/usr/bin/env bash
# Merges OUT/shard-1 .. OUT/shard-N (deploy/settings.sh) into OUT/merged and
# OUT/merged.json, then prints the merged run's report. Merge names any shard
# that is missing, given twice or not finished, and then writes nothing.
# See docs/scale.md.
set -euo pipefail
OSVLAB_ROOT=${OSVLAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
. "$OSVLAB_ROOT/deploy/settings.sh"

dirs=()
for k in $(seq 1 "$OSVLAB_SHARD_TOTAL"); do dirs+=("$OSVLAB_OUT/shard-$k"); done
osvlab merge "${dirs[@]}" --out "$OSVLAB_OUT/merged" --export "$OSVLAB_OUT/merged.json"
osvlab report "$OSVLAB_OUT/merged"
