"""``karavan web`` on loopback: visitors kept apart, other pages refused, a cap, no listing.

The server is the real one (:class:`KaravanServer` in an aiohttp test server);
the program each tab runs is a small stand-in that reports what it was given
(its settings file and saves folder) and ends when asked to, as Karavan does.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import attrs
import pytest
from aiohttp.test_utils import TestClient, TestServer

from karavan_net.client import JoinRefused, TableClient
from karavan_net.seats import seats_file
from karavan_tui import cli
from karavan_tui.cli import web as web_command
from karavan_tui.cli.web.server import COOKIE, KaravanServer, full_page, is_loopback, same_origin
from karavan_tui.cli.web.visitors import (
    Visitors,
    is_visitor_id,
    new_visitor_id,
    signed,
    signed_visitor,
)
from karavan_tui.modals.saves import SavesScreen
from karavan_tui.widgets.chrome import WEB_ICON, AppHeader

from ..tui.helpers import make_app, visible_characters
from .helpers import CODE, hosting, new_match, until

# Says it is a Textual app, reports its settings file and argv in one data packet, then
# waits for the quit that textual-serve sends when the tab goes.
STAND_IN = r"""
import json, os, sys
out = sys.stdout.buffer
out.write(b"__GANGLION__\n")
report = json.dumps({
    "settings": os.environ.get("KARAVAN_SETTINGS"),
    "saves_env": os.environ.get("KARAVAN_SAVES"),
    "visitor": os.environ.get("KARAVAN_VISITOR"),
    "saves_words": os.environ.get("KARAVAN_SAVES_WORDS"),
    "touch": os.environ.get("KARAVAN_TOUCH"),
    "argv": sys.argv[1:],
}).encode()
out.write(b"D" + len(report).to_bytes(4, "big") + report)
out.flush()
stdin = sys.stdin.buffer
while True:
    head = stdin.read(5)
    if len(head) < 5:
        break
    payload = stdin.read(int.from_bytes(head[1:], "big"))
    if head[:1] == b"M" and json.loads(payload).get("type") == "quit":
        break
