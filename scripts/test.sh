#!/usr/bin/env bash
# The whole test suite, as CI runs it: starts what the tests need, then builds and tests every module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-services.sh
exec ./mvnw -B -ntp verify "$@"
