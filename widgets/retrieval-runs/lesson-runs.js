// The lesson's own small test set: three document versions (two versions of one manual with
// nearly the same text), eight questions with checked evidence, and the fixed rankings of the
// lesson's worked example. Evidence positions are code points; the quotes are checked by the
// differential test against evidence_index of the reference solution.

export const LAMP_EXAMPLE = {
  corpus: {
    "lamp-v1": "Houd de knop tien seconden vast. De lamp brandt groen na reset.",
    "lamp-v2": "Houd de knop vijf seconden vast. De lamp brandt rood na reset.",
  },
  questions: [
    { id: "q1", question: "Hoe lang houd je de knop vast?", evidence: ["lamp-v1", 13, 26], quote: "tien seconden" },
    { id: "q2", question: "Wat doet de lamp na een reset?", evidence: ["lamp-v1", 41, 62], quote: "brandt groen na reset" },
    { id: "q3", question: "Welke kleur heeft de lamp?", evidence: ["lamp-v1", 33, 53], quote: "De lamp brandt groen" },
    { id: "q4", question: "Waarover gaat de tweede zin?", evidence: ["lamp-v1", 33, 40], quote: "De lamp" },
  ],
  rankings: {
    q1: [["lamp-v2", 0, 32], ["lamp-v1", 0, 32]],
    q2: [["lamp-v1", 33, 48], ["lamp-v1", 48, 63]],
    q3: [["lamp-v1", 33, 63]],
    q4: [],
  },
};

const MANUAL = "De lamp brandt groen als het apparaat klaar is. Houd de knop tien seconden vast om te " +
  "resetten. Na een reset knippert de lamp drie keer oranje. Vervang de batterij als de lamp rood " +
  "brandt. De garantie geldt twee jaar na aankoop.";

export const TEST_SET = {
  corpus: {
    "handleiding-v1": MANUAL,
    "handleiding-v2": MANUAL.replace("tien", "vijf").replace("drie keer oranje", "twee keer blauw"),
    "router-v1": "Sluit de router aan op het stopcontact en wacht twee minuten. Het wachtwoord staat op " +
      "de sticker aan de onderkant. Voor nieuwe firmware opent u de beheerpagina en kiest u bijwerken. " +
      "Zet de router niet in een kast, want het signaal wordt dan zwakker.",
  },
  questions: [
    ["e1", "Hoe lang houd je de knop vast voor een reset?", "handleiding-v1", "Houd de knop tien seconden vast om te resetten"],
    ["e2", "Wat doet de lamp na een reset?", "handleiding-v1", "knippert de lamp drie keer oranje"],
    ["e3", "Wanneer vervang je de batterij?", "handleiding-v1", "Vervang de batterij als de lamp rood brandt"],
    ["e4", "Hoe lang geldt de garantie?", "handleiding-v1", "De garantie geldt twee jaar na aankoop"],
    ["e5", "Waar staat het wachtwoord van de router?", "router-v1", "Het wachtwoord staat op de sticker aan de onderkant"],
    ["e6", "Hoe installeer je nieuwe firmware?", "router-v1", "opent u de beheerpagina en kiest u bijwerken"],
    ["e7", "Waarom hoort de router niet in een kast?", "router-v1", "want het signaal wordt dan zwakker"],
    ["e8", "Hoe knippert de lamp na een reset in de nieuwe versie?", "handleiding-v2", "knippert de lamp twee keer blauw"],
  ],
};

// The quotes are ASCII, so a UTF-16 index is a code-point index here.
TEST_SET.questions = TEST_SET.questions.map(([id, question, version, quote]) => {
  const start = TEST_SET.corpus[version].indexOf(quote);
  return { id, question, evidence: [version, start, start + quote.length], quote };
});

// rag-01's word windows at several settings: [window, overlap] in words.
export const CONFIGURATIONS = [[8, 0], [8, 2], [12, 3], [16, 4], [24, 6], [48, 0]];
