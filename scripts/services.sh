#!/usr/bin/env bash
# Start PostgreSQL and Redis on their standard local ports if they are not answering, then wait.
set -euo pipefail
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "starting PostgreSQL"
  if command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  fi
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0
  sleep 1
done
echo "PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) is not answering." >&2
exit 1
