#include "compounds.h"

#include <cmath>
#include <map>

#include "sagasu/unicode.h"

namespace sagasu {
namespace {

constexpr std::string_view LONG_VOWEL = "ー";

std::string_view without_long_vowels(std::string_view s) {
  while (s.size() >= LONG_VOWEL.size() && s.substr(s.size() - LONG_VOWEL.size()) == LONG_VOWEL)
    s.remove_suffix(LONG_VOWEL.size());
  return s;
}

// Reads longer words as the vault's words, remembering each word read.
class Reader {
 public:
  Reader(std::string_view word, const KatakanaWords& words)
      : m_word(word), m_bare(without_long_vowels(word)), m_words(words) {}

  bool holds(const std::string& longer) {
    if (without_long_vowels(longer) == m_bare) return true;
    const auto [known, fresh] = m_holds.try_emplace(longer, false);
    if (!fresh) return known->second;
    // best[i]: the fewest words, then the commonest, that read longer from
    // character i to its end; a piece that is longer itself is not a reading.
    struct Reading {
      std::size_t words = 0;
      double rarity = 0;
      bool holds = false;
      bool possible = false;
    };
    // A short word that fewer notes have alone than have the longer one is
    // rather part of another word there (イン: インポート, オフ: オフセット).
    constexpr std::size_t SHORT = 3;
    const Xapian::doccount longer_notes = m_words.notes(longer);
    const std::vector<std::size_t> at = unicode::char_boundaries(longer);
    const std::size_t n = at.size() - 1;
    std::vector<Reading> best(n + 1);
    best[n].possible = true;
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = i + 2; j <= n; ++j) {
        if (i == 0 && j == n) continue;
        const Reading& rest = best[j];
        if (!rest.possible) continue;
        const std::string piece = longer.substr(at[i], at[j] - at[i]);
        const bool typed = without_long_vowels(piece) == m_bare;
        const Xapian::doccount notes =
            typed ? std::max<Xapian::doccount>(1, m_words.notes(m_word)) : m_words.notes(piece);
        if (notes == 0 ||
            (!typed && notes <= longer_notes && unicode::length(without_long_vowels(piece)) <= SHORT))
          continue;
        Reading r{rest.words + 1, rest.rarity - std::log(static_cast<double>(notes)), rest.holds, true};
        if (!best[i].possible || r.words < best[i].words ||
            (r.words == best[i].words && r.rarity < best[i].rarity)) {
          r.holds = r.holds || typed || (piece.find(m_word) != std::string::npos && holds(piece));
          best[i] = r;
        }
      }
    return m_holds[longer] = best[0].possible ? best[0].holds : at_an_end(longer, at);
  }

 private:
  // With no reading: the word typed at one end, the rest four characters or
  // more and no word of the vault, and no longer word of the vault at that
  // end (デジタル + データ, where デジタル is never alone; not
  // スーパーブロック, where ブロック is a word; not エクスポート, one
  // loanword: on ja-techdocs' judged longer words, a rest of three
  // characters is as often a piece of one loanword as a word).
  bool at_an_end(std::string_view longer, const std::vector<std::size_t>& at) const {
    constexpr std::size_t REST = 4;
    if (longer.size() <= m_word.size()) return false;
    const std::size_t rest = longer.size() - m_word.size();
    const auto at_end = [&](bool start) {
      if (longer.substr(start ? 0 : rest, m_word.size()) != m_word) return false;
      const std::string_view other = longer.substr(start ? m_word.size() : 0, rest);
      if (unicode::length(without_long_vowels(other)) < REST || m_words.notes(other) > 0) return false;
      for (std::size_t k = 1; k + 1 < at.size(); ++k) {
        const std::string_view end = start ? longer.substr(0, at[k]) : longer.substr(at[k]);
        if (end.size() > m_word.size() && m_words.notes(end) > 0) return false;
      }
      return true;
    };
    return at_end(true) || at_end(false);
  }

  std::string_view m_word;
  std::string_view m_bare;  ///< m_word without a long vowel mark at its end (キ of キー)
  const KatakanaWords& m_words;
  std::map<std::string, bool> m_holds;
};

}  // namespace

KatakanaWords::KatakanaWords(const Xapian::Database& db) {
  // Katakana is U+30A0 to U+30FF: UTF-8 E3 82 A0 to E3 83 BF.
  for (const std::string prefix : {"\xE3\x82", "\xE3\x83"})
    for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
      const std::string term = *t;
      if (unicode::length(term) < 2 || !unicode::all_of(term, unicode::is_katakana)) continue;
      m_notes[unicode::full_size_kana(std::string_view(term))] += t.get_termfreq();
    }
}

Xapian::doccount KatakanaWords::notes(std::string_view folded) const {
  for (std::string_view w = folded;; w.remove_suffix(LONG_VOWEL.size())) {
    if (const auto it = m_notes.find(std::string(w)); it != m_notes.end()) return it->second;
    if (w.size() < LONG_VOWEL.size() || w.substr(w.size() - LONG_VOWEL.size()) != LONG_VOWEL) return 0;
  }
}

bool katakana_word(std::string_view folded) {
  return unicode::length(folded) >= 2 && unicode::all_of(folded, unicode::is_katakana);
}

bool partial_word(std::string_view word, const std::vector<std::string>& longer, const KatakanaWords& words) {
  const Xapian::doccount alone = words.notes(word);
  for (const std::string& w : longer)
    if (w.compare(0, word.size(), word) == 0 && without_long_vowels(w) != without_long_vowels(word) &&
        words.notes(w) > alone)
      return true;
  return false;
}

std::vector<bool> holding_as_word(std::string_view word, const std::vector<std::string>& longer,
                                  const KatakanaWords& words) {
  Reader reader(word, words);
  std::vector<bool> out;
  for (const std::string& w : longer) out.push_back(reader.holds(w));
  return out;
}

}  // namespace sagasu
