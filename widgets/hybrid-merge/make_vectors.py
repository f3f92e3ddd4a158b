"""Write corpus.json: the chunks of lesson rag-04 with their vectors, and the lesson's questions with theirs.

    python widgets/hybrid-merge/make_vectors.py      # needs: pip install wordllama==0.4.0.post1

The vectors come from a real embedding model: WordLlama 0.4.0.post1, model "l2_supercat" (token
embeddings distilled from Llama 2, averaged over a text's tokens, then normalised), at the 256
dimensions whose weights ship inside the wordllama wheel (l2_supercat_256.safetensors), so this
runs without any download (disable_download=True). It is a small static model trained mostly on
English: good enough to show what a semantic route does and misses, not a production choice. The
page never runs a model: it reads the vectors written here (widgets/hybrid-merge/corpus.json, data
that widget.js imports as such and hands to routes.py), and the semantic route can therefore only
answer the questions listed below. Rerun this script after changing CHUNKS or QUESTIONS, and commit
corpus.json with it.

corpus.json: {"model": {name, package, dimensions, decimals}, "chunks": {id: text},
"chunk_vectors": {id: [float, ...]}, "questions": [{key, text, vector}]}, one vector per line.
"""

from __future__ import annotations

import json
import pathlib

DIMENSIONS = 256
DECIMALS = 4

# The lesson's chunks: invented texts in the style of a legal knowledge base (the rulings and their
# ECLI numbers are made up for the lesson). "<document>:<chunk number>" -> text.
CHUNKS = {
    "huurrecht:0": "De huurder kan de huurovereenkomst van woonruimte op elke dag van de maand schriftelijk beëindigen.",
    "huurrecht:1": "Voor de beëindiging van de huurovereenkomst door de huurder geldt een termijn van ten minste een maand.",
    "huurrecht:2": "De verhuurder die de huurovereenkomst wil beëindigen, moet een van de wettelijke gronden noemen.",
    "huurrecht:3": "De huurprijs wordt elk jaar aangepast op de datum die in de overeenkomst staat.",
    "avg:0": "Artikel 14, lid 1, onder a AVG: de identiteit en de contactgegevens van de verwerkingsverantwoordelijke.",
    "avg:1": "Artikel 14, lid 2, onder b AVG: de gerechtvaardigde belangen van de verwerkingsverantwoordelijke of van een derde.",
    "avg:2": "Artikel 15 AVG: het recht van inzage van de betrokkene in de persoonsgegevens die over hem worden verwerkt.",
    "bw:0": "Artikel 7:658 BW: de werkgever richt de werkplek zo in dat de werknemer bij zijn werk geen schade lijdt.",
    "bw:1": "Artikel 7:611 BW: werkgever en werknemer gedragen zich als een goed werkgever en een goed werknemer.",
    "uitspraken:0": "ECLI:NL:HR:2019:1234. De Hoge Raad oordeelt over de aansprakelijkheid van de werkgever voor een bedrijfsongeval.",
    "uitspraken:1": "ECLI:NL:HR:2019:1243. De Hoge Raad oordeelt over de aansprakelijkheid van de werkgever voor een verkeersongeval.",
    "uitspraken:2": "ECLI:NL:RBAMS:2020:512. De rechtbank oordeelt over de opzegging van een huurovereenkomst door de verhuurder.",
}

# The questions the visual offers: key, text.
QUESTIONS = [
    ("ecli", "ECLI:NL:HR:2019:1234"),
    ("avg", "artikel 14 lid 2 onder b AVG"),
    ("huur", "huur opzeggen"),
    ("werkgever", "wanneer is mijn werkgever aansprakelijk als ik op mijn werk gewond raak?"),
    ("bw", "7:658 BW"),
]


def main() -> None:
    import wordllama
    from wordllama import WordLlama

    model = WordLlama.load(config="l2_supercat", dim=DIMENSIONS, cache_dir=pathlib.Path(wordllama.__file__).parent,
                           disable_download=True)
    chunk_vectors = model.embed(list(CHUNKS.values()), norm=True)
    question_vectors = model.embed([text for _, text in QUESTIONS], norm=True)

    model_info = {"name": "WordLlama l2_supercat", "package": f"wordllama {wordllama.__version__}",
                  "dimensions": DIMENSIONS, "decimals": DECIMALS}
    target = pathlib.Path(__file__).with_name("corpus.json")
    write_corpus(target, model_info, chunk_vectors, question_vectors)
    print(f"wrote {target} ({len(CHUNKS)} chunks, {len(QUESTIONS)} questions, {DIMENSIONS} dimensions)")


def rounded(values) -> list[float]:
    return [round(float(value), DECIMALS) for value in values]


def write_corpus(target: pathlib.Path, model_info: dict, chunk_vectors, question_vectors) -> None:
    """The JSON document, one chunk or question per line so a diff shows which vector changed."""
    def line(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    chunk_lines = [f"    {line(chunk_id)}: {line(rounded(values))}" for chunk_id, values in zip(CHUNKS, chunk_vectors)]
    question_lines = [f"    {line({'key': key, 'text': text, 'vector': rounded(values)})}"
                      for (key, text), values in zip(QUESTIONS, question_vectors)]
    text_lines = [f"    {line(chunk_id)}: {line(text)}" for chunk_id, text in CHUNKS.items()]
    document = "\n".join([
        "{",
        f'  "model": {line(model_info)},',
        '  "chunks": {', ",\n".join(text_lines), "  },",
        '  "chunk_vectors": {', ",\n".join(chunk_lines), "  },",
        '  "questions": [', ",\n".join(question_lines), "  ]",
        "}",
        "",
    ])
    json.loads(document)  # never write a file that is not JSON
    target.write_text(document, encoding="utf-8")

if __name__ == "__main__":
    main()
