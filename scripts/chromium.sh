#!/usr/bin/env bash
# Installs Debian's Chromium and ChromeDriver, which the console's browser tests drive headless, when they are not
# on the machine yet, and prints the path of chromedriver. Nothing is downloaded by the tests themselves.
set -euo pipefail

if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
  echo /usr/bin/chromedriver
  exit 0
fi
echo "chromium: installing Debian's chromium and chromium-driver" >&2
export DEBIAN_FRONTEND=noninteractive
# a machine whose package lists are missing or stale cannot find the current security update
if ! apt-get install -y -q chromium chromium-driver >&2; then
  apt-get update -q >&2
  apt-get install -y -q chromium chromium-driver >&2
fi
echo /usr/bin/chromedriver
