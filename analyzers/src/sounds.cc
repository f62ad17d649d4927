#include "sagasu/sounds.h"

#include <fmt/format.h>
#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <utility>
#include <vector>

#include "sagasu/error.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

bool is_vowel(char c) {
  return c == 'a' || c == 'i' || c == 'u' || c == 'e' || c == 'o';
}

// Text through one of ICU's transliterators (each made once per thread).
std::string transliterate(const char* id, std::string_view text) {
  thread_local std::map<std::string, std::unique_ptr<icu::Transliterator>, std::less<>> made;
  auto it = made.find(id);
  if (it == made.end()) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> t(icu::Transliterator::createInstance(id, UTRANS_FORWARD, status));
    if (U_FAILURE(status)) throw Error(fmt::format("ICU: no transliterator {}", id));
    it = made.emplace(id, std::move(t)).first;
  }
  icu::UnicodeString u =
      icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  it->second->transliterate(u);
  std::string out;
  u.toUTF8String(out);
  return out;
}

// ICU's romanisation of katakana, in ASCII letters: プリフィル → "purifiru".
std::string romanise(std::string_view katakana) {
  const std::string latin = transliterate("Katakana-Latin; Latin-ASCII", katakana);
  std::string out;
  for (char c : latin)
    if (c >= 'a' && c <= 'z') out += c;
  return out;
}

