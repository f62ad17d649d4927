// The one analyzer of the project: indexing, query building and snippets all
// call it, so the three cannot drift apart.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sagasu/token.h"

namespace sagasu {

/// Is the line break at text[newline] a wrap inside Japanese text, not a
/// word's end (a line of 40 columns or more, not a heading, broken between two
/// Japanese letters: ファ⏎イル)? Then the bytes to leave out: from the break
/// (its \r too) to the next line's first letter (past its indentation). The
/// line is measured from text's start or last line break before it: text
/// cut in mid-line sees a shorter line.
std::optional<std::pair<std::size_t, std::size_t>> line_wrap(std::string_view text, std::size_t newline);

/// A stretch of text without its wraps, and where its offsets were.
struct Unwrapped {
  std::string text;
  /// Each wrap taken out: where it was in text, and the bytes taken out up to and with it.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cuts;

  /// The offset in the stretch of an offset of text: a word's first byte, or one past its last.
  std::uint32_t begin(std::uint32_t at) const { return at + taken(at, true); }
  std::uint32_t end(std::uint32_t at) const { return at + taken(at, false); }
  /// The offset in text of an offset of the stretch (of a byte a wrap took out: where the wrap was).
  std::uint32_t in_text(std::uint32_t original) const;

 private:
  std::uint32_t taken(std::uint32_t at, bool with_at) const;
};

/// text[from, to) without its wraps (line_wrap), each judged in the whole
/// text, so that a stretch starting mid-line sees its line whole; false (and
/// out untouched) when it has none.
bool unwrap(std::string_view text, Unwrapped& out, std::size_t from = 0,
            std::size_t to = std::string_view::npos);

/// ICU word segmentation, then: adjacent katakana pieces joined as one word;
/// width, case and long vowels folded; English words' stems and the words of a
/// name written as one added (analyzer.cc).
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

 private:
  struct Segmenter;
  std::unique_ptr<Segmenter> m_segmenter;
};

}  // namespace sagasu
