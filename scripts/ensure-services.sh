#!/usr/bin/env bash
# Makes sure the services the tests use are up on loopback, starting the machine's own servers when they have
# stopped. Connection settings come from the same variables the tests read.
set -euo pipefail

pg_host=${ZOP_TEST_PG_HOST:-127.0.0.1}
pg_port=${ZOP_TEST_PG_PORT:-5432}

pg_ready() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$pg_host" -p "$pg_port"
  else
    (exec 3<>"/dev/tcp/$pg_host/$pg_port") 2>/dev/null
  fi
}

if ! pg_ready; then
  echo "PostgreSQL is not answering on $pg_host:$pg_port; starting it" >&2
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  for _ in $(seq 1 30); do
    pg_ready && break
    sleep 1
  done
fi

if ! pg_ready; then
  echo "PostgreSQL is still not reachable at $pg_host:$pg_port. Start it, or point ZOP_TEST_PG_* elsewhere." >&2
  exit 1
fi
echo "PostgreSQL ready on $pg_host:$pg_port"

my_host=${ZOP_TEST_MYSQL_HOST:-127.0.0.1}
my_port=${ZOP_TEST_MYSQL_PORT:-3306}

my_ready() {
  (exec 3<>"/dev/tcp/$my_host/$my_port") 2>/dev/null
}

if ! my_ready && [ "$my_host" = 127.0.0.1 ]; then
  echo "MariaDB is not answering on $my_host:$my_port; starting it" >&2
  if [ -x /usr/sbin/mariadbd ] && command -v start-stop-daemon >/dev/null 2>&1; then
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
  fi
  for _ in $(seq 1 30); do
    my_ready && break
    sleep 1
  done
fi

if ! my_ready; then
  echo "MariaDB is still not reachable at $my_host:$my_port. Start it, or point ZOP_TEST_MYSQL_* elsewhere." >&2
  exit 1
fi
echo "MariaDB ready on $my_host:$my_port"
