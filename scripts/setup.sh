#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what aesoc needs on a fresh Debian machine; quick and silent when all is there already.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# chromium and chromium-driver: tests/test_report_browser.py looks at the HTML report as a person does.
# ccache: the simulation models share their compiled Verilator runtime (aesoc/toolchain.py).
apt_packages=(gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf libelf-dev liblz4-dev zlib1g-dev
              g++ make perl git ccache chromium chromium-driver fonts-dejavu-core
              # LiteX's Verilator simulation (python3 -m aesoc.litex sim): its sim modules' libraries,
              # and ninja for the picolibc build of its BIOS (meson is pinned in pyproject.toml)
              libevent-dev libjson-c-dev ninja-build)

missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: error: apt-get needs root; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Python packages are pinned in pyproject.toml; reinstall only when it changed.
stamp="$repo/build/.setup-pyproject.sha256"
want=$(sha256sum "$repo/pyproject.toml" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! python3 -c "import aesoc" 2>/dev/null; then
  echo "setup: installing Python packages (pinned in pyproject.toml)"
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e "$repo"
  mkdir -p "$repo/build"
  echo "$want" > "$stamp"
fi
