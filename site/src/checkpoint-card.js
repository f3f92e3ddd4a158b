// How one checkpoint card and its marker in the lesson text show a result: the state line, the
// feedback (message, note, expected beside actual, advice) and the marker's label. Which result a
// card shows, and whether it is outdated, checkpoint-panel.js decides. Everything derived from the
// learner's code is inserted as text, never as HTML.
import { secondsText } from "./editor.js";
import { makeScrollRegion } from "./scroll-regions.js";

function testsText(passed, total) {
  return `${passed} van ${total} ${total === 1 ? "test" : "tests"} geslaagd`;
}

// The one-line state under the button, for a result (or pending/running). `outdated`: the
// result belongs to other code than the editor holds now.
export function stateText(result, timeLimitSeconds, { outdated = false } = {}) {
  if (result.stale) {
    return result.status === "pass"
      ? "Eerder geslaagd, maar de tests van deze les zijn veranderd: controleer opnieuw."
      : "De tests van deze les zijn veranderd sinds je vorige controle: controleer opnieuw.";
  }
  if (outdated) {
    return result.status === "pass"
      ? "Geslaagd met een eerdere versie van je code — controleer opnieuw."
      : "Gecontroleerd met een eerdere versie van je code — controleer opnieuw.";
  }
  switch (result.status) {
    case "running":
      return "Bezig met controleren…";
    case "pass":
      return `Geslaagd: ${testsText(result.passed, result.total)}.`;
    case "fail":
      return `Nog niet goed: ${testsText(result.passed, result.total)}.`;
    case "error":
      return result.before_tests
        ? "Fout: er is nog geen test uitgevoerd."
        : `Fout: ${testsText(result.passed, result.total)}.`;
    case "timeout":
      return `Te traag: gestopt na ${secondsText(timeLimitSeconds)}.`;
    default:
      return "Nog niet gecontroleerd.";
  }
}

const MARKER_TEXT = {
  pending: "",
  running: "wordt gecontroleerd…",
  outdated: "eerdere code: controleer opnieuw",
  pass: "✓ geslaagd",
  fail: "nog niet goed",
  error: "fout",
  timeout: "te traag",
};

// A transient state (running) that is not stored. `parts`: the card's elements (checkpoint-panel.js).
export function showTransient(id, parts, result, timeLimitSeconds) {
  const { card, state } = parts;
  card.dataset.status = result.status;
  card.removeAttribute("data-stale");
  card.removeAttribute("data-outdated");
  state.textContent = stateText(result, timeLimitSeconds);
  renderMarker(id, result.status);
}

// A stored result (or pending); `outdated`: it belongs to earlier code than the editor's.
export function showResult(id, parts, result, { outdated, timeLimitSeconds }) {
  const { card, state, feedback } = parts;
  // Neither kind of earlier result counts: the card waits for a check, like an unchecked one.
  card.dataset.status = result.stale || outdated ? "pending" : result.status;
  card.toggleAttribute("data-stale", result.stale === true);
  card.toggleAttribute("data-outdated", outdated);
  state.textContent = stateText(result, timeLimitSeconds, { outdated });
  // Feedback on the earlier code stays: the learner is probably fixing just that.
  renderFeedback(id, feedback, result.stale ? null : result, timeLimitSeconds);
  renderMarker(id, result.stale ? "pending" : outdated ? "outdated" : result.status);
}

function renderFeedback(id, feedback, result, timeLimitSeconds) {
  feedback.replaceChildren();
  if (!result || result.status === "pass" || result.status === "pending") {
    feedback.hidden = true;
    return;
  }
  const message = document.createElement("p");
  message.className = "checkpoint__message";
  message.textContent = result.message;
  feedback.append(message);
  if (result.note) {
    const note = document.createElement("p");
    note.className = "checkpoint__note";
    note.dataset.checkpointNote = "";
    note.textContent = result.note;
    feedback.append(note);
  }
  if (result.visible && (result.expected !== null || result.actual !== null)) {
    const list = document.createElement("dl");
    list.className = "checkpoint__comparison";
    for (const [label, value] of [["Verwacht", result.expected], ["Jouw uitkomst", result.actual]]) {
      if (value === null) continue;
      const term = document.createElement("dt");
      term.textContent = label;
      const detail = document.createElement("dd");
      const pre = document.createElement("pre");
      pre.textContent = value;
      // A long value scrolls inside its box (max-height): reachable by keyboard, named.
      makeScrollRegion(pre, label);
      detail.append(pre);
      list.append(term, detail);
    }
    feedback.append(list);
  }
  if (result.status === "timeout") {
    const advice = document.createElement("p");
    advice.textContent = `Je functie mocht ${secondsText(timeLimitSeconds)} rekenen. De pagina werkt gewoon verder: pas je code aan en controleer opnieuw.`;
    feedback.append(advice);
  }
  // A widget that lists this checkpoint (its `checkpoints:` option in the lesson) can show it.
  if ([...document.querySelectorAll("[data-widget-checkpoints]")].some(
    (widget) => widget.dataset.widgetCheckpoints.split(" ").includes(id))) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "wp-button checkpoint__visualize";
    button.textContent = "Bekijk in de visualisatie";
    button.addEventListener("click", () => {
      document.dispatchEvent(new CustomEvent("werkplaats:show-in-widget", { detail: { checkpoint: id } }));
    });
    feedback.append(button);
  }
  feedback.hidden = false;
}

// The inline marker in the lesson text mirrors the panel.
function renderMarker(id, status) {
  for (const marker of document.querySelectorAll("[data-checkpoint-marker]")) {
    if (marker.dataset.checkpointMarker !== id) continue;
    marker.dataset.status = status;
    let label = marker.querySelector(".checkpoint-marker__status");
    if (!label) {
      label = document.createElement("span");
      label.className = "checkpoint-marker__status";
      (marker.querySelector("a") ?? marker).append(label);
    }
    label.textContent = MARKER_TEXT[status] ?? "";
  }
}
