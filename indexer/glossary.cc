#include "glossary.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "sagasu/sounds.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

constexpr std::size_t MAX_INSIDE_BYTES = 120;  // a gloss, not a parenthetical remark
constexpr std::size_t MAX_WORDS = 5;
constexpr std::size_t MAX_ACRONYM = 6;

bool is_japanese(char32_t c) {
  return unicode::is_katakana(c) || unicode::is_han(c) || c == U'・';
}
bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_letter(char c) {
  return is_upper(c) || is_lower(c);
}

// Words of a Latin phrase (blanks and hyphens part them).
std::vector<std::string> words_of(std::string_view phrase) {
  std::vector<std::string> out;
  std::string w;
  for (char c : phrase) {
    if (c == ' ' || c == '-') {
      if (!w.empty()) out.push_back(std::move(w));
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

// An acronym: two to six capitals, an optional plural s ("SDCs").
bool is_acronym(std::string_view s) {
  if (!s.empty() && s.back() == 's') s.remove_suffix(1);
  return s.size() >= 2 && s.size() <= MAX_ACRONYM && std::all_of(s.begin(), s.end(), is_upper);
}

bool has_latin(std::string_view s) {
  return std::any_of(s.begin(), s.end(), is_letter);
}

// Roman numerals look like acronyms: 塩化スズ(II), 第IV章.
bool is_roman_numeral(std::string_view s) {
  return s.find_first_not_of("IVX") == std::string_view::npos;
}

// How much a Japanese phrase says: two a kanji, one any other character.
std::size_t said(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();) n += unicode::is_han(unicode::next_code_point(s, i)) ? 2 : 1;
  return n;
}

// 人間のフィードバックによる強化学習（RLHF）, RLHF（人間のフィードバックによる強化学習）:
// the acronym names a kind of the term the phrase ends with (or the term
// itself). The term says at least what the acronym's letters abbreviate, a
// kanji or two kana a letter: not ディレクトリ(FILE), オフ(DECCKM), 共同研究(AEGIS).
// Of three letters or more: two (IP, ET, RW) are other words' too, in hundreds of notes.
void define(const std::string& term, std::string_view acronym, std::set<Gloss>& out) {
  constexpr std::size_t MIN_LETTERS = 3;
  const std::size_t letters = acronym.size() - (acronym.back() == 's' ? 1 : 0);
  if (!is_roman_numeral(acronym) && letters >= MIN_LETTERS && said(term) >= 2 * acronym.size())
    out.insert({term, std::string(acronym), Provenance::Definition});
}

// An article, a preposition or a conjunction, in lower case (Of in End Of
// File (EOF) is one of its words): no word of a term's own.
bool is_small_word(const std::string& w) {
  static const std::set<std::string> small{"of", "and", "the", "for",  "in", "on",
                                           "to", "a",   "an",  "with", "by"};
  return small.count(w) > 0;
}

// Do the phrase's words (small words aside) begin with the acronym's letters?
bool initials_match(std::string_view acronym, std::string_view phrase) {
  if (!acronym.empty() && acronym.back() == 's') acronym.remove_suffix(1);
  std::string initials;
  for (const auto& w : words_of(phrase))
    if (!is_small_word(w)) initials += static_cast<char>(is_lower(w[0]) ? w[0] - 'a' + 'A' : w[0]);
  return initials == acronym;
}

// English words a gloss may be: letters, blanks, hyphens, apostrophes and
// dots only, one to five words, none a CamelCase name (SDCHunter: its words
// cannot be checked), not a lone acronym (checked elsewhere), not all capitals.
bool is_english_words(std::string_view s) {
  // Not a reference or an aside: "etc", "e.g.", "et al", "cf", "see …".
  static const std::set<std::string> asides{"etc",    "e.g", "e.g.", "i.e",  "i.e.", "cf",  "cf.", "et al",
                                            "et al.", "vs",  "vs.",  "ibid", "sic",  "see", "fig", "fig."};
  if (s.size() < 3 || asides.count(std::string(s)) || strings::starts_with(s, "see ") ||
      strings::contains(s, "--"))
    return false;
  if (!is_letter(s.front())) return false;
  for (char c : s)
    if (!is_letter(c) && c != ' ' && c != '-' && c != '\'' && c != '.') return false;
  const auto words = words_of(s);
  if (words.empty() || words.size() > MAX_WORDS) return false;
  // CamelCase: a capital after a small letter (ByteDance), or capitals run on
  // into a word (SDCHunter); not a plural acronym (FLOPs).
  for (const auto& w : words)
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (is_upper(w[i]) && is_lower(w[i - 1])) return false;
      if (i >= 2 && is_upper(w[i - 2]) && is_upper(w[i - 1]) && is_lower(w[i]) && i + 1 < w.size() &&
          is_lower(w[i + 1]))
        return false;
    }
  // Not capitals only: a man page's section (ENVIRONMENT) or a constant (SIGTERM).
  const bool shouted = std::all_of(words.begin(), words.end(), [](const std::string& w) {
    return std::none_of(w.begin(), w.end(), is_lower);
  });
  return !(words.size() == 1 && is_acronym(words[0])) && !shouted;
}

enum class Run { Katakana, Han, Mixed, Other };
Run script_of(std::string_view s) {
  bool kata = false, han = false;
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = unicode::next_code_point(s, i);
    if (unicode::is_katakana(c))
      kata = true;
    else if (unicode::is_han(c))
      han = true;
    else if (c != U'・')
      return Run::Other;
  }
  return kata && han ? Run::Mixed : kata ? Run::Katakana : han ? Run::Han : Run::Other;
}

