// "Vastgelopen? Bekijk de voorbeeldoplossing": opening it first asks, in the page, whether the
// learner really wants to see it. A page module (lesson.js): wires itself only if the lesson has a
// solution area.
export function initSolutionConfirmation({ root }) {
  const area = root.querySelector("[data-solution-area]");
  if (!area) return;
  const details = area.querySelector("details");
  const summary = details?.querySelector("summary");
  const question = area.querySelector("[data-solution-confirm]");
  if (!details || !summary || !question) return;
  let confirmed = false;
  summary.addEventListener("click", (event) => {
    if (details.open || confirmed) return;
    event.preventDefault();
    question.hidden = false;
    question.querySelector("[data-testid=solution-confirm]").focus();
  });
  question.querySelector("[data-testid=solution-confirm]").addEventListener("click", () => {
    confirmed = true;
    question.hidden = true;
    details.open = true;
    summary.focus();
  });
  question.querySelector("[data-testid=solution-cancel]").addEventListener("click", () => {
    question.hidden = true;
    summary.focus();
  });
}
