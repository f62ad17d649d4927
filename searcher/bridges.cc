#include "bridges.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "sagasu/dictionary.h"
#include "sagasu/schema.h"
#include "sagasu/sounds.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"
#include "unweighted.h"

namespace sagasu {
namespace {

// The measures of Bridges::mark_unsupported's rules (their comment says
// what each decides): chance co-occurrence worth telling, the lift of a
// pair the vault uses, and of a further sense used clearly; "most notes";
// the share of the rarer word's notes a sound pair must say both in; the
// notes a phrase bridged word by word must be said in; how many times as
// often as a loanword's source its homophone must be said, and as a
// sound-alike or a dictionary sense the most written one beside the word.
constexpr double MIN_EXPECTED = 3, MIN_LIFT = 2, MIN_LIFT_FURTHER = 4, MAX_ELSEWHERE = 0.5,
                 MIN_SHARE_TOGETHER = 3, MIN_TERM_NOTES = 2, HOMOPHONE_SAID = 3, SOUNDS_SAID = 2,
                 SENSES_SAID = 3;

// Of several equivalents of one kind, those the notes write beside the
// piece at least 1/factor as often as the most written one; the rest loose.
void keep_most_said(const std::vector<std::pair<Bridge*, double>>& equivalents, double factor,
                    const char* why) {
  double most = 0;
  for (const auto& [b, together] : equivalents) most = std::max(most, together);
  for (const auto& [b, together] : equivalents)
    if (factor * together < most) {
      b->loose = true;
      b->why = why;
    }
}

// A word term of ASCII letters and digits (a word term is case-folded).
bool latin_word(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(),
                                   [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

// The readings a word typed in Hepburn may have with its long vowels
// written: ウ after a kana of the o or u column, wherever it may stand
// (トキョ: トウキョ, トキョウ, トウキョウ), for the first four of them.
std::vector<std::string> long_vowels(const std::string& kana) {
  constexpr std::string_view O_U = "オコソトノホモヨロゴゾドボポョォウクスツヌフムユルグズヅブプュゥ";
  constexpr std::size_t MAX_PLACES = 4;
  std::vector<std::size_t> places;  // byte offsets after such a kana, not before a ウ already
  for (std::size_t i = 0; i < kana.size() && places.size() < MAX_PLACES;) {
    const std::size_t at = i;
    unicode::next_code_point(kana, i);
    if (O_U.find(kana.substr(at, i - at)) != std::string_view::npos && kana.compare(i, 3, "ウ") != 0)
      places.push_back(i);
  }
  std::vector<std::string> out;
  for (std::size_t mask = 1; mask < (std::size_t{1} << places.size()); ++mask) {
    std::string longer;
    std::size_t from = 0;
    for (std::size_t p = 0; p < places.size(); ++p)
      if (mask & (std::size_t{1} << p)) {
        longer += kana.substr(from, places[p] - from) + "ウ";
        from = places[p];
      }
    out.push_back(longer + kana.substr(from));
  }
  return out;
}

// "1 note says both", "3 notes say both" (verb: the plural's).
std::string notes_saying(double n, std::string_view verb) {
  const auto count = static_cast<std::size_t>(n);
  if (count != 1) return fmt::format("{} notes {}", count, verb);
  std::string singular(verb);
  const std::size_t space = singular.find(' ');
  singular.insert(space == std::string::npos ? singular.size() : space, "s");
  return fmt::format("1 note {}", singular);
}

// Counted words, the most counted first (ties in the order given).
void most_first(std::vector<std::pair<double, std::string>>& counted) {
  std::stable_sort(counted.begin(), counted.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
}

// A dictionary pair of a katakana word and the English it sounds like is a
// loanword and its source (キャリブレーション: calibration): one sense, as a
// sound-alike is, even where no note happens to say both.
bool is_loanword(const std::string& joined, const std::vector<std::string>& equivalent) {
  if (equivalent.size() != 1) return false;
  const std::string& other = equivalent[0];
  const Script a = sound_script(joined), b = sound_script(other);
  if (a == Script::None || b == Script::None || a == b) return false;
  return a == Script::Katakana ? sounds_alike(joined, other) : sounds_alike(other, joined);
}

// A long word that sounds all but the same is a loanword and its source
// too (キャリブレーション: calibration, 11 letters, 2 apart), while a
// short one may be another word (class: クラッシュ "crash"). Of the judged
// sound pairs of the real vaults that share no note, 6 right ones are so
// and no wrong one. An English plural's s is not a sound apart (datasets
// データセット: 8 letters, 1 apart).
bool is_near_loanword(const std::string& joined, const std::vector<std::string>& equivalent) {
  constexpr std::size_t MIN_LOANWORD_LETTERS = 7, LETTERS_PER_EDIT = 5;
  if (!is_loanword(joined, equivalent)) return false;
  const bool katakana_first = sound_script(joined) == Script::Katakana;
  const std::string& katakana = katakana_first ? joined : equivalent[0];
  const std::string& latin = katakana_first ? equivalent[0] : joined;
  std::size_t distance = sound_distance(katakana, latin);
  if (strings::ends_with(latin, "s"))
    distance =
        std::min(distance, sound_distance(katakana, std::string_view(latin).substr(0, latin.size() - 1)));
  return latin.size() >= MIN_LOANWORD_LETTERS && distance * LETTERS_PER_EDIT <= latin.size();
}

}  // namespace

std::vector<Bridge> Bridges::stated(const std::string& key) const {
  std::vector<Bridge> out;
  if (key.empty()) return out;
  // The vault's glossary, the equivalents most notes state first; then the dictionaries'.
  const std::string gloss_px(schema::META_GLOSSARY);
  if (gloss_px.size() + key.size() <= schema::MAX_TERM_BYTES) {
    std::vector<std::pair<std::size_t, Bridge>> stated;
    for (const std::string& line : strings::split_nonempty(m_db.get_metadata(gloss_px + key), '\n')) {
      const std::vector<std::string> f = strings::split(line, '\t');
      const std::optional<Provenance> how = f.size() < 3 ? std::nullopt : provenance_of(f[1]);
      if (!how || f[0].empty()) continue;  // a line this version cannot read
      const std::size_t n = std::strtoul(f[2].c_str(), nullptr, 10);
      // (A definition, 強化学習 ⊃ RLHF: a kind of the term, weaker than an equivalent.)
      stated.push_back({n, Bridge{f[0], *how, *how == Provenance::Definition, n}});
    }
    std::stable_sort(stated.begin(), stated.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [n, b] : stated) out.push_back(std::move(b));
  }
  // The dictionaries' equivalents that can match: every word of them is in the index.
  for (DictionaryEntry& e : m_dictionary.of(key)) {
    const std::vector<std::string> words = m_analyzer.words(e.equivalent);
    if (!words.empty() && std::all_of(words.begin(), words.end(),
                                      [&](const std::string& w) { return m_db.get_termfreq(w) > 0; })) {
      out.push_back({std::move(e.equivalent), e.name ? Provenance::Name : Provenance::Dictionary});
      out.back().further = !e.main;
    }
  }
  return out;
}

bool Bridges::source_of_another(const std::string& english, const std::string& katakana) const {
  if (sound_script(katakana) != Script::Katakana) return false;
  const std::string key = unicode::katakana_spelling_key(katakana);
  const auto other = [&](const DictionaryEntry& e) {
    return unicode::all_of(e.equivalent, unicode::is_katakana) &&
           (key.empty() ? e.equivalent != katakana : unicode::katakana_spelling_key(e.equivalent) != key);
  };
  const std::vector<DictionaryEntry> entries = m_dictionary.of(m_analyzer.key(english));
  return !entries.empty() && std::all_of(entries.begin(), entries.end(), other);
}

bool Bridges::names(const std::vector<std::string>& words) const {
  const std::string joined = fmt::format("{}", fmt::join(words, ""));
  const std::vector<Bridge> equivalents = stated(fmt::format("{}", fmt::join(words, " ")));
  if (std::any_of(equivalents.begin(), equivalents.end(),
                  [](const Bridge& b) { return b.how != Provenance::Definition; }))
    return true;
  std::vector<Bridge> sounds;
  if (std::all_of(words.begin(), words.end(), latin_word)) add_sounds(joined, sounds);
  return !sounds.empty();
}

bool Bridges::in_dictionary(const std::string& key) const {
  const std::vector<DictionaryEntry> senses = m_dictionary.of(key);
  return std::any_of(senses.begin(), senses.end(), [](const DictionaryEntry& e) { return !e.name; });
}

std::vector<Bridge> Bridges::of(const std::string& text, const std::vector<std::string>& words) const {
  if (auto at = m_of.find({text, words}); at != m_of.end()) return at->second;
  return m_of.emplace(std::pair(text, words), look_up(text, words)).first->second;
}

std::vector<Bridge> Bridges::look_up(const std::string& text, const std::vector<std::string>& words) const {
  const std::string key = fmt::format("{}", fmt::join(words, " "));
  std::vector<Bridge> out = stated(key);
  if (key.empty()) return out;
  // One word's sound; a phrase of English words may sound like one katakana
  // word ("fault injection" フォールトインジェクション).
  const std::string joined = fmt::format("{}", fmt::join(words, ""));
  const bool partial =
      (words.size() == 1 || std::all_of(words.begin(), words.end(), latin_word)) && add_sounds(joined, out);
  if (out.empty() && words.size() > 1) add_composed(words, out);
  // A word the vault lacks, typed in romaji, is its katakana where the vault
  // has that word (sutoragura: ストラグラー), or the words read so (kenkyuu: 研究).
  // (A reading of three kana or more: hate, ハテ, is no word typed as read.)
  constexpr std::size_t MIN_READING = 3;
  if (words.size() == 1 && m_db.get_termfreq(words[0]) == 0)
    if (const std::string kana = romaji_to_katakana(words[0]); !kana.empty()) {
      if (in_notes(phrase(m_analyzer.words(kana))) > 0) out.insert(out.begin(), {kana, Provenance::Romaji});
      if (unicode::length(kana) >= MIN_READING) {
        // Hepburn often leaves a long vowel out (kenkyu, tokyo): where the
        // reading as typed names no word, the readings with it written.
        const std::size_t before = out.size();
        add_read_as(kana, out);
        for (const std::string& longer : long_vowels(kana))
          if (out.size() == before) add_read_as(longer, out);
      }
    }
  add_spellings(joined, out);
  add_in_kana(joined, out);
  // A word typed in hiragana as it is read (けんきゅう: 研究).
  const std::string typed = unicode::nfkc_casefold(text);
  if (unicode::length(typed) >= MIN_READING && unicode::all_of(typed, unicode::is_hiragana))
    add_read_as(typed, out);
  // Each equivalent once (as the analyzer folds it), never the piece itself;
  // the word's own spellings and readings (bounded where they are found) apart from the cap.
  std::vector<Bridge> unique;
  std::set<std::string> seen{unicode::nfkc_casefold(key), unicode::nfkc_casefold(text)};
  std::size_t capped = 0;
  for (auto& b : out) {
    if ((same_word(b) || capped < MAX_BRIDGES) && seen.insert(unicode::nfkc_casefold(b.equivalent)).second) {
      capped += same_word(b) ? 0 : 1;
      unique.push_back(std::move(b));
    }
  }
  mark_unsupported(words, unique);
  // A partial word's equivalents are weaker than the word's: --loose only.
  if (partial)
    for (auto& b : unique)
      if (!same_word(b)) {
        b.loose = true;
        b.why = "a partial word's";
      }
  for (auto& b : unique)
    if (b.why.empty())
      b.why = spelling(b)                       ? "the word spelled otherwise"
              : b.how == Provenance::Reading    ? "the word read so"
              : b.how == Provenance::Romaji     ? "the word in katakana"
              : b.how == Provenance::Name       ? "a name's spelling"
              : b.how == Provenance::Definition ? "a kind of it a note defines"
                                                : notes_saying(b.stating, "state it");
  return unique;
}

// What the notes state (a gloss, an abbreviation, a link) is a match; a
// general pair only where the vault does not speak against it:
// - a sound-alike stands in only for a word the notes give no equivalent
//   and, for a katakana word, the dictionary no source (ロケール: locale,
//   stated, local only sounds alike; フォーマット: format, not formatter);
//   for a word the vault has, only where at least a third of the notes saying the rarer of
//   the two say both: of the sound pairs sampled on the real vaults, 14 of
//   24 were words that only sound alike (class クラッシュ, prev プレビュー,
//   seeks スケース), 12 of them never in one note; the right ones that share
//   notes share 0.33-1 of the rarer word's, the wrong ones 0.12-0.25 (Maildir
//   メールリーダ, modulo モデル, Inputs インポータ) but one; or where it is
//   a long loanword (below);
// - of several sound-alikes, those the notes write beside the word at least
//   half as often as the most written one;
// - a gloss one note states that the dictionary contradicts, or of a word the
//   notes say far more often than the term (below);
// - two words the vault uses often, where the notes with the equivalent say
//   the piece less than MIN_LIFT times as often as the other notes do, mean
//   two senses: 把握 ("understand") and grasp in a robotics vault, in 6 of
//   the 19 notes saying grasp and 148 of the 511 others. Words too rare to
//   tell (fewer than MIN_EXPECTED notes together by chance), or a piece most
//   notes say anyway (訓練 and training in a vault about training), keep
//   the dictionary's word;
// - a dictionary pair of two words the vault has (but a loanword and its
//   source) counts where it uses them as one: some note says both, and the notes with the equivalent say the
//   piece at least MIN_LIFT times as often as the others (or both are the
//   vault's topic, in most notes). A dictionary gives every sense of a
//   common word (escape: 避難, "evacuation"); of the pairs sampled on the
//   real vaults that some note holds, about half were another sense. A
//   word the vault lacks keeps its dictionary pairs: they are the way to
//   its notes (模倣学習 in a vault written in English);
// - a dictionary's word further in a sense than its first (標準: standard,
//   level, norm; 軌道: orbit, trajectory) is another sense half the time: of
//   the judged pairs so trusted, 18 of 38 were wrong (入力 for entry, 回数
//   for frequency; right: 拡張 for extension, 注意 for attention). It counts
//   only where the vault uses the pair clearly: the notes with the equivalent
//   say the piece MIN_LIFT_FURTHER times as often as the others (軌道 beside
//   trajectory in 4 of robotics' 5 notes saying it), even for a word the
//   vault lacks. Of those 38, that keeps 18 right and 9 wrong, where twice
//   (the rule above) kept 20 and 18;
// - a compound bridged word by word (add_composed) counts where the vault
//   uses the phrase as a dictionary pair must be used, or says it in two
//   notes or more (a term of the vault: 障害物回避, obstacle avoidance in 9
//   notes, none saying both); one note's phrase is a chance string of words
//   (辞書変数: "dictionary indexed" in one note of ja-techdocs).
void Bridges::mark_unsupported(const std::vector<std::string>& words, std::vector<Bridge>& bridges) const {
  if (words.empty()) return;
  Piece piece{words, fmt::format("{}", fmt::join(words, "")),
              std::all_of(words.begin(), words.end(), latin_word),
              m_dictionary.of(fmt::format("{}", fmt::join(words, " "))), phrase(words)};
  for (const Bridge& b : bridges)
    if (spelling(b))
      piece.query = Xapian::Query(Xapian::Query::OP_OR, piece.query, phrase(m_analyzer.words(b.equivalent)));
  std::vector<std::vector<std::string>> equivalents;  // each bridge's equivalent, as words
  for (const Bridge& b : bridges) equivalents.push_back(m_analyzer.words(b.equivalent));
  mark_lone_glosses(piece, equivalents, bridges);
  mark_broader(equivalents, bridges);
  // What the word is in the other script: what the notes state, or the
  // source the dictionary gives a katakana word (an English word's other
  // katakana spellings sound alike: ファイルデスクリプタ, ファイルディスクリプタ).
  const bool katakana = sound_script(piece.joined) == Script::Katakana;
  bool named = false;
  for (std::size_t i = 0; i < bridges.size(); ++i)
    named =
        named || is_stated(bridges[i].how) ||
        (katakana && bridges[i].how == Provenance::Dictionary && is_loanword(piece.joined, equivalents[i]));
  std::vector<std::pair<Bridge*, double>> sounds;  // a sound-alike, the notes it shares with the piece
  std::vector<std::pair<Bridge*, double>> senses;  // a dictionary sense the vault uses, likewise
  std::vector<bool> unsaid(bridges.size(), false);  // a phrase no note says: it matches nothing
  for (std::size_t i = 0; i < bridges.size(); ++i) {
    Bridge& b = bridges[i];
    if (b.how == Provenance::Sound && named) {
      b.loose = true;
      b.why = "the word's equivalent is known";
    }
    if (b.loose || equivalents[i].empty() ||
        (b.how != Provenance::Sound && b.how != Provenance::Dictionary && b.how != Provenance::Words))
      continue;
    // A phrase no note says in its text or title matches nothing: it is left
    // out, not weighed (for "setup file", counting the notes saying 設定
    // ファイル would read the positions of two common words in a thousand notes).
    if (equivalents[i].size() > 1 && in_notes(phrase(equivalents[i])) == 0 &&
        in_notes(phrase(equivalents[i], schema::TITLE.prefix)) == 0) {
      unsaid[i] = true;
      continue;
    }
    const double together = weigh(piece, equivalents[i], b);
    if (b.how == Provenance::Sound) sounds.emplace_back(&b, together);
    if (b.how == Provenance::Dictionary && !b.loose && !katakana &&
        !unicode::all_of(b.equivalent, unicode::is_katakana))
      senses.emplace_back(&b, together);
  }
  // Of words sounding alike, the one the notes write beside it (トレイト:
  // trait in 44 of its notes, treat in 7): one spelling is one word.
  keep_most_said(sounds, SOUNDS_SAID, "another sound-alike is said beside it more");
  // Of a word's dictionary senses in kanji or Latin letters (not a loanword
  // and its katakana), those the notes write beside it at least a third as
  // often as the most written one: time is 時間 in matsuura (4 notes say
  // both), not 拍子 (1); substitution 置換 in ja-techdocs (17), not 代用 (3).
  // Of the judged pairs so trusted on the real vaults, this leaves out 4
  // wrong and no right one (half as often: 5 wrong and 1 right).
  keep_most_said(senses, SENSES_SAID, "another sense is said beside it more");
  std::vector<Bridge> said;
  for (std::size_t i = 0; i < bridges.size(); ++i)
    if (!unsaid[i]) said.push_back(std::move(bridges[i]));
  bridges = std::move(said);
}

double Bridges::notes_of(Piece& piece) const {
  if (!piece.counted) piece.counted = in_notes(piece.query);
  return *piece.counted;
}

double Bridges::weigh(Piece& piece, const std::vector<std::string>& equivalent, Bridge& b) const {
  const double notes = m_db.get_doccount(), said = notes_of(piece);
  const double with = in_notes(phrase(equivalent));
  const double together = in_notes(Xapian::Query(Xapian::Query::OP_AND, piece.query, phrase(equivalent)));
  // How often the notes with the equivalent say the piece, against the others.
  const double among_with = together / std::max(1.0, with);
  const double among_others = (said - together) / std::max(1.0, notes - with);
  const bool against = said * with / std::max(1.0, notes) >= MIN_EXPECTED && among_others <= MAX_ELSEWHERE &&
                       among_with < MIN_LIFT * among_others;
  const bool topic = said > MAX_ELSEWHERE * notes && with > MAX_ELSEWHERE * notes;
  const bool used = together >= 1 && (topic || among_with >= MIN_LIFT * among_others);
  const bool used_clearly = together >= 1 && among_with >= MIN_LIFT_FURTHER * among_others;
  const bool dictionary = b.how == Provenance::Dictionary, sound = b.how == Provenance::Sound;
  const bool loanword = (dictionary || sound) && is_loanword(piece.joined, equivalent);
  const bool shared = together * MIN_SHARE_TOGETHER >= std::min(said, with);
  const char* loose_why =
      against ? "the notes saying it are no likelier to say the word"
      : loanword && dictionary && another_source_said(piece.joined, equivalent, said, with)
          ? "the vault writes the loanword for another word"
      : dictionary && !loanword && said > 0 && with > 0 && !used ? "no note uses the two as one"
      : dictionary && b.further && !used_clearly ? "a further sense the notes do not use clearly"
      : b.how == Provenance::Words && said > 0 && !used && with < MIN_TERM_NOTES ? "a phrase of one note"
      : dictionary && !loanword && !vaults_pair(piece, equivalent, said, with) ? "the notes say it otherwise"
      : sound && said > 0 && !shared && !is_near_loanword(piece.joined, equivalent) ? "few notes say both"
                                                                                    : nullptr;
  b.loose = loose_why != nullptr;
  b.loanword = dictionary && loanword;
  b.why = loose_why                             ? loose_why
          : dictionary && loanword              ? "a loanword and its source"
          : said == 0                           ? "no note says the word"
          : sound && !shared                    ? "a long word sounding all but the same"
          : with == 0                           ? "no note says it"
          : b.how == Provenance::Words && !used ? notes_saying(with, "say the phrase")
                                                : notes_saying(together, "say both");
  return together;
}

// A katakana word is the loanword of several English words where they
// sound alike to Japanese ears (ロック: lock, rock; メジャー: major,
// measure): it is the vault's loanword of the one the notes write, not of
// one they write far less (ja-techdocs: rock in 9 notes, lock in 114;
// measure in 31, major in 102). Not another form or spelling of the same
// word (program, programming; flavour, flavor).
bool Bridges::another_source_said(const std::string& joined, const std::vector<std::string>& equivalent,
                                  double said, double with) const {
  constexpr std::size_t MAX_SPELLING_EDITS = 2;
  const bool katakana_first = sound_script(joined) == Script::Katakana;
  const std::string& katakana = katakana_first ? joined : equivalent[0];
  const std::string& source = katakana_first ? equivalent[0] : joined;
  const double source_notes = katakana_first ? with : said;
  const auto same_word = [&](const std::string& other) {
    return strings::starts_with(other, source) || strings::starts_with(source, other) ||
           (other[0] == source[0] && strings::edit_distance(other, source) <= MAX_SPELLING_EDITS);
  };
  for (const DictionaryEntry& e : m_dictionary.of(katakana)) {
    const std::vector<std::string> other = m_analyzer.words(e.equivalent);
    if (other.size() == 1 && !same_word(other[0]) && is_loanword(katakana, other) &&
        in_notes(phrase(other)) > HOMOPHONE_SAID * std::max(1.0, source_notes))
      return true;
  }
  return false;
}

// Another spelling of the word (Dictionary::spellings, kana_spellings) that the vault writes.
void Bridges::add_spellings(const std::string& word, std::vector<Bridge>& out) const {
  constexpr std::size_t MAX_SPELLINGS = 16;
  std::size_t counted = 0;
  for (std::string& form : m_dictionary.spellings(word, m_analyzer)) {
    const std::vector<std::string> words = m_analyzer.words(form);
    if (at_most(words) > 0 && counted++ < MAX_SPELLINGS && in_notes(phrase(words)) > 0)
      out.push_back({std::move(form), Provenance::Okurigana});
  }
  for (std::string& form : kana_spellings(word))
    if (counted++ < MAX_SPELLINGS) out.push_back({std::move(form), Provenance::Kana});
}

std::vector<std::string> Bridges::kana_spellings(const std::string& word) const {
  const std::string key = unicode::katakana_spelling_key(word);
  if (key.empty()) return {};
  // (A key begins with the word's first kana, which is full-size: so do its words' terms.)
  std::size_t first = 0;
  unicode::next_code_point(word, first);
  const std::string kana = word.substr(0, first);
  std::vector<std::pair<double, std::string>> found;
  for (auto t = m_db.allterms_begin(kana); t != m_db.allterms_end(kana); ++t)
    if (*t != word && unicode::katakana_spelling_key(*t) == key) found.emplace_back(t.get_termfreq(), *t);
  most_first(found);
  std::vector<std::string> out;
  for (auto& [notes, term] : found) out.push_back(std::move(term));
  return out;
}

void Bridges::add_in_kana(const std::string& word, std::vector<Bridge>& out) const {
  const auto said = [&](const std::string& w) {
    const std::vector<std::string> words = m_analyzer.words(w);
    return at_most(words) > 0 ? in_notes(phrase(words)) : 0.0;
  };
  for (const Dictionary::InKana& k : m_dictionary.in_kana(word, m_analyzer)) {
    const double notes = said(k.kana);
    if (notes > 0 &&
        std::none_of(k.others.begin(), k.others.end(), [&](const auto& w) { return said(w) > 0; }))
      out.push_back({k.kana, Provenance::Reading, false, static_cast<std::size_t>(notes)});
  }
}

// The words of the vault read as `kana` (けんきゅう, ケンキュウ: 研究; こうせい:
// 構成, 校正), the most used first: the sound typed names each (the query
// builder weighs each by its share of their uses).
void Bridges::add_read_as(const std::string& kana, std::vector<Bridge>& out) const {
  constexpr std::size_t MAX_COUNTED = 8, MAX_READ_AS = 4;
  std::vector<std::pair<double, std::string>> used;
  for (std::string& form : m_dictionary.written(kana))
    if (const double n = at_most(m_analyzer.words(form)); n > 0) used.emplace_back(n, std::move(form));
  // Counted exactly: the forms the most notes may hold.
  most_first(used);
  if (used.size() > MAX_COUNTED) used.resize(MAX_COUNTED);
  for (auto& [n, form] : used) n = in_notes(phrase(m_analyzer.words(form)));
  most_first(used);
  for (std::size_t i = 0; i < used.size() && i < MAX_READ_AS && used[i].first > 0; ++i)
    out.push_back(
        {std::move(used[i].second), Provenance::Reading, false, static_cast<std::size_t>(used[i].first)});
}

// The vault's word for the English side of a pair (E) is the one its notes
// use most. Where they say E in katakana, as its loanword (サービス), more
// often than the Japanese side (J: 取扱; a piece in any of its spellings), the loanword is:
// service is not 取扱 there, though the dictionary gives it as a sense. For a
// Japanese piece, any other Japanese word the dictionary gives E counts so
// too (management: 管理, said 515 times where 取扱 is said 150): the piece
// names E in the vault only if no such word is said more. (For an English
// piece, another word may be another sense: grasp is 把持 where 把握,
// "understand", is said more.) And the vault's English for J is what its
// notes say: where they say another English word the dictionary gives J in
// MIN_LIFT_FURTHER times as many notes as E, J means that word there (支配:
// control in about 200 notes of robotics, rule in 8; 照合: comparison, not
// collation; 簡易: convenience, not simplicity). Of the judged pairs so
// trusted, this turns 6 wrong ones loose and 2 right ones (提供: supplying,
// where providing is said more; 勝者: winner, where Victor, a name, is).
bool Bridges::vaults_pair(const Piece& piece, const std::vector<std::string>& equivalent, double piece_notes,
                          double equivalent_notes) const {
  constexpr std::size_t MAX_COUNTED = 8;
  const bool english_piece = piece.english;
  const std::vector<std::string>& english = english_piece ? piece.words : equivalent;
  const double japanese_notes = english_piece ? equivalent_notes : piece_notes;
  const double english_notes = english_piece ? piece_notes : equivalent_notes;
  if (japanese_notes == 0) return true;  // a word the vault lacks: the dictionary is the way to its notes
  const std::string spelled = fmt::format("{}", fmt::join(english, " ")),
                    sound = fmt::format("{}", fmt::join(english, ""));
  // The dictionary's words for each side (the piece's looked up already).
  const std::vector<DictionaryEntry> of_equivalent =
      m_dictionary.of(fmt::format("{}", fmt::join(equivalent, " ")));
  const std::vector<DictionaryEntry>& of_english = english_piece ? piece.senses : of_equivalent;
  const std::vector<DictionaryEntry>& of_japanese = english_piece ? of_equivalent : piece.senses;
  // Is another word the dictionary gives a side (in Japanese or in English) said in more than `than` notes?
  const auto said_more = [&](const std::vector<DictionaryEntry>& side, bool in_japanese, double than) {
    std::vector<std::pair<double, std::string>> others;  // the most likely first
    for (const DictionaryEntry& e : side) {
      if (e.name || e.equivalent.empty() ||
          (static_cast<unsigned char>(e.equivalent[0]) >= 0x80) != in_japanese)
        continue;
      // (Not E's other senses for an English piece, but its loanword; not E
      // spelled another way: initialisation, initialization.)
      const bool skip = in_japanese
                            ? english_piece && !(sound_script(e.equivalent) == Script::Katakana &&
                                                 sounds_alike(e.equivalent, sound))
                            : strings::edit_distance(unicode::nfkc_casefold(e.equivalent), spelled) <= 1;
      if (const double n = at_most(m_analyzer.words(e.equivalent)); !skip && n > than)
        others.emplace_back(n, e.equivalent);
    }
    most_first(others);
    for (std::size_t i = 0; i < others.size() && i < MAX_COUNTED; ++i)
      if (in_notes(phrase(m_analyzer.words(others[i].second))) > than) return true;
    return false;
  };
  return !said_more(of_english, true, japanese_notes) &&
         (english_notes == 0 || !said_more(of_japanese, false, MIN_LIFT_FURTHER * english_notes));
}

double Bridges::at_most(const std::vector<std::string>& words) const {
  if (words.empty()) return 0;
  if (words.size() == 1)
    return m_db.get_termfreq(words[0]) + m_db.get_termfreq(std::string(schema::TITLE.prefix) + words[0]);
  Xapian::doccount least = m_db.get_termfreq(words[0]);
  for (auto w = words.begin() + 1; w != words.end(); ++w) least = std::min(least, m_db.get_termfreq(*w));
  return least;
}

double Bridges::in_notes(const Xapian::Query& q) const {
  Xapian::Enquire enquire = unweighted_enquire(m_db, q);
  return static_cast<double>(enquire.get_mset(0, 0, m_db.get_doccount()).get_matches_estimated());
}

Xapian::Query Bridges::phrase(const std::vector<std::string>& words, std::string_view prefix) const {
  const std::string title_prefix(schema::TITLE.prefix);
  if (words.empty()) return Xapian::Query();
  if (words.size() == 1 && prefix.empty())
    return Xapian::Query(Xapian::Query::OP_OR, Xapian::Query(words[0]),
                         Xapian::Query(title_prefix + words[0]));
  std::vector<Xapian::Query> terms;
  for (const std::string& w : words) terms.emplace_back(std::string(prefix) + w);
  return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(),
                       static_cast<Xapian::termcount>(terms.size()));
}

// A dictionary's equivalent that ends one the vault states is the broader
// word, the head the stated one narrows (compounds in both languages end
// with their head): list comprehension, stated リスト内包表記, is not every
// 内包表記 (dict and set comprehensions too). Not so a word the stated one
// starts with: mitigation is 緩和 as much as 緩和策 (mitigation measures).
void Bridges::mark_broader(const std::vector<std::vector<std::string>>& equivalents,
                           std::vector<Bridge>& bridges) {
  const auto head_of = [](const std::vector<std::string>& part, const std::vector<std::string>& whole) {
    return !part.empty() && part.size() < whole.size() &&
           std::equal(part.rbegin(), part.rend(), whole.rbegin());
  };
  for (std::size_t i = 0; i < bridges.size(); ++i) {
    if (bridges[i].loose || bridges[i].how != Provenance::Dictionary) continue;
    for (std::size_t j = 0; j < bridges.size(); ++j)
      if (!bridges[j].loose && is_stated(bridges[j].how) && head_of(equivalents[i], equivalents[j])) {
        bridges[i].loose = true;
        bridges[i].why = fmt::format("a note names it more closely: {}", bridges[j].equivalent);
        break;
      }
  }
}

// A gloss one note states is that note's, not the vault's, where the
// dictionary knows the term and says otherwise (標準ライブラリ (std):
// standard library; 構造体 (Real), a type's name). (A Japanese term's: the
// English in a parenthesis is often a name or code, while an English word
// glossed in Japanese may have a sense of the vault's own: 退避(eviction)
// where the dictionary says 立ち退き.) And a gloss no dictionary agrees with,
// not a loanword, is a few notes' where the notes say one side far more
// often than the other and than the gloss is stated: a common word glossed
// in passing (文字列型 (string): string in 1,094 notes, 文字列型 in 42; 結果
// (prelude) in 2 of the 1,080 notes saying 結果, prelude in 24).
void Bridges::mark_lone_glosses(Piece& piece, const std::vector<std::vector<std::string>>& equivalents,
                                std::vector<Bridge>& bridges) const {
  constexpr double MIN_COMMON = 20, COMMONER = 10;
  std::vector<std::string> senses;  // the dictionary's equivalents of the piece, folded
  for (const DictionaryEntry& e : piece.senses) senses.push_back(unicode::nfkc_casefold(e.equivalent));
  for (std::size_t i = 0; i < bridges.size(); ++i) {
    Bridge& b = bridges[i];
    if (b.how != Provenance::Gloss || equivalents[i].empty()) continue;
    if (std::find(senses.begin(), senses.end(), unicode::nfkc_casefold(b.equivalent)) != senses.end())
      continue;
    if (!piece.english && !senses.empty()) {
      if (b.stating <= 1) {
        b.loose = true;
        b.why = "one note's; the dictionary says otherwise";
      }
      continue;
    }
    if (is_loanword(piece.joined, equivalents[i])) continue;
    const double with = in_notes(phrase(equivalents[i])), said = notes_of(piece);
    const double more = std::max(with, said), fewer = std::min(with, said);
    // (English words said more often are a term, not a common word: main
    // thread, 主スレッド. Not so a Japanese phrase: 下記参照 (Wnn).)
    const std::vector<std::string>& said_more = with > said ? equivalents[i] : piece.words;
    const bool term = said_more.size() > 1 && std::all_of(said_more.begin(), said_more.end(), latin_word);
    if (!term && more >= MIN_COMMON &&
        more >= COMMONER * std::max({1.0, fewer, static_cast<double>(b.stating)})) {
      b.loose = true;
      b.why = "a common word glossed in passing";
    }
  }
}

// The last word of an English phrase as the vault inflects it: "sequence
// parallel" is written "sequence parallelism" (a phrase takes no stems).
// The vault's longer words of the same stem, the most used first (not
// variable1 or variabler, first in the index's order).
std::vector<std::string> Bridges::inflected(const std::string& word) const {
  constexpr std::size_t MIN_LETTERS = 4, MAX_SUFFIX = 4, MAX_FORMS = 3, MAX_READ = 256;
  if (!latin_word(word) || word.size() < MIN_LETTERS) return {};
  const Xapian::Stem stem("english");
  const std::string base = stem(word);
  std::vector<std::pair<double, std::string>> forms;
  std::size_t read = 0;
  for (auto t = m_db.allterms_begin(word); t != m_db.allterms_end(word) && read++ < MAX_READ; ++t) {
    std::string form = *t;
    if (form.size() > word.size() && form.size() <= word.size() + MAX_SUFFIX &&
        std::all_of(form.begin(), form.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
        stem(form) == base)
      forms.emplace_back(t.get_termfreq(), std::move(form));
  }
  most_first(forms);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < forms.size() && i < MAX_FORMS; ++i) out.push_back(std::move(forms[i].second));
  return out;
}

void Bridges::add_composed(const std::vector<std::string>& words, std::vector<Bridge>& out) const {
  constexpr std::size_t MAX_WORDS = 6;
  if (words.size() > MAX_WORDS) return;
  // A word said twice is no compound (一行一行, "line by line"; 時時, 時々 written out).
  if (std::adjacent_find(words.begin(), words.end()) != words.end()) return;
  std::vector<std::pair<double, std::string>> phrases = composed(words, false);
  // The parts' other senses only where no phrase of their first senses is
  // the vault's (状態推定: state estimation, not state presumption): tried
  // for every compound, they paired 時間 with class and 初期化 with formatting.
  const auto said = [&](const std::pair<double, std::string>& p) {
    const std::vector<std::string> w = m_analyzer.words(p.second);
    return p.first > 0 && (in_notes(phrase(w)) > 0 || in_notes(phrase(w, schema::TITLE.prefix)) > 0);
  };
  if (std::none_of(phrases.begin(), phrases.end(), said)) phrases = composed(words, true);
  for (auto& [n, phrase] : phrases) out.push_back({std::move(phrase), Provenance::Words});
}

std::vector<std::pair<double, std::string>> Bridges::composed(const std::vector<std::string>& words,
                                                              bool other_senses) const {
  // A compound or phrase no table names, part by part: 継続的バッチング →
  // 継続的 + バッチング → "continuous batching"; layer normalization →
  // レイヤー正規化. The longest run of words with equivalents is a part; a
  // Latin word without any stays itself (GPU クラスタ → GPU cluster); the
  // parts' first few equivalents (with other_senses, a dictionary's other
  // senses last) are combined, adjacent and in order, those whose words the
  // vault has most first (経路計画: path planning, though the dictionary
  // gives 経路 as course, route, path, channel).
  constexpr std::size_t LONGEST_PART = 4, PER_PART = 6, MAX_TRIED = 64, MAX_COMBINATIONS = 16;
  std::vector<std::vector<Bridge>> parts;
  bool any = false;
  for (std::size_t i = 0; i < words.size();) {
    std::vector<Bridge> alts;
    std::size_t j = std::min(words.size(), i + LONGEST_PART);
    for (; j > i; --j) {
      if (i == 0 && j == words.size()) continue;  // the whole: of() tried it
      const auto first = words.begin() + static_cast<std::ptrdiff_t>(i),
                 last = words.begin() + static_cast<std::ptrdiff_t>(j);
      const std::string key = fmt::format("{}", fmt::join(first, last, " "));
      alts = stated(key);
      add_sounds(fmt::format("{}", fmt::join(first, last, "")), alts);
      if (other_senses)
        for (std::string& g : m_dictionary.other_senses(key))
          if (std::none_of(alts.begin(), alts.end(), [&](const Bridge& b) { return b.equivalent == g; }) &&
              at_most(m_analyzer.words(g)) > 0)
            alts.push_back({std::move(g), Provenance::Dictionary});
      if (!alts.empty()) break;
    }
    if (alts.empty()) {
      if (!latin_word(words[i])) return {};
      alts.push_back({words[i], Provenance::Words});  // the word itself
      j = i + 1;
    } else {
      any = true;
    }
    if (alts.size() > PER_PART) alts.resize(PER_PART);
    parts.push_back(std::move(alts));
    i = j;
  }
  if (!any) return {};
  std::vector<Bridge>& last = parts.back();
  for (std::size_t i = 0, n = last.size(); i < n; ++i)
    for (std::string& form : inflected(last[i].equivalent)) last.push_back({std::move(form), last[i].how});
  std::vector<std::pair<double, std::string>> phrases;  // at most as many notes as say it, the phrase
  std::map<std::string, double> notes_with;             // each word's at_most, asked once
  const auto at_most_of = [&](const std::string& phrase) {
    double least = std::numeric_limits<double>::max();
    for (const std::string& w : m_analyzer.words(phrase)) {
      const auto [known, added] = notes_with.try_emplace(w, 0);
      if (added) known->second = at_most({w});
      least = std::min(least, known->second);
    }
    return least == std::numeric_limits<double>::max() ? 0 : least;
  };
  std::vector<std::size_t> at(parts.size(), 0);
  for (std::size_t n = 0; n < MAX_TRIED; ++n) {
    std::string phrase;
    bool latin = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string& e = parts[i][at[i]].equivalent;
      const bool is_latin = !e.empty() && static_cast<unsigned char>(e[0]) < 0x80;
      if (!phrase.empty() && latin && is_latin) phrase += ' ';
      phrase += e;
      latin = is_latin;
    }
    phrases.emplace_back(at_most_of(phrase), std::move(phrase));
    // The next combination (the last part's choices turn fastest).
    std::size_t i = parts.size();
    while (i > 0 && ++at[i - 1] == parts[i - 1].size()) at[--i] = 0;
    if (i == 0) break;
  }
  most_first(phrases);
  if (phrases.size() > MAX_COMBINATIONS) phrases.resize(MAX_COMBINATIONS);
  return phrases;
}

std::vector<std::string> Bridges::completions_of(const std::string& word) const {
  // A word a line break cut (パーミッ|ション in one note of 66) is no word of
  // the vault either: the notes with it whole must be at least a tenth of
  // those with the longer words.
  constexpr std::size_t MAX_COMPLETIONS = 64, MIN_SHARE = 10;
  if (sound_script(word) != Script::Katakana) return {};
  std::vector<std::string> completions;
  Xapian::doccount longer = 0;
  for (auto t = m_db.allterms_begin(word);
       t != m_db.allterms_end(word) && completions.size() < MAX_COMPLETIONS; ++t)
    if (*t != word && sound_script(*t) == Script::Katakana) {
      completions.push_back(*t);
      longer += t.get_termfreq();
    }
  if (MIN_SHARE * m_db.get_termfreq(word) >= longer) return {};
  return completions;
}

bool Bridges::add_sounds(const std::string& word, std::vector<Bridge>& out) const {
  const Script script = sound_script(word);
  if (script == Script::None) return false;
  const Script other = script == Script::Katakana ? Script::Latin : Script::Katakana;
  const std::string px(schema::META_SOUND);
  // The words of the other script under `from`'s key that sound like it, the nearest ones.
  auto add_key = [&](const std::string& from) {
    const std::string key = sound_key(from);
    if (key.empty()) return;
    std::vector<std::pair<std::size_t, std::string>> alike;
    for (std::string& w : strings::split_nonempty(m_db.get_metadata(px + key), '\n')) {
      if (sound_script(w) != other) continue;
      const std::string& kata = script == Script::Katakana ? from : w;
      const std::string& latin = script == Script::Katakana ? w : from;
      if (sounds_alike(kata, latin)) alike.emplace_back(sound_distance(kata, latin), std::move(w));
    }
    if (alike.empty()) return;
    const std::size_t nearest = std::min_element(alike.begin(), alike.end())->first;
    for (auto& [d, w] : alike)
      if (d == nearest) out.push_back({std::move(w), Provenance::Sound});
  };
  // A partial katakana word (プリフィ of プリフィル) is part of the words it
  // begins: they bridge, not its own sound (and only with --loose: of.).
  if (const std::vector<std::string> completions = completions_of(word); !completions.empty()) {
    for (const auto& c : completions) add_key(c);
    return true;
  }
  add_key(word);
  // English plurals: "stragglers" sounds like ストラグラー without its s.
  if (script == Script::Latin && strings::ends_with(word, "s")) add_key(word.substr(0, word.size() - 1));
  return false;
}

}  // namespace sagasu
