#!/usr/bin/env bash
# The whole test suite, as CI runs it: starts what the tests need, then builds, tests and installs every module on
# JDK 17; builds and runs a consumer that imports only the BOM; then builds every module again on JDK 25 and runs
# the unit tests of the modules a consumer compiles against.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-services.sh
# the Kubernetes control plane the Helm and service tests run against: built once (about 12 minutes), then cached
ZOP_KUBE_BIN="$(scripts/kube-binaries.sh)"
export ZOP_KUBE_BIN
# Debian's Chromium and ChromeDriver, which the console's browser tests drive headless
scripts/chromium.sh >/dev/null
# the OpenAPI document's third-party readers (linters, the TypeScript client's generator and compiler), as pinned
npm ci --prefix contract-clients --no-audit --no-fund
# Google's and Microsoft's own Node.js clients, which drive the GCP and Azure fakes, as pinned
npm ci --prefix vendor-clients --no-audit --no-fund
# what a Python client openapi-generator makes needs to run (GeneratedClientsTest), and the Prometheus project's
# own parser, which reads the service's scrapes (MetricsTest): installed when missing
python3 -c 'import pydantic, dateutil, urllib3, typing_extensions, prometheus_client' 2>/dev/null \
  || python3 -m pip install --quiet 'pydantic>=2' python-dateutil 'urllib3>=2' typing-extensions prometheus-client
# install: the consumer below resolves the modules as a platform team's build would, from the local repository
./mvnw -B -ntp install "$@"
# a project outside the reactor that imports only the BOM and names the modules without versions runs a job
./mvnw -B -ntp -q -f examples-bom-consumer/pom.xml compile exec:java
# a Spring Boot application on Boot's own parent (so Boot's managed Flyway), started twice on an empty database
./mvnw -B -ntp -f examples-spring-boot-app/pom.xml verify

jdk25="${ZOP_JDK25_HOME:-$(ls -d /usr/lib/jvm/*-25-* /usr/lib/jvm/*25*jdk* 2>/dev/null | head -n 1 || true)}"
if [[ -z "$jdk25" || ! -x "$jdk25/bin/java" ]]; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "no JDK 25 found (set ZOP_JDK25_HOME): CI builds on 25 as well as 17" >&2
    exit 1
  fi
  echo "no JDK 25 found (set ZOP_JDK25_HOME); skipping the JDK 25 build" >&2
  exit 0
fi
echo "building on $jdk25"
# clean: the classes above were compiled by JDK 17's javac, and an up-to-date build would not compile again
JAVA_HOME="$jdk25" ./mvnw -B -ntp -q clean package -DskipTests
JAVA_HOME="$jdk25" ./mvnw -B -ntp test -pl zop-provisioner-provider-kit,zop-provisioner-client -am
