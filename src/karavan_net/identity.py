"""A server's identity: the key that proves an address belongs to the server a player knows.

A `karavan serve` server makes an Ed25519 key on its first start and keeps it in its
database, so that every process of the server holds the same one.  A client pins the
key's fingerprint the first time it meets the server (as ssh pins host keys) and, before
it sends a secret to an address of a pinned server, asks that address to prove the
identity: it sends a :class:`~karavan_net.protocol.Challenge` with a fresh random nonce,
and the process answers with a :class:`~karavan_net.protocol.Proof`, its signature over
a fixed context, the nonce, its own address and the server's processes.  A program that
merely listens where a process of the server once did cannot sign; one that passes the
challenge on to a real process gets back that process's address, not its own.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import secrets
from collections.abc import Sequence

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from karavan_net.protocol import Challenge, Proof, parse_address

MAX_PEERS = 16  # a server's processes a client keeps, to come back to one

CONTEXT = b"karavan server identity 1\0"
"""What every signature begins with: a signature made for nothing else."""
NONCE_BYTES = 32
MAX_NONCE = 100  # the longest nonce a server signs (a fresh one is 43 characters)
MAX_PROCESSES = MAX_PEERS  # the most processes a proof names
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
"""A fingerprint as :func:`fingerprint` writes it."""


class IdentityError(Exception):
    """An address did not prove the identity expected of it; ``str()`` says why in a sentence."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def fingerprint(public: bytes) -> str:
    """The fingerprint of the raw public key ``public``, as ssh writes one (``SHA256:...``)."""
    return "SHA256:" + _b64(hashlib.sha256(public).digest()).rstrip("=")


def _signed(nonce: str, address: str, processes: Sequence[str]) -> bytes:
    return CONTEXT + json.dumps([nonce, address, list(processes)]).encode("utf-8")


class ServerIdentity:
    """A server's private key."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.fingerprint = fingerprint(self.public)

    @classmethod
    def new(cls) -> ServerIdentity:
        """A fresh identity."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_text(cls, text: str) -> ServerIdentity:
        """The identity kept as :meth:`text`; ``ValueError`` if ``text`` is none."""
        try:
            raw = base64.b64decode(text, validate=True)
        except binascii.Error:
            raise ValueError("The server's identity kept is damaged.") from None
        if len(raw) != 32:
            raise ValueError("The server's identity kept is damaged.")
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def text(self) -> str:
        """The private key as text, to keep (it is the server's to keep to itself)."""
        return _b64(self._key.private_bytes_raw())

    def prove(self, challenge: Challenge, address: str, processes: Sequence[str]) -> Proof:
        """The proof for ``challenge``, given at ``address`` by a server of ``processes``."""
        processes = tuple(processes[:MAX_PROCESSES])
        signature = self._key.sign(_signed(challenge.nonce, address, processes))
        return Proof(_b64(self.public), address, _b64(signature), processes)


def new_challenge() -> Challenge:
    """A challenge with a fresh random nonce."""
    return Challenge(secrets.token_urlsafe(NONCE_BYTES))


def fits(challenge: Challenge) -> bool:
    """Whether a server signs ``challenge`` (a nonce of a sensible length)."""
    return 16 <= len(challenge.nonce) <= MAX_NONCE


def same_address(one: str, other: str) -> bool:
    """Whether ``HOST:PORT`` ``one`` and ``other`` name the same place."""
    try:
        return parse_address(one) == parse_address(other)
    except ValueError:
        return False


def check(
    proof: object, challenge: Challenge, where: str, expected: str | None, at: str | None
) -> str:
    """The fingerprint ``proof`` (the answer at ``where`` to ``challenge``) proves.

    :class:`IdentityError` if it is no proof, proves another identity than ``expected``
    (when one is), or (``at``) was given by a process at another address than ``at``.
    """
    if not isinstance(proof, Proof):
        raise IdentityError(f"{where} did not prove the identity of the server: no secret sent.")
    try:
        public = base64.b64decode(proof.key, validate=True)
        signature = base64.b64decode(proof.signature, validate=True)
        key = Ed25519PublicKey.from_public_bytes(public)
        key.verify(signature, _signed(challenge.nonce, proof.address, proof.processes))
    except (binascii.Error, ValueError, InvalidSignature):
        raise IdentityError(
            f"{where} answered with a proof that does not hold: no secret sent."
        ) from None
    found = fingerprint(public)
    if expected is not None and found != expected:
        raise IdentityError(
            f"{where} proves another identity than the server you know ({found}, not "
            f"{expected}): it may be an impostor, so no secret was sent."
        )
    if at is not None and not same_address(proof.address, at):
        raise IdentityError(
            f"{where} passed on a proof of another process ({proof.address[:60]}): no secret sent."
        )
    return found


def addresses(told: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The ``HOST:PORT`` addresses in ``told`` that are addresses (the others are ignored)."""
    found = []
    for address in told[:MAX_PEERS]:
        try:
            found.append(parse_address(address))
        except ValueError:
            continue
    return tuple(found)


class Trust:
    """What a client trusts of its table's server: the ``identity`` every address must
    prove before a secret goes there (``None``: none known yet), and the addresses of the
    processes the server ``announced``, where it may send the client."""

    def __init__(self, identity: str | None, announced: Sequence[str] = ()) -> None:
        self.identity = identity
        self.announced = set(addresses(announced))

    def proven(self, proof: object, challenge: Challenge, where: str, at: str | None) -> None:
        """Take ``proof``, the answer at ``where`` to ``challenge`` (see :func:`check`), and
        the processes it names; :class:`IdentityError` if it proves no identity known."""
        self.identity = check(proof, challenge, where, self.identity, at)
        assert isinstance(proof, Proof)
        self.announced.update(addresses(proof.processes))

    def told(self, identity: str, peers: Sequence[str], where: str) -> tuple[tuple[str, int], ...]:
        """A Welcome's server ``identity`` (kept if none was known) and ``peers`` (kept, and
        returned, only where an identity guards them); :class:`IdentityError` if it names
        another identity than the one known."""
        if identity and FINGERPRINT.fullmatch(identity):
            if self.identity is None:
                self.identity = identity
            elif identity != self.identity:
                raise IdentityError(f"{where} names another identity than its server's.")
        if self.identity is None:
            return ()
        found = addresses(peers)
        self.announced.update(found)
        return found

    def follows(self, host: str, port: int) -> bool:
        """Whether the client may go where its server sends it: to a process the server
        announced, under an identity that process will have to prove."""
        return self.identity is not None and (host, port) in self.announced
