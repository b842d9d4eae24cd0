// Live previews: a moment after the editor stops typing, the server renders the section's
// text as Slack and as Discord will show it (the same code as the page's first render).
"use strict";

async function showPreviews(area, asked) {
  const body = new FormData();
  body.append("csrf", area.dataset.csrf);
  body.append("text", area.value);
  const response = await fetch(area.dataset.url, { method: "POST", body, credentials: "same-origin" });
  if (!response.ok || asked !== area.previewsAsked) {
    return;  // refused, or a newer text was sent meanwhile
  }
  for (const [platform, html] of Object.entries(await response.json())) {
    const target = document.getElementById(`preview-${platform}-${area.dataset.section}`);
    if (target) {
      target.innerHTML = html;  // server-rendered from escaped text (bot/web/preview.py)
    }
  }
}

for (const area of document.querySelectorAll("textarea[data-section]")) {
  let timer = null;
  area.previewsAsked = 0;
  area.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => showPreviews(area, ++area.previewsAsked), 250);
  });
}
