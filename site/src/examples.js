// "Laad in editor": a lesson example goes into the editor BELOW the learner's own code, so it
// runs with the learner's functions and nothing they wrote is lost. The earlier examples it
// builds on (data-context, worked out at build time) come along, so it runs on its own.
// A second example replaces the first one from the marker down; Ctrl+Z undoes either.

export const EXAMPLE_MARKER = "# --- Voorbeeld uit de les (alles vanaf hier mag weg) ---";

export function withExample(code, example) {
  const markerAt = code.indexOf(EXAMPLE_MARKER);
  const ownCode = (markerAt === -1 ? code : code.slice(0, markerAt)).trimEnd();
  const parts = [EXAMPLE_MARKER, example.context, example.source].filter(Boolean);
  const exampleCode = parts.map((part) => part.trimEnd()).join("\n\n") + "\n";
  return ownCode ? `${ownCode}\n\n\n${exampleCode}` : exampleCode;
}

export function initExamples({ root, editor }) {
  if (!editor) return;
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-load-example]");
    if (!button) return;
    const example = button.closest("figure.example[data-source]");
    if (!example) return;
    editor.setCode(withExample(editor.getCode(), {
      context: example.dataset.context ?? "",
      source: example.dataset.source,
    }));
    editor.setStatus(
      "Het voorbeeld staat onder je eigen code en gebruikt jouw functies. Klik op Uitvoeren; Ctrl+Z maakt het ongedaan.",
    );
    editor.panel.scrollIntoView({ block: "start" });
    editor.focus();
  });
}
