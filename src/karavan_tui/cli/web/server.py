"""The web server of ``karavan web``: textual-serve's, with each visitor's Karavan kept apart.

textual-serve runs one command for every WebSocket and shares everything
between them.  This server, a subclass of its :class:`Server`, changes what a
browser can reach and nothing of the app:

* the page gives the browser a visitor id in an HttpOnly, SameSite cookie
  that the server signs, and each tab's Karavan is started with that
  visitor's settings file (seat secrets beside it), saves folder and a name
  for the hosts it joins (:mod:`.visitors`);
* the WebSocket is refused unless it comes from the page's own origin and
  carries a visitor id, so no other page the user visits can drive the app;
* when a server bound to loopback is asked under a name that is not a
  loopback one (DNS rebinding), it answers nothing;
* at most ``max_apps`` Karavans run at once, at most ``per_visitor`` of one
  visitor and ``per_address`` from one address (a made-up cookie is only a
  new visitor from the same address); past that the page says so;
* the page asks nothing from elsewhere (its font is served here) and follows
  the title the app gives its terminal (the tab says when it is your turn);
* the page fits a phone: a viewport as wide as the screen, a canvas drawn in
  device pixels, a font sized so that the grid is at least 80x24 in landscape
  and 40x30 in portrait (``fit.js``);
* each tab's Karavan runs in a process group of its own, ended for certain when its tab
  closes or the server stops, however it is (:mod:`.apps`); a tab on a touch screen says
  so, and its Karavan shows no tooltips;
* the static files are served without listing their folders, and there is
  no download route (Karavan delivers no files);
* behind a reverse proxy on this machine (``proxied``), the page's scheme and
  name and the visitor's address are those the proxy forwards, so the origin
  check, the secure cookie and the caps per address hold as if it were not there.
"""

from __future__ import annotations

import asyncio
import functools
import html
import ipaddress
import logging
import re
import shlex
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server, to_int
from yarl import URL

from karavan_tui.cli.web.apps import VisitorApp
from karavan_tui.cli.web.visitors import (
    Visit,
    Visitors,
    new_visitor_id,
    signed,
    signed_visitor,
    table_name,
)

log = logging.getLogger("karavan.web")

COOKIE = "karavan_visitor"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie: the same browser returns
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",  # no other page may frame the app and steer its clicks
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def titled(page: str, title: str = "Karavan") -> str:
    """``page`` (textual-serve's HTML page) with a ``<title>``: the browser tab says Karavan."""
    if "<title>" in page:
        return page
    return page.replace("<head>", f"<head>\n    <title>{html.escape(title)}</title>", 1)