// English spelling → the letters of its sounds, as a katakana borrowing has them.
std::string respell(std::string_view w) {
  // Letter groups that sound as one (the first that fits at a place wins).
  static constexpr std::pair<std::string_view, std::string_view> GROUPS[] = {
      {"tion", "shon"}, {"sion", "shon"}, {"tch", "c"}, {"ph", "f"}, {"th", "s"}, {"sh", "s"},
      {"ch", "c"},      {"ck", "k"},      {"qu", "k"},  {"gh", ""},  {"wh", ""},  {"x", "ks"},
  };
  std::string out;
  auto at = [&](std::size_t i) { return i < w.size() ? w[i] : '\0'; };
  for (std::size_t i = 0; i < w.size();) {
    const auto group = std::find_if(std::begin(GROUPS), std::end(GROUPS),
                                    [&](const auto& g) { return w.substr(i, g.first.size()) == g.first; });
    if (group != std::end(GROUPS)) {
      out += group->second;
      i += group->first.size();
      continue;
    }
    const char c = w[i++];
    const char n = at(i);
    if (c == 'c')
      out += (n == 'e' || n == 'i' || n == 'y') ? 's' : 'k';
    else if (c != 'r' || is_vowel(n) ||
             n == 'y')  // an r before a consonant or at the end is not heard (server サーバー)
      out += c;
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

bool is_vowel_letter(char c) {
  return is_vowel(c) || c == 'y';
}

// Is the vowel at r[i], alone between a consonant and a consonant or the
// end, one Japanese adds to a consonant that has none in English (the u of
// ス before ト, a final ト's o)?
bool added_vowel(std::string_view r, std::size_t i) {
  const bool alone = i > 0 && !is_vowel(r[i - 1]) && (i + 1 == r.size() || !is_vowel(r[i + 1]));
  return alone && (r[i] == 'u' || (r[i] == 'o' && (r[i - 1] == 't' || r[i - 1] == 'd')));
}

// The vowel groups of romaji, without the vowels Japanese adds (added_vowel,
// and a final i after ch/j: マッチ "match").
std::vector<std::string> romaji_vowels(const std::string& r) {
  std::vector<std::string> groups;
  for (std::size_t i = 0; i < r.size();) {
    if (!is_vowel(r[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < r.size() && is_vowel(r[j])) ++j;
    const std::string g = r.substr(i, j - i);
    const char prev = i > 0 ? r[i - 1] : '\0';
    const bool final_i =
        g == "i" && j == r.size() && i >= 2 && (prev == 'j' || (prev == 'h' && r[i - 2] == 'c'));
    if (!(g.size() == 1 && (added_vowel(r, i) || final_i))) groups.push_back(g);
    i = j;
  }
  return groups;
}

// The vowel groups of an English spelling (y after a consonant is a vowel; a
// final e is silent); a group an r colours (the r before a consonant or at
// the end, which Japanese hears as a long vowel: work ワーク) ends in 'R'.
std::vector<std::string> english_vowels(std::string w) {
  for (std::size_t at;
       (at = w.find("tion")) != std::string::npos || (at = w.find("sion")) != std::string::npos;)
    w.replace(at, 4, "shon");  // calibration キャリブレーション: one vowel, o
  if (w.size() > 3 && w.back() == 'e' && !is_vowel_letter(w[w.size() - 2])) w.pop_back();
  std::vector<std::string> groups;
  for (std::size_t i = 0; i < w.size();) {
    const bool vowel = is_vowel(w[i]) || (w[i] == 'y' && i > 0 && !is_vowel(w[i - 1]));
    if (!vowel) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < w.size() && is_vowel_letter(w[j])) ++j;
    std::string g = w.substr(i, j - i);
    if (j < w.size() && w[j] == 'r' && (j + 1 == w.size() || !is_vowel_letter(w[j + 1]))) g += 'R';
    // An a before a final ll sounds as au (call コール, install インストール; not local ローカル).
    if (g == "a" && w.compare(j, 2, "ll") == 0 && (j + 2 == w.size() || !is_vowel_letter(w[j + 2]))) g = "au";
    groups.push_back(std::move(g));
    i = j;
  }
  return groups;
}

// Could an English vowel group begin this Japanese one? (cable ケーブル,
// light ライト, cut カット, cloud クラウド, fault フォールト, work ワーク.)
bool vowel_fits(std::string_view english, std::string_view japanese) {
  const char j = japanese.front();
  if (english.back() == 'R' && j == 'a') return true;
  if (english.substr(0, 2) == "ou" || english.substr(0, 2) == "ow") return j == 'a' || j == 'o' || j == 'u';
  if (english.substr(0, 2) == "au" || english.substr(0, 2) == "aw") return j == 'o' || j == 'a';
  switch (english.front()) {
    case 'a':
      return j == 'a' || j == 'e';
    case 'e':
      return j == 'e' || j == 'i';
    case 'i':
    case 'y':
      return j == 'i' || japanese.substr(0, 2) == "ai";
    case 'o':
      return j == 'o';
    case 'u':
      return j == 'u' || j == 'a';
  }
  return false;
}

// Romaji without the vowels Japanese adds (added_vowel), doubled letters once.
std::string romaji_core(const std::string& r) {
  std::string out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (is_vowel(r[i]) && added_vowel(r, i)) continue;
    const char c = r[i] == 'l' ? 'r' : r[i];
    if (out.empty() || out.back() != c) out += c;
  }
  return out;
}

// An English spelling as it sounds, in the letters romaji uses.
std::string english_core(const std::string& w) {
  std::string out;
  for (char c : respell(w)) {
    if (c == 'l') c = 'r';
    if (c == 'v') c = 'b';
    if (c == 'y') c = 'i';
    if (out.empty() || out.back() != c) out += c;
  }
  if (out.size() > 3 && out.back() == 'e') out.pop_back();
  return out;
}

}  // namespace

std::size_t sound_distance(std::string_view katakana, std::string_view latin) {
  return strings::edit_distance(romaji_core(romanise(katakana)), english_core(std::string(latin)));
}

bool sounds_alike(std::string_view katakana, std::string_view latin) {
  const std::string r = romanise(katakana);
  const std::string e(latin);
  if (r.empty() || e.empty()) return false;
  std::vector<std::string> rv = romaji_vowels(r), ev = english_vowels(e);
  // A name that starts with a letter read by its name (NVIDIA: エヌビディア,
  // "en-vidia"): two consonants no English syllable starts with.
  static const std::set<std::string> onsets{"bl", "br", "ch", "cl", "cr", "dr", "dw", "fl", "fr", "gh",
                                            "gl", "gn", "gr", "kl", "kn", "kr", "ph", "pl", "pr", "ps",
                                            "qu", "sc", "sh", "sk", "sl", "sm", "sn", "sp", "sq", "st",
                                            "sw", "th", "tr", "ts", "tw", "wh", "wr"};
  const bool spelt =
      e.size() > 2 && !is_vowel_letter(e[0]) && !is_vowel_letter(e[1]) && !onsets.count(e.substr(0, 2));
  if (spelt && r[0] == 'e' && !rv.empty()) {
    rv.erase(rv.begin());
  } else if (is_vowel(r[0]) != is_vowel(e[0])) {
    return false;
  }
  if (rv.empty() || ev.empty()) return rv.empty() == ev.empty();
  if (!vowel_fits(ev.front(), rv.front())) return false;
  // As many vowel sounds, each one an English spelling gives for it; one
  // more or less in a long word (left out where it lets the others agree).
  const std::size_t a = rv.size(), b = ev.size();
  const auto agree = [&](std::size_t skip_r, std::size_t skip_e) {
    for (std::size_t i = 0, j = 0; i < a && j < b; ++i, ++j) {
      if (i == skip_r && ++i == a) break;
      if (j == skip_e && ++j == b) break;
      // (a group may join two morae: the o of ト and the イ of インジェクション)
      bool fits = false;
      for (std::size_t k = 0; k < rv[i].size() && !fits; ++k) fits = vowel_fits(ev[j], rv[i].substr(k));
      if (!fits) return false;
    }
    return true;
  };
  if (a == b) return agree(a, b);
  if ((a > b ? a - b : b - a) != 1 || std::max(a, b) < 3) return false;
  for (std::size_t k = 1; k < std::max(a, b); ++k)
    if (a > b ? agree(k, b) : agree(a, k)) return true;
  return false;
}

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
  const Script script = sound_script(word);
  if (script == Script::None) return "";
  const std::string key = consonants(script == Script::Katakana ? romanise(word) : respell(word));
  return key.size() >= MIN_SOUND_KEY ? key : "";
}

