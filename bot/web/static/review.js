// Live preview: each section's textarea is rendered by the server as it will be published
// (the same code as the saved text's preview), a moment after the editor stops typing.
"use strict";
for (const area of document.querySelectorAll("textarea[data-preview]")) {
  const target = document.getElementById(area.dataset.preview);
  let timer = null;
  area.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const body = new FormData();
      body.append("csrf", area.dataset.csrf);
      body.append("text", area.value);
      const response = await fetch(area.dataset.url, { method: "POST", body, credentials: "same-origin" });
      if (response.ok) {
        target.innerHTML = await response.text();  // server-rendered, raw HTML off
      }
    }, 250);
  });
}
