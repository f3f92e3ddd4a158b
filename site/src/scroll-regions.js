// Scroll boxes a keyboard can reach. The builder writes every box that may scroll (code
// examples, tables, block formulas) as `[data-scroll-region]` with tabindex="0", a role and a
// name, so without this module each one is a tab stop. Here a box keeps its tab stop only while
// its content is wider or taller than the box: on a phone the wide code examples are reachable
// (and scroll with the arrow keys), on a desktop the ones that fit do not add empty tab stops.
// Modules that draw a scroll box later (the checkpoint feedback) call makeScrollRegion.

const SELECTOR = "[data-scroll-region]";

function overflows(element) {
  // Only a direction the box scrolls in counts (a formula clips its height: overflow-y hidden),
  // with one pixel of slack: sub-pixel layout must not turn a box that fits into a tab stop.
  const style = getComputedStyle(element);
  const scrolls = (overflow) => overflow === "auto" || overflow === "scroll";
  return (scrolls(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
    || (scrolls(style.overflowY) && element.scrollHeight > element.clientHeight + 1);
}

// Which edges have more content beyond them: the page draws a shadow there (page.css), the
// visible sign that the box scrolls (phones hide scroll bars).
function updateEdges(element) {
  const left = element.scrollLeft > 1;
  const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
  element.toggleAttribute("data-more-left", left);
  element.toggleAttribute("data-more-right", right);
}

function updateTabStop(element) {
  // Never take the tab stop from the focused box: the learner is scrolling it.
  if (overflows(element) || document.activeElement === element) element.tabIndex = 0;
  else element.removeAttribute("tabindex");
  updateEdges(element);
}

let observer = null;

function watch(element) {
  if (typeof ResizeObserver === "undefined") return; // every box stays a tab stop
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const box = entry.target.matches(SELECTOR) ? entry.target : entry.target.closest(SELECTOR);
      if (box) updateTabStop(box);
    }
  });
  observer.observe(element); // also reports the first size, so every box starts right
  // Content that changes size inside the box (a widget's table redrawn) is observed too.
  if (element.firstElementChild) observer.observe(element.firstElementChild);
  element.addEventListener("blur", () => updateTabStop(element));
  element.addEventListener("scroll", () => updateEdges(element), { passive: true });
}

/** Make `element` a named scroll box that is a tab stop while its content overflows. */
export function makeScrollRegion(element, label) {
  element.dataset.scrollRegion = "";
  if (!element.hasAttribute("role")) element.setAttribute("role", "group");
  element.setAttribute("aria-label", label);
  element.tabIndex = 0;
  watch(element);
  return element;
}

/** Page module (see lesson.js): watch every scroll box the builder wrote. */
export function initScrollRegions({ root }) {
  for (const element of root.querySelectorAll(SELECTOR)) watch(element);
}
