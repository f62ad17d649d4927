#include "sagasu/unicode.h"

#include <unicode/brkiter.h>
#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace sagasu::unicode {

std::size_t find_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const int32_t n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {  // ASCII fast path
      ++i;
      continue;
    }
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) return static_cast<std::size_t>(start);
  }
  return std::string_view::npos;
}

char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t j = static_cast<int32_t>(i);
  UChar32 c;
  U8_NEXT(p, j, static_cast<int32_t>(s.size()), c);
  i = static_cast<std::size_t>(j);
  return c < 0 ? U'\uFFFD' : static_cast<char32_t>(c);
}

std::size_t char_start(std::string_view s, std::size_t i) {
  while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

void append_utf8(std::string& out, char32_t c) {
  char buf[4];
  int32_t n = 0;
  UBool error = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(buf), n, 4, static_cast<UChar32>(c), error);
  if (!error) out.append(buf, static_cast<std::size_t>(n));
}

std::u32string code_points(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) out += next_code_point(s, i);
  return out;
}

std::size_t length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char ch : s)
    if ((ch & 0xC0) != 0x80) ++n;
  return n;
}

namespace {

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// NFKC_Casefold of an ASCII character.
char ascii_folded(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

std::string nfkc_casefold(std::string_view s) {
  if (is_ascii(s)) {
    std::string out(s);
    for (char& ch : out) ch = ascii_folded(ch);
    return out;
  }
  UErrorCode status = U_ZERO_ERROR;
  static const icu::Normalizer2* norm = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status) || norm == nullptr)
    throw std::runtime_error("ICU: NFKC_Casefold normalizer unavailable");
  std::string out;
  out.reserve(s.size());
  icu::StringByteSink<std::string> sink(&out);
  status = U_ZERO_ERROR;
  norm->normalizeUTF8(0, icu::StringPiece(s.data(), static_cast<int32_t>(s.size())), sink, nullptr, status);
  if (U_FAILURE(status)) return std::string(s);
  return out;
}

namespace {

// s with each character through fold, then the characters `blanks` and runs of white space
// as one space, trimmed.
template <class Fold>
std::string collapsing(std::string_view s, std::string_view blanks, Fold fold) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    c = fold(c);
    if (blanks.find(c) != std::string_view::npos) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// NFKC_Casefold, then collapsing() (ASCII folded as it goes: a large vault folds a million names).
std::string fold_collapsing(std::string_view s, std::string_view blanks) {
  if (is_ascii(s)) return collapsing(s, blanks, ascii_folded);
  return collapsing(nfkc_casefold(s), blanks, [](char c) { return c; });
}

}  // namespace

std::string fold_name(std::string_view name) {
  return fold_collapsing(name, " \t\n\r_");
}

std::string fold_key(std::string_view key) {
  return fold_collapsing(key, " \t\n\r");
}

bool is_katakana(char32_t c) {
  return (c >= 0x30A1 && c <= 0x30FA) || (c >= 0x30FC && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF) ||
         (c >= 0xFF66 && c <= 0xFF9F);
}
bool is_hiragana(char32_t c) {
  return (c >= 0x3041 && c <= 0x3096) || c == 0x309D || c == 0x309E;
}

std::string to_katakana(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = next_code_point(s, i);
    append_utf8(out, katakana_of(c));
  }
  return out;
}

std::string to_hiragana(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = next_code_point(s, i);
    append_utf8(out, c >= 0x30A1 && c <= 0x30F6 ? c - 0x60 : c);
  }
  return out;
}