// Items of a parenthesis: split at commas, 、 and semicolons, trimmed.
std::vector<std::string> items_of(std::string_view inside) {
  std::string s(inside);
  for (std::string_view sep : {"、", "，", "；", ";"}) {
    for (std::size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, at))
      s.replace(at, sep.size(), ",");
  }
  std::vector<std::string> out;
  for (const auto& item : strings::split(s, ',')) {
    const std::string_view t = strings::trim(item);
    if (!t.empty()) out.emplace_back(t);
  }
  return out;
}

// A kana that ends a verb's stem inside a word (okurigana: 隠れ状態, 取り外し,
// 折り畳み), not a particle, a verb's て form or an adjective's い (を, に,
// して; 高い部分文字列 is 部分文字列).
bool is_okurigana(char32_t c) {
  static const std::u32string_view stems = U"きしちひみりぎじびけせめれげべえね";
  return stems.find(c) != std::u32string_view::npos;
}

// The Japanese term that ends at byte `end` of text (a blank before the
// parenthesis aside): the run of katakana and kanji, two characters or more,
// with the okurigana of its words (隠れ状態 (hidden), not 状態; 折り畳み
// (folding)): a kana between two kanji, or after the last one.
std::string japanese_before(std::string_view text, std::size_t end) {
  if (end > 0 && text[end - 1] == ' ') --end;
  std::size_t begin = end;
  const auto han_before = [&](std::size_t at) {
    if (at == 0) return false;
    std::size_t i = unicode::char_start(text, at - 1);
    return unicode::is_han(unicode::next_code_point(text, i));
  };
  while (begin > 0) {
    const std::size_t b = unicode::char_start(text, begin - 1);
    std::size_t i = b;
    const char32_t c = unicode::next_code_point(text, i);
    std::size_t after = begin;
    const bool kanji_after =
        begin == end || (begin < text.size() && unicode::is_han(unicode::next_code_point(text, after)));
    if (!is_japanese(c) && !(is_okurigana(c) && han_before(b) && kanji_after)) break;
    begin = b;
  }
  // (A word of one kanji and its kana is often the end of another: やり取り, やり直し.)
  std::size_t kanji = 0;
  bool kana = false;
  for (std::size_t i = begin; i < end;) {
    const char32_t c = unicode::next_code_point(text, i);
    kanji += unicode::is_han(c) ? 1 : 0;
    kana = kana || unicode::is_hiragana(c);
  }
  if (kana && kanji < 2) return "";
  std::string_view run = text.substr(begin, end - begin);
  while (strings::starts_with(run, "・")) run.remove_prefix(std::string_view("・").size());
  return unicode::length(run) >= 2 ? std::string(run) : "";
}

