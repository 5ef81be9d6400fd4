"""The pseudo-terminal relay on its own (lagoon_tui.serve.terminal): flow control both ways, with no SSH.

A fake channel stands for the SSH channel: it keeps what the child wrote and
counts its pause_reading/resume_reading calls. The children are a few lines
of Python that wait for a file to appear before going on, so every step waits
for something that happens, never for time to pass.
"""

from __future__ import annotations

import asyncio
import sys

from lagoon_tui.serve.terminal import ChildSpec, PtyChild, child_env
from tests.helpers.terminal import POLL, TIMEOUT


class FakeChannel:
    def __init__(self) -> None:
        self.received = bytearray()
        self.reading = True
        self.pauses = 0

    def write(self, data: bytes) -> None:
        self.received += data

    def pause_reading(self) -> None:
        self.reading = False
        self.pauses += 1

    def resume_reading(self) -> None:
        self.reading = True


async def until(test, what: str) -> None:
    async def poll() -> None:
        while not test():
            await asyncio.sleep(POLL)

    try:
        await asyncio.wait_for(poll(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def start(tmp_path, program: str, channel: FakeChannel) -> PtyChild:
    spec = ChildSpec(argv=[sys.executable, "-c", program], env=child_env("xterm", GO=str(tmp_path / "go")))
    return await PtyChild.start(spec, channel, 80, 24)


WRITE_THEN_WAIT = """
import os, time
os.write(1, b"y" * 1000)
open(os.environ["GO"] + ".written", "w").close()
while not os.path.exists(os.environ["GO"]):
    time.sleep(0.01)
"""


async def test_output_paused_is_not_read_until_resumed(tmp_path):
    channel = FakeChannel()
    child = await start(tmp_path, WRITE_THEN_WAIT, channel)
    child.pause_output()
    await until((tmp_path / "go.written").exists, "the child's output")
    for _ in range(5):
        await asyncio.sleep(0)  # turns of the loop: a terminal still watched would have been read in the first
    assert channel.received == b""
    child.resume_output()
    await until(lambda: len(channel.received) == 1000, "the output once resumed")
    (tmp_path / "go").touch()
    assert await child.wait() == 0
    assert channel.received == b"y" * 1000


READ_WHEN_TOLD = """
import os, sys, time, tty
tty.setraw(0)
os.write(1, b"RAW")
while not os.path.exists(os.environ["GO"]):
    time.sleep(0.01)
total = 0
while total < 1 << 20:
    total += len(os.read(0, 65536))
os.write(1, f" READ {total}".encode())
"""


async def test_a_paste_larger_than_the_terminal_takes_pauses_the_channel_until_it_is_taken(tmp_path):
    channel = FakeChannel()
    child = await start(tmp_path, READ_WHEN_TOLD, channel)
    await until(lambda: b"RAW" in channel.received, "the child's terminal in raw mode")
    child.feed(b"p" * (1 << 20))
    assert not channel.reading and channel.pauses == 1, "the terminal took less than a megabyte at once"
    (tmp_path / "go").touch()
    await until(lambda: b"READ" in channel.received, "the child to have read it all")
    assert await child.wait() == 0
    assert channel.received.endswith(f" READ {1 << 20}".encode())
    assert channel.reading, "the channel reads again once the terminal has taken everything"
