// "Laad in editor": a lesson example goes into the editor BELOW the learner's own code, so it
// runs with the learner's functions and nothing they wrote is lost. The earlier examples it
// builds on (data-context, worked out at build time) come along, so it runs on its own.
// A second example replaces the first one from the marker down; Ctrl+Z undoes either.
import { keyboardHint } from "./editor.js";
import { rememberReadingPlace } from "./practice-jump.js";

export const EXAMPLE_MARKER = "# --- Voorbeeld uit de les (alles vanaf hier mag weg) ---";

export function withExample(code, example) {
  const markerAt = code.indexOf(EXAMPLE_MARKER);
  const ownCode = (markerAt === -1 ? code : code.slice(0, markerAt)).trimEnd();
  const parts = [EXAMPLE_MARKER, example.context, example.source].filter(Boolean);
  const exampleCode = parts.map((part) => part.trimEnd()).join("\n\n") + "\n";
  return ownCode ? `${ownCode}\n\n\n${exampleCode}` : exampleCode;
}

// Twelve buttons all called "Laad in editor" are indistinguishable in a screen reader's list. The
// name starts with the visible text, so speech control ("klik Laad in editor") still finds them.
function nameLoadButtons(root) {
  const buttons = root.querySelectorAll("figure.example[data-source] [data-load-example]");
  buttons.forEach((button, index) => {
    button.setAttribute("aria-label", `${button.textContent.trim()}: voorbeeld ${index + 1}`);
  });
}

function loadExample(editor, button, example) {
  rememberReadingPlace(button);
  editor.setCode(withExample(editor.getCode(), {
    context: example.dataset.context ?? "",
    source: example.dataset.source,
  }));
  editor.clearOutput();
  editor.setStatus(
    `Het voorbeeld staat onder je eigen code en gebruikt je eigen functies. Klik op Uitvoeren.${keyboardHint(" Ctrl+Z maakt het ongedaan.")}`,
  );
  editor.showLineWith(EXAMPLE_MARKER);
}

export function initExamples({ root, editor }) {
  if (!editor) return;
  nameLoadButtons(root);
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-load-example]");
    if (!button) return;
    const example = button.closest("figure.example[data-source]");
    if (example) loadExample(editor, button, example);
  });
}
