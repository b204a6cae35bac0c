#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then run it.
# System packages: systemd-analyze (unit checks), chromium and firefox-esr (browser tests; never
# downloaded), mosquitto (the MQTT tests' broker), espeak-ng (the board's voice), openssl (the
# bridged cafés' certificates), postgresql (the café archive's tests start a throw-away cluster on
# a loopback port), the AVR toolchain and simavr (the board's firmware, built and run in the
# emulator: tests/firmware), e2fsprogs (a read-only SD card: a loop-mounted ext4, which needs
# root: without, those tests skip). npm packages: axe-core (.axe/), TypeScript (.tsc/).
# Python packages: a venv in .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v systemd-analyze >/dev/null || need+=(systemd)
[ -x /usr/bin/chromium ] || need+=(chromium)  # the simulator page's browser tests
command -v firefox-esr >/dev/null || need+=(firefox-esr)  # ... and the page in Firefox
command -v npm >/dev/null || need+=(nodejs npm)  # axe-core and TypeScript (the pages' scripts)
[ -x /usr/sbin/mosquitto ] || need+=(mosquitto)  # the café network's tests: a real broker
command -v mosquitto_pub >/dev/null || need+=(mosquitto-clients)  # docs/cafe.md's commands
command -v espeak-ng >/dev/null || need+=(espeak-ng)  # the board's voice (tests/hardware/test_sound.py)
command -v openssl >/dev/null || need+=(openssl)  # two cafés bridged over TLS (testbed/tls.py)
command -v avr-gcc >/dev/null || need+=(gcc-avr)  # the firmware (firmware/Makefile)
[ -f /usr/lib/avr/include/avr/io.h ] || need+=(avr-libc)
[ -f /usr/include/simavr/sim_avr.h ] || need+=(libsimavr-dev)  # its emulator harness (firmware/sim)
command -v cc >/dev/null || need+=(gcc)
command -v make >/dev/null || need+=(make)
command -v avrdude >/dev/null || need+=(avrdude)  # reedboard firmware flash (tests/system/test_firmware_flash.py)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)  # the café archive
command -v pgrep >/dev/null || need+=(procps)  # testbed/postgres.py pauses the server's processes
# a read-only SD card: a loop-mounted ext4 (testbed/tools.py's Card; tests/store/test_read_only_card.py)
command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
command -v losetup >/dev/null || need+=(mount)
python3 -c "import ensurepip" 2>/dev/null || need+=(python3-venv)  # the venv below
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

# axe-core (the accessibility checker the browser tests give the page) into .axe/, git-ignored
[ -f .axe/node_modules/axe-core/axe.min.js ] || \
  npm install --silent --no-audit --no-fund --prefix .axe axe-core@4 >/dev/null
# TypeScript, pinned (tsc checks the pages' scripts: tests/net/web/test_scripts_typed.py) into .tsc/,
# git-ignored
TYPESCRIPT=5.9.3
[ "$(node -p 'require("./.tsc/node_modules/typescript/package.json").version' 2>/dev/null)" = \
  "$TYPESCRIPT" ] || \
  npm install --silent --no-audit --no-fund --prefix .tsc "typescript@$TYPESCRIPT" >/dev/null

python3 -m venv .venv
.venv/bin/pip install -q -e '.[test]'
# Three workers: most tests wait on processes, brokers and browsers rather than compute, so
# three share a 2-core machine well (9 min 28 s against 11 min 17 s with two, the same quiet
# machine; -n 0 in the arguments runs them in this process, one by one).
# The longest files are collected first (conftest.py's FIRST); a worker that runs out of tests
# takes some of the other's (worksteal), so both end together. At the end: the 25 slowest
# tests, then pytest's closing line with its time (the budget: 6 min 30 s on 2 cores), last.
echo "tests/run.sh: installed in ${SECONDS} s; pytest starts" >&2
exec .venv/bin/python -m pytest -q -n 3 --dist worksteal --durations=25 "$@"
