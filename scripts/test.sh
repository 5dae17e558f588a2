#!/usr/bin/env bash
# The whole test suite, as CI runs it: starts what the tests need, then builds and tests every module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-services.sh
# the Kubernetes control plane the Helm and service tests run against: built once (about 12 minutes), then cached
ZOP_KUBE_BIN="$(scripts/kube-binaries.sh)"
export ZOP_KUBE_BIN
exec ./mvnw -B -ntp verify "$@"