# textual-serve's page asks Google for its font: the same font is among its static files.
FONT_LINK = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.S)
LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
      }
    </style>"""
# The app names its terminal (OSC 2) when it is the player's turn; xterm.js keeps that to
# itself, so the page reads it from the bytes on their way and gives it to the tab.
FOLLOW_TITLE = r"""<script>
      (() => {
        const Socket = window.WebSocket;
        const named = /\x1b\]2;([^\x07\x1b]*)(?:\x07|\x1b\\)/g;
        window.WebSocket = class extends Socket {
          constructor(url, ...options) {
            // A touch screen (no hover) says so: its Karavan shows no tooltips.
            if (window.matchMedia("(hover: none)").matches) {
              url = String(url) + (String(url).includes("?") ? "&" : "?") + "touch=1";
            }
            super(url, ...options);
            const decoder = new TextDecoder();
            let rest = "";
            this.addEventListener("message", (event) => {
              if (typeof event.data === "string") return;
              const text = rest + decoder.decode(new Uint8Array(event.data), { stream: true });
              let title = null;
              for (const found of text.matchAll(named)) title = found[1];
              if (title !== null) document.title = title;
              const open = text.lastIndexOf("\x1b]2;");
              rest = open >= 0 && !/[\x07\x1b]/.test(text.slice(open + 4)) ? text.slice(open) : "";
            });
          }
        };
      })();
    </script>"""


# A phone lays out a page without a viewport 980 pixels wide and shrinks it: this page is
# as wide as the screen. Taps act at once (no double-tap zoom), and the dialogs fit.
FOR_PHONES = """<meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
      html, body { margin: 0; overflow: hidden; }
      .textual-terminal { touch-action: manipulation; }
      .intro { max-width: calc(100vw - 64px); }
    </style>"""
TEXTUAL_JS = re.compile(r"<script src=\"[^\"]*js/textual\.js\"></script>")


def fit_script() -> str:
    """The page's script that sizes the terminal's canvas and font for the screen (``fit.js``)."""
    code = resources.files(__package__).joinpath("fit.js").read_text(encoding="utf-8")
    return f"<script>\n{code}</script>"


def at_home(page: str) -> str:
    """``page`` with its font served here, the tab following the app's title, fit for phones."""
    page = FONT_LINK.sub(LOCAL_FONT, page, count=1)
    page = page.replace("<head>", f"<head>\n    {FOR_PHONES}", 1)
    page = TEXTUAL_JS.sub(lambda found: f"{found[0]}\n    {fit_script()}", page, count=1)
    return page.replace("<script src=", f"{FOLLOW_TITLE}\n    <script src=", 1)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) names this machine only."""
    name = host.strip("[]").rstrip(".").casefold()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_url(scheme: str, host: str) -> URL | None:
    """``scheme://host`` for a ``Host`` header's value, or ``None`` if it is not just a host."""
    try:
        url = URL(f"{scheme}://{host}")
    except ValueError:
        return None
    if not url.host or url.user or url.password or url.raw_path not in ("", "/"):
        return None
    if url.query_string or url.fragment:
        return None
    return url


def same_origin(origin: str | None, scheme: str, host: str) -> bool:
    """Whether the ``Origin`` header ``origin`` is the page's own: ``scheme://host``."""
    page = host_url(scheme, host)
    if origin is None or page is None:
        return False
    try:
        asked = URL(origin)
    except ValueError:
        return False
    if not asked.is_absolute() or asked.raw_path not in ("", "/") or asked.user:
        return False
    return (asked.scheme.casefold(), (asked.host or "").casefold(), asked.port) == (
        page.scheme.casefold(),
        (page.host or "").casefold(),
        page.port,
    )


def forwarded(request: web.Request, header: str) -> str | None:
    """What the proxy in front says in ``header``: the last entry, the one it added."""
    value = request.headers.get(header, "").split(",")[-1].strip()
    return value or None


def games(count: int) -> str:
    """``count`` games, in words."""
    return "one game" if count == 1 else f"{count} games"


def all_taken(max_apps: int) -> str:
    """Why no Karavan starts while ``max_apps`` run."""
    return f"This server runs {games(max_apps)} at once, and all of them are being played."


def full_page(max_apps: int, why: str | None = None) -> str:
    """The page shown while every place is taken (or every place ``why`` says is)."""
    said = why or all_taken(max_apps)
    return f"""<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <title>Karavan is full</title>
    <style>
      body {{ background: #0c181f; color: #f2f2f2; font-family: sans-serif; }}
      main {{ max-width: 36em; margin: 20vh auto; text-align: center; line-height: 1.5; }}
      a {{ color: #ac5af4; }}
    </style>
  </head>
  <body>
    <main>
      <h1>Karavan is full</h1>
      <p>{html.escape(said)}
      Try again in a few minutes.</p>
      <p><a href="/">Try again</a></p>
    </main>
  </body>
</html>
"""


async def _add_safety_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)


