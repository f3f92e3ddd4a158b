// Served only by `build.py serve` (never part of _site/): reload the page after every successful
// rebuild, and show the build's mistakes in a banner while the last rebuild failed. It asks once
// a second (a short request, so open tabs hold no connection: browsers allow six per host).
const ENDPOINT = "/__werkplaats__/build";
const POLL_MS = 1000;
// The build this page came from; a page served before a rebuild finished still notices it.
const pageGeneration = Number(document.currentScript?.dataset.generation ?? -1);
// offline.js registers no service worker on a page of the dev server: edits must show at once.
window.werkplaatsLiveReload = true;

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
  for (;;) {
    try {
      const state = await (await fetch(ENDPOINT, { cache: "no-store" })).json();
      if (state.errors.length > 0) {
        // Text, never HTML: the lines quote the teacher's Markdown.
        banner().textContent = `De site is niet opnieuw gebouwd; je ziet de laatste goede versie.\n\n${state.errors.join("\n")}`;
      } else if (state.generation !== pageGeneration) {
        window.location.reload(); // a newer good build (or a restarted server)
        return;
      }
    } catch {
      // The server restarts or stopped: ask again.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

follow();
