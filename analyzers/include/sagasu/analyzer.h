// The one analyzer of the project: indexing, query building and snippets all
// call it, so the three cannot drift apart.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/token.h"

namespace sagasu {

/// A step of the chain after segmentation. Filters may merge, drop, rewrite
/// or add tokens; they never change byte offsets of the text they keep.
class TokenFilter {
 public:
  virtual ~TokenFilter() = default;
  /// Name shown by the token dump.
  virtual const char* name() const = 0;
  virtual void apply(std::string_view original, std::vector<Token>& tokens) const = 0;
};

/// ICU word segmentation followed by the filter chain:
///   KatakanaJoin → NfkcCasefold → LongVowel → EnglishStem → NameParts.
/// Not thread-safe (the ICU break iterator keeps state): one per thread.
class Analyzer {
 public:
  Analyzer();
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  /// Tokens of UTF-8 text, positions from first_position on. Word tokens get
  /// consecutive positions, one left out where punctuation parts two words (a
  /// sentence's or clause's end, a table cell's, a list item's: no phrase
  /// spans it); a Stem or Part token shares its word's position.
  std::vector<Token> analyze(std::string_view text, std::uint32_t first_position = 1);

  /// Only the Word tokens' texts (for terms of a short value such as a query word).
  std::vector<std::string> words(std::string_view text);
  /// The words joined by single spaces: the key of a name in the synonym table.
  std::string key(std::string_view text);

  /// The filters after segmentation, in order.
  const std::vector<std::unique_ptr<TokenFilter>>& filters() const { return m_filters; }

 private:
  struct Segmenter;
  std::unique_ptr<Segmenter> m_segmenter;
  std::vector<std::unique_ptr<TokenFilter>> m_filters;
};

/// The standard filters, in chain order (exposed for tests).
std::unique_ptr<TokenFilter> make_katakana_join_filter();
std::unique_ptr<TokenFilter> make_nfkc_casefold_filter();
std::unique_ptr<TokenFilter> make_long_vowel_filter();
std::unique_ptr<TokenFilter> make_english_stem_filter();
std::unique_ptr<TokenFilter> make_name_parts_filter();

}  // namespace sagasu
