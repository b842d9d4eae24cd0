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
      target.innerHTML = html;  // server-rendered from escaped text (each platform's preview.py)
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

// Live refresh: the page asks every few seconds for the draft's status and each section's
// revision (and whether text was taken out of it, see clearRemoved). A section edited elsewhere (in the thread) is shown here, unless this editor has
// unsaved text in it: that text is kept and they are told (saving it is then refused as a
// concurrent edit, with the text kept again).
const draft = document.getElementById("draft");

function tell(element, text, ok) {
  if (element.textContent !== text) {
    element.textContent = text;
  }
  element.classList.toggle("ok", ok);
  element.classList.toggle("refused", !ok);
  element.setAttribute("role", ok ? "status" : "alert");
  element.hidden = false;
}

// Text taken out of a section since the page was shown (a member opted out, a message it
// drew on was deleted) leaves the page at once: the section keeps only its title and a
// notice, its text box, previews, history and sources (which may quote it) go.
function clearRemoved(section) {
  const box = document.getElementById(`section-${section.id}`);
  if (!box || !section.removed || box.dataset.removed) {
    return false;
  }
  box.dataset.removed = "1";
  const notice = document.getElementById(`changed-${section.id}`);
  box.replaceChildren(box.querySelector("h2"), notice);
  tell(notice, "Text was taken out of this section: a member opted out, or a message it drew on was deleted. Reload the page to see and edit it as it is now.", false);
  return true;
}

function applyState(state) {
  if (state.status !== draft.dataset.status) {
    tell(document.getElementById("live"), `This draft is now ${state.status} (changed elsewhere); reload the page to see it.`, false);
  }
  for (const section of state.sections) {
    if (clearRemoved(section)) {
      continue;
    }
    const form = document.getElementById(`form-${section.id}`);
    if (!form || section.revision <= Number(form.elements.revision.value)) {
      continue;
    }
    const area = form.elements.text;
    const notice = document.getElementById(`changed-${section.id}`);
    const by = section.editor || "Someone";
    if (area.dataset.unsaved || area.value !== area.defaultValue) {
      tell(notice, `${by} changed this section elsewhere (revision ${section.revision}) while you were editing. Your text is kept here, not saved; saving it will say so.`, false);
      continue;
    }
    area.value = area.defaultValue = section.markdown;
    form.elements.revision.value = section.revision;
    tell(notice, `${by} changed this section elsewhere (revision ${section.revision}); shown here.`, true);
    showPreviews(area, ++area.previewsAsked);
  }
}

if (draft) {
  const every = 4000;
  const timer = setInterval(async () => {
    let response;
    try {
      response = await fetch(draft.dataset.state, { credentials: "same-origin" });
    } catch {
      return;  // offline for a moment: ask again next time
    }
    if (!response.ok) {
      clearInterval(timer);
      tell(document.getElementById("live"), "This page can no longer be refreshed (the session ended or access was removed); reload it.", false);
      return;
    }
    applyState(await response.json());
  }, every);
}