bool is_han(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x20000 && c <= 0x2FA1F) || c == 0x3005;
}
bool is_latin_alpha(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_long_vowel_mark(char32_t c) {
  return c == 0x30FC || c == 0xFF70;
}

void drop_long_vowels(std::string& text) {
  static constexpr std::string_view mark = "\xE3\x83\xBC";  // U+30FC
  std::size_t run = 0;                                      // the trailing katakana run's characters
  for (std::size_t i = 0; i < text.size();) run = is_katakana(next_code_point(text, i)) ? run + 1 : 0;
  for (; run >= 4 && std::string_view(text).substr(text.size() - mark.size()) == mark; --run)
    text.resize(text.size() - mark.size());
}

void unify_v_sounds(std::string& text) {
  static constexpr std::string_view V = "\xE3\x83\xB4";  // ヴ
  if (text.find(V) == std::string::npos) return;
  // ヴ and the small vowel after it, as one kana of the b-row (ヴュ: ビ and the ュ kept).
  static constexpr std::pair<std::string_view, std::string_view> RULES[] = {
      {"ヴァ", "バ"}, {"ヴィ", "ビ"},   {"ヴゥ", "ブ"}, {"ヴェ", "ベ"},
      {"ヴォ", "ボ"}, {"ヴュ", "ビュ"}, {"ヴ", "ブ"}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto rule = std::find_if(std::begin(RULES), std::end(RULES), [&](const auto& r) {
      return text.compare(i, r.first.size(), r.first) == 0;
    });
    if (rule == std::end(RULES)) {
      out += text[i++];
      continue;
    }
    out += rule->second;
    i += rule->first.size();
  }
  text = std::move(out);
}

namespace {

constexpr char32_t IDEOGRAPH_MARK = 0x3005, VERTICAL_MARK = 0x303B;  // 々 〻
bool is_ideograph_mark(char32_t c) {
  return c == IDEOGRAPH_MARK || c == VERTICAL_MARK;
}
bool is_kana_letter(char32_t c) {
  return (c >= 0x3041 && c <= 0x3096) || (c >= 0x30A1 && c <= 0x30FA);
}

// What an iteration mark stands for after prev: 々 and 〻 the ideograph
// before, ゝ and ヽ the kana before without voicing, ゞ and ヾ with it; c
// itself when it is no such mark or there is nothing to repeat.
char32_t iteration_of(char32_t c, char32_t prev) {
  constexpr char32_t HIRAGANA_MARK = 0x309D, HIRAGANA_VOICED = 0x309E, KATAKANA_MARK = 0x30FD,
                     KATAKANA_VOICED = 0x30FE, VOICING = 0x3099;  // ゝ ゞ ヽ ヾ, combining ゛
  if (is_ideograph_mark(c)) return is_han(prev) && !is_ideograph_mark(prev) ? prev : c;
  const bool plain = c == HIRAGANA_MARK || c == KATAKANA_MARK;
  if ((!plain && c != HIRAGANA_VOICED && c != KATAKANA_VOICED) || !is_kana_letter(prev)) return c;
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status) || nfc == nullptr) return c;
  // The kana without its voicing (ず → す), voiced again for ゞ and ヾ.
  icu::UnicodeString parts;
  char32_t base = prev;
  if (nfc->getDecomposition(static_cast<UChar32>(prev), parts) && parts.length() == 2 &&
      parts.char32At(1) == VOICING)
    base = static_cast<char32_t>(parts.char32At(0));
  if (plain) return base;
  const UChar32 voiced = nfc->composePair(static_cast<UChar32>(base), VOICING);
  return voiced < 0 ? c : static_cast<char32_t>(voiced);
}

}  // namespace

bool expand_iteration_marks(std::string_view text, std::string& out) {
  // Every mark is three bytes: E3 80 85 々, E3 80 BB 〻, E3 82 9D/9E ゝゞ, E3 83 BD/BE ヽヾ.
  const auto mark_at = [](std::string_view s, std::size_t i) {
    if (i + 2 >= s.size() || s[i] != '\xE3') return false;
    const char b1 = s[i + 1], b2 = s[i + 2];
    return (b1 == '\x80' && (b2 == '\x85' || b2 == '\xBB')) ||
           (b1 == '\x82' && (b2 == '\x9D' || b2 == '\x9E')) ||
           (b1 == '\x83' && (b2 == '\xBD' || b2 == '\xBE'));
  };
  const auto next_mark = [&](std::size_t from) {
    while (from < text.size() && !mark_at(text, from)) ++from;
    return from;
  };
  std::size_t at = next_mark(0);
  if (at >= text.size()) return false;
  out.assign(text);
  // The character before byte i of out, and where it starts (0 and i at the start).
  const auto before = [&](std::size_t i, std::size_t& start) -> char32_t {
    if (i == 0) {
      start = 0;
      return 0;
    }
    start = i - 1;
    while (start > 0 && (static_cast<unsigned char>(out[start]) & 0xC0) == 0x80) --start;
    std::size_t k = start;
    return next_code_point(out, k);
  };
  const auto put = [&](std::size_t i, char32_t c) {  // c over the three bytes at i, when it fits
    std::string enc;
    append_utf8(enc, c);
    if (enc.size() != 3) return false;
    out.replace(i, 3, enc);
    return true;
  };
  for (; at < text.size(); at = next_mark(at + 3)) {
    std::size_t i = at, p1 = 0, p2 = 0;
    const char32_t c = next_code_point(out, i);
    const char32_t prev = before(at, p1), prev2 = before(p1, p2);
    std::size_t j = i;
    const bool two = is_ideograph_mark(c) && mark_at(out, i) && is_ideograph_mark(next_code_point(out, j)) &&
                     is_han(prev2) && !is_ideograph_mark(prev2) && is_han(prev) && !is_ideograph_mark(prev) &&
                     at - p1 == 3 && p1 - p2 == 3;
    if (two && put(at, prev2) && put(i, prev)) {
      at += 3;  // both marks written out
      continue;
    }
    if (const char32_t r = iteration_of(c, prev); r != c) put(at, r);
  }
  return true;
}

