// The practice area (editor, checkpoints) sits below the whole lesson. Every jump there ("Naar de
// editor", "Laad in editor", an inline checkpoint marker) remembers where the learner was reading;
// "Terug naar de les" brings them back to exactly that place and puts focus back on what they
// clicked, so the next Tab continues in the lesson.

let readingPlace = null; // {scrollY, origin}: where the last jump started
let backArea = null;

export function rememberReadingPlace(origin) {
  readingPlace = { scrollY: window.scrollY, origin };
  if (backArea) backArea.hidden = false;
}

function returnToReadingPlace() {
  if (!readingPlace) return;
  const { scrollY, origin } = readingPlace;
  readingPlace = null;
  backArea.hidden = true;
  window.scrollTo({ top: scrollY, behavior: "instant" });
  origin.focus({ preventScroll: true });
}

// An inline marker leads to its card; the card takes focus, so Tab goes on from there.
function jumpToCheckpoint(link) {
  const card = document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!card) return false;
  rememberReadingPlace(link);
  card.scrollIntoView({ block: "start" });
  card.focus({ preventScroll: true });
  return true;
}

function jumpToEditor(link, editor) {
  rememberReadingPlace(link);
  editor.panel.scrollIntoView({ block: "start" });
  editor.focus();
}

/**
 * Page module (see lesson.js).
 * @param {{root: ParentNode, editor: object|null}} context
 */
export function initPracticeJumps({ root, editor }) {
  backArea = root.querySelector("[data-back-to-lesson]");
  backArea?.querySelector("button").addEventListener("click", returnToReadingPlace);
  root.addEventListener("click", (event) => {
    const markerLink = event.target.closest("[data-checkpoint-marker] a[href^='#']");
    if (markerLink && jumpToCheckpoint(markerLink)) {
      event.preventDefault();
      return;
    }
    const editorLink = event.target.closest("a[data-to-editor]");
    if (editorLink && editor) {
      event.preventDefault();
      jumpToEditor(editorLink, editor);
    }
  });
}