class KaravanServer(Server):
    """textual-serve's server, one visitor kept from another (see the module's docstring).

    ``program`` is the command a tab runs without its arguments (Karavan;
    tests give another); ``loopback_only`` answers only under loopback names.
    """

    def __init__(
        self,
        visitors: Visitors,
        *,
        host: str,
        port: int,
        program: Sequence[str],
        max_apps: int,
        per_visitor: int = 3,
        per_address: int | None = None,
        ascii_mode: bool = False,
        loopback_only: bool = True,
        proxied: bool = False,
    ) -> None:
        super().__init__(shlex.join(program), host=host, port=port, title="Karavan")
        self.visitors = visitors
        self.program = tuple(program)
        self.max_apps = max_apps
        self.ascii_mode = ascii_mode
        self.loopback_only = loopback_only
        self.proxied = proxied
        self.key = visitors.signing_key()  # OSError if it cannot be kept
        self.per_visitor = per_visitor
        self.per_address = max(1, max_apps // 2) if per_address is None else per_address
        self.running = 0  # Karavans started and not yet ended
        self.by_visitor: Counter[str] = Counter()  # ... of each visitor
        self.by_address: Counter[str] = Counter()  # ... for each address
        # The Karavans running (each ended on shutdown), each with what frees its place.
        self.apps: dict[VisitorApp, Callable[[], None]] = {}
        self.endings: dict[VisitorApp, asyncio.Future[None]] = {}  # ... and those ending

    def command_for(self, visit: Visit) -> str:
        """The shell command of a tab of the visitor ``visit`` is for (one process: ``exec``)."""
        parts = [*self.program, "--saves", str(visit.saves_dir)]
        if self.ascii_mode:
            parts.append("--ascii")
        return "exec " + shlex.join(parts)

    def application(self) -> web.Application:
        """The aiohttp application: the page, its WebSocket and the static files, unlisted."""
        guards = [self._forwarded, self._guard] if self.proxied else [self._guard]
        app = web.Application(middlewares=guards)
        app.on_response_prepare.append(_add_safety_headers)
        app.on_shutdown.append(self.end_apps)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        return app

    async def _make_app(self) -> web.Application:
        return self.application()

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: ``karavan web`` has said where it serves."""

    async def end_apps(self, app: web.Application) -> None:
        """The server stops: end every Karavan it runs (a frozen one too) and close its
        tab, rather than wait for tabs to close on their own."""

        async def end(service: VisitorApp) -> None:
            await self.ended(service)
            await service.remote_close()

        await asyncio.gather(*(end(service) for service in list(self.apps)))

    @web.middleware
    async def _forwarded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The request as the proxy received it: its scheme, name and the visitor's address.

        Only the proxy's word is taken: a request that does not come from this machine
        keeps what it says of itself.
        """
        if is_loopback(request.remote or ""):
            scheme = forwarded(request, "X-Forwarded-Proto")
            host = forwarded(request, "X-Forwarded-Host")
            remote = forwarded(request, "X-Forwarded-For")
            request = request.clone(
                scheme=scheme if scheme in ("http", "https") else request.scheme,
                host=host or request.host,
                remote=remote or request.remote or "?",
            )
        return await handler(request)

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Answer only under a name this server may be reached by."""
        page = host_url(request.scheme, request.host)
        if page is None or (self.loopback_only and not is_loopback(page.host or "")):
            raise web.HTTPMisdirectedRequest(
                text="This Karavan answers only at its own address (e.g. http://127.0.0.1).\n"
            )
        return await handler(request)

    def visitor_of(self, request: web.Request) -> str | None:
        """The visitor id the request's cookie carries, if this server signed it."""
        return signed_visitor(self.key, request.cookies.get(COOKIE))

    def no_place(self, visitor: str | None, address: str) -> str | None:
        """Why a new Karavan may not start for ``visitor`` at ``address`` now (``None``: it may)."""
        if self.running >= self.max_apps:
            return all_taken(self.max_apps)
        if visitor is not None and self.by_visitor[visitor] >= self.per_visitor:
            return f"You play {games(self.per_visitor)} here already: close one of your tabs."
        if self.by_address[address] >= self.per_address:
            return f"Your address plays {games(self.per_address)} here already."
        return None

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page (under the address it was asked by), and the visitor's cookie."""
        why = self.no_place(self.visitor_of(request), request.remote or "?")
        if why is not None:
            text = full_page(self.max_apps, why)
            full = web.Response(status=503, text=text, content_type="text/html")
            full.headers["Retry-After"] = "60"
            full.headers["Cache-Control"] = "no-store"
            return full
        socket_scheme = "wss" if request.scheme == "https" else "ws"
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{socket_scheme}://{request.host}/ws",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.text = at_home(titled(response.text or ""))
        response.headers["Cache-Control"] = "no-store"
        visitor = self.visitor_of(request) or new_visitor_id()
        response.set_cookie(
            COOKIE,
            signed(self.key, visitor),
            max_age=COOKIE_AGE,
            path="/",
            secure=request.secure,
            httponly=True,
            samesite="Lax",  # not sent with another site's WebSocket; kept when a link leads here
        )
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Start the visitor's Karavan for this tab, if the tab may have one."""
        if not same_origin(request.headers.get("Origin"), request.scheme, request.host):
            log.warning(
                "refused a WebSocket from another origin: %r", request.headers.get("Origin")
            )
            raise web.HTTPForbidden(text="Only Karavan's own page may start a game.\n")
        visitor = self.visitor_of(request)
        if visitor is None:
            raise web.HTTPForbidden(text="Open Karavan's page first (it needs its cookie).\n")
        address = request.remote or "?"
        why = self.no_place(visitor, address)
        if why is not None:
            raise web.HTTPServiceUnavailable(
                text=f"Karavan is full: {why} Try again later.\n", headers={"Retry-After": "60"}
            )
        try:
            visit = self.visitors.visit(visitor)
        except OSError as error:
            log.error("cannot make a visitor's folder: %s", error)
            raise web.HTTPInternalServerError(text="Karavan cannot keep your files.\n") from None
        # Counted before the first await: two tabs cannot both take the last place.
        self.running += 1
        self.by_visitor[visitor] += 1
        self.by_address[address] += 1
        release = functools.partial(self.release, visitor, address)
        return await self._serve_app(request, visit, table_name(self.key, visitor), release)

    def release(self, visitor: str, address: str) -> None:
        """A Karavan of ``visitor`` at ``address`` has ended: its place is free."""
        self.running -= 1
        self.by_visitor[visitor] -= 1
        self.by_address[address] -= 1
        self.by_visitor = +self.by_visitor  # forget whoever plays nothing now
        self.by_address = +self.by_address

    async def _serve_app(
        self, request: web.Request, visit: Visit, name: str, release: Callable[[], None]
    ) -> web.WebSocketResponse:
        """textual-serve's WebSocket loop, around a process that is the visitor's."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        app_service: VisitorApp | None = None
        try:
            await websocket.prepare(request)
            app_service = VisitorApp(
                self.command_for(visit),
                visit,
                name,
                "your saves" if self.visitors.shared_saves is None else "everyone's saves",
                touch=request.query.get("touch") == "1",
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.apps[app_service] = release
            await app_service.start(width, height)
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        finally:
            if app_service is None:
                release()
            else:
                await self.ended(app_service)
        return websocket

    async def ended(self, service: VisitorApp) -> None:
        """End ``service``'s Karavan, in a task of its own: aiohttp cancels the handler of a
        tab that closed, and a cancelled stop would leave a frozen Karavan running. Its
        place is free once it has ended."""
        ending = self.endings.get(service)
        if ending is None:
            ending = self.endings[service] = asyncio.ensure_future(service.stop())
            ending.add_done_callback(lambda _: self.forget(service))
        await asyncio.shield(ending)

    def forget(self, service: VisitorApp) -> None:
        """``service``'s Karavan has ended: its place is free."""
        self.endings.pop(service, None)
        self.apps.pop(service)()
