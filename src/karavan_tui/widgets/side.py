"""The panels beside every table: scores, the log, and the status line."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from karavan_core.match import Seat
from karavan_core.text import plural
from karavan_tui.glyphs import Glyphs
from karavan_tui.words import cut, name_column, padded


@frozen
class Standing:
    """What the score board shows: each seat's score (in the game's words), who is to move,
    who won."""

    seats: tuple[Seat, ...]
    scores: tuple[str, ...]
    to_move: int | None
    winners: tuple[int, ...]
    glyphs: Glyphs


class ScoreBoard(Widget):
    """Each player's score so far, the player to move marked: one line per player.

    Laid out for its width when drawn: a name too long for the panel (at 80 columns,
    24 characters are) is cut with an ellipsis rather than push its score to a line of
    its own.
    """

    standing: reactive[Standing | None] = reactive(None, layout=True)

    def show(
        self,
        seats: Sequence[Seat],
        scores: Sequence[str],
        to_move: int | None,
        winners: Sequence[int],
        g: Glyphs,
    ) -> None:
        """Draw one line per seat, its score as the game says it (a number, or "out")."""
        self.standing = Standing(tuple(seats), tuple(scores), to_move, tuple(winners), g)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """A line per seat."""
        return len(self.standing.seats) if self.standing is not None else 1

    def render(self) -> Text:
        """A line per seat: the mark, the name (cut if need be), the score."""
        standing = self.standing
        if standing is None:
            return Text()
        g = standing.glyphs
        digits = max(3, *(len(score) for score in standing.scores))
        room = self.content_region.width or 10_000
        names, width = name_column([s.name for s in standing.seats], room - 3 - digits, g.ellipsis)
        text = Text()
        for index, name in enumerate(names):
            if index:
                text.append("\n")
            mine = index == standing.to_move
            mark = g.turn if mine else g.winner if index in standing.winners else " "
            text.append(f"{mark} ", style="bold")
            text.append(padded(name, width), style="bold" if mine else "")
            text.append(f" {standing.scores[index]:>{digits}}")
        return text


LOG_TAIL = 40  # entries drawn beside the table; the whole log is one key away


def numbered(lines: Sequence[str], start: int = 0) -> Text:
    """Log lines, one per paragraph: decision ``n`` numbered ``n.``, the opening line (0) plain.

    ``start`` is the place of the first of ``lines`` in the whole log.
    """
    return Text(
        "\n".join(f"{n}. {line}" if n else line for n, line in enumerate(lines, start=start))
    )


class GameLog(VerticalScroll):
    """The opening line and the latest decisions in plain words, newest at the bottom.

    Only the last :data:`LOG_TAIL` entries are drawn, so a long game costs no
    more per move than a short one; the game screen shows the whole log on
    request.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown: tuple[list[str], int] | None = None

    def compose(self) -> ComposeResult:
        """The text of the log."""
        yield Static("", id="log-text")

    def on_resize(self) -> None:
        """The text wraps anew at another size: stay on the newest lines."""
        self.call_after_refresh(self.scroll_end, animate=False)

    def show(self, lines: Sequence[str], news_from: int | None, g: Glyphs) -> None:
        """Show the end of ``lines`` (the whole log) in ``g``'s symbols and scroll to the newest.

        Lines from ``news_from`` on (what others did since your last decision) are bold.
        """
        tail = [g.words(line) for line in lines[-LOG_TAIL:]]
        start = len(lines) - len(tail)
        bold_from = len(lines) if news_from is None else max(news_from, start)
        if (tail, bold_from) == self.shown:
            return
        self.shown = (tail, bold_from)
        seen, news = tail[: bold_from - start], tail[bold_from - start :]
        text = Text(f"({start} earlier: press l)\n", style="dim") if start else Text()
        text.append_text(numbered(seen, start))
        if news:
            fresh = numbered(news, bold_from)
            fresh.stylize("bold")
            text.append("\n" if seen else "")
            text.append_text(fresh)
        self.query_one("#log-text", Static).update(text)
        self.call_after_refresh(self.scroll_end, animate=False)


