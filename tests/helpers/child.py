"""The program the SSH layer's tests run in a session instead of the game: it says what it was given, and echoes.

It writes, a line each: "PID n"; "CTTY yes" when its terminal is its
controlling terminal and it is in the terminal's foreground process group
("CTTY no" otherwise); "ENV NAME=value" for every variable it was given;
"SIZE colsxrows"; then "READY" (having first written "hello from PID" to the
file descriptor $PASSED_FD and closed it, if that is set). Each SIGWINCH
writes SIZE again. Each line typed is answered "GOT line"; "quit N" exits
with status N. SIGHUP and SIGTERM are written (their names, a line each) to
the file $SIGNALS_FILE; the program then exits, unless $STUBBORN is set,
when it carries on, even once its terminal is gone, and only SIGKILL ends it.
With $FLOOD_BYTES set it writes only that many x's and exits.

Output goes through os.write, not print: a signal handler that printed
while the main loop printed could meet Python's buffered writer half-way.
"""

import os
import signal
import sys


def say(text: str) -> None:
    os.write(1, f"{text}\r\n".encode())


def size(*_) -> None:
    columns, lines = os.get_terminal_size(0)
    say(f"SIZE {columns}x{lines}")


def record(number, _frame) -> None:
    with open(os.environ["SIGNALS_FILE"], "a") as file:
        file.write(f"{signal.Signals(number).name}\n")
    if not os.environ.get("STUBBORN"):
        os._exit(128 + number)


def main() -> None:
    if "FLOOD_BYTES" in os.environ:  # nothing but that many x's, written as fast as the terminal takes them
        left = int(os.environ["FLOOD_BYTES"])
        while left:
            left -= os.write(1, b"x" * min(left, 65536))
        return
    signal.signal(signal.SIGWINCH, size)
    for number in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(number, record)
    say(f"PID {os.getpid()}")
    try:
        controlling = os.tcgetpgrp(0) == os.getpgrp()
    except OSError:
        controlling = False
    say(f"CTTY {'yes' if controlling else 'no'}")
    for name, value in sorted(os.environ.items()):
        say(f"ENV {name}={value}")
    size()
    if "PASSED_FD" in os.environ:
        descriptor = int(os.environ["PASSED_FD"])
        os.write(descriptor, f"hello from {os.getpid()}\n".encode())
        os.close(descriptor)
    say("READY")
    try:
        for line in sys.stdin:
            line = line.strip()
            say(f"GOT {line}")
            if line.startswith("quit "):
                sys.exit(int(line.split()[1]))
    except OSError:  # the terminal hung up
        pass
    while os.environ.get("STUBBORN"):
        signal.pause()


if __name__ == "__main__":
    main()
