"""A server's identity on its own: a proof holds only for its nonce, its key and the
address that gave it; the accounts file pins the fingerprint beside the account."""

from __future__ import annotations

import json

import pytest
from attrs import evolve

from karavan_net.accounts import Account, account_for, keep, pin, server_key
from karavan_net.identity import FINGERPRINT, IdentityError, ServerIdentity, check, new_challenge
from karavan_net.protocol import Challenge


def test_a_proof_holds_for_its_nonce_key_and_address_only():
    server = ServerIdentity.new()
    assert FINGERPRINT.fullmatch(server.fingerprint)
    assert ServerIdentity.from_text(server.text()).fingerprint == server.fingerprint
    challenge = new_challenge()
    proof = server.prove(challenge, "10.0.0.1:7700", ["10.0.0.1:7700", "10.0.0.2:7700"])
    where = "The server at 10.0.0.1:7700"
    assert check(proof, challenge, where, server.fingerprint, "10.0.0.1:7700") == server.fingerprint
    assert check(proof, challenge, where, None, None) == server.fingerprint
    with pytest.raises(IdentityError, match="does not hold"):
        check(proof, Challenge("another nonce, not the one signed"), where, None, None)
    with pytest.raises(IdentityError, match="does not hold"):  # a process list made up
        check(evolve(proof, processes=("6.6.6.6:1",)), challenge, where, None, None)
    with pytest.raises(IdentityError, match="another identity"):
        check(proof, challenge, where, ServerIdentity.new().fingerprint, None)
    with pytest.raises(IdentityError, match="passed on a proof of another process"):
        check(proof, challenge, where, server.fingerprint, "10.0.0.2:7700")
    with pytest.raises(IdentityError, match="did not prove"):
        check(None, challenge, where, server.fingerprint, None)
    with pytest.raises(ValueError, match="damaged"):
        ServerIdentity.from_text("not a key")


def test_the_accounts_file_pins_a_server_s_identity_once_and_keeps_wss_apart(tmp_path):
    path = tmp_path / "accounts.json"
    first, other = ServerIdentity.new().fingerprint, ServerIdentity.new().fingerprint
    account = Account(server_key("example.org"), "Ann", "a" * 43)
    keep(path, account)
    pinned = pin(path, account, first)
    assert pinned.identity == first and account_for(path, "example.org:7700") == pinned
    assert pin(path, pinned, other).identity == first  # a pin kept stays
    assert account_for(path, "example.org").identity == first
    assert server_key("wss://Example.org:7443") == "wss://Example.org:7443"
    assert account_for(path, "wss://example.org:7700") is None  # over TLS: another server
    data = json.loads(path.read_text())
    data["example.org:7700"]["identity"] = "SHA256:not-a-fingerprint"
    path.write_text(json.dumps(data))
    assert account_for(path, "example.org").identity is None  # unfit: no pin, not a crash
