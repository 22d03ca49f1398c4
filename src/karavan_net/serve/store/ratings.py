"""Ratings: each account's skill in each game, what each rated game did to it, the leaderboard.

A finished rated game is rated in the transaction that keeps its result
(:meth:`Ratings.rate_in`, called by :meth:`~karavan_net.serve.store.tables.Tables.record_all`),
with its players' rating rows locked: two games with a player in common that end at the
same moment are rated one after the other, the second from what the first left.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from karavan_net.serve.ratings import Skill, ranks, rated
from karavan_net.serve.schema import Account, Rating, RatingChange
from karavan_net.serve.store.records import RatedGame
from karavan_net.serve.store.sessions import Sessions

NEWCOMER = Skill()


class Ratings:
    """The players' ratings, game by game."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def skills(self, game: str, account_ids: Sequence[int]) -> list[Skill]:
        """The ratings of ``account_ids`` in ``game`` (a newcomer's where there is none)."""
        with self._sessions.begin() as session:
            rows = {
                r.account_id: r
                for r in session.scalars(
                    select(Rating).where(Rating.game == game, Rating.account_id.in_(account_ids))
                )
            }
        return [_skill(rows[a]) if a in rows else NEWCOMER for a in account_ids]

    def shown(self, account_ids: Collection[int]) -> dict[tuple[str, int], int]:
        """The ratings players see of ``account_ids``, by game and account (rated ones only)."""
        if not account_ids:
            return {}
        with self._sessions.begin() as session:
            rows = session.scalars(select(Rating).where(Rating.account_id.in_(account_ids)))
            return {(r.game, r.account_id): _skill(r).shown for r in rows}

    def changes(self, table_ids: Collection[int]) -> dict[tuple[int, int], tuple[int, int]]:
        """What the finished rated tables ``table_ids`` did to their players' ratings, by table
        and account: (before, after)."""
        if not table_ids:
            return {}
        with self._sessions.begin() as session:
            rows = session.scalars(select(RatingChange).where(RatingChange.table_id.in_(table_ids)))
            return {(r.table_id, r.account_id): (round(r.before), round(r.after)) for r in rows}

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[str, Skill]]:
        """The best rated players of ``game``, best first (by the rating players see)."""
        query = (
            select(Account.name, Rating)
            .join(Rating, Rating.account_id == Account.id)
            .where(Rating.game == game)
            .order_by((Rating.mu - 3 * Rating.sigma).desc(), Account.name_key)
            .limit(limit)
        )
        with self._sessions.begin() as session:
            return [(name, _skill(row)) for name, row in session.execute(query)]

    def rate_in(
        self, session: Session, finished: Sequence[tuple[int, RatedGame, dict[str, Any]]]
    ) -> None:
        """Rate the ``finished`` games (table, its players, its result) in ``session``'s
        transaction, their players' rating rows locked until it ends."""
        wanted = sorted({(game.game, a) for _, game, _ in finished for a in game.accounts})
        if not wanted:
            return
        # Every row there first, so that one ordered statement locks them all: rows taken in
        # one order by every transaction are never waited for in a circle.
        fresh = [
            {"account_id": a, "game": g, "mu": NEWCOMER.mu, "sigma": NEWCOMER.sigma, "games": 0}
            for g, a in wanted
        ]
        insert = self._sessions.insert(Rating).values(fresh)
        session.execute(insert.on_conflict_do_nothing(index_elements=["account_id", "game"]))
        rows: dict[tuple[str, int], Rating] = {}
        for game in sorted({g for g, _ in wanted}):
            accounts = [a for g, a in wanted if g == game]
            locked = session.scalars(
                select(Rating)
                .where(Rating.game == game, Rating.account_id.in_(accounts))
                .order_by(Rating.account_id)
                .with_for_update()
            )
            rows.update({(game, r.account_id): r for r in locked})
        for table_id, played, result in finished:
            players = [rows[(played.game, a)] for a in played.accounts]
            before = [_skill(r) for r in players]
            places = ranks(result["scores"], result["winners"], result.get("resigned", ()))
            after = rated(before, places)
            for row, old, new in zip(players, before, after, strict=True):
                row.mu, row.sigma, row.games = new.mu, new.sigma, new.games
                session.add(
                    RatingChange(
                        table_id=table_id,
                        account_id=row.account_id,
                        before=float(old.shown),
                        after=float(new.shown),
                    )
                )
        session.flush()


def _skill(row: Rating) -> Skill:
    return Skill(row.mu, row.sigma, row.games)
