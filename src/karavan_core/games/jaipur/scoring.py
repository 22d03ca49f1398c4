"""Jaipur's scoring of a round: each player's takings, and who takes the round's seal."""

from __future__ import annotations

from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.state import JaipurState, RoundScore


def round_scores(state: JaipurState) -> tuple[RoundScore, ...]:
    """Each player's takings if the round in progress ended now (camel token included)."""
    herds = state.herds
    most = max(herds)
    camel_owner = herds.index(most) if herds.count(most) == 1 else None
    return tuple(
        RoundScore(
            goods_tokens=tuple(v for values in state.goods_won[seat] for v in values),
            bonus_tokens=tuple(v for values in state.bonus_won[seat] for v in values),
            herd=herds[seat],
            camel_token=C.CAMEL_TOKEN if seat == camel_owner else 0,
        )
        for seat in range(len(state.players))
    )


def seal_winner(scores: tuple[RoundScore, ...]) -> int | None:
    """The seat that takes the round's seal: most points, then most bonus tokens, then most
    goods tokens; ``None`` after a complete tie."""
    keys = [(s.total, len(s.bonus_tokens), len(s.goods_tokens)) for s in scores]
    if keys[0] == keys[1]:
        return None
    return 0 if keys[0] > keys[1] else 1
