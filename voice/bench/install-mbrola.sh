#!/usr/bin/env bash
# Optional: the mbrola voices the speech benchmark uses besides espeak-ng's own voices.
# They are in Debian's contrib/non-free sections, which the default apt sources lack; this
# script downloads them from there with a private apt list (the system's sources stay as
# they are) and installs them with dpkg. Debian/Ubuntu, needs root (or sudo).
set -euo pipefail
VOICES="mbrola-de5 mbrola-de6 mbrola-us1 mbrola-us2"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
if grep -qi ubuntu /etc/os-release; then
    echo "deb http://archive.ubuntu.com/ubuntu $codename multiverse" > "$work/sources.list"
else
    echo "deb http://deb.debian.org/debian $codename contrib non-free" > "$work/sources.list"
fi
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
          -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
apt-get "${apt_opts[@]}" update -qq
(cd "$work" && apt-get "${apt_opts[@]}" download mbrola $VOICES)
$SUDO dpkg -i "$work"/*.deb
echo "mbrola voices installed: $VOICES (espeak-ng names: mb-de5 mb-de6 mb-us1 mb-us2)"
