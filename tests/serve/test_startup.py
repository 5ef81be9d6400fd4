"""`lagoon serve` stopped before it listens names the cause (issue 36, point 9), each in a sentence of its own.

The real command, run to its end: a host key in a folder the server may not
write to, a port another program holds, an --allow-keys file that lists no
key, and a save file that is not one. None of them is "cannot listen" but
the port's.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.helpers.terminal import LAGOON, TIMEOUT, clean_env

pytestmark = pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}")


def serve(tmp_path: Path, *options: str, wrap: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """`lagoon serve` on any free port with a save file and host key in `tmp_path` (unless `options` say
    otherwise), run until it stops."""
    defaults = {"--port": "0", "--db": str(tmp_path / "lagoon.db"), "--host-key": str(tmp_path / "host_key")}
    given = dict(zip(options[::2], options[1::2]))
    argv = [*wrap, str(LAGOON), "serve", *(part for pair in {**defaults, **given}.items() for part in pair)]
    return subprocess.run(
        argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=clean_env(), timeout=TIMEOUT, check=False
    )


def without_root_powers() -> tuple[str, ...]:
    """What runs a command so that a folder's modes bind it: nothing, or for root setpriv without the
    capabilities that override them."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root ignores a folder's modes, and setpriv (util-linux) is not here to drop that power")
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search")


def test_a_host_key_in_a_read_only_folder_is_said_to_be_unwritable_not_unlistenable(tmp_path):
    folder = tmp_path / "keys"
    folder.mkdir(mode=0o555)
    folder.chmod(0o555)
    key = folder / "host_key"
    done = serve(tmp_path, "--host-key", str(key), wrap=without_root_powers())
    assert done.returncode == 2, done
    assert f"cannot write a new host key at {key}: Permission denied" in done.stderr, done.stderr
    assert "cannot listen" not in done.stderr and "Traceback" not in done.stderr
    assert list(folder.iterdir()) == []


def test_a_port_in_use_is_said_to_be_in_use(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = serve(tmp_path, "--port", str(port))
    assert done.returncode == 2, done
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr, done.stderr


def test_an_allow_keys_file_without_keys_and_a_save_file_that_is_not_one_are_named(tmp_path):
    allowed = tmp_path / "allowed"
    allowed.write_text("my friends: ana, ben\n")
    done = serve(tmp_path, "--allow-keys", str(allowed))
    assert done.returncode == 2 and f"{allowed}, line 1: not a public key" in done.stderr, done
    db = tmp_path / "notes.db"
    db.write_text("not a save file\n")
    done = serve(tmp_path, "--db", str(db))
    assert done.returncode == 2 and f"{db} is not a Lagoon save file" in done.stderr, done
    assert "cannot listen" not in done.stderr
