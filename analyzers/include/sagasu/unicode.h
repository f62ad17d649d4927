// Small Unicode helpers shared by the analyzer, the parser and the schema.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu::unicode {

/// Offset of the first invalid UTF-8 byte, or std::string_view::npos if valid.
std::size_t find_invalid_utf8(std::string_view s);
/// Decodes the code point at s[i] and advances i; returns U+FFFD on bad input.
char32_t next_code_point(std::string_view s, std::size_t& i);
/// The start of the character that holds byte i of s (i itself unless it is a continuation byte).
std::size_t char_start(std::string_view s, std::size_t i);
/// Appends the UTF-8 encoding of c.
void append_utf8(std::string& out, char32_t c);
/// The code points of UTF-8 text (U+FFFD for bad bytes).
std::u32string code_points(std::string_view s);
/// Number of code points in a valid UTF-8 string.
std::size_t length(std::string_view s);

/// NFKC_Casefold: full/half width, compatibility forms and case folded.
std::string nfkc_casefold(std::string_view s);
/// A name folded for look-up, the one name folding of Sagasu (entity
/// resolution, facet and filter terms, query values): NFKC_Casefold, and '_'
/// and runs of white space as one space, trimmed ("Xin_Liu" = "xin  liu").
std::string fold_name(std::string_view name);
/// A key folded for look-up (vault paths, citation keys, where '_' counts):
/// NFKC_Casefold, runs of white space as one space, trimmed.
std::string fold_key(std::string_view key);

bool is_katakana(char32_t c);  ///< katakana incl. half-width and ー, not the middle dot
bool is_hiragana(char32_t c);  ///< hiragana letters, small ones and ゝゞ
/// Hiragana as katakana (さーばー → サーバー); other characters as they are.
std::string to_katakana(std::string_view s);
/// One character so: a hiragana letter (or ゝゞ) as its katakana, others unchanged.
inline char32_t katakana_of(char32_t c) {
  return is_hiragana(c) ? c + 0x60 : c;
}
/// Katakana letters as hiragana (トキドキ → ときどき); others as they are.
std::string to_hiragana(std::string_view s);
bool is_han(char32_t c);              ///< CJK ideographs and 々
bool is_latin_alpha(char32_t c);      ///< ASCII letters after folding
bool is_long_vowel_mark(char32_t c);  ///< ー and half-width ｰ
/// The one long-vowel rule (indexed words, queries): text ending in a katakana
/// run of four or more characters loses the run's trailing ー while four
/// remain, so サーバー = サーバ and コンピューター = コンピュータ, but コピー stays
/// (as kuromoji's katakana stemmer does). Text after NFKC (ｰ is ー by then).
void drop_long_vowels(std::string& text);
/// The one v-sound rule (indexed words, queries): a katakana word's ヴ as
/// the b-sound most texts write (ヴァ = バ, ヴィ = ビ, ヴ = ブ, ヴェ = ベ, ヴォ =
/// ボ, ヴュ = ビュ), so ヴァリアント = バリアント (as Groonga's
/// unify_katakana_v_sounds folds them). Text after NFKC.
void unify_v_sounds(std::string& text);
/// The one rule of a loanword's kana spellings (the searcher's kana bridge):
/// a folded katakana word's key, its small kana full-size (ウィンドウ =
/// ウインドウ), every ー gone (インタフェース = インターフェース), an イ after a
/// kana of the e-column gone where a kana follows (フェイス = フェース,
/// ディスクリプタ = デスクリプタ; アンドレイ is no アンドレ). Words of one key
/// are one word spelled otherwise. Where that key is shorter than four
/// characters (スーパー and スパ, ディスク and デスク are other words), the
/// word with only its small kana full-size, if four characters or more
/// (クォート = クオート); else empty, as for a word not begun with a
/// full-size katakana letter (ープログラム, a cut).
std::string katakana_spelling_key(std::string_view word);
/// The full-size katakana of a small one (ァ → ア, ッ → ツ, ャ → ヤ, ヵ → カ); others unchanged.
char32_t full_size_kana(char32_t c);
/// Text with each small katakana full-size (the substring tier's folding of a katakana word).
std::string full_size_kana(std::string_view text);
/// Text with each iteration mark written out as what it repeats, where that
/// keeps the text's length in bytes (offsets into it are offsets into text):
/// こゝろ = こころ, いすゞ = いすず, 人々 = 人人, and two 々 after two
/// ideographs repeat both (部分々々 = 部分部分), as Groonga folds them. The
/// analyzer and the substring tier read text so. False, out untouched, when
/// text has no mark.
bool expand_iteration_marks(std::string_view text, std::string& out);

/// The terminal columns of one code point, from ICU's East Asian width: 2
/// for wide and fullwidth characters (漢字, かな, ＡＢ), 0 for combining marks,
/// format and control characters, 1 for the rest (ambiguous ones such as … too).
int char_width(char32_t c);
/// Where valid UTF-8 text s may be cut: the byte offsets between its
/// user-perceived characters (ICU's character break iterator), 0 and s.size() included.
std::vector<std::size_t> char_boundaries(std::string_view s);
/// The terminal columns of s: the columns of its code points (a mark takes
/// none; the half-width ﾞ of ﾊﾞ, part of one character, takes its own).
std::size_t display_width(std::string_view s);

/// True when every code point of s satisfies pred.
template <class Pred>
bool all_of(std::string_view s, Pred pred) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size();)
    if (!pred(next_code_point(s, i))) return false;
  return true;
}
/// True when some code point of s satisfies pred.
template <class Pred>
bool any_of(std::string_view s, Pred pred) {
  for (std::size_t i = 0; i < s.size();)
    if (pred(next_code_point(s, i))) return true;
  return false;
}

}  // namespace sagasu::unicode
