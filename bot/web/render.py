"""HTML for the review page: Jinja2 templates (autoescaped) and the previews of a section
on each registered platform (`Platform.preview`), which an editor's text can never inject
markup into."""

from __future__ import annotations

from importlib import resources

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from bot.core.port import Reply
from bot.core.review_page import DraftPage
from bot.core.wording import counted
from bot.platforms import registered
from bot.web.ref_links import link_refs

STATIC = {"review.js": "application/javascript", "review.css": "text/css"}


class Renderer:
    """Renders the page, its notices and previews; `base` is the page's path prefix."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.env = Environment(
            loader=PackageLoader("bot.web", "templates"),
            autoescape=select_autoescape(default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["counted"] = counted
        self.env.filters["refs"] = link_refs
        self.env.filters["previews"] = lambda text: {
            platform: Markup(html) for platform, html in self.previews(text).items()
        }
        self.env.globals["platforms"] = [(p.name, p.title) for p in registered()]

    @staticmethod
    def previews(text: str) -> dict[str, str]:
        """A section's Markdown as HTML, as each platform will show it once published."""
        return {platform.name: platform.preview(text) for platform in registered()}

    def page(
        self,
        page: DraftPage,
        csrf: str,
        *,
        notice: Reply | None = None,
        kept: dict[int, str] | None = None,
        focus: int | None = None,
        title: str = "",
        status: int = 200,
    ) -> web.Response:
        """The page; `notice` says how an action went, beside section `focus` when it was
        that section's; `kept` is text refused by a save, shown beside the saved text (under
        0, with `title`, a new section's)."""
        html = self.env.get_template("page.html").render(
            page=page,
            csrf=csrf,
            notice=notice,
            kept=kept or {},
            focus=focus,
            title=title,
            base=self.base,
        )
        return web.Response(text=html, content_type="text/html", status=status)

    def open_link(self, token: str) -> web.Response:
        html = self.env.get_template("open.html").render(token=token, base=self.base)
        return web.Response(text=html, content_type="text/html")

    def notice(self, text: str, status: int) -> web.Response:
        html = self.env.get_template("notice.html").render(text=text, base=self.base)
        return web.Response(text=html, content_type="text/html", status=status)

    @staticmethod
    def static(name: str) -> tuple[str, str] | None:
        """A static file's text and content type; None for a name not served."""
        if name not in STATIC:
            return None
        text = resources.files("bot.web").joinpath("static", name).read_text(encoding="utf-8")
        return text, STATIC[name]
