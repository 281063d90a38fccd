"""A private PulseAudio daemon for tests: real-time virtual audio devices that come and go.

The daemon runs in user mode with a private socket and nothing loaded but what a test
asks for. A null sink stands for the room: what is played into it comes back on its
monitor, which serves as the microphone (sounddevice records it through PortAudio and
ALSA's pulse plugin, as on a real machine). Unloading the sink's module takes the device
away, as unplugging a USB microphone or speaker does; loading it again brings it back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path


class PulseAudio:
    """A running daemon; ``env`` is what a process needs to use it."""

    def __init__(self, daemon: subprocess.Popen, runtime: Path) -> None:
        self.daemon = daemon
        self.runtime = runtime
        self.server = f"unix:{runtime / 'native'}"
        self.env = {
            **os.environ,
            "PULSE_SERVER": self.server,
            "HOME": str(runtime),
            "XDG_RUNTIME_DIR": str(runtime),
        }

    def pactl(self, *args: str) -> str:
        proc = subprocess.run(
            ["pactl", "--server", self.server, *args],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=20,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"pactl {' '.join(args)}: {proc.stderr.strip()}")
        return proc.stdout.strip()

    def add_room(self, name: str, rate: int = 16000) -> str:
        """A null sink (the room's loudspeaker) whose monitor is the default microphone;
        returns its module id (to take it away again)."""
        module = self.pactl(
            "load-module", "module-null-sink", f"sink_name={name}", f"rate={rate}", "channels=1"
        )
        self.pactl("set-default-sink", name)
        self.pactl("set-default-source", f"{name}.monitor")
        return module

    def remove(self, module: str) -> None:
        """Take a device away (as pulling out its plug does)."""
        self.pactl("unload-module", module)

    def play(self, sink: str, wav: Path) -> None:
        """Someone speaks: ``wav`` is played into the room, in real time."""
        subprocess.run(
            ["paplay", f"--server={self.server}", f"--device={sink}", str(wav)],
            check=True,
            timeout=30,
            env=self.env,
        )

    def room_tone(self, sink: str, db: float = -40.0) -> subprocess.Popen:
        """A room's own faint noise, played into ``sink`` until the returned process is
        stopped: a real room is never digitally silent, and pocketsphinx's endpointer and
        normalisation are misled by digital silence between clips (the room's null sink
        gives zeros when nothing plays)."""
        return subprocess.Popen(
            ["sh", "-c", f"sox -q -n -r 16000 -c 1 -b 16 -t raw - synth 3600 pinknoise vol {db}dB"
             f" | pacat --server={self.server} --device={sink} --raw --rate=16000"
             " --channels=1 --format=s16le --latency-msec=200"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip

    def stop(self) -> None:
        self.daemon.terminate()
        try:
            self.daemon.wait(10)
        except subprocess.TimeoutExpired:
            self.daemon.kill()
            self.daemon.wait()


def start_pulseaudio(runtime: Path, *preload: str) -> PulseAudio | str:
    """A daemon with ``preload`` modules ("module-null-sink sink_name=x ..."), or why it
    cannot start."""
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        return "pulseaudio is not installed (setup.sh installs it)"
    socket = runtime / "native"
    env = {**os.environ, "HOME": str(runtime), "XDG_RUNTIME_DIR": str(runtime)}
    modules = [f"module-native-protocol-unix socket={socket} auth-anonymous=1", *preload]
    with open(runtime / "pulseaudio.log", "w") as log:
        daemon = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=yes",
             "--use-pid-file=no", "--log-target=stderr"]
            + [arg for module in modules for arg in ("-L", module)],
            env=env,
            stdout=log,
            stderr=log,
        )  # fmt: skip
    for _ in range(100):
        ok = subprocess.run(
            ["pactl", "--server", f"unix:{socket}", "info"], capture_output=True, env=env
        )
        if ok.returncode == 0:
            return PulseAudio(daemon, runtime)
        if daemon.poll() is not None:
            break
        time.sleep(0.1)
    daemon.kill()
    daemon.wait()
    return "pulseaudio did not start: " + (runtime / "pulseaudio.log").read_text()[-500:]
