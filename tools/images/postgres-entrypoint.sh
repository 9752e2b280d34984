#!/bin/sh
# The postgres image's entry point (tools/images/build.sh): PostgreSQL in a container, run as any non-root
# user. On the first start it makes a cluster in $PGDATA (initdb; the superuser POSTGRES_USER with the password
# POSTGRES_PASSWORD, which every TCP client must give: scram-sha-256), creates POSTGRES_DB and runs the
# /docker-entrypoint-initdb.d/*.sql files, with the server listening on no address meanwhile; then it runs the
# server on every address. Arguments go to the server (`-c max_prepared_transactions=10`). The password is read
# from the environment into a file that only initdb reads, removed at once, and is never printed.
set -eu
bin=/usr/lib/postgresql/@POSTGRES_MAJOR@/bin
: "${POSTGRES_PASSWORD:?is not set: the password of the superuser (POSTGRES_USER, default postgres)}"
user="${POSTGRES_USER:-postgres}"
export PGDATA="${PGDATA:-/var/lib/postgresql/data/pgdata}"
socket=/tmp

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  umask 077
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  "$bin/initdb" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  "$bin/pg_ctl" --silent --wait -D "$PGDATA" -o "-c listen_addresses= -c unix_socket_directories=$socket" start
  if [ -n "${POSTGRES_DB:-}" ] && [ "$POSTGRES_DB" != postgres ]; then
    # From standard input: psql quotes the name (:"db") there, not in -c.
    echo 'create database :"db"' | "$bin/psql" -v ON_ERROR_STOP=1 -q -h "$socket" -U "$user" -d postgres -v db="$POSTGRES_DB"
  fi
  for f in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$f" ] || continue
    echo "postgres-entrypoint: running $f"
    "$bin/psql" -v ON_ERROR_STOP=1 -q -h "$socket" -U "$user" -d "${POSTGRES_DB:-postgres}" -f "$f"
  done
  "$bin/pg_ctl" --silent --wait -D "$PGDATA" -m fast stop
  echo "postgres-entrypoint: cluster made in $PGDATA"
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories="$socket" "$@"
