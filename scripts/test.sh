#!/usr/bin/env bash
# The whole test suite, as CI runs it: starts what the tests need, then builds and tests every module.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ZOP_TEST_PG_URL:-}" ]; then
  scripts/ensure-services.sh
fi
exec ./mvnw -B -ntp verify "$@"
