#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what aesoc needs on a fresh Debian machine; quick and silent when all is there already.
# Python packages go into this checkout's own environment, .venv (`. .venv/bin/activate` enters it),
# never into the user's Python: two checkouts on one machine never see each other's `aesoc`.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
venv="$repo/.venv"
# One setup at a time per checkout (`make test` and `make bench` started together).
mkdir -p "$repo/build"
exec 9>>"$repo/build/.setup.lock"
flock 9

# chromium and chromium-driver: tests/test_report_browser.py looks at the HTML report as a person does.
# ccache: the simulation models share their compiled Verilator runtime (aesoc/common/toolchain.py).
apt_packages=(gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf libelf-dev liblz4-dev zlib1g-dev
              g++ make perl git ccache chromium chromium-driver fonts-dejavu-core
              # LiteX's Verilator simulation (python3 -m aesoc.integrate.litex sim): its sim modules' libraries,
              # and ninja for the picolibc build of its BIOS (meson is pinned in pyproject.toml)
              libevent-dev libjson-c-dev ninja-build
              # Debian's Python: the Verilator build's scripts run on it, and a venv needs python3-venv
              # when python3 is Debian's
              python3 python3-venv
              # building the pinned Verilator from its source (scripts/build-verilator.sh)
              autoconf bison flex libfl-dev)

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
  # Another checkout's setup may hold dpkg's lock: wait for it rather than fail.
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 \
    "${missing[@]}"
fi

# Python packages are pinned in pyproject.toml; reinstall only when it changed. A venv without the
# user's site-packages, so that no other checkout's `pip install -e` leaks in.
stamp="$venv/.aesoc-pyproject.sha256"
want=$(sha256sum "$repo/pyproject.toml" | cut -d' ' -f1)
own_aesoc() {
  (cd / && "$venv/bin/python" -c 'import aesoc, pathlib, sys
sys.exit(pathlib.Path(aesoc.__file__).resolve().parents[1] != pathlib.Path(sys.argv[1]).resolve())' "$repo") 2>/dev/null
}
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! own_aesoc; then
  echo "setup: installing Python packages (pinned in pyproject.toml) into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  pip_install=("$venv/bin/python" -m pip install -q --disable-pip-version-check --root-user-action=ignore)
  # uv puts the packages in within seconds where pip took about a minute (40 CPU-seconds), with
  # pip's own settings of this machine (certificates, local wheels); pip itself if uv cannot.
  # With their bytecode compiled (UV_COMPILE_BYTECODE, unless the caller set it), as pip does by
  # default: without .pyc files every Python process (a few hundred cocotb simulations, Yosys and
  # nextpnr runs, FuseSoC, LiteX) compiles the modules it imports again where the environment sets
  # PYTHONDONTWRITEBYTECODE (this machine's does): importing a cocotb test module took 0.55 s
  # instead of 0.22.
  uv_pin=$(python3 -c 'import sys, tomllib
print(tomllib.load(open(sys.argv[1], "rb"))["tool"]["aesoc"]["installer"]["uv"])' "$repo/pyproject.toml")
  uv_env=() uv_args=()
  [ -z "${PIP_CERT:-}" ] || uv_env+=("SSL_CERT_FILE=$PIP_CERT")
  [ -z "${PIP_FIND_LINKS:-}" ] || uv_args+=(--find-links "$PIP_FIND_LINKS")
  if ! { "${pip_install[@]}" "uv==$uv_pin" &&
         env "${uv_env[@]}" UV_COMPILE_BYTECODE="${UV_COMPILE_BYTECODE:-1}" "$venv/bin/uv" pip install -q --python "$venv/bin/python" "${uv_args[@]}" -e "$repo"; }; then
    echo "setup: uv could not install the packages; pip installs them"
    "${pip_install[@]}" -e "$repo"
  fi
  own_aesoc || { echo "setup: error: $venv does not import this checkout's aesoc" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
# This checkout's own modules likewise (compileall writes whatever PYTHONDONTWRITEBYTECODE says, and
# only for the sources that changed).
"$venv/bin/python" -m compileall -q -j 0 "$repo/aesoc" "$repo/ip" "$repo/tests" > /dev/null

# The pinned YoWASP tools (Yosys, nextpnr) compile their WebAssembly into the machine's YoWASP cache
# on first use (Yosys about 60 CPU-seconds): here, beside the Verilator check, not in a test.
"$venv/bin/python" -c 'from aesoc.common.toolchain import compile_yowasp_tools; compile_yowasp_tools()' &
yowasp=$!
# The pinned Verilator, built once per machine, on the environment's PATH.
verilator=$(bash "$repo/scripts/build-verilator.sh")
wait "$yowasp"
for tool in "$verilator"/bin/*; do
  link="$venv/bin/$(basename "$tool")"
  [ "$(readlink "$link" 2>/dev/null)" = "$tool" ] || ln -sfn "$tool" "$link"
done
