#!/usr/bin/env bash
# Installs everything farbspiel and its tests need on Debian/Ubuntu: system packages
# (speech synthesis, audio), then a virtual environment in .venv with farbspiel in it.
set -euo pipefail
cd "$(dirname "$0")"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    python3-venv espeak-ng libespeak-ng1 libportaudio2 sox alsa-utils \
    pulseaudio pulseaudio-utils libasound2-plugins \
    fonts-dejavu-core poppler-utils chromium chromium-driver nodejs npm >/dev/null
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test,bench]'
# axe-core checks the table view's accessibility in the browser tests (local, no CDN)
npm install --silent --no-audit --no-fund >/dev/null
echo "farbspiel is installed in .venv (run: .venv/bin/farbspiel --help)"
