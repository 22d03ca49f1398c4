"""TLS for servers and their clients: ``wss://`` with certificates checked.

A server given a certificate and its key (``--tls-cert``, ``--tls-key``) speaks TLS only.
A client reaching ``wss://HOST:PORT`` checks the server's certificate against the
system's certificate authorities and, for a self-signed server, the CA file it is given
(``--tls-ca``); a certificate that does not check ends the connection before anything
is sent, and the client says so in a sentence.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from karavan_core.text import printable
from karavan_net.protocol import is_tls


def client_context(ca: str | Path | None = None) -> ssl.SSLContext:
    """A context that checks a server's certificate against the system's CAs and ``ca``'s
    (a file of PEM certificates), if given; ``ValueError`` in words if ``ca`` cannot be read."""
    context = ssl.create_default_context()
    if ca is not None:
        try:
            context.load_verify_locations(cafile=str(ca))
        except (OSError, ssl.SSLError) as error:
            raise ValueError(
                f"cannot read the CA file {printable(str(ca))}: {_why(error)}"
            ) from None
    return context


def client_tls(address: str, ca: str | Path | None = None) -> ssl.SSLContext | None:
    """The context to reach ``address`` with: one that checks certificates (see
    :func:`client_context`) for ``wss://HOST:PORT``, ``None`` for a plain address."""
    return client_context(ca) if is_tls(address) else None


def own_context() -> ssl.SSLContext:
    """A context for a client of a server of this same program (the host's own seat, on
    loopback): its certificate names the server's public host, not loopback, and needs no
    check here."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def server_context(cert: str | Path, key: str | Path) -> ssl.SSLContext:
    """A server's context with the certificate (chain) in ``cert`` and its private ``key``
    (PEM files); ``ValueError`` in words if they cannot be read or do not match."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(str(cert), str(key))
    except (OSError, ssl.SSLError) as error:
        raise ValueError(
            f"cannot use the certificate {printable(str(cert))} with the key "
            f"{printable(str(key))}: {_why(error)}"
        ) from None
    return context


def _why(error: Exception) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return printable(str(error))[:160] or type(error).__name__
