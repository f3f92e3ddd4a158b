// "Laad in editor": each lesson example (figure.example with its raw code in data-source) can be
// copied into the editor with one click.

export function initExamples({ root, editor }) {
  if (!editor) return;
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-load-example]");
    if (!button) return;
    const example = button.closest("figure.example[data-source]");
    if (!example) return;
    editor.setCode(example.dataset.source);
    editor.setStatus("Voorbeeld geladen in de editor. Klik op Uitvoeren om het te proberen.");
    editor.panel.scrollIntoView({ block: "start" });
    editor.focus();
  });
}
