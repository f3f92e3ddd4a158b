// Settings a page reads from its own URL and markup. A URL parameter (set by tests) overrides
// the page's data-* attribute (set by the template), which overrides the built-in default.

const isPositiveNumber = (value) => Number.isFinite(value) && value > 0;

/**
 * A positive number: `?<urlParameter>=N`, else the element's `attribute`, else `fallback`.
 * A missing, non-numeric, zero or negative value counts as not set.
 * @param {{urlParameter: string, element: Element|null, attribute: string, fallback: number}} setting
 * @returns {number}
 */
export function positiveNumberSetting({ urlParameter, element, attribute, fallback }) {
  const fromUrl = Number(new URLSearchParams(window.location.search).get(urlParameter));
  if (isPositiveNumber(fromUrl)) return fromUrl;
  const fromPage = Number(element?.getAttribute(attribute));
  return isPositiveNumber(fromPage) ? fromPage : fallback;
}

/**
 * The lesson a page belongs to (it keys the learner's stored code and results): `<main
 * data-lesson>`, or the page's path on a page without one.
 * @param {ParentNode} [root]
 * @returns {string}
 */
export function pageLessonId(root = document) {
  const main = root.querySelector("main[data-lesson]");
  return main ? main.dataset.lesson : window.location.pathname;
}
