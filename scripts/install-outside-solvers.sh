#!/usr/bin/env bash
# Installs the outside solvers LayoutBench's adapters (scripts/solvers/) drive, where they
# are missing: from PyPI kiwisolver (pinned: its 1.5.1 rollback bug is a test case),
# cassowary, z3-solver and highspy, as wheels; from Debian qsopt-ex (esolver) and glpk-utils
# (glpsol), and GTK 4 with json-glib and Xvfb (libgtk-4-dev, libjson-glib-dev, xvfb) for the
# C adapter scripts/solvers/gtk/, which it then builds. Sourced by scripts/ensure-dependencies.sh; safe to run again (it does nothing
# when everything is present). LAYOUTBENCH_SKIP_OUTSIDE_SOLVERS=1 skips it.
set -euo pipefail

if [ "${LAYOUTBENCH_SKIP_OUTSIDE_SOLVERS:-0}" = 1 ]; then
  return 0 2>/dev/null || exit 0
fi

python=${LAYOUTBENCH_PYTHON:-python3}
if command -v "$python" >/dev/null 2>&1; then
  pip_missing=()
  "$python" -c 'import kiwisolver, sys; sys.exit(kiwisolver.__version__ != "1.5.1")' 2>/dev/null \
    || pip_missing+=(kiwisolver==1.5.1)
  "$python" -c 'import cassowary' 2>/dev/null || pip_missing+=(cassowary)
  "$python" -c 'import z3' 2>/dev/null || pip_missing+=(z3-solver)
  "$python" -c 'import highspy' 2>/dev/null || pip_missing+=(highspy)
  if [ ${#pip_missing[@]} -gt 0 ]; then
    echo "layoutbench: installing ${pip_missing[*]} with pip" >&2
    # Wheels only: CI must not spend its time compiling solvers.
    "$python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "${pip_missing[@]}" >&2 \
      || "$python" -m pip install --quiet --disable-pip-version-check "${pip_missing[@]}" >&2 \
      || echo "layoutbench: pip could not install ${pip_missing[*]}; those adapters stay unavailable" >&2
  fi
else
  echo "layoutbench: $python not found; the Python solver adapters stay unavailable" >&2
fi

apt_missing=()
command -v esolver >/dev/null 2>&1 || apt_missing+=(qsopt-ex)
command -v glpsol >/dev/null 2>&1 || apt_missing+=(glpk-utils)
pkg-config --exists gtk4 2>/dev/null || apt_missing+=(libgtk-4-dev)
pkg-config --exists json-glib-1.0 2>/dev/null || apt_missing+=(libjson-glib-dev)
command -v xvfb-run >/dev/null 2>&1 || apt_missing+=(xvfb xauth)
if [ ${#apt_missing[@]} -gt 0 ]; then
  echo "layoutbench: installing ${apt_missing[*]} with apt-get" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  # apt-get update only when the package lists do not know a package yet. Each package is
  # asked on its own: `apt-cache show A B` succeeds when it knows any one of them, and a fresh
  # machine's lists know xauth but not qsopt-ex.
  for package in "${apt_missing[@]}"; do
    if ! apt-cache show "$package" >/dev/null 2>&1; then
      "${sudo_cmd[@]}" apt-get update -qq || true
      break
    fi
  done
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null \
    || echo "layoutbench: apt-get could not install ${apt_missing[*]}; those adapters stay unavailable" >&2
fi

# The GTK adapter and gtk_vfl (GTK's VFL parser, for `vfl-diff`) are C: built into a
# git-ignored folder beside their sources whenever a source is newer than its binary (make decides).
if pkg-config --exists gtk4 json-glib-1.0 2>/dev/null && command -v cc >/dev/null 2>&1; then
  make --no-print-directory -s -C "$(dirname "${BASH_SOURCE[0]}")/solvers/gtk" >&2 \
    || echo "layoutbench: the GTK adapter did not build; it stays unavailable" >&2
fi
