#include "sagasu/sounds.h"

#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <memory>

#include "sagasu/error.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

bool is_vowel(char c) { return c == 'a' || c == 'i' || c == 'u' || c == 'e' || c == 'o'; }

// ICU's romanisation of katakana, in ASCII letters: プリフィル → "purifiru".
std::string romanise(std::string_view katakana) {
  thread_local std::unique_ptr<icu::Transliterator> to_latin = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> t(
        icu::Transliterator::createInstance("Katakana-Latin; Latin-ASCII", UTRANS_FORWARD, status));
    if (U_FAILURE(status)) throw Error("ICU: no Katakana-Latin transliterator");
    return t;
  }();
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(katakana.data(), static_cast<int32_t>(katakana.size())));
  to_latin->transliterate(u);
  std::string latin, out;
  u.toUTF8String(latin);
  for (char c : latin)
    if (c >= 'a' && c <= 'z') out += c;
  return out;
}

// English spelling → the letters of its sounds, as a katakana borrowing has them.
std::string respell(std::string_view w) {
  std::string out;
  auto at = [&](std::size_t i) { return i < w.size() ? w[i] : '\0'; };
  auto starts = [&](std::size_t i, std::string_view s) { return w.substr(i, s.size()) == s; };
  for (std::size_t i = 0; i < w.size();) {
    const char c = w[i];
    if (starts(i, "tion") || starts(i, "sion")) {
      out += "shon";
      i += 4;
    } else if (starts(i, "tch")) {
      out += 'c';
      i += 3;
    } else if (starts(i, "ph")) {
      out += 'f';
      i += 2;
    } else if (starts(i, "th") || starts(i, "sh")) {
      out += 's';
      i += 2;
    } else if (starts(i, "ch")) {
      out += 'c';
      i += 2;
    } else if (starts(i, "ck") || starts(i, "qu")) {
      out += 'k';
      i += 2;
    } else if (starts(i, "gh") || starts(i, "wh")) {
      i += 2;
    } else if (c == 'c') {
      const char n = at(i + 1);
      out += (n == 'e' || n == 'i' || n == 'y') ? 's' : 'k';
      ++i;
    } else if (c == 'x') {
      out += "ks";
      ++i;
    } else if (c == 'r') {
      // An r before a consonant or at the end is not heard (server サーバー).
      const char n = at(i + 1);
      if (is_vowel(n) || n == 'y') out += 'r';
      ++i;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// Letters → consonant key: l = r, v = b, j/z as written; vowels, w, y and
// h after a consonant go; doubled consonants count once.
std::string consonants(std::string_view letters) {
  std::string key;
  for (std::size_t i = 0; i < letters.size(); ++i) {
    char c = letters[i];
    if (is_vowel(c) || c == 'w' || c == 'y') continue;
    if (c == 't' && i + 1 < letters.size() && letters[i + 1] == 'c') continue;  // ッチ "tchi" = "ch"
    if (c == 'h' && i > 0 && !is_vowel(letters[i - 1])) continue;
    if (c == 'l') c = 'r';
    if (c == 'v') c = 'b';
    if (!key.empty() && key.back() == c) continue;
    key += c;
  }
  return key;
}

}  // namespace

Script sound_script(std::string_view word) {
  if (word.empty()) return Script::None;
  bool latin = true, katakana = true;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < word.size();) {
    const char32_t c = unicode::next_code_point(word, i);
    ++chars;
    latin = latin && c >= 'a' && c <= 'z';
    katakana = katakana && unicode::is_katakana(c);
  }
  if (latin && chars >= 4) return Script::Latin;
  if (katakana && chars >= 2) return Script::Katakana;
  return Script::None;
}

std::string sound_key(std::string_view word) {
  std::string key;
  switch (sound_script(word)) {
    case Script::None:
      return "";
    case Script::Katakana:
      key = consonants(romanise(word));
      break;
    case Script::Latin:
      key = consonants(respell(word));
      break;
  }
  return key.size() >= MIN_SOUND_KEY ? key : "";
}

}  // namespace sagasu