"""


@pytest.fixture
def stand_in(tmp_path: Path) -> list[str]:
    script = tmp_path / "stand_in.py"
    script.write_text(STAND_IN, encoding="utf-8")
    return [sys.executable, str(script)]


@attrs.define
class Site:
    """A served ``karavan web`` and the browsers that have opened its page."""

    server: KaravanServer
    http: TestServer
    browsers: list[TestClient[Any, Any]]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.http.port}"


async def opened(
    http: TestServer, stack: contextlib.AsyncExitStack, source: str = "127.0.0.1"
) -> TestClient[Any, Any]:
    """A browser of its own (its own cookie jar), at address ``source``, that has opened
    the page."""
    client = TestClient(http, connector=aiohttp.TCPConnector(local_addr=(source, 0)))
    await client.start_server()
    stack.push_async_callback(client.close)
    page = await client.get("/")
    assert page.status == 200
    return client


@contextlib.asynccontextmanager
async def site(
    stand_in: list[str],
    visitors: Visitors,
    *,
    browsers: int = 1,
    max_apps: int = 4,
    loopback_only: bool = True,
    per_visitor: int = 3,
    per_address: int | None = None,
    proxied: bool = False,
) -> AsyncIterator[Site]:
    """A web server of ``visitors`` on loopback, with its caps and whether it sits behind a
    proxy (``proxied``), and ``browsers`` browsers that have opened its page."""
    server = KaravanServer(
        visitors,
        host="127.0.0.1",
        port=0,
        program=stand_in,
        max_apps=max_apps,
        loopback_only=loopback_only,
        per_visitor=per_visitor,
        # Each browser of a test is somebody else at the same address unless a test says.
        per_address=max_apps if per_address is None else per_address,
        proxied=proxied,
    )
    http = TestServer(server.application(), host="127.0.0.1")
    await http.start_server()
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(http.close)
        yield Site(server, http, [await opened(http, stack) for _ in range(browsers)])


@contextlib.asynccontextmanager
async def tab(
    client: TestClient[Any, Any], origin: str | None = None, touch: bool = False
) -> AsyncIterator[dict[str, Any]]:
    """A tab's WebSocket, from the page's own origin unless told (on a touch screen, if
    ``touch``); yields what its app reports."""
    headers = {"Origin": origin or f"http://127.0.0.1:{client.port}"}
    asked = "/ws?width=80&height=24" + ("&touch=1" if touch else "")
    socket = await client.ws_connect(asked, headers=headers)
    try:
        message = await socket.receive(timeout=20)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        yield json.loads(message.data)
    finally:
        await socket.close()


async def refused(client: TestClient[Any, Any], origin: str | None, status: int) -> None:
    headers = {} if origin is None else {"Origin": origin}
    with pytest.raises(aiohttp.WSServerHandshakeError) as error:
        await client.ws_connect("/ws", headers=headers)
    assert error.value.status == status


def saves_of(report: dict[str, Any]) -> Path:
    argv = report["argv"]
    return Path(argv[argv.index("--saves") + 1])


# -- who a visitor is ----------------------------------------------------------------------


async def test_the_page_gives_each_browser_its_own_visitor_cookie_and_keeps_it(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state"), browsers=2) as web:
        first = web.browsers[0]
        ids = [c.session.cookie_jar.filter_cookies(c.make_url("/"))[COOKIE].value
               for c in web.browsers]  # fmt: skip
        key = web.server.key
        assert all(is_visitor_id(signed_visitor(key, i)) for i in ids) and ids[0] != ids[1]
        again = await first.get("/")  # the same browser comes back
        morsel = again.cookies[COOKIE]
        assert morsel.value == ids[0]
        assert morsel["httponly"] and morsel["samesite"] == "Lax" and morsel["path"] == "/"
        assert int(morsel["max-age"]) >= 365 * 24 * 3600
        page = await again.text()
        assert "<title>Karavan</title>" in page
        assert f'data-session-websocket-url="ws://127.0.0.1:{web.http.port}/ws"' in page
        assert again.headers["X-Frame-Options"] == "DENY"


async def test_a_cookie_the_server_did_not_sign_is_replaced(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        (client,) = web.browsers
        url = client.make_url("/")
        mine = client.session.cookie_jar.filter_cookies(url)[COOKIE].value
        made_up = new_visitor_id()
        forged = signed(b"another key" * 4, made_up)
        for cookie in ("../../etc", made_up, forged, f"{made_up}.{mine.split('.')[1]}"):
            client.session.cookie_jar.update_cookies({COOKIE: cookie}, url)
            await refused(client, web.origin, 403)  # no tab without a cookie the server signed
            answer = await client.get("/")
            given = signed_visitor(web.server.key, answer.cookies[COOKIE].value)
            assert given is not None and given != made_up
        async with tab(client) as report:
            assert saves_of(report).parent.parent == tmp_path / "state" / "visitors"
            # The hosts this tab joins know the visitor by a name that is not the cookie.
            assert report["visitor"] and report["visitor"] not in answer.cookies[COOKIE].value


async def test_each_visitor_has_their_own_settings_seats_and_saves(tmp_path, stand_in, monkeypatch):
    monkeypatch.setenv("KARAVAN_SAVES", str(tmp_path / "operators-saves"))
    state = tmp_path / "state"
    async with site(stand_in, Visitors(state), browsers=2) as web:
        ann, bob = web.browsers
        async with tab(ann) as first, tab(ann) as second, tab(bob) as other:
            pass
    for report in (first, second, other):
        folder = Path(report["settings"]).parent
        assert folder.parent == state / "visitors"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert saves_of(report) == folder / "saves" and saves_of(report).is_dir()
        assert report["saves_env"] is None  # the operator's own folder is not passed on
    assert first["settings"] == second["settings"]  # two tabs of one browser: one visitor
    assert first["settings"] != other["settings"]
    assert seats_file(Path(first["settings"])) != seats_file(Path(other["settings"]))
    assert not (tmp_path / "operators-saves").exists()


async def test_a_seat_taken_by_one_visitor_cannot_be_taken_by_another(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state"), browsers=2) as web:
        ann, bob = web.browsers
        async with tab(ann) as first, tab(bob) as other:
            pass
    # What each visitor's Karavan does when it types "Bob" on Join a table:
    first_seats, other_seats = (seats_file(Path(r["settings"])) for r in (first, other))
    async with hosting(new_match("jaipur", "Ann,Bob")) as (table, server):
        playing = TableClient("127.0.0.1", server.port, CODE, "Bob", memory=first_seats)
        await playing.join()
        with pytest.raises(JoinRefused, match="Bob's seat is taken"):
            await TableClient("127.0.0.1", server.port, CODE, "Bob", memory=other_seats).join()
        await playing.close()
        await until(lambda: 1 not in table.links)
        with pytest.raises(JoinRefused, match="Bob is away: ask the host"):  # nor while away
            await TableClient("127.0.0.1", server.port, CODE, "Bob", memory=other_seats).join()
        back = TableClient("127.0.0.1", server.port, CODE, "Bob", memory=first_seats)
        await back.join()  # the first visitor's reloaded tab takes it back
        assert back.seat == 1
        await back.close()


async def test_saves_given_by_the_operator_are_everyones(tmp_path, stand_in):
    shared = tmp_path / "club-saves"
    shared.mkdir()
    async with site(stand_in, Visitors(tmp_path / "state", shared), browsers=2) as web:
        ann, bob = web.browsers
        async with tab(ann) as first, tab(bob) as other:
            pass
    assert saves_of(first) == saves_of(other) == shared
    assert first["settings"] != other["settings"]  # seats stay each visitor's own


def test_visitor_folders_are_named_by_a_digest_and_refuse_what_is_no_id(tmp_path):
    visitors = Visitors(tmp_path)
    visitor = new_visitor_id()
    assert visitor not in str(visitors.folder(visitor))  # the listing gives away no cookie
    assert visitors.folder(visitor) == visitors.folder(visitor)
    for bad in ("", "..", "a" * 42, "a" * 42 + "/", "a" * 44):
        with pytest.raises(ValueError):
            visitors.folder(bad)


# -- other pages, other names --------------------------------------------------------------


async def test_a_websocket_from_any_other_origin_is_refused(tmp_path, stand_in):
    state = tmp_path / "state"
    async with site(stand_in, Visitors(state)) as web:
        (client,) = web.browsers
        port = web.http.port
        assert port is not None
        for origin in (
            None,
            "null",
            "http://evil.example",
            f"http://evil.example:{port}",
            f"http://127.0.0.1:{port + 1}",
            f"https://127.0.0.1:{port}",
            f"http://localhost:{port}",  # another origin than the page's (127.0.0.1)
            f"http://user@127.0.0.1:{port}",
            "not a url",
        ):
            await refused(client, origin, 403)
        assert web.server.running == 0 and not (state / "visitors").exists()
        async with tab(client, web.origin) as report:
            assert report["settings"]


async def test_a_websocket_without_the_pages_cookie_is_refused(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state"), browsers=0) as web:
        client = TestClient(web.http)  # never opened the page
        await client.start_server()
        try:
            await refused(client, web.origin, 403)
        finally:
            await client.close()


async def test_a_loopback_server_answers_only_under_loopback_names(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        (client,) = web.browsers
        for host in ("evil.example", f"evil.example:{web.http.port}", "10.0.0.1"):
            answer = await client.get("/", headers={"Host": host})
            assert answer.status == 421
            assert COOKIE not in answer.cookies
        for host in ("localhost:8000", "[::1]:8000", "127.0.0.2"):
            assert (await client.get("/", headers={"Host": host})).status == 200
    async with site(stand_in, Visitors(tmp_path / "state"), loopback_only=False) as web:
        answer = await web.browsers[0].get("/", headers={"Host": "cards.example:8000"})
        assert answer.status == 200


def test_origins_and_loopback_names():
    assert same_origin("http://127.0.0.1:8000", "http", "127.0.0.1:8000")
    assert same_origin("http://LOCALHOST:8000", "http", "localhost:8000")
    assert same_origin("http://example.org", "http", "example.org:80")
    assert not same_origin("http://example.org:8000/path", "http", "example.org:8000")
    assert not same_origin("http://127.0.0.1:8000", "http", "127.0.0.1:8000/x")
    assert all(is_loopback(h) for h in ("localhost", "127.0.0.1", "127.9.9.9", "[::1]", "::1"))
    assert not any(is_loopback(h) for h in ("localhost.evil.example", "10.0.0.1", "0.0.0.0"))


# -- how many run at once ------------------------------------------------------------------


async def test_past_the_cap_the_page_says_full_and_no_app_starts(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state"), browsers=2, max_apps=2) as web:
        ann, bob = web.browsers
        async with tab(ann), tab(bob):
            assert web.server.running == 2
            await refused(bob, web.origin, 503)
            page = await bob.get("/")
            assert page.status == 503 and page.headers["Retry-After"]
            text = await page.text()
            assert "<title>Karavan is full</title>" in text
            assert "runs 2 games at once, and all of them are being played" in text
        await until(lambda: web.server.running == 0)
        assert (await bob.get("/")).status == 200
        async with tab(bob) as report:
            assert report["settings"]
    assert "runs one game at once" in full_page(1)


@pytest.mark.slow
async def test_one_visitor_takes_no_more_than_its_share_nor_one_address(tmp_path, stand_in):
    visitors = Visitors(tmp_path / "state")
    async with site(stand_in, visitors, browsers=2, max_apps=10, per_address=5) as web:
        greedy, neighbour = web.browsers
        async with contextlib.AsyncExitStack() as tabs:
            for _ in range(3):
                await tabs.enter_async_context(tab(greedy))
            # A fourth tab of the same browser: refused, and its page says why.
            with pytest.raises(aiohttp.WSServerHandshakeError) as error:
                await greedy.ws_connect("/ws", headers={"Origin": web.origin})
            assert error.value.status == 503
            page = await greedy.get("/")
            assert page.status == 503 and "You play 3 games here already" in await page.text()
            # Made-up cookies are refused; fresh ones are new visitors of the same address.
            jar = greedy.session.cookie_jar
            jar.update_cookies({COOKIE: new_visitor_id()}, greedy.make_url("/"))
            await refused(greedy, web.origin, 403)
            jar.clear()
            assert (await greedy.get("/")).status == 200  # a new visitor
            for _ in range(2):
                await tabs.enter_async_context(tab(greedy))
            assert web.server.by_address["127.0.0.1"] == 5
            page = await neighbour.get("/")
            assert "Your address plays 5 games here already" in await page.text()
            # Someone at another address still gets a place.
            elsewhere = await opened(web.http, tabs, source="127.0.0.2")
            async with tab(elsewhere) as report:
                assert report["settings"]
            assert web.server.running == 6
        await until(lambda: web.server.running == 0)
        assert not web.server.by_visitor and not web.server.by_address


async def test_free_cookies_take_no_more_than_one_addresss_share_of_the_places(tmp_path, stand_in):
    # The caps as `karavan web` sets them when not told: an address, loopback included, takes
    # half of the places whatever cookies it brings.
    per_address = web_command.places_per_address(10, None)
    assert per_address == 5 and web_command.places_per_address(10, 8) == 8
    visitors = Visitors(tmp_path / "state")
    async with site(stand_in, visitors, browsers=4, max_apps=10, per_address=per_address) as web:
        async with contextlib.AsyncExitStack() as tabs:
            for index, browser in enumerate(web.browsers):  # four cookies, three tabs each
                for _ in range(3):
                    if web.server.running < per_address:
                        await tabs.enter_async_context(tab(browser))
                    else:
                        await refused(browser, web.origin, 503)
                assert web.server.running == min(3 * (index + 1), per_address)
            page = await web.browsers[-1].get("/")
            assert "Your address plays 5 games here already" in await page.text()
            elsewhere = await opened(web.http, tabs, source="127.0.0.2")
            async with tab(elsewhere) as report:
                assert report["settings"]
        await until(lambda: web.server.running == 0)


async def test_the_page_asks_nothing_from_elsewhere_and_follows_the_apps_title(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        (client,) = web.browsers
        page = await (await client.get("/")).text()
        own = f"127.0.0.1:{web.http.port}/"
        addresses = [word for word in page.split('"') if "://" in word and own not in word]
        assert addresses == ["http://www.w3.org/2000/svg"], addresses  # a name, not a request
        assert 'url("/static/fonts/RobotoMono-VariableFont_wght.ttf")' in page
        font = await client.get("/static/fonts/RobotoMono-VariableFont_wght.ttf")
        assert font.status == 200 and len(await font.read()) > 10_000
        # The tab's title follows the terminal's (OSC 2), read before textual.js sees the bytes.
        assert page.index("document.title = title") < page.index("js/textual.js")
        async with tab(client) as report:
            assert report["saves_words"] == "your saves"


async def test_the_page_fits_a_phone(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        (client,) = web.browsers
        page = await (await client.get("/")).text()
        # As wide as the screen (not a 980-pixel page shrunk), its dialogs too.
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
        assert ".intro { max-width: calc(100vw - 64px); }" in page
        # The script that sizes the canvas and the font runs once textual.js is loaded and
        # before it opens the terminal (on load).
        fit = page.index("const LANDSCAPE = { cols: 80, rows: 24 };")
        assert page.index("js/textual.js") < fit
        assert 'String(options.box) === "device-pixel-content-box"' in page


# -- static files --------------------------------------------------------------------------


async def test_a_touch_screens_tab_is_told_so_and_no_other(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        (browser,) = web.browsers
        page = await (await browser.get("/")).text()
        assert 'matchMedia("(hover: none)")' in page and "touch=1" in page
        async with tab(browser, touch=True) as report:
            assert report["touch"] == "1"
        async with tab(browser) as report:
            assert report["touch"] is None


async def test_the_pages_own_scripts_are_javascript(tmp_path, stand_in):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on this machine to read the page's scripts")
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        page = await (await web.browsers[0].get("/")).text()
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) >= 2  # the title's and fit.js
    for number, script in enumerate(scripts):
        path = tmp_path / f"script{number}.js"
        path.write_text(script, encoding="utf-8")
        checked = subprocess.run([node, "--check", str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr


async def test_the_static_folders_are_not_listed(tmp_path, stand_in):
    async with site(stand_in, Visitors(tmp_path / "state")) as web:
        (client,) = web.browsers
        for folder in ("/static", "/static/", "/static/js/", "/static/fonts/"):
            answer = await client.get(folder)
            assert answer.status in (403, 404), folder
            assert "textual.js" not in await answer.text()
        assert (await client.get("/static/js/textual.js")).status == 200
        assert (await client.get("/static/../server.py")).status in (403, 404)
        assert (await client.get("/download/anything")).status == 404


# -- the command line ----------------------------------------------------------------------


def test_the_command_shares_saves_only_when_told_and_checks_its_options(
    tmp_path, monkeypatch, capsys
):
    served: list[Visitors] = []
    monkeypatch.setattr(web_command, "serve", lambda ctx, visitors: served.append(visitors) or 0)
    monkeypatch.setenv("KARAVAN_SAVES", str(tmp_path / "mine"))
    state = tmp_path / "state"
    assert cli.main(["web", "--state", str(state)]) == 0
    assert served[-1] == Visitors(state, None)  # $KARAVAN_SAVES stays the operator's own
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert cli.main(["web", "--state", str(state), "--saves", str(tmp_path / "club")]) == 0
    assert served[-1] == Visitors(state, tmp_path / "club") and (tmp_path / "club").is_dir()
    with pytest.raises(SystemExit) as exit_:
        cli.main(["web", "--max-apps", "0"])
    assert exit_.value.code == 2
    assert "--max-apps: 0 is not a number of Karavans" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert cli.main(["web", "--state", str(tmp_path / "file" / "state")]) == 2
    assert "cannot keep the visitors' files in" in capsys.readouterr().err
    assert len(served) == 2


# -- what a visitor's Karavan shows --------------------------------------------------------


async def test_a_visitors_load_dialog_names_the_folder_in_words_and_the_header_icon_is_drawn(
    tmp_path, monkeypatch
):
    app = make_app(tmp_path)
    app.config.saves_words = "your saves"  # what karavan web tells each tab's Karavan
    monkeypatch.setattr(type(app), "is_web", property(lambda _: True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, SavesScreen)
        title = str(app.screen.query_one("#saves-title").render())
        assert title == "Saved games in your saves, last played first"
        assert str(tmp_path) not in visible_characters(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one(AppHeader).icon == WEB_ICON  # the page's font has it


# -- behind a reverse proxy ------------------------------------------------------------------

PROXY = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "karavan.example.org",
    "X-Forwarded-For": "203.0.113.7",
}


async def test_behind_a_proxy_the_page_and_its_websocket_work_under_the_proxys_name(
    tmp_path, stand_in
):
    visitors = Visitors(tmp_path / "state")
    async with site(stand_in, visitors, loopback_only=False, proxied=True) as web:
        http = web.http
        async with aiohttp.ClientSession() as browser:
            page = await browser.get(f"http://127.0.0.1:{http.port}/", headers=PROXY)
            assert page.status == 200
            cookie = page.cookies[COOKIE]
            assert cookie["secure"] and cookie["httponly"]  # the page was asked by https
            headers = {
                **PROXY,
                "Origin": "https://karavan.example.org",
                "Cookie": f"{COOKIE}={cookie.value}",
            }
            socket = await browser.ws_connect(f"ws://127.0.0.1:{http.port}/ws", headers=headers)
            message = await socket.receive(timeout=20)
            assert message.type == aiohttp.WSMsgType.BINARY, message
            assert dict(web.server.by_address) == {"203.0.113.7": 1}  # the visitor's address
            await socket.close()
            # Another page's origin is still refused, under the proxy's name too.
            with pytest.raises(aiohttp.WSServerHandshakeError) as error:
                await browser.ws_connect(
                    f"ws://127.0.0.1:{http.port}/ws",
                    headers={**headers, "Origin": "https://elsewhere.example"},
                )
            assert error.value.status == 403


async def test_without_the_proxy_option_forwarded_headers_are_not_believed(tmp_path, stand_in):
    async with (
        site(stand_in, Visitors(tmp_path / "state")) as web,
        aiohttp.ClientSession() as browser,
    ):
        page = await browser.get(f"http://127.0.0.1:{web.http.port}/", headers=PROXY)
        assert page.status == 200  # asked as 127.0.0.1: a loopback name
        assert not page.cookies[COOKIE]["secure"]
