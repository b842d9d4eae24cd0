"""The review page's HTTP side (aiohttp): link exchange, sessions, CSRF, and the page's
actions, each handed to the same `ReviewWorkflow` methods the review thread uses.

Routes (under SUMMARYBOT_PUBLIC_URL):
- `GET /review/open?t=LINK` shows a Continue button (link previewers that fetch the URL do
  not use it up); `POST /review/open` exchanges the link, once, for a session cookie.
- `GET /review/{draft}` the page; `GET /review/{draft}/state` what the open page polls
  (status, section revisions, JSON); `POST /review/{draft}/sections/{section}` saves a section;
  `POST /review/{draft}/{approve|regenerate|discard}`; `POST /review/{draft}/preview` (the
  text as each platform shows it, JSON).

Every request after the exchange needs the session cookie, names the session's draft, and
asks the platform who the editor is now (`Desk.caller`) so `bot.core.access.authorize` sees
a person who stopped being an editor as such at once. Every POST needs the CSRF token, and
its form holds text only. Every answer, error pages included (an unknown path, a body too
large, a failure), carries the same security headers (`_guard`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from aiohttp import web

from bot.core import arrange, news_desk
from bot.core.clock import Clock, utcnow
from bot.core.port import Caller, Reply
from bot.core.review import MAX_SECTION_CHARS, ReviewWorkflow
from bot.core.review_links import BadToken, PageGrant, PageSigner
from bot.core.review_page import DraftPage
from bot.web.proxies import TrustedProxies
from bot.web.render import Renderer
from storage.page_links import use_page_link

log = logging.getLogger(__name__)

COOKIE = "summarybot_review"
EXCHANGES_PER_MINUTE = 10
ACTIONS = ("approve", "regenerate", "discard")


@dataclass(frozen=True, slots=True)
class Desk:
    """One platform's review workflow, and who a user of it is now in a stored workspace
    (`caller(workspace_id, user_id)`: their admin flag and roles as the platform says; None
    when the platform does not know them there), as `Core.page_caller` answers."""

    review: ReviewWorkflow
    caller: Callable[[int, str], Awaitable[Caller | None]]


class Refused(Exception):
    """A request answered with a refusal page; nothing changed."""

    def __init__(self, text: str, status: int = 403) -> None:
        super().__init__(text)
        self.text = text
        self.status = status


class Throttle:
    """At most `limit` events per key in any minute (the link exchange, per address)."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self._seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = self.clock()
        seen = self._seen[key]
        while seen and now - seen[0] > 60:
            seen.popleft()
        if len(seen) >= self.limit:
            return False
        seen.append(now)
        return True


