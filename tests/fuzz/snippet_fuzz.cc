// The snippet builder: the first line gives the matched words (as the query
// side analyses them, plus the line as a substring needle and a literal), the
// rest is a note's stored text. Invariants: each fragment is the stored text at
// its offset, at most the byte budget, on character boundaries, its highlights
// inside it, in order and on character boundaries; fragments in text order.
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "sagasu/analyzer.h"
#include "sagasu/snippet.h"
#include "sagasu/unicode.h"

using namespace sagasu;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Analyzer analyzer;
  const std::string_view whole = fuzz::as_text(data, size);
  if (unicode::find_invalid_utf8(whole) != std::string_view::npos) return 0;  // stored text is UTF-8
  const auto [query, text] = fuzz::split_first_line(whole);

  MatchTerms terms;
  for (const auto& t : analyzer.analyze(query))
    if (t.kind == TokenKind::Word) terms.words.insert(t.text);
  const std::size_t mode = size % 3;  // words only; with a needle; with a literal (exact mode)
  if (mode == 1 && !query.empty())
    terms.substrings.push_back({fold_query(query), fold_query(query, Fold::Width)});
  if (mode == 2 && !query.empty()) terms.literals.emplace_back(query);

  // Citations where the text has "(Source: [[@", as the indexer records them.
  std::vector<CitationSpan> citations;
  for (std::size_t at = text.find("(Source:"); at != std::string_view::npos;
       at = text.find("(Source:", at + 1)) {
    const std::size_t end = text.find(')', at);
    citations.push_back({at, end == std::string_view::npos ? text.size() : end + 1, "2025__SOSP__Fuzz"});
  }

  const std::size_t max_fragments = 1 + size % 4;
  const std::size_t max_bytes = 40 + size % 300;
  const SnippetGenerator gen(analyzer, terms);
  const auto fragments = gen.generate(text, citations, max_fragments, max_bytes);
  SAGASU_FUZZ_CHECK(fragments.size() <= max_fragments);
  std::size_t last = 0;
  for (const auto& f : fragments) {
    SAGASU_FUZZ_CHECK(f.source_begin >= last && f.source_begin + f.text.size() <= text.size());
    SAGASU_FUZZ_CHECK(text.substr(f.source_begin, f.text.size()) == f.text);
    SAGASU_FUZZ_CHECK(f.text.size() <= max_bytes);
    SAGASU_FUZZ_CHECK(fuzz::on_boundary(text, f.source_begin) &&
                      fuzz::on_boundary(text, f.source_begin + f.text.size()));
    std::size_t end = 0;
    for (const auto& [b, e] : f.highlights) {
      SAGASU_FUZZ_CHECK(b < e && e <= f.text.size() && b >= end);
      SAGASU_FUZZ_CHECK(fuzz::on_boundary(f.text, b) && fuzz::on_boundary(f.text, e));
      end = e;
    }
    last = f.source_begin + f.text.size();
  }
  for (const auto& [b, e] : gen.match_spans(text)) SAGASU_FUZZ_CHECK(b < e && e <= text.size());
  return 0;
}
