// The substring tier of the analyzer: text folded for matching and cut into
// character n-grams (document-level terms, no positions), so that any string of one or more
// characters that occurs in a note is found, word boundaries or not: the
// grams select candidates, the folded text confirms them.
//
// Folding (identical at index and query time): NFKC_Casefold (width, case,
// compatibility forms), hiragana → katakana, an iteration mark → what it
// repeats (unicode::expand_iteration_marks: 々, ゝ, ゞ),
// small kana → full size (キャッシュ = キヤツシユ, as old texts write it).
// Runs are broken at white space and control characters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sagasu {

/// Folded text, optionally with a map back to the original bytes.
struct FoldedText {
  std::string text;
  /// One piece per normalisation chunk: folded [begin, next piece's begin) came from original [begin, end).
  struct Piece {
    std::uint32_t folded_begin, original_begin, original_end;
  };
  std::vector<Piece> pieces;  ///< empty unless fold_text(..., true)

  /// The original byte span that folded bytes [begin, end) came from.
  std::pair<std::size_t, std::size_t> to_original(std::size_t begin, std::size_t end) const;
};

/// Which foldings to apply.
enum class Fold { Full, Width };  ///< Full: iteration marks + NFKC_Casefold + kana + small kana; Width: NFKC_Casefold only

/// Folds text for the substring tier; with_map records where each piece came from.
FoldedText fold_text(std::string_view original, bool with_map = false, Fold fold = Fold::Full);

/// A query string for the substring tier: folded, and without trailing
/// long-vowel marks (so サーバー finds サーバ and サーバー). Empty if nothing is left.
std::string fold_query(std::string_view query, Fold fold = Fold::Full);

/// Characters a gram starting at c spans: three at an ASCII character (Latin
/// bigrams are too common to select anything), two elsewhere.
inline std::size_t gram_length(char32_t c) {
  return c < 0x80 ? 3 : 2;
}

/// Calls emit(gram) for each character of folded text: the character and the
/// next gram_length(c) - 1 of its run, cut short and ended with END_OF_RUN
/// where the run ends.
void for_each_gram(std::string_view folded, const std::function<void(const std::string&)>& emit);

/// Is the string letters and digits only (a-z, 0-9), END_OF_RUN at its end aside?
bool alphanumeric(std::string_view s);

/// The maximal runs of letters and digits (a-z, 0-9) in folded text.
std::vector<std::string_view> alphanumeric_runs(std::string_view folded);

/// The grams the index holds for folded text: for_each_gram's, but a gram of
/// letters and digits alone only where the run of letters and digits it is in
/// is not `shown` (a run of a word term's folding: the word list finds such a
/// note by the word, word_list.h). A string of letters and digits in a note is
/// so either inside a word the word list shows or covered by grams.
void for_each_indexed_gram(std::string_view folded, const std::function<bool(std::string_view run)>& shown,
                           const std::function<void(const std::string&)>& emit);

/// The substring tier's terms for a folded query string.
struct QueryGrams {
  std::vector<std::string> grams;  ///< whole grams inside the string: a match has them all
  std::string prefix;              ///< or, when the string is shorter than one gram: grams starting so
  bool exact = false;              ///< the terms alone prove a match (no text check needed)
};
QueryGrams query_grams(std::string_view folded_query);

/// Marks the end of a run inside a gram term.
inline constexpr char END_OF_RUN = '\x7f';

/// The gram of every note whose text has a character normalisation joins to
/// the one before it (a combining mark, a half-width ﾞ): a string that ends
/// between the two is in its raw text but not in its folded text (t in
/// t + U+0308, folded ẗ), so --exact takes such a note as a candidate
/// whatever its other grams. END_OF_RUN alone: never a gram of text.
inline const std::string JOINING_GRAM(1, END_OF_RUN);

/// What folding joins in a text that its raw characters keep apart.
struct FoldingJoins {
  /// A character normalisation may join to the one before it (JOINING_GRAM).
  bool joined = false;
  /// The ASCII characters (in lower case) beside one NFKC_Casefold deletes
  /// (soft hyphen, zero-width space, a variation selector:
  /// Default_Ignorable_Code_Point): zw + U+200B + sp folds to zwsp.
  std::string beside_deleted;
};
/// Adds what folding joins in text to `joins` (one pass over its characters).
void find_joins(std::string_view text, FoldingJoins& joins);

class Analyzer;

/// A query string of the substring tier, in both foldings.
struct SubstringNeedle {
  std::string folded;  ///< fold_query(query): what the grams and the folded text are searched for
  std::string width;   ///< fold_query(query, Fold::Width): the query's own kana, to tell a variant
};

/// Where a needle occurs in original text as a person would accept it (byte
/// spans, in order). An occurrence that is the query's text up to width and
/// case always counts; one that needs kana folding counts where the text's
/// hiragana that stands for the query's katakana is one whole word of the
/// analyzer: コレ finds これ, さーばー finds サーバー, but アップス is not in
/// アップする (す is part of する) and デコレー is not in 「モードでこれらの」.
std::vector<std::pair<std::size_t, std::size_t>> find_substring(Analyzer& analyzer, std::string_view text,
                                                                const SubstringNeedle& needle);
/// Whether find_substring finds anything (stops at the first accepted occurrence).
bool contains_substring(Analyzer& analyzer, std::string_view text, const SubstringNeedle& needle);

}  // namespace sagasu