class ReviewSite:
    """The review page's aiohttp application, for the platforms in `desks`."""

    def __init__(
        self,
        signer: PageSigner,
        public_url: str,
        desks: dict[str, Desk],
        clock: Clock = utcnow,
        trusted_proxies: list[str] | None = None,
    ) -> None:
        self.signer = signer
        self.desks = desks
        self.clock = clock
        parts = urlsplit(public_url)
        self.secure = parts.scheme == "https"
        self.base = str(PurePosixPath("/", parts.path.strip("/"), "review"))
        self.render = Renderer(self.base)
        self.throttle = Throttle(EXCHANGES_PER_MINUTE)
        self.proxies = TrustedProxies(trusted_proxies or [])

    def app(self) -> web.Application:
        app = web.Application(
            middlewares=[self.proxies.middleware, self._guard], client_max_size=1024**2
        )
        app.router.add_get("/review/open", self.show_link)
        app.router.add_post("/review/open", self.exchange)
        app.router.add_get("/review/static/{name}", self.static)
        app.router.add_get("/review/{draft:\\d+}", self.show)
        app.router.add_get("/review/{draft:\\d+}/state", self.state)
        app.router.add_post("/review/{draft:\\d+}/sections", self.add_section)
        app.router.add_post("/review/{draft:\\d+}/sections/{section:\\d+}", self.save)
        app.router.add_post(
            "/review/{draft:\\d+}/sections/{section:\\d+}/{change:move|delete}", self.rearrange
        )
        app.router.add_post("/review/{draft:\\d+}/sections/{section:\\d+}/pull", self.pull_in)
        app.router.add_post("/review/{draft:\\d+}/news/{news:\\d+}/drop", self.drop_news)
        app.router.add_post("/review/{draft:\\d+}/preview", self.preview)
        app.router.add_post("/review/{draft:\\d+}/{action:approve|regenerate|discard}", self.act)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:  # noqa: ANN001
        """Refusals and errors as pages; on every answer, headers that keep the page out of
        frames, caches and referrers."""
        try:
            response = await handler(request)
        except Refused as refused:
            response = self.render.notice(refused.text, status=refused.status)
        except web.HTTPException as error:  # aiohttp's own: no such path, body too large...
            if error.status < 400:
                raise
            response = self.render.notice(error.reason, status=error.status)
            if "Allow" in error.headers:
                response.headers["Allow"] = error.headers["Allow"]
        except Exception:
            log.exception("review page: %s %s failed", request.method, request.path)
            response = self.render.notice(
                "Something went wrong on the bot's side; reload the page to see what was saved.",
                500,
            )
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        )
        return response

    # --- the link exchange --------------------------------------------------------------------

    async def show_link(self, request: web.Request) -> web.Response:
        token = request.query.get("t", "")
        self._read("link", token)
        return self.render.open_link(token)

    async def exchange(self, request: web.Request) -> web.Response:
        # The client's address: behind a trusted proxy, the one it forwarded (`TrustedProxies`).
        if not self.throttle.allow(request.remote or "?"):
            raise Refused("Too many attempts; wait a minute and try again.", status=429)
        form = await _text_form(request)
        link = self._read("link", form.get("t", ""))
        desk, caller = await self._who(link)
        refusal = await desk.review.may_view(link.workspace_id, caller, link.draft_id)
        if refusal is not None:
            raise Refused(refusal.text)
        now = self.clock()
        fresh = await desk.review.db.run(
            lambda session: use_page_link(session, link.nonce, link.expires, now)
        )
        if not fresh:
            raise Refused(
                "This link was already used; press Open review page in the thread for a new one."
            )
        response = web.Response(status=303, headers={"Location": f"{self.base}/{link.draft_id}"})
        response.set_cookie(
            COOKIE,
            self.signer.session(link, now),
            path=self.base,
            httponly=True,
            secure=self.secure,
            samesite="Strict",
        )
        log.info("review page opened: draft %s by %s", link.draft_id, link.user_id)
        return response

    # --- the page -----------------------------------------------------------------------------

    async def show(self, request: web.Request) -> web.Response:
        session, desk, caller = await self._session(request)
        page = await self._page(desk, session, caller)
        # Rendered off the event loop (here and below): the page holds every section's
        # previews, which take a while for long sections.
        return await asyncio.to_thread(self.render.page, page, self.signer.csrf(session))

    async def state(self, request: web.Request) -> web.Response:
        """The draft's status and each section's revision, text and last editor (JSON): the
        open page polls it to show edits made in the thread."""
        session, desk, caller = await self._session(request)
        state = await desk.review.page_state(session.workspace_id, caller, session.draft_id)
        if isinstance(state, Reply):
            raise Refused(state.text)
        return web.json_response(asdict(state))

    async def save(self, request: web.Request) -> web.Response:
        session, desk, caller, form = await self._posted(request)
        section_id = int(request.match_info["section"])
        page = await self._page(desk, session, caller)
        if section_id not in {s.id for s in page.sections}:
            raise Refused(f"There is no section {section_id}.", status=404)
        text = form.get("text", "")
        try:
            revision = int(form.get("revision", ""))
        except ValueError as error:
            raise Refused("The form is missing its revision number.", status=400) from error
        try:
            reply = await desk.review.edit_section(
                session.workspace_id, caller, section_id, text, revision=revision
            )
        except Exception:
            saved = await self._saved_unshown(desk, session, caller, section_id, revision, text)
            if saved is None:
                raise
            return saved
        kept = {} if reply.ok else {section_id: text}
        return await self._after(desk, session, caller, reply, kept, focus=section_id)

    async def add_section(self, request: web.Request) -> web.Response:
        session, desk, caller, form = await self._posted(request)
        title, text = form.get("title", ""), form.get("text", "")
        reply = await arrange.add_section(
            desk.review, session.workspace_id, caller, session.draft_id, title, text
        )
        kept = {} if reply.ok else {0: text}  # 0: the new section's form
        return await self._after(desk, session, caller, reply, kept, title=title)

    async def rearrange(self, request: web.Request) -> web.Response:
        """Move a section up or down (`offset` -1 or 1), or delete it (`confirm` ticked)."""
        session, desk, caller, form = await self._posted(request)
        section_id = int(request.match_info["section"])
        ws, draft = session.workspace_id, session.draft_id
        if request.match_info["change"] == "delete":
            if form.get("confirm") != "yes":
                reply = Reply.refuse("Tick the box to confirm the deletion; nothing was deleted.")
            else:
                reply = await arrange.delete_section(desk.review, ws, caller, draft, section_id)
            return await self._after(desk, session, caller, reply, {})
        if form.get("offset") not in ("-1", "1"):
            raise Refused("A section moves up or down one place.", status=400)
        offset = int(form["offset"])
        reply = await arrange.move_section(desk.review, ws, caller, draft, section_id, offset)
        return await self._after(desk, session, caller, reply, {}, focus=section_id)

    async def pull_in(self, request: web.Request) -> web.Response:
        """Add a left-out message to the section: the section's form, posted by the
        message's Add button, carries the editor's text (unsaved changes too)."""
        session, desk, caller, form = await self._posted(request)
        section_id = int(request.match_info["section"])
        text = form.get("text", "")
        try:
            revision = int(form.get("revision", ""))
        except ValueError as error:
            raise Refused("The form is missing its revision number.", status=400) from error
        reply = await arrange.pull_in(
            desk.review,
            session.workspace_id,
            caller,
            session.draft_id,
            section_id,
            form.get("message", ""),
            text,
            revision,
        )
        kept = {} if reply.ok else {section_id: text}
        return await self._after(desk, session, caller, reply, kept, focus=section_id)

    async def drop_news(self, request: web.Request) -> web.Response:
        """Drop a member's news item from the draft (its line leaves its section)."""
        session, desk, caller, _form = await self._posted(request)
        news_id = int(request.match_info["news"])
        reply = await news_desk.drop_news(
            desk.review, session.workspace_id, caller, session.draft_id, news_id
        )
        return await self._after(desk, session, caller, reply, {})

    async def act(self, request: web.Request) -> web.Response:
        session, desk, caller, _form = await self._posted(request)
        review, ws, draft = desk.review, session.workspace_id, session.draft_id
        match request.match_info["action"]:
            case "approve":
                reply = await review.approve(ws, caller, draft)
            case "regenerate":
                reply = await review.regenerate(ws, caller, draft)
            case _:
                reply = await review.discard(ws, caller, draft)
        return await self._after(desk, session, caller, reply, {})

    async def preview(self, request: web.Request) -> web.Response:
        session, desk, caller, form = await self._posted(request)
        refusal = await desk.review.may_view(session.workspace_id, caller, session.draft_id)
        if refusal is not None:
            raise Refused(refusal.text)
        text = str(form.get("text", ""))
        if len(text) > MAX_SECTION_CHARS:
            raise Refused(
                f"The text is {len(text):,} characters, over the {MAX_SECTION_CHARS:,} a "
                "section may hold; it is not previewed.",
                status=413,
            )
        # Off the event loop: a long section takes a while to render, and the bot's other
        # work (events, the schedule) must not wait for it.
        return web.json_response(await asyncio.to_thread(self.render.previews, text))

    async def static(self, request: web.Request) -> web.Response:
        found = self.render.static(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, content_type = found
        return web.Response(text=body, content_type=content_type)

    # --- helpers ------------------------------------------------------------------------------

    def _read(self, kind: str, token: str) -> PageGrant:
        try:
            return self.signer.read(kind, token, self.clock())  # type: ignore[arg-type]
        except BadToken as error:
            raise Refused(str(error)) from error

    async def _who(self, grant: PageGrant) -> tuple[Desk, Caller]:
        desk = self.desks.get(grant.platform)
        caller = await desk.caller(grant.workspace_id, grant.user_id) if desk is not None else None
        if desk is None or caller is None:
            raise Refused("You are not known on this bot's workspace.")
        return desk, caller

    async def _session(self, request: web.Request) -> tuple[PageGrant, Desk, Caller]:
        token = request.cookies.get(COOKIE)
        if token is None:
            raise Refused("Open the review page from the link in the review thread.", 401)
        session = self._read("session", token)
        if session.draft_id != int(request.match_info["draft"]):
            raise Refused("This session is for another draft; open that draft's link.")
        desk, caller = await self._who(session)
        return session, desk, caller

    async def _posted(self, request: web.Request) -> tuple[PageGrant, Desk, Caller, dict[str, str]]:
        session, desk, caller = await self._session(request)
        form = await _text_form(request)
        if not self.signer.csrf_ok(session, form.get("csrf")):
            raise Refused("The form is missing its security token; reload the page.", 400)
        return session, desk, caller, form

    async def _page(self, desk: Desk, session: PageGrant, caller: Caller) -> DraftPage:
        page = await desk.review.page(session.workspace_id, caller, session.draft_id)
        if isinstance(page, Reply):
            raise Refused(page.text)
        return page

    async def _saved_unshown(
        self,
        desk: Desk,
        session: PageGrant,
        caller: Caller,
        section_id: int,
        revision: int,
        text: str,
    ) -> web.Response | None:
        """After a save that failed: when the revision was committed and only the review
        thread's message could not be updated (deleted, say), the page saying so; None
        when nothing was saved."""
        page = await self._page(desk, session, caller)
        saved = next(
            (
                s
                for s in page.sections
                if s.id == section_id and s.revision == revision + 1 and s.markdown == text.strip()
            ),
            None,
        )
        if saved is None:
            return None
        log.exception("review page: section %s saved, its thread message not updated", section_id)
        notice = Reply.refuse(
            f"{saved.title} was saved (revision {saved.revision}), but its message in the "
            "review thread could not be updated (it may have been deleted): the thread still "
            "shows the earlier text."
        )
        csrf = self.signer.csrf(session)
        return await asyncio.to_thread(
            self.render.page, page, csrf, notice=notice, focus=section_id, status=200
        )

    async def _after(
        self,
        desk: Desk,
        session: PageGrant,
        caller: Caller,
        reply: Reply,
        kept: dict[int, str],
        *,
        focus: int | None = None,
        title: str = "",
    ) -> web.Response:
        """The page again, saying how the action went (beside section `focus`, when it
        acted on one); a refused edit keeps its text (and a refused new section its
        `title`)."""
        page = await self._page(desk, session, caller)
        status = 200 if reply.ok else 409
        csrf = self.signer.csrf(session)
        return await asyncio.to_thread(
            self.render.page,
            page,
            csrf,
            notice=reply,
            kept=kept,
            focus=focus,
            title=title,
            status=status,
        )


async def _text_form(request: web.Request) -> dict[str, str]:
    """The posted form's fields; a file where text belongs is refused."""
    form = await request.post()
    if not all(isinstance(value, str) for value in form.values()):
        raise Refused("The form holds a file where text belongs.", status=400)
    return {key: str(value) for key, value in form.items()}


async def start_site(site: ReviewSite, port: int, host: str) -> Callable[[], Awaitable[None]]:
    """Serve the review page on `host:port` (loopback by default: put an HTTPS proxy in
    front, at SUMMARYBOT_PUBLIC_URL); returns the function that stops it."""
    runner = web.AppRunner(site.app())
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner.cleanup