std::string romaji_to_katakana(std::string_view latin) {
  constexpr std::size_t MIN_LETTERS = 4;
  if (latin.size() < MIN_LETTERS) return "";
  // Syllables throughout: a consonant (or two: ky, sh, ts…) and a vowel, an
  // n not before a vowel, a doubled consonant (ッ).
  static const std::regex SYLLABLE(
      "(?:[kgsztdnhbpmrwfjv]y?|sh|ch|ts|y)?[aiueo]|n(?![aiueoy])|([kgsztdhbpmrfjc])(?=\\1|ch)");
  // Kunrei and Nihon-shiki syllables as Hepburn, which ICU reads.
  static const std::map<std::string, std::string, std::less<>> KUNREI{
      {"si", "shi"},  {"ti", "chi"},  {"tu", "tsu"},  {"hu", "fu"},   {"zi", "ji"},   {"di", "ji"},
      {"du", "zu"},   {"sya", "sha"}, {"syu", "shu"}, {"syo", "sho"}, {"tya", "cha"}, {"tyu", "chu"},
      {"tyo", "cho"}, {"zya", "ja"},  {"zyu", "ju"},  {"zyo", "jo"}};
  const std::string word(latin);
  std::string hepburn;
  std::size_t at = 0;
  for (auto m = std::sregex_iterator(word.begin(), word.end(), SYLLABLE); m != std::sregex_iterator(); ++m) {
    if (static_cast<std::size_t>(m->position()) != at) return "";
    const auto k = KUNREI.find(m->str());
    hepburn += k == KUNREI.end() ? m->str() : k->second;
    at += static_cast<std::size_t>(m->length());
  }
  if (at != word.size()) return "";
  const std::string out = transliterate("Latin-Katakana", hepburn);
  return sound_script(out) == Script::Katakana ? out : "";
}

}  // namespace sagasu