// The English words that end at byte `end` (a blank aside): back to the
// previous character that is not a letter, blank or hyphen; "" when that is
// more than five words or the run starts a sentence of English.
std::string english_before(std::string_view text, std::size_t end) {
  if (end > 0 && text[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 && (is_letter(text[begin - 1]) || text[begin - 1] == ' ' || text[begin - 1] == '-'))
    --begin;
  const std::string_view run = strings::trim(text.substr(begin, end - begin));
  if (run.empty() || !is_letter(run.front()) || words_of(run).size() > MAX_WORDS) return "";
  // It must follow Japanese (or open the text): "… は fault tolerance（耐障害性）".
  if (begin > 0) {
    std::size_t i = unicode::char_start(text, begin - 1);
    const char32_t c = unicode::next_code_point(text, i);
    if (c < 0x80 && c != '(' && c != '[' && c != '"' && c != '\n') return "";
  }
  return std::string(run);
}

// Does the Japanese term gloss the English words: a katakana word only
// where it sounds like all of them (シンタックス(letmac) is an example, not a
// gloss), a phrase with katakana in it not a lone capitalised word, which
// names something (抖音(Douyin), a Japanese name).
bool glosses(const std::string& japanese, const std::string& english) {
  const bool name = words_of(english).size() == 1 && is_upper(english[0]);
  const Run run = script_of(japanese);
  const std::string sound = sound_key(japanese);
  const bool sounds_alike = !sound.empty() && sound_key(unicode::nfkc_casefold(english)) == sound;
  return run == Run::Katakana ? sounds_alike : (!name || run == Run::Han);
}

// 仮想 DOM（virtual DOM）, 拡張BNF (extended BNF): a term of Japanese words
// and a Latin word, glossed by English words ending with that word: the
// whole term is their gloss (not 仮想 alone, which the note does not say).
bool learn_mixed_term(std::string_view text, std::size_t open, const std::vector<std::string>& items,
                      std::set<Gloss>& out) {
  std::size_t end = open;
  if (end > 0 && text[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 &&
         (is_letter(text[begin - 1]) || std::isdigit(static_cast<unsigned char>(text[begin - 1]))))
    --begin;
  if (begin == end || items.size() != 1 || !is_letter(text[begin])) return false;
  const std::string japanese = japanese_before(text, begin);
  const std::string latin(text.substr(begin, end - begin));
  const std::string& item = items[0];
  if (japanese.empty() || item.size() <= latin.size() + 1 || item[item.size() - latin.size() - 1] != ' ' ||
      unicode::nfkc_casefold(item.substr(item.size() - latin.size())) != unicode::nfkc_casefold(latin))
    return false;
  const std::string english(strings::trim(std::string_view(item).substr(0, item.size() - latin.size())));
  const std::vector<std::string> words = words_of(english);
  const auto small = [](const std::string& w) { return is_small_word(unicode::nfkc_casefold(w)); };
  if (!is_english_words(english) || std::all_of(words.begin(), words.end(), small) ||
      !glosses(japanese, english))
    return false;
  const bool blank = begin > 0 && text[begin - 1] == ' ';
  out.insert({japanese + (blank ? " " : "") + latin, item, Provenance::Gloss});
  return true;
}

// 強化学習 (Reinforcement Learning, RL): the words glossing the Japanese before, and an acronym of them.
void learn_after_japanese(const std::string& japanese, const std::vector<std::string>& items,
                          std::set<Gloss>& out) {
  std::vector<std::string> english;
  for (const auto& item : items)
    if (is_english_words(item)) english.push_back(item);
  // Two English phrases are examples, not a gloss: 空ノード（null、undefined、…）.
  if (english.size() > 1) return;
  for (const auto& item : items) {
    if (is_english_words(item)) {
      // (取り消しポイント (cancellation point) is cut at the kana: ポイント.)
      if (glosses(japanese, item)) out.insert({japanese, item, Provenance::Gloss});
    } else if (is_acronym(item)) {
      bool spelled = false;
      for (const auto& e : english)
        if (initials_match(item, e)) {
          out.insert({japanese, item, Provenance::Gloss});
          out.insert({item, e, Provenance::Abbreviation});
          spelled = true;
        }
      // (Not one of a list: 構成要素(GPU、サーバ、ネットワーク).)
      if (!spelled && std::all_of(items.begin(), items.end(),
                                  [](const std::string& i) { return is_acronym(i) || is_english_words(i); }))
        define(japanese, item, out);
    }
  }
}

// Silent Data Corruption (SDC), fault tolerance（耐障害性）: what the items say of the English before.
void learn_after_english(const std::string& english, const std::vector<std::string>& items,
                         std::set<Gloss>& out) {
  const auto words = words_of(english);
  const std::string english_sound = sound_key(unicode::nfkc_casefold(english));
  auto sounds_like = [&](const std::string& item) {
    return !english_sound.empty() && script_of(item) == Run::Katakana && sound_key(item) == english_sound;
  };
  for (const auto& item : items) {
    // Silent Data Corruption (SDC): the last words whose initials are its letters.
    if (is_acronym(item)) {
      std::string acr(item);
      if (acr.back() == 's') acr.pop_back();
      for (std::size_t n = acr.size(); n <= words.size() && n <= acr.size() + 2; ++n) {
        std::string phrase;
        for (std::size_t i = words.size() - n; i < words.size(); ++i)
          phrase += (phrase.empty() ? "" : " ") + words[i];
        if (initials_match(item, phrase) && is_english_words(phrase)) {
          out.insert({item, phrase, Provenance::Abbreviation});
          break;
        }
      }
      continue;
    }
    // SDC (Silent Data Corruption): the words inside spell the acronym before.
    if (words.size() == 1 && is_acronym(english) && is_english_words(item) && initials_match(english, item)) {
      out.insert({english, item, Provenance::Abbreviation});
      continue;
    }
    // RLHF（人間のフィードバックによる強化学習）: what the acronym is a kind of,
    // said in Japanese alone and at length (not ID(文字列), a value's type, nor
    // FIFO (または FIFO へのシンボリックリンク), an aside).
    if (words.size() == 1 && is_acronym(english) && std::none_of(items.begin(), items.end(), sounds_like)) {
      if (!has_latin(item) && said(item) >= 3 * english.size())
        define(japanese_before(item, item.size()), english, out);
      continue;
    }
    // fault tolerance（耐障害性）, ByteDance(バイトダンス、字节跳动): Japanese
    // for the words before; a name (ByteDance) is checked by its katakana's sound.
    const Run run = script_of(item);
    if (run == Run::Katakana) {
      if (sounds_like(item)) out.insert({item, english, Provenance::Gloss});
    } else if (run == Run::Han && unicode::length(item) >= 2 &&
               (is_english_words(english) || std::any_of(items.begin(), items.end(), sounds_like))) {
      out.insert({item, english, Provenance::Gloss});
    }
  }
}

void learn_parenthesis(std::string_view text, std::size_t open, std::size_t inside_begin, std::size_t close,
                       std::set<Gloss>& out) {
  const std::string_view inside = strings::trim(text.substr(inside_begin, close - inside_begin));
  if (inside.empty() || inside.size() > MAX_INSIDE_BYTES) return;
  // Examples, not a gloss: 他言語(JavaScript、Rust、Java など).
  for (std::string_view marker : {"など", "例えば", "たとえば", "etc", "e.g.", "such as"})
    if (strings::contains(inside, marker)) return;
  const std::vector<std::string> items = items_of(inside);
  if (learn_mixed_term(text, open, items, out)) return;
  if (const std::string japanese = japanese_before(text, open); !japanese.empty())
    learn_after_japanese(japanese, items, out);
  else if (const std::string english = english_before(text, open); !english.empty())
    learn_after_english(english, items, out);
}

// A page name or link text in Latin letters: letters, blanks, hyphens, dots
// and apostrophes, at most five words (not a reference: "Zhang et al(2005)").
bool is_latin_name(std::string_view s) {
  if (s.empty() || strings::contains(s, "et al")) return false;
  for (char c : s)
    if (!is_letter(c) && c != ' ' && c != '-' && c != '.' && c != '\'') return false;
  return words_of(s).size() <= MAX_WORDS;
}

bool has_japanese(std::string_view s) {
  return unicode::any_of(s, [](char32_t c) { return is_japanese(c) || unicode::is_hiragana(c); });
}

}  // namespace

std::vector<Gloss> learn_glosses(const Note& note) {
  std::set<Gloss> out;
  const std::string_view text = note.text;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::size_t inside = 0;
    if (text[i] == '(')
      inside = i + 1;
    else if (text.compare(i, 3, "（") == 0)
      inside = i + 3;
    else
      continue;
    std::size_t close = inside;
    while (close < text.size() && close - inside <= MAX_INSIDE_BYTES && text[close] != ')' &&
           text.compare(close, 3, "）") != 0 && text[close] != '(' && text.compare(close, 3, "（") != 0 &&
           text[close] != '\n')
      ++close;
    if (close >= text.size() || !(text[close] == ')' || text.compare(close, 3, "）") == 0)) continue;
    learn_parenthesis(text, i, inside, close, out);
  }
  // [[Xin Liu|劉鑫]]: the page under a name in the other script.
  for (const Link& l : note.links) {
    if (l.display.empty() || l.embed || strings::starts_with(l.target, "@") || is_attachment(l.target))
      continue;
    const std::string_view target = strings::trim(l.target), shown = strings::trim(l.display);
    if (is_latin_name(target) && has_japanese(shown) && !has_latin(shown))
      out.insert({std::string(shown), std::string(target), Provenance::Link});
    else if (is_latin_name(shown) && has_japanese(target) && !has_latin(target))
      out.insert({std::string(target), std::string(shown), Provenance::Link});
  }
  return {out.begin(), out.end()};
}

}  // namespace sagasu
