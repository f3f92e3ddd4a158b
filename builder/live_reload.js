// Served only by `build.py serve` (never part of _site/): reload the page after every successful
// rebuild, and show the build's mistakes in a banner while the last rebuild failed. Long polling
// with fetch: no extra connection type for the dev server to manage.
const ENDPOINT = "/__werkplaats__/build";

function banner() {
  let element = document.getElementById("werkplaats-build-errors");
  if (!element) {
    element = document.createElement("pre");
    element.id = "werkplaats-build-errors";
    element.setAttribute("role", "alert");
    element.style.cssText =
      "position:fixed;inset:0 0 auto 0;z-index:2147483647;margin:0;padding:1em 1.2em;" +
      "max-height:50vh;overflow:auto;white-space:pre-wrap;font:14px/1.45 ui-monospace,monospace;" +
      "background:#7a1510;color:#fff;box-shadow:0 2px 8px rgba(0,0,0,.35)";
    document.body.append(element);
  }
  return element;
}

async function follow() {
  let since = -1; // the first answer is the current state, at once
  for (;;) {
    let state;
    try {
      const response = await fetch(`${ENDPOINT}?since=${since}`, { cache: "no-store" });
      state = await response.json();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the server restarts or stopped
      continue;
    }
    if (since >= 0 && state.errors.length === 0) {
      window.location.reload();
      return;
    }
    if (state.errors.length > 0) {
      // Text, never HTML: the lines quote the teacher's Markdown.
      banner().textContent = `De site is niet opnieuw gebouwd; je ziet de laatste goede versie.\n\n${state.errors.join("\n")}`;
    }
    since = state.generation;
  }
}

follow();
