"""Start a command with the pseudo-terminal on its standard input as its controlling terminal.

``python -m karavan_net.serve.take_terminal COMMAND ARG...``, run in a new session (the ssh
door starts it with ``start_new_session=True``), takes the terminal and becomes ``COMMAND``.
The terminal then sends the app SIGWINCH when its size changes and SIGHUP when the door hangs
up.  Doing this here, in a process of its own, keeps it out of the door's: code run between
``fork`` and ``exec`` in a process with threads (``preexec_fn``) may deadlock.
"""

from __future__ import annotations

import fcntl
import os
import sys
import termios


def main(argv: list[str]) -> None:
    """Take the terminal on standard input, then run ``argv`` in this process's place."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
