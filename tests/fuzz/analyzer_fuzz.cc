// The analyzer and the substring folding, on the first line as a needle and
// the rest as text. Invariants (valid UTF-8 text, which is all the analyzer is
// given: notes are checked when read, queries when parsed): every token's byte
// span is non-empty, inside the text and on character boundaries; word
// positions increase and a stem shares its word's position; the folded text
// maps back inside the original; every substring occurrence is a span of the
// text on character boundaries, each starting after the one before
// (occurrences may overlap: "  " twice in three spaces); contains_substring
// agrees with find_substring. Text that is not UTF-8 must only not crash.
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "sagasu/analyzer.h"
#include "sagasu/substring.h"
#include "sagasu/unicode.h"

using namespace sagasu;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Analyzer analyzer;
  const auto [needle_text, text] = fuzz::split_first_line(fuzz::as_text(data, size));
  const bool valid = unicode::find_invalid_utf8(fuzz::as_text(data, size)) == std::string_view::npos;

  const auto tokens = analyzer.analyze(text);
  if (valid) {
    std::uint32_t last_word = 0;
    for (const auto& t : tokens) {
      SAGASU_FUZZ_CHECK(t.byte_begin < t.byte_end && t.byte_end <= text.size());
      SAGASU_FUZZ_CHECK(fuzz::on_boundary(text, t.byte_begin) && fuzz::on_boundary(text, t.byte_end));
      SAGASU_FUZZ_CHECK(!t.text.empty());
      if (t.kind == TokenKind::Word) {
        SAGASU_FUZZ_CHECK(t.position > last_word);
        last_word = t.position;
      } else {
        SAGASU_FUZZ_CHECK(t.position == last_word);
      }
    }
  }

  const FoldedText folded = fold_text(text, true);
  if (valid) {
    for (std::size_t b = 0; b <= folded.text.size(); b += 1 + b % 7) {
      const auto [ob, oe] = folded.to_original(b, folded.text.size());
      SAGASU_FUZZ_CHECK(ob <= oe && oe <= text.size());
    }
  }
  for_each_gram(folded.text, [](const std::string& gram) { SAGASU_FUZZ_CHECK(!gram.empty()); });

  const SubstringNeedle needle{fold_query(needle_text), fold_query(needle_text, Fold::Width)};
  if (!needle.folded.empty()) {
    const auto spans = find_substring(analyzer, text, needle);
    std::size_t next = 0;
    if (valid) {  // (a query that is not UTF-8 is refused before it becomes a needle)
      for (const auto& [b, e] : spans) {
        SAGASU_FUZZ_CHECK(b < e && e <= text.size() && b >= next);
        SAGASU_FUZZ_CHECK(fuzz::on_boundary(text, b) && fuzz::on_boundary(text, e));
        next = b + 1;
      }
      SAGASU_FUZZ_CHECK(contains_substring(analyzer, text, needle) == !spans.empty());
    }
  }
  return 0;
}
