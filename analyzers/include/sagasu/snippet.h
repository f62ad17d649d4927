// Snippets: sentence windows of a note's stored text with the matched words
// highlighted by byte offsets from the one analyzer.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/analyzer.h"
#include "sagasu/substring.h"

namespace sagasu {

/// What counts as a match: normalised word terms (an English word's inflections among them), folded
/// substrings (substring.h) and literal strings (exact mode).
struct MatchTerms {
  std::set<std::string> words;
  std::vector<SubstringNeedle> substrings;
  std::vector<std::string> literals;
  /// Words that match only together, adjacent and in this order (the pieces
  /// of a compound: 可観測 + 性 is no match of a lone 性).
  std::vector<std::vector<std::string>> phrases;
  bool empty() const { return words.empty() && substrings.empty() && literals.empty() && phrases.empty(); }
  /// Highlights the words of one name or piece: a lone word, or several
  /// where they stand together (a phrase).
  void add_together(const std::vector<std::string>& piece) {
    if (piece.size() == 1)
      words.insert(piece.front());
    else if (!piece.empty())
      phrases.push_back(piece);
  }
};

/// A cited source's span in the stored text.
struct CitationSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string key;  ///< citation key, "2025__SOSP__Title"
};

/// One fragment: a whole sentence (or a cut of a long one).
struct Fragment {
  std::string text;
  std::vector<std::pair<std::size_t, std::size_t>> highlights;  ///< byte spans in text, ascending
  std::size_t source_begin = 0;                                 ///< byte offset of text in the stored text
  bool cut_before = false;                                      ///< the sentence goes on before text
  bool cut_after = false;                                       ///< the sentence goes on after text
  std::vector<std::string> sources;                             ///< citation keys cited in this sentence
};

/// Picks the sentences with the most distinct matched terms, among the
/// first MAX_MATCHING_SENTENCES sentences that match.
class SnippetGenerator {
 public:
  static constexpr std::size_t MAX_MATCHING_SENTENCES = 16;

  SnippetGenerator(Analyzer& analyzer, MatchTerms terms) : m_analyzer(analyzer), m_terms(std::move(terms)) {}

  /// Up to max_fragments fragments of at most max_bytes each, in text order.
  /// With no match, the text's first sentence.
  std::vector<Fragment> generate(std::string_view text, const std::vector<CitationSpan>& citations,
                                 std::size_t max_fragments = 1, std::size_t max_bytes = 240) const;

  /// Byte spans of matched words in text, adjacent matches merged into one span.
  std::vector<std::pair<std::size_t, std::size_t>> match_spans(std::string_view text) const;
  /// False only when text cannot hold a match (a cheap test before segmenting it).
  bool may_match(std::string_view text) const;

 private:
  Analyzer& m_analyzer;
  MatchTerms m_terms;
};

}  // namespace sagasu
