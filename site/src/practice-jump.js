// The way from the text to the practice area (editor, checkpoints) and back. Two layouts
// (site/src/css/page.css):
// - stacked (phones, narrow windows): the practice area sits below the whole lesson. Every jump
//   there ("Naar de editor", "Laad in editor", an inline checkpoint marker) remembers where the
//   learner was reading; "Terug naar de les" brings them back to exactly that place and puts focus
//   back on what they clicked, so the next Tab continues in the lesson.
// - side by side (wide screens): the practice panel is already in view beside the text. A jump
//   scrolls only the panel (its own scroll box) to the editor or the card and focuses it; the text
//   stays where it was, so there is nothing to go back to and "Terug naar de les" stays hidden.
// Which layout applies is read from where the panel is, so the CSS alone decides it.

const SCROLL_MARGIN_PX = 8; // keeps a focus outline at the panel's top edge visible

let readingPlace = null; // {scrollY, origin}: where the last jump started
let backArea = null;

function practiceArea() {
  return document.querySelector("main.lesson > .practice");
}

/** True when the practice panel sits beside the lesson text rather than below it. */
export function practiceBesideText() {
  const practice = practiceArea();
  const article = document.querySelector("main.lesson > .lesson__article");
  if (!practice || !article) return false;
  return practice.getBoundingClientRect().left >= article.getBoundingClientRect().right;
}

/**
 * Brings `element` (inside the practice area) to the top of the view: beside the text by
 * scrolling the panel alone, stacked by scrolling the page.
 * @param {Element} element
 */
export function showInPracticeArea(element) {
  const practice = practiceArea();
  if (practice?.contains(element) && practiceBesideText()) {
    const offset = element.getBoundingClientRect().top - practice.getBoundingClientRect().top;
    practice.scrollTo({ top: practice.scrollTop + offset - SCROLL_MARGIN_PX, behavior: "instant" });
    return;
  }
  element.scrollIntoView({ block: "start" });
}

export function rememberReadingPlace(origin) {
  if (practiceBesideText()) {
    // The text does not move: no way back needed (an older one from the stacked layout lapses).
    readingPlace = null;
    if (backArea) backArea.hidden = true;
    return;
  }
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
  showInPracticeArea(card);
  card.focus({ preventScroll: true });
  return true;
}

function jumpToEditor(link, editor) {
  rememberReadingPlace(link);
  showInPracticeArea(editor.panel);
  editor.focus();
}

/**
 * Page module (see lesson.js).
 * @param {{root: ParentNode, editor: object|null}} context
 */
export function initPracticeJumps({ root, editor }) {
  backArea = root.querySelector("[data-back-to-lesson]");
  backArea?.querySelector("button").addEventListener("click", returnToReadingPlace);
  // A window widened into the side-by-side layout: the text is in view again, the way back lapses.
  window.addEventListener("resize", () => {
    if (readingPlace && practiceBesideText()) rememberReadingPlace(readingPlace.origin);
  });
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
