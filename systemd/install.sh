#!/usr/bin/env bash
# Install reedboard as a service on Raspberry Pi OS Bookworm. Run as root from a checkout:
#   sudo systemd/install.sh
# Idempotent: running it again upgrades the package and keeps the config and the saved games.
#   sudo systemd/install.sh --uninstall
# removes the service, the program and the polkit rule, keeping /etc/reedboard and the games in
# /var/lib/reedboard (docs/raspberry-pi.md says how to remove those too).
set -euo pipefail

prefix=/opt/reedboard
rule=/etc/polkit-1/rules.d/50-reedboard-poweroff.rules
src=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo $0)" >&2; exit 1; }

if [ "${1:-}" = "--uninstall" ]; then
  systemctl disable --now reedboard.service reedboard-cafe.service 2>/dev/null || true
  rm -f /etc/systemd/system/reedboard.service /etc/systemd/system/reedboard-cafe.service "$rule"
  rm -rf /etc/systemd/system/reedboard.service.d /etc/systemd/system/reedboard-cafe.service.d "$prefix"
  systemctl daemon-reload
  echo "reedboard removed; kept /etc/reedboard, /var/lib/reedboard and the user reedboard."
  exit 0
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--uninstall]" >&2; exit 2
fi

echo "== system packages"
apt-get update -qq
apt-get install -y -qq python3-venv python3-lgpio python3-rpi.gpio i2c-tools polkitd

if command -v raspi-config >/dev/null; then
  echo "== enabling I2C, SPI and the serial port (no login console on it)"
  raspi-config nonint do_i2c 0
  raspi-config nonint do_spi 0
  raspi-config nonint do_serial_hw 0
  raspi-config nonint do_serial_cons 1
fi

echo "== user reedboard"
id reedboard >/dev/null 2>&1 ||
  useradd --system --home-dir /var/lib/reedboard --no-create-home --shell /usr/sbin/nologin reedboard
for group in gpio i2c spi dialout; do
  getent group "$group" >/dev/null || groupadd --system "$group"
  usermod -aG "$group" reedboard
done

echo "== virtual environment in $prefix (with apt's lgpio and RPi.GPIO)"
install -d "$prefix"
[ -x "$prefix/venv/bin/python" ] || python3 -m venv --system-site-packages "$prefix/venv"
"$prefix/venv/bin/pip" install -q --upgrade "$src[pi]"
install -m 0644 "$src/README.md" "$prefix/README.md"

echo "== configuration in /etc/reedboard"
install -d -m 0755 /etc/reedboard
if [ ! -f /etc/reedboard/config.toml ]; then
  install -m 0640 -g reedboard "$src/docs/config.example.toml" /etc/reedboard/config.toml
  echo "   wrote /etc/reedboard/config.toml: edit the [sensors], [leds], [display] and [buttons] sections"
fi

echo "== polkit: the service may power the board off (long MENU press, then OK)"
install -m 0644 "$src/systemd/50-reedboard-poweroff.rules" "$rule"

echo "== service"
install -m 0644 "$src/systemd/reedboard.service" /etc/systemd/system/reedboard.service
# The café dashboard's unit, for the machine that runs it (enabled by hand: docs/cafe.md).
install -m 0644 "$src/systemd/reedboard-cafe.service" /etc/systemd/system/reedboard-cafe.service
systemctl daemon-reload
systemctl enable reedboard.service
systemctl restart reedboard.service
systemctl try-restart reedboard-cafe.service
echo "reedboard is running: 'systemctl status reedboard', 'journalctl -u reedboard -f'."
echo "A reboot is needed once if I2C, SPI or the serial port were just enabled."
