#!/usr/bin/env bash
# Makes PostgreSQL's server programs (initdb, postgres, pg_ctl) available for the engine tier's data pipelines:
# the machine's own PostgreSQL 15 when it is there, else Debian's `postgresql-15` package, installed through apt
# (root only). The tests start their own throw-away cluster with them (test/support/postgres.ts): a data
# directory of their own, 127.0.0.1, a free port; nothing of the system's PostgreSQL service is used or started.
#
# Usage:
#   tools/postgres/install.sh          install if missing; progress on stderr; prints the bin directory on stdout
#   tools/postgres/install.sh --paths  print the bin directory (exit 0 if installed, 1 if not)
#
# Exit codes: 0 ok; 1 a step failed; 2 usage; 3 PostgreSQL cannot be obtained on this machine (not root, or
# no apt) - the reason is printed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
. "$here/versions.env"
bin="/usr/lib/postgresql/${POSTGRESQL_MAJOR}/bin"
log() { printf '[postgres-install] %s\n' "$*" >&2; }
ready() { [[ -x $bin/initdb && -x $bin/postgres && -x $bin/pg_ctl ]] && id -u postgres >/dev/null 2>&1; }

case "${1:-}" in
  '') ;;
  --paths) echo "$bin"; ready && exit 0 || exit 1 ;;
  -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "install.sh: unknown argument '$1' (use --paths or --help)" >&2; exit 2 ;;
esac

if ready; then echo "$bin"; exit 0; fi
[[ $(id -u) == 0 ]] || { log "POSTGRESQL UNAVAILABLE: $bin/initdb is missing and only root can install Debian's postgresql-${POSTGRESQL_MAJOR}"; exit 3; }
command -v apt-get >/dev/null 2>&1 || { log "POSTGRESQL UNAVAILABLE: $bin/initdb is missing and there is no apt-get"; exit 3; }
log "installing Debian's postgresql-${POSTGRESQL_MAJOR} (its service is not started: the tests run their own clusters)"
t0=$SECONDS
# policy-rc.d 101: the package's post-install must not start the system's cluster (we only want the programs).
policy=/usr/sbin/policy-rc.d
had_policy=0; [[ -e $policy ]] && had_policy=1
[[ $had_policy == 1 ]] || { printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod 755 "$policy"; }
trap '[[ $had_policy == 1 ]] || rm -f "$policy"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2 || { log "FAILED: apt-get update"; exit 1; }
apt-get install -y -q --no-install-recommends "postgresql-${POSTGRESQL_MAJOR}" >&2 || { log "FAILED: apt-get install postgresql-${POSTGRESQL_MAJOR}"; exit 1; }
ready || { log "FAILED: $bin/initdb, postgres or pg_ctl, or the postgres user, missing after the install"; exit 1; }
log "done in $((SECONDS - t0)) s"
echo "$bin"
