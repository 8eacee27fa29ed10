#!/usr/bin/env bash
# Installs what LayoutBench needs to build and is not there yet: GMP's headers (libgmp-dev),
# SQLite's (libsqlite3-dev) and pkg-config, through apt; then the outside solvers its adapters drive
# (scripts/install-outside-solvers.sh). Sourced by scripts/main.sh and scripts/test.sh; safe
# to run again (it does nothing when everything is present).
set -euo pipefail

missing=()
if ! { [ -f /usr/include/gmp.h ] || ls /usr/include/*/gmp.h >/dev/null 2>&1; }; then
  missing+=(libgmp-dev)
fi
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
# SQLite's headers and library, which GRDB (the nightly history, docs/history.md) links.
if ! { [ -f /usr/include/sqlite3.h ] || ls /usr/include/*/sqlite3.h >/dev/null 2>&1; }; then
  missing+=(libsqlite3-dev)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "layoutbench: installing ${missing[*]} with apt-get" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "layoutbench: Swift 6 is required (https://www.swift.org/install/linux/)" >&2
  exit 1
fi

source "$(dirname "${BASH_SOURCE[0]}")/install-outside-solvers.sh"