char32_t full_size_kana(char32_t c) {
  // ァィゥェォ (odd from 0x30A1 to 0x30A9), ッ, ャュョ (odd from 0x30E3 to 0x30E7), ヮ: the next one.
  if ((c >= 0x30A1 && c <= 0x30A9 && c % 2 == 1) || c == 0x30C3 ||
      (c >= 0x30E3 && c <= 0x30E7 && c % 2 == 1) || c == 0x30EE)
    return c + 1;
  if (c == 0x30F5) return 0x30AB;  // ヵ → カ
  if (c == 0x30F6) return 0x30B1;  // ヶ → ケ
  return c;
}

std::string full_size_kana(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) append_utf8(out, full_size_kana(next_code_point(text, i)));
  return out;
}

std::string katakana_spelling_key(std::string_view word) {
  constexpr std::size_t MIN_KEY = 4;
  constexpr std::u32string_view E_COLUMN = U"エケゲセゼテデネヘベペメレ";
  std::u32string full, kana;  // the word with its small kana full-size; that without its ー
  for (std::size_t i = 0; i < word.size();) {
    const char32_t c = next_code_point(word, i);
    if (!is_katakana(c) || (full.empty() && (is_long_vowel_mark(c) || full_size_kana(c) != c))) return {};
    full += full_size_kana(c);
    if (!is_long_vowel_mark(c)) kana += full_size_kana(c);
  }
  std::u32string key;
  for (std::size_t i = 0; i < kana.size(); ++i)
    if (kana[i] != U'イ' || i == 0 || i + 1 == kana.size() ||
        E_COLUMN.find(kana[i - 1]) == std::u32string_view::npos)
      key += kana[i];
  // A short word keeps its ー and イ: only its small kana vary (クォート = クオート).
  // (Such a key holds a ー or an イ the rule above drops: it is no other word's.)
  const std::u32string& chosen = key.size() >= MIN_KEY ? key : full;
  std::string out;
  if (chosen.size() >= MIN_KEY)
    for (const char32_t c : chosen) append_utf8(out, c);
  return out;
}

int char_width(char32_t c) {
  const auto cp = static_cast<UChar32>(c);
  const int category = u_charType(cp);
  if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK || category == U_FORMAT_CHAR ||
      category == U_CONTROL_CHAR)
    return 0;
  const int eaw = u_getIntPropertyValue(cp, UCHAR_EAST_ASIAN_WIDTH);
  return eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH ? 2 : 1;
}

std::vector<std::size_t> char_boundaries(std::string_view s) {
  std::vector<std::size_t> out{0};
  UErrorCode status = U_ZERO_ERROR;
  // One iterator per thread: creating one loads ICU's break rules.
  thread_local std::unique_ptr<icu::BreakIterator> it(
      icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
  UText* text = utext_openUTF8(nullptr, s.data(), static_cast<int64_t>(s.size()), &status);
  if (U_FAILURE(status) || !it) {
    // Without ICU's rules, code points are the characters.
    if (text) utext_close(text);
    for (std::size_t i = 0; i < s.size();) {
      next_code_point(s, i);
      out.push_back(i);
    }
    return out;
  }
  it->setText(text, status);
  for (int32_t b = it->next(); b != icu::BreakIterator::DONE; b = it->next())
    out.push_back(static_cast<std::size_t>(b));
  utext_close(text);
  if (out.back() != s.size()) out.push_back(s.size());
  return out;
}

std::size_t display_width(std::string_view s) {
  // The columns of its code points: marks take none, but a spacing one that
  // extends a character (the half-width ﾞ of ﾊﾞ) takes its own.
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size();) cols += static_cast<std::size_t>(char_width(next_code_point(s, i)));
  return cols;
}

}  // namespace sagasu::unicode
