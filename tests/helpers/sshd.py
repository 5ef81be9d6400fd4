"""A private OpenSSH server on a free localhost port, for playing Lagoon over a real SSH session.

Everything it needs lives in one temporary folder: its own host key, a client
key that is the only one authorised, its config and its pid file. It runs in
the foreground (-D) as a child of the test, logging to a file (-e), and is
stopped by its own process id. Nothing of the machine's sshd set-up is used
or changed, except that sshd insists on its privilege-separation folder
(/run/sshd), which is created when missing and we are root.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.helpers.terminal import POLL, TIMEOUT, clean_env

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
PRIVSEP = Path("/run/sshd")


def missing() -> str | None:
    """Why a private sshd cannot run here, or None when it can."""
    for tool in ("ssh", "ssh-keygen"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (openssh-client; .ci/run installs it)"
    if not os.access(SSHD, os.X_OK):
        return f"sshd is not installed at {SSHD} (openssh-server; .ci/run installs it)"
    if not PRIVSEP.is_dir() and os.geteuid() != 0:
        return f"sshd needs {PRIVSEP}, which only root can create"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def keygen(path: Path) -> Path:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "lagoon-test", "-f", str(path)],
        check=True,
        capture_output=True,
        timeout=TIMEOUT,
    )
    return path


def ssh_client(port: int, user: str, key: Path, options: dict[str, str], *command: str) -> list[str]:
    """OpenSSH's client, in a terminal (-tt), with only `key`, no config file, never asking anything."""
    settings = {"BatchMode": "yes", "LogLevel": "ERROR", **options}
    return [
        "ssh",
        "-tt",
        "-F",
        "none",
        "-i",
        str(key),
        *(part for name, value in settings.items() for part in ("-o", f"{name}={value}")),
        "-p",
        str(port),
        f"{user}@127.0.0.1",
        *command,
    ]


class Sshd:
    """sshd listening on 127.0.0.1:port for one user (the one running the tests) and one key."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.user = pwd.getpwuid(os.geteuid()).pw_name
        self.client_key = keygen(folder / "client_key")
        (folder / "authorized_keys").write_text((folder / "client_key.pub").read_text())
        self.config = folder / "sshd_config"
        self.config.write_text(
            "\n".join(
                [
                    f"HostKey {keygen(folder / 'host_key')}",
                    "ListenAddress 127.0.0.1",
                    f"AuthorizedKeysFile {folder / 'authorized_keys'}",
                    f"PidFile {folder / 'sshd.pid'}",
                    "StrictModes no",  # the temporary folder's owner and modes are not sshd's business here
                    "UsePAM no",
                    "PubkeyAuthentication yes",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "PermitRootLogin prohibit-password",
                    "AcceptEnv LANG LC_*",  # as a stock Debian sshd does, so the client's locale comes along
                    "PrintMotd no",
                    "PrintLastLog no",
                    "",
                ]
            )
        )
        self.log = folder / "sshd.log"
        self.port = 0
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        """Start sshd and wait until it listens (a few ports are tried in case one is taken meanwhile)."""
        if os.geteuid() == 0:
            PRIVSEP.mkdir(mode=0o755, exist_ok=True)
        subprocess.run([SSHD, "-t", "-f", str(self.config)], check=True, capture_output=True, timeout=TIMEOUT)
        for _ in range(5):
            self.port = free_port()
            with self.log.open("w") as log:
                self.process = subprocess.Popen(
                    [SSHD, "-f", str(self.config), "-D", "-e", "-p", str(self.port)],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    env=clean_env(),
                )
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline and self.process.poll() is None:
                if "Server listening" in self.log.read_text():
                    return
                time.sleep(POLL)
            self.stop()
        raise RuntimeError(f"sshd did not start; its log:\n{self.log.read_text()}")

    def client(self, *command: str) -> list[str]:
        """The ssh command line that runs `command` on this server in a terminal, as a person would."""
        options = {"StrictHostKeyChecking": "no", "UserKnownHostsFile": "/dev/null", "SendEnv": "LANG"}
        return ssh_client(self.port, self.user, self.client_key, options, *command)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