def first_sentence(line: str) -> str:
    """The decision itself: a log line up to the end of its first sentence."""
    end = line.find(". ")
    return line if end < 0 else line[: end + 1]


@frozen
class News:
    """What the news line tells: log ``lines`` by players ``names``, in ``glyphs``'s symbols.

    ``yours``: someone is at the keyboard; ``weights`` say how telling each decision
    is (higher: more; all alike if not given); ``opening``: nobody has decided
    anything yet in this game; ``notice``: what became of a decision taken back, said in
    the lines' place (the table went back: what was news before that is news no more);
    ``own``: the log line of the last decision of the player at the keyboard, told when
    nothing came after it (rather than "nothing new" just after one's own move).
    """

    lines: tuple[str, ...]
    names: tuple[str, ...]
    yours: bool
    glyphs: Glyphs
    weights: tuple[int, ...] = ()
    opening: bool = False
    notice: str = ""
    own: str = ""


class NewsBanner(Static):
    """A line over the table (two where one is too short): what the others did since your
    last decision, in words.

    Each decision is told by the first sentence of its log line, a player's
    decisions in a row joined ("Bob takes 2 camels, then sells 3 leather"), in
    the order they were made.  When the line is full, the least telling go
    first (by the table's weights: ending a turn tells less than what was done
    in it), then the earliest.  A sentence too long for one line wraps onto a
    second (the stylesheet's max-height) rather than end cut; past that it loses
    its last clauses.  The log beside the table has every one of them in full,
    in bold.  The line is laid out for the width it has whenever it is drawn,
    so a resize tells the news again in the room there is.
    """

    # A change may take the line from one row to two: the screen is laid out again.
    news: reactive[News | None] = reactive(None, layout=True)

    def show(
        self,
        news: Sequence[str],
        names: Sequence[str],
        yours: bool,
        g: Glyphs,
        weights: Sequence[int] = (),
        opening: bool = False,
        notice: str = "",
        own: str = "",
    ) -> None:
        """Tell ``news`` (log lines) by players ``names``; ``yours``: someone is at the keyboard.

        ``opening``: no decision has been made yet, so there is no "last move" to speak of;
        ``notice``, where given, is said instead of the news (a decision taken back);
        ``own``, the viewer's last decision, is told when nothing came after it.
        """
        self.news = News(tuple(news), tuple(names), yours, g, tuple(weights), opening, notice, own)

    @property
    def rows(self) -> int:
        """The most rows the news may take (the stylesheet's max-height; one if unset)."""
        most = self.styles.max_height
        return int(most.value) if most is not None and most.is_cells else 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many rows as the news laid out for ``width`` takes."""
        if self.news is None:
            return 1
        return max(1, len(news_text(self.news, width, self.rows).wrap(width)))

    def render(self) -> Content:
        """The news, fitted to the width of the line."""
        if self.news is None:
            return Content("")
        return news_text(self.news, self.content_region.width or 78, self.rows)


def fits(text: str, room: int, rows: int) -> bool:
    """Whether ``text`` wrapped at ``room`` cells takes at most ``rows`` rows."""
    return len(Content(text).wrap(room)) <= rows


# Where a sentence too long for its lines may end early: after a clause ("; ", ": ").
CLAUSE_ENDS = ("; ", ": ")
# An aside in brackets, which a sentence too long for its lines may leave out.
ASIDE = re.compile(r" \([^()]*\)")


def shortened(text: str, room: int, rows: int, keep: int = 0) -> str | None:
    """The longest of ``text``'s shorter forms (:func:`shorter_forms`) that fits in ``rows``
    rows of ``room`` cells; ``None`` if none does."""
    return next((form for form in shorter_forms(text, keep) if fits(form, room, rows)), None)


def subject(text: str) -> int:
    """How much of ``text`` a shorter form keeps whole: its first sentence, or, for a
    prompt of one ("Ann: take a card"), what comes before its first colon."""
    ends = [at for at in (text.find(". "), text.find("? ")) if at >= 0]
    return min(ends) + 1 if ends else max(0, text.find(": ")) + 1


def shorter_forms(text: str, keep: int = 0) -> Iterator[str]:
    """``text`` said in fewer words, losing the least first: without its asides in brackets,
    the last first ("(1 point)", "(3 axes)"), then without its last clauses (ending with a
    full stop), asides kept and then dropped.

    Nothing within the first ``keep`` characters (a sentence's subject) is left out.
    """
    asides = [match for match in ASIDE.finditer(text) if match.start() > keep]
    bare = text
    for aside in reversed(asides):
        bare = bare[: aside.start()] + bare[aside.end() :]
        yield bare
    for form in (text, bare) if asides else (text,):
        ends = sorted(i for end in CLAUSE_ENDS for i in _find_all(form, end) if i > keep)
        for end in reversed(ends):
            yield form[:end].rstrip(".") + "."


def fitted(text: str, room: int, rows: int, g: Glyphs, keep: int = 0) -> str:
    """``text`` in at most ``rows`` rows of ``room`` cells, in as few as it takes: whole, else
    in fewer words (see :func:`shorter_forms`), a row more only where neither fits; should
    even its first clause be too long for them all, cut after a word."""
    for used in range(1, rows + 1):
        if fits(text, room, used):
            return text
        shorter = shortened(text, room, used, keep)
        if shorter is not None:
            return shorter
    words = text.split(" ")
    for count in range(len(words) - 1, 0, -1):
        shorter = " ".join(words[:count]) + g.ellipsis
        if fits(shorter, room, rows):
            return shorter
    return cut(text, room, g.ellipsis)


def _find_all(text: str, part: str) -> list[int]:
    """Every place ``part`` starts in ``text``."""
    places, at = [], text.find(part)
    while at >= 0:
        places.append(at)
        at = text.find(part, at + 1)
    return places


def quiet_words(news: News) -> str:
    """What the news line says when there is no news."""
    g = news.glyphs
    if not news.yours:
        return ""
    if news.opening:
        return "A new game: nothing has been played yet."
    if news.own:
        return f"Your last move: {g.words(first_sentence(news.own))}"
    return "Nothing new since your last move."


def news_text(news: News, room: int, rows: int = 1) -> Content:
    """The news line's words for ``rows`` rows of ``room`` cells: the most telling decisions
    that fit, in as few rows as they fit in."""
    g = news.glyphs
    if news.notice and news.yours:
        return Content.styled(fitted(g.words(news.notice), room, rows, g), "bold")
    if not news.lines:
        words = quiet_words(news)
        return Content.styled(fitted(words, room, rows, g, words.find(": ") + 1), "dim")
    said = [g.words(first_sentence(line).rstrip(".")) for line in news.lines]
    names = [g.words(name) for name in news.names]  # as the lines write them
    actors = [next((n for n in names if line.startswith(n + " ")), None) for line in said]
    weights = news.weights
    worth = list(weights) if len(weights) == len(said) else [0] * len(said)
    # The most telling first (the newest of equals), then the others that fit.
    order = sorted(range(len(said)), key=lambda i: (-worth[i], -i))
    # Where the most telling alone is too long for a row, it loses its last clauses (the
    # log has it whole) rather than push the table down a row; failing that it takes two.
    alone = banner_line(order[:1], said, actors, g, count=None)
    subject = len(g.changed) + 1 + len(actors[order[0]] or "")
    for used in range(1, rows + 1):
        line = packed(order, said, actors, g, room, used) or shortened(alone, room, used, subject)
        if line is not None:
            return Content.styled(line, "bold")
    return Content.styled(fitted(alone, room, rows, g, subject), "bold")


def packed(
    order: Sequence[int],
    said: Sequence[str],
    actors: Sequence[str | None],
    g: Glyphs,
    room: int,
    rows: int,
) -> str | None:
    """The decisions of ``said`` taken in ``order`` while they fit in ``rows`` rows, the ones
    left out counted in as many words as there is room for; ``None`` when the first of
    ``order`` alone does not fit."""
    kept: list[int] = []
    for index in order:
        candidate = sorted([index, *kept])
        if kept and not fits(banner_line(candidate, said, actors, g), room, rows):
            break
        kept = candidate
    for count in ("words", "short", "brief", None):  # the moves left out, in fewer words
        line = banner_line(kept, said, actors, g, count=count)
        if fits(line, room, rows):
            return line
    return None


def banner_line(
    kept: Sequence[int],
    said: Sequence[str],
    actors: Sequence[str | None],
    g: Glyphs,
    *,
    count: Literal["words", "short", "brief"] | None = "words",
) -> str:
    """The banner's words for the decisions ``kept`` (indexes into ``said``).

    A player's decisions in a row share one sentence ("Bob takes the silk, then
    draws a card"); the decisions left out are counted at the end, in ``count``
    "words" ("(3 earlier moves: press l)"), "short" ("(+3 in the log: l)"), "brief"
    ("(+3 more)": a key alone, "(+3: l)", read as nothing) or not at all (``None``).
    """
    sentences: list[str] = []
    for position, index in enumerate(kept):
        who = actors[index]
        if position and who is not None and actors[kept[position - 1]] == who:
            sentences[-1] += ", then " + said[index][len(who) + 1 :]
        else:
            sentences.append(said[index])
    left = len(said) - len(kept) if count else 0
    # Left out all before the first told, or some between or after.
    which = "earlier" if kept and left == kept[0] else "more"
    more = ""
    if left and count is not None:
        more = {
            "words": f" ({plural(left, which + ' move')}: press l)",
            "short": f" (+{left} in the log: l)",
            "brief": f" (+{left} more)",
        }[count]
    return f"{g.changed} " + ". ".join(sentences) + "." + more


@frozen
class Said:
    """What the status line says: the prompt and the quiet indicators after it."""

    prompt: str
    thinking: bool
    saved: str
    glyphs: Glyphs


class StatusLine(Static):
    """Whose turn it is and what they must decide, plus the quiet indicators.

    The prompt may wrap onto the lines the status line has (its max-height);
    when it needs more, it is said in fewer words (:func:`shorter_forms`: its
    asides in brackets, then its last clauses, left out; its first sentence, or
    the subject before its first colon, kept), and only should that not do, cut
    with an ellipsis, so that the indicators ("thinking", "saved") always stay in
    sight at its end.  It is laid out for its width whenever it is drawn, a
    resize included.
    """

    said: reactive[Said | None] = reactive(None, layout=True)  # one line, or two

    def show(self, prompt: str, thinking: bool, saved: str, g: Glyphs) -> None:
        """Draw the status line (``prompt`` holds the engine's words)."""
        self.said = Said(prompt, thinking, saved, g)

    def render(self) -> Content:
        """The prompt and the indicators, cut to the lines there are if need be."""
        said = self.said
        if said is None:
            return Content("")
        g, words = said.glyphs, said.glyphs.words(said.prompt)
        tail: list[tuple[str, str]] = []
        if said.thinking:
            tail.append((f"  {g.thinking}", "italic"))
        if said.saved:
            tail.append((f"  {said.saved}", "dim"))
        text = Content.assemble((words, "bold"), *tail)
        room = self.content_region.width
        if room and tail:
            # The indicators stay together: "✓" at the end of one line and "saved" on the
            # next read as nothing.  Where they do not fit after the prompt's last line,
            # they start the next one.
            indicators = "".join(part for part, _ in tail).strip()
            if indicators not in text.wrap(room)[-1].plain:
                first = (tail[0][0].lstrip(), tail[0][1])
                text = Content.assemble((words, "bold"), ("\n", ""), first, *tail[1:])
        lines = self.styles.max_height
        most = int(lines.value) if lines is not None and lines.is_cells else 0
        if room and most and len(text.wrap(room)) > most:
            for form in shorter_forms(words, subject(words)):
                shorter = Content.assemble((form, "bold"), *tail)
                if len(shorter.wrap(room)) <= most:
                    return shorter
            # Cut the prompt, at the longest length that fits with the indicators.
            low, high = 0, len(words)
            while low < high:
                middle = (low + high + 1) // 2
                cut = Content.assemble((words[:middle].rstrip() + g.ellipsis, "bold"), *tail)
                if len(cut.wrap(room)) <= most:
                    low = middle
                else:
                    high = middle - 1
            text = Content.assemble((words[:low].rstrip() + g.ellipsis, "bold"), *tail)
        return text
