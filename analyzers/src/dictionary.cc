#include "sagasu/dictionary.h"

#include <fmt/format.h>
#include <unicode/unistr.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "sagasu/analyzer.h"
#include "sagasu/error.h"
#include "sagasu/generation_file.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/sounds.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr std::size_t MAX_GLOSS_WORDS = 4;
constexpr int DICTIONARY_CACHE_VERSION = 15;  // raise when parse_dictionaries keeps other pairs
// The keys of a reading's lines (a reading's written forms) and of a string
// of kanji's (the words written with them and kana), apart from words' keys.
constexpr std::string_view READING_MARK = "\x01", KANJI_MARK = "\x02";

// The kanji of a word, in order (取り扱い: 取扱), and the kana around them:
// before the first, after each (取り扱い: "", "り", "い").
struct Kanji {
  std::string kanji;
  std::vector<std::string> kana{""};
  explicit Kanji(std::string_view word) {
    for (std::size_t i = 0; i < word.size();) {
      const std::size_t at = i;
      const char32_t c = unicode::next_code_point(word, i);
      if (unicode::is_han(c)) {
        kanji.append(word.substr(at, i - at));
        kana.emplace_back();
      } else {
        kana.back().append(word.substr(at, i - at));
      }
    }
  }
  // Written with some of the other's kanji in kana: its kanji, in order, among
  // the other's or the other's among its own (時どき: 時々, 時時).
  bool within(const Kanji& o) const {
    const std::u32string a = unicode::code_points(kanji), b = unicode::code_points(o.kanji);
    const std::u32string& shorter = a.size() < b.size() ? a : b;
    const std::u32string& longer = a.size() < b.size() ? b : a;
    std::size_t j = 0;
    for (const char32_t c : longer)
      if (j < shorter.size() && shorter[j] == c) ++j;
    return !shorter.empty() && j == shorter.size();
  }
  // Written with fewer kana, as okurigana are left out (読込: 読み込み, 取扱い:
  // 取り扱い): the same kanji, and each run of kana the start of the other's.
  bool shortens(const Kanji& o) const {
    if (kanji != o.kanji) return false;
    for (std::size_t i = 0; i < kana.size(); ++i)
      if (!strings::starts_with(o.kana[i], kana[i])) return false;
    return true;
  }
};

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A headword written in kanji or katakana, two characters or more (a kana
// reading alone names too many things); with_okurigana, one begun with a
// kanji and written with hiragana too (呼び出し, 戻り値) instead.
bool is_headword(std::string_view w, bool with_okurigana = false) {
  if (unicode::length(w) < 2) return false;
  bool hiragana = false;
  for (std::size_t i = 0; i < w.size();) {
    const bool first = i == 0;
    const char32_t c = unicode::next_code_point(w, i);
    if (unicode::is_hiragana(c) && !first)
      hiragana = true;
    else if (!unicode::is_katakana(c) && !unicode::is_han(c) && c != U'・')
      return false;
  }
  return hiragana == with_okurigana;
}

// An English gloss a bridge can be: letters, blanks, hyphens and
// apostrophes, one to four words, lower-cased; "to make redundant" without its "to".
std::string english_gloss(std::string_view g) {
  g = strings::trim(g);
  if (strings::starts_with(g, "to ")) g.remove_prefix(3);
  if (g.size() < 3 || !is_letter(g.front())) return "";
  std::string out;
  std::size_t words = 1;
  for (char c : g) {
    if (c == ' ' || c == '-') ++words;
    if (!is_letter(c) && c != ' ' && c != '-' && c != '\'') return "";
    out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return words <= MAX_GLOSS_WORDS ? out : "";
}

// The word a katakana headword was borrowed from, when its gloss qualifies
// it (トランジスタ: "electrical transistor" is transistor); otherwise the
// gloss itself: borrowed whole (シンボリックリンク: "symbolic link") or
// clipped, when the headword names the whole by its first word (タイワンリス:
// "taiwanese squirrel", ポーセラーツ: "porcelain art"). The last word is the
// one when it sounds alike from its first consonant on, nearer than the
// whole gloss and at most an edit in four letters apart (not ブルーリボン:
// "blue ribbon").
std::string borrowed_word(const std::string& headword, const std::string& gloss) {
  constexpr std::size_t LETTERS_PER_EDIT = 4;
  const std::size_t blank = gloss.rfind(' ');
  if (blank == std::string::npos || sound_script(headword) != Script::Katakana) return gloss;
  std::string whole = gloss;
  whole.erase(std::remove(whole.begin(), whole.end(), ' '), whole.end());
  const std::string last = gloss.substr(blank + 1);
  const std::string key = sound_key(headword), last_key = sound_key(last);
  const std::size_t d = sound_distance(headword, last);
  const bool borrowed = !key.empty() && !last_key.empty() && key[0] == last_key[0] &&
                        d < sound_distance(headword, whole) && d * LETTERS_PER_EDIT <= last.size() &&
                        sounds_alike(headword, last);
  return borrowed ? last : gloss;
}

struct Entry {
  std::vector<std::string> headwords;
  // Nouns written with okurigana (戻り値, 隠しファイル), paired with the
  // computing senses' glosses only: their other senses are mostly everyday
  // words' (呼び出し: summons, 組み込み: cut-in), wrong in a vault two times in five.
  std::vector<std::string> nouns_with_okurigana;
  std::vector<std::string> readings;   // in kana: "きょうかがくしゅう"
  std::vector<std::string> glosses;    // the first sense's, and those marked (comp)
  std::vector<std::string> computing;  // those of senses marked (comp)
  std::string first_gloss;             // the first sense's first
  // The other senses' glosses (推定: estimation, after presumption and
  // assumption): only for a compound bridged word by word (Dictionary::other_senses).
  std::vector<std::string> other_senses;
  bool person = false;  // ENAMDICT: a surname or a given name
  // The entry's first part of speech is an adverb's or a conjunction's (時々:
  // sometimes, (adv,n)): no topic a note is about, in either language.
  bool function_word = false;
};

// "強化学習;強化學習 [きょうかがくしゅう] /(n) (comp) reinforcement learning/EntL…/"
Entry parse_line(std::string_view line) {
  Entry e;
  const std::size_t slash = line.find(" /");
  if (slash == std::string_view::npos) return e;
  std::string_view head = line.substr(0, slash);
  if (const std::size_t reading = head.find(" ["); reading != std::string_view::npos) {
    const std::string_view kana = head.substr(reading + 2, head.rfind(']') - reading - 2);
    for (std::string r : strings::split(kana, ';')) {
      if (const std::size_t tag = r.find('('); tag != std::string::npos)
        r.resize(tag);  // きょうかがくしゅう(P)
      if (!r.empty()) e.readings.push_back(std::move(r));
    }
    head = head.substr(0, reading);
  }
  for (std::string w : strings::split(head, ';')) {
    if (const std::size_t tag = w.find('('); tag != std::string::npos) w.resize(tag);  // 強化学習(P)
    if (is_headword(w))
      e.headwords.push_back(std::move(w));
    else if (is_headword(w, true))
      e.nouns_with_okurigana.push_back(std::move(w));
  }
  if (e.headwords.empty() && e.nouns_with_okurigana.empty()) return e;
  int sense = 1;
  bool noun = false;  // the first sense is a noun's (not a verb's: 書く, to write)
  bool first = true;  // the first field: the part of speech, the first gloss
  bool pos_seen = false;         // its first tag read
  bool computing_sense = false;  // the sense read is marked (comp)
  for (std::string_view field : strings::split(line.substr(slash + 2), '/')) {
    field = strings::trim(field);
    if (field.empty() || strings::starts_with(field, "EntL") || field == "(P)") continue;
    // Leading tags: (n,vs) (2) (comp) {comp} …; a sense's tags stand for
    // each of its glosses ("(n) (comp) TFT/Thin Film Transistor").
    while (!field.empty() && (field.front() == '(' || field.front() == '{')) {
      const std::size_t close = field.find(field.front() == '(' ? ')' : '}');
      if (close == std::string_view::npos) break;
      const std::string_view tag = field.substr(1, close - 1);
      if (!tag.empty() && tag.find_first_not_of("0123456789") == std::string_view::npos) {
        sense = std::atoi(std::string(tag).c_str());
        computing_sense = false;
      }
      const std::vector<std::string> tags = strings::split(std::string(tag), ',');
      if (first && !tags.empty() && !pos_seen &&
          tag.find_first_not_of("0123456789") != std::string_view::npos) {
        pos_seen = true;
        e.function_word = tags.front() == "adv" || tags.front() == "conj";
      }
      for (const auto& t : tags) {
        if (t == "comp") computing_sense = true;
        if (first && (t == "n" || t == "adj-no" || t == "adj-f")) noun = true;
        if (t == "s" || t == "g" || t == "m" || t == "f") e.person = true;
      }
      field = strings::trim(field.substr(close + 1));
    }
    const bool first_field = std::exchange(first, false);
    bool comp = computing_sense;
    // Notes after the gloss: "normalization (e.g. in floating-point …)",
    // "parallel (electronics, computing, etc.)" (a computing sense, as (comp)
    // says), "queer (homosexual) (eng:)".
    while (field.size() > 2 && field.back() == ')') {
      const std::size_t open = field.rfind(" (");
      if (open == std::string_view::npos) break;
      comp = comp || strings::contains(field.substr(open), "comput");
      field = strings::trim(field.substr(0, open));
    }
    std::string g = english_gloss(field);
    if (sense != 1 && !comp) {
      if (!g.empty()) e.other_senses.push_back(std::move(g));
      continue;
    }
    if (first_field) e.first_gloss = g;
    if (!g.empty()) {
      if (comp) e.computing.push_back(g);
      e.glosses.push_back(std::move(g));
    }
  }
  if (!noun) e.nouns_with_okurigana.clear();
  return e;
}

// An English gloss's words as the analyzer has them (lower-cased, parted at
// blanks and hyphens), without running it over every gloss.
std::vector<std::string> english_words(const std::string& g) {
  std::vector<std::string> words;
  for (const auto& part : strings::split(g, ' '))
    for (auto& w : strings::split_nonempty(part, '-')) words.push_back(std::move(w));
  return words;
}

// The file's text, converted from EUC-JP; "" when it cannot be read.
std::string read_euc_jp(const std::string& file) {
  std::string raw, text;
  try {
    raw = read_regular_file(file, file);
  } catch (const Error&) {  // "" when it cannot be read
  }
  if (!raw.empty())
    icu::UnicodeString(raw.data(), static_cast<int32_t>(raw.size()), "EUC-JP").toUTF8String(text);
  return text;
}

// A word written with kanji (two characters or more) and its reading, as
// lines of the lookup table both ways: the word's key, its reading (in
// katakana), r; READING_MARK and the reading, the word, k; the word's key,
// the word it inflects (読み込ん: 読み込む), l; and for a word of two kanji or
// more written with kana too, KANJI_MARK and its kanji, the word, s (取扱:
// 取扱い, 取り扱い).
class ReadingLines {
 public:
  ReadingLines(Analyzer& analyzer, std::vector<std::string>& lines) : m_analyzer(analyzer), m_lines(lines) {}
  void add(const std::string& written, const std::string& reading, const std::string& lemma) {
    if (unicode::length(written) < 2 || !unicode::any_of(written, unicode::is_han)) return;
    const std::string kana = unicode::to_katakana(reading);
    if (!unicode::all_of(kana, unicode::is_katakana)) return;  // (an empty reading too)
    auto [at, added] = m_keys.try_emplace(written);
    if (added) at->second = m_analyzer.key(written);
    const std::string& key = at->second;
    if (key.empty()) return;
    m_lines.push_back(fmt::format("{}\t{}\tr\n", key, kana));
    m_lines.push_back(fmt::format("{}{}\t{}\tk\n", READING_MARK, kana, written));
    if (!lemma.empty() && lemma != "*" && lemma != written)
      m_lines.push_back(fmt::format("{}\t{}\tl\n", key, lemma));
    // The kanji as a query's folded word has them (時々: 時時).
    std::string folded = key;
    folded.erase(std::remove(folded.begin(), folded.end(), ' '), folded.end());
    if (const std::string kanji = Kanji(folded).kanji; unicode::length(kanji) >= 2 && kanji != folded)
      m_lines.push_back(fmt::format("{}{}\t{}\ts\n", KANJI_MARK, kanji, written));
  }

 private:
  Analyzer& m_analyzer;
  std::vector<std::string>& m_lines;                    // (parse_dictionaries drops repeated lines)
  std::unordered_map<std::string, std::string> m_keys;  // each word's key, computed once
};

// IPAdic's CSV files in folder, in name order ("": none).
std::vector<fs::path> csv_files(const std::string& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!folder.empty())
    for (const auto& f : fs::directory_iterator(folder, ec))
      if (f.path().extension() == ".csv") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  return files;
}

// IPAdic's words and readings. A CSV line is
// "取扱い,832,832,7127,動詞,自立,*,*,五段・ワ行促音便,連用形,取扱う,トリアツカイ,トリアツカイ":
// the word as written, its form in the tenth field, the word it inflects in
// the eleventh, its reading in the twelfth. Not the classical forms of an
// adjective, which notes write as the noun and a particle (黄色から is
// 黄色 + から, not 黄色い's 未然ヌ接続; 黄色し, 黄色き, 黄色う likewise).
void add_readings(const std::string& folder, ReadingLines& out) {
  static const std::set<std::string, std::less<>> CLASSICAL = {"文語基本形", "未然ヌ接続", "体言接続",
                                                               "連用ゴザイ接続"};
  for (const fs::path& file : csv_files(folder))
    for (std::string_view line : strings::split(read_euc_jp(file.string()), '\n')) {
      if (line.find('"') != std::string_view::npos) continue;  // a quoted comma: no word of ours
      const std::vector<std::string> f = strings::split(line, ',');
      if (f.size() >= 12 && !(f[4] == "形容詞" && CLASSICAL.count(f[9]))) out.add(f[0], f[11], f[10]);
    }
}

// The dictionaries' lookup table, sorted (below); it does not depend on the
// vault, so it is computed once and cached.
std::string parse_dictionaries(const std::string& folder, const std::string& reading_folder) {
  Analyzer analyzer;
  // The lookup table, a line per bridge: a word's key (Analyzer::key; an
  // English one is its lower-cased words, as the analyzer cuts English), the
  // equivalent, and what it is: w (a word), n (a person's name); both ways;
  // and the readings (add_readings).
  std::vector<std::string> lines;
  ReadingLines readings(analyzer, lines);
  add_readings(reading_folder, readings);
  const std::string words_text = folder.empty() ? "" : read_euc_jp(folder + "/edict");
  // A headword and its glosses, as lines both ways: a name's (n), the
  // first sense's first gloss or a computing sense's (w), another (v), one
  // of another sense (o).
  auto emit_pairs = [&](const Entry& e, bool names, const std::string& h,
                        const std::vector<std::string>& glosses, bool other_senses = false) {
    const std::string key = analyzer.key(h);
    for (const auto& gloss : glosses) {
      const std::string g = borrowed_word(h, gloss);
      std::string gkey;
      for (const auto& w : english_words(g)) gkey += (gkey.empty() ? "" : " ") + w;
      if (key.empty() || gkey.empty() || key == gkey) continue;
      const bool main = gloss == e.first_gloss || std::count(e.computing.begin(), e.computing.end(), gloss);
      const char flag = names ? 'n' : other_senses ? 'o' : main ? 'w' : 'v';
      lines.push_back(fmt::format("{}\t{}\t{}\n", key, g, flag));
      lines.push_back(fmt::format("{}\t{}\t{}\n", gkey, h, flag));
    }
  };
  auto emit = [&](const Entry& e, bool names) {
    for (const auto& h : e.headwords) emit_pairs(e, names, h, e.glosses);
    if (!names)
      for (const auto& h : e.headwords) emit_pairs(e, false, h, e.other_senses, true);
    for (const auto& h : e.nouns_with_okurigana) emit_pairs(e, names, h, e.computing);
  };
  std::unordered_set<std::string> english, headwords;
  for (std::string_view line : strings::split(words_text, '\n')) {
    const Entry e = parse_line(line);
    // EDICT's readings too (文字列: もじれつ), each of every headword of the entry.
    for (const auto& h : e.headwords)
      for (const auto& r : e.readings) readings.add(h, r, "");
    if ((e.headwords.empty() && e.nouns_with_okurigana.empty()) || e.glosses.empty()) continue;
    for (const auto& g : e.glosses) english.insert(g);
    headwords.insert(e.headwords.begin(), e.headwords.end());
    if (!e.function_word) emit(e, false);
  }
  // ENAMDICT: persons' names (黒橋 = Kurohashi), not those that are also
  // English words (a name read "Hang" is not the word hang) or shorter than
  // four letters, nor a name written as a word of the language (中村 is a
  // name, but 東 is a word first).
  const std::string names_text = words_text.empty() ? "" : read_euc_jp(folder + "/enamdict");
  for (std::string_view line : strings::split(names_text, '\n')) {
    Entry e = parse_line(line);
    if (!e.person || e.headwords.empty()) continue;
    std::vector<std::string> kept;
    for (auto& h : e.headwords)
      if (!headwords.count(h)) kept.push_back(std::move(h));
    e.headwords = std::move(kept);
    std::vector<std::string> names;
    for (auto& g : e.glosses)
      if (g.size() >= 4 && g.find(' ') == std::string::npos && !english.count(g))
        names.push_back(std::move(g));
    e.glosses = std::move(names);
    if (!e.headwords.empty()) emit(e, true);
  }
  if (lines.empty()) return "";
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

// The cache of parse_dictionaries for these dictionary files (their paths,
// sizes and times, and the schema: the analyzer's words), below
// $XDG_CACHE_HOME or ~/.cache; "" without either.
std::string cache_file(const std::string& folder, const std::string& reading_folder) {
  std::string id = fmt::format("sagasu {} {}", schema::SCHEMA_VERSION, DICTIONARY_CACHE_VERSION);
  // The files there are: the indexer that makes the cache and the searcher
  // that maps it name the same one whichever of the dictionaries is installed.
  std::vector<fs::path> files;
  std::error_code ec;
  if (!folder.empty())
    for (const char* name : {"edict", "enamdict"})
      if (fs::exists(fs::path(folder) / name, ec)) files.push_back(fs::path(folder) / name);
  for (fs::path& f : csv_files(reading_folder)) files.push_back(std::move(f));
  for (const fs::path& f : files) {
    const auto size = fs::file_size(f, ec);
    const auto time = fs::last_write_time(f, ec);
    id += fmt::format(" {} {} {}", f.string(), ec ? 0 : size, ec ? 0 : time.time_since_epoch().count());
  }
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path base = xdg && *xdg ? fs::path(xdg) : home && *home ? fs::path(home) / ".cache" : fs::path();
  if (base.empty()) return "";
  return (base / "sagasu" / fmt::format("dictionary-{:016x}", XXH64(id.data(), id.size(), 0))).string();
}

// Parses the dictionaries of folder into their cache (when it can be
// written), and returns the table.
std::string parse_into_cache(const std::string& folder, const std::string& reading_folder,
                             const std::string& cache) {
  std::string text = parse_dictionaries(folder, reading_folder);
  if (!cache.empty() && !text.empty()) {
    // Written whole and renamed: a reader never sees half a cache. A cache
    // that cannot be written costs the next run the parse, nothing else.
    std::error_code ec;
    fs::create_directories(fs::path(cache).parent_path(), ec);
    const std::string tmp = fmt::format("{}.{}.tmp", cache, ::getpid());
    {
      std::ofstream out(tmp, std::ios::binary);
      out << text;
      if (!out) ec = std::make_error_code(std::errc::io_error);
    }
    if (!ec) fs::rename(tmp, cache, ec);
    if (ec) fs::remove(tmp, ec);
  }
  return text;
}

}  // namespace

std::string dictionary_folder() {
  const char* e = std::getenv("SAGASU_EDICT");
  return e ? std::string(e) : std::string("/usr/share/edict");
}

std::string reading_folder() {
  const char* e = std::getenv("SAGASU_IPADIC");
  return e ? std::string(e) : std::string("/usr/share/mecab/dic/ipadic");
}

Dictionary::Dictionary(const std::string& folder, bool parse, const std::string& readings) {
  if (folder.empty() && readings.empty()) return;
  const std::string cache = cache_file(folder, readings);
  // Parsed once, then mapped from the cache (kept here when it cannot be written).
  if (parse && (cache.empty() || !fs::exists(cache))) m_text = parse_into_cache(folder, readings, cache);
  if (!cache.empty() && (m_map = generation_file::Mapped::open(cache))) m_text.clear();
}

Dictionary::~Dictionary() = default;

const Dictionary& Dictionary::system() {
  static const Dictionary dictionary(dictionary_folder(), false, reading_folder());
  return dictionary;
}

std::string Dictionary::prepare() {
  const std::string folder = dictionary_folder(), readings = reading_folder();
  std::error_code ec;
  const std::string edict = folder.empty() ? "" : (fs::path(folder) / "edict").string();
  const bool has_edict = !edict.empty() && fs::exists(edict, ec);
  const bool has_readings = !readings.empty() && fs::is_directory(readings, ec);
  if (!has_edict && !has_readings) return "";  // not installed: nothing to say (they are optional)
  const std::string name = has_edict ? edict : readings;
  const std::string cache = cache_file(folder, readings);
  if (cache.empty()) return fmt::format("{}: not used: no cache folder (set XDG_CACHE_HOME or HOME)", name);
  if (fs::exists(cache, ec)) {
    if (const RegularFile file(cache); !file) return fmt::format("{}: not used: {}", cache, file.error());
    return "";
  }
  if (has_edict)
    if (const RegularFile file(edict); !file)
      return fmt::format("{}: cannot be read: {}", edict, file.error());
  if (parse_into_cache(folder, readings, cache).empty())
    return has_edict ? fmt::format("{}: no entry in EDICT's format (EUC-JP)", edict)
                     : fmt::format("{}: no entry in IPAdic's format (CSV, EUC-JP)", readings);
  if (!fs::exists(cache, ec))
    return fmt::format("{}: cannot be written: the dictionaries are not used", cache);
  return "";
}

std::string_view Dictionary::table() const {
  return m_map ? std::string_view(reinterpret_cast<const char*>(m_map->data()), m_map->size())
               : std::string_view(m_text);
}

std::vector<std::array<std::string, 2>> Dictionary::lines(std::string_view key) const {
  std::vector<std::array<std::string, 2>> out;
  const std::string_view t = table();
  if (key.empty() || t.empty() || key.find_first_of("\t\n") != std::string_view::npos) return out;
  // Binary search over the sorted lines for the first whose key is not below `key`.
  auto line_at = [&](std::size_t pos) { return pos == 0 ? 0 : t.rfind('\n', pos - 1) + 1; };  // npos + 1 = 0
  auto key_of = [&](std::size_t begin) {
    const std::size_t tab = t.find('\t', begin);
    return t.substr(begin, (tab == std::string_view::npos ? t.size() : tab) - begin);
  };
  std::size_t lo = 0, hi = t.size();
  while (lo < hi) {
    const std::size_t mid = line_at(lo + (hi - lo) / 2);
    const std::size_t next = std::min(t.find('\n', mid), t.size()) + 1;
    if (key_of(mid) < key) {
      lo = next;
    } else {
      if (mid <= lo) {
        hi = lo;
        break;
      }
      hi = mid;
    }
  }
  for (std::size_t at = lo; at < t.size();) {
    const std::size_t eol = std::min(t.find('\n', at), t.size());
    const std::string_view line = t.substr(at, eol - at);
    at = eol + 1;
    std::vector<std::string> f = strings::split(line, '\t');
    if (f.size() != 3 || f[0] != key) break;
    out.push_back({std::move(f[1]), std::move(f[2])});
  }
  return out;
}

std::vector<DictionaryEntry> Dictionary::of(std::string_view key) const {
  std::vector<DictionaryEntry> out;
  for (auto& line : lines(key)) {
    std::string& value = line[0];
    const std::string& flag = line[1];
    if (flag != "w" && flag != "v" && flag != "n") continue;
    // A pair of two headwords' senses (v and w lines) is main when one says so.
    const auto same =
        std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.equivalent == value; });
    if (same != out.end() && !same->name && flag != "n")
      same->main = same->main || flag == "w";
    else
      out.push_back({std::move(value), flag == "n", flag != "v"});
  }
  return out;
}

std::vector<std::string> Dictionary::flagged(std::string_view key, std::string_view flag) const {
  std::vector<std::string> out;
  for (auto& [value, f] : lines(key))
    if (f == flag) out.push_back(std::move(value));
  return out;
}

std::vector<std::string> Dictionary::other_senses(std::string_view key) const {
  return flagged(key, "o");
}

std::vector<std::string> Dictionary::readings(std::string_view key) const {
  return flagged(key, "r");
}

std::vector<std::string> Dictionary::written(std::string_view reading) const {
  if (reading.empty()) return {};
  return flagged(fmt::format("{}{}", READING_MARK, unicode::to_katakana(reading)), "k");
}

// The same kanji in the same order and the same reading where IPAdic knows
// both, okurigana apart (取り扱い = 取扱い = 取扱; 上手い is not 上手, read
// じょうず), and the forms of the words they inflect (取り扱う, 取り扱っ);
// where it knows one, the one with fewer kana leaves out the other's (読込 =
// 読み込み, 読み込む); where it knows neither, none.
std::vector<Dictionary::InKana> Dictionary::in_kana(std::string_view word, Analyzer& analyzer) const {
  constexpr std::size_t MIN_KANA = 4;
  std::vector<InKana> out;
  const auto han_or_kana = [](char32_t c) { return unicode::is_han(c) || unicode::is_hiragana(c); };
  if (!unicode::any_of(word, unicode::is_han) || !unicode::all_of(word, han_or_kana)) return out;
  // (Kanji with an iteration mark written out: 時々 is 時時.)
  const auto kanji_of = [](std::string_view w) {
    std::string expanded;
    return Kanji(unicode::expand_iteration_marks(w, expanded) ? std::string_view(expanded) : w);
  };
  const Kanji own = kanji_of(word);
  for (const std::string& reading : readings(analyzer.key(std::string(word)))) {
    InKana k{unicode::to_hiragana(reading), {}};
    if (unicode::length(k.kana) < MIN_KANA || !unicode::all_of(k.kana, unicode::is_hiragana)) continue;
    for (std::string& w : written(reading))
      if (!kanji_of(w).within(own)) k.others.push_back(std::move(w));
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<std::string> Dictionary::spellings(std::string_view word, Analyzer& analyzer) const {
  constexpr std::size_t MIN_KANJI = 2;
  std::vector<std::string> out;
  // Okurigana are hiragana: オンライン検知 is no spelling of 検知.
  const auto okurigana = [](std::string_view w) {
    return unicode::all_of(w, [](char32_t c) { return unicode::is_han(c) || unicode::is_hiragana(c); });
  };
  const Kanji typed(word);
  if (unicode::length(typed.kanji) < MIN_KANJI || !okurigana(word)) return out;
  struct Form {
    std::string text;
    Kanji kanji;
    std::vector<std::string> readings, lemmas;
  };
  const auto form_of = [&](std::string text) {
    const std::string key = analyzer.key(text);
    std::vector<std::string> lemmas = flagged(key, "l");
    lemmas.push_back(text);
    Kanji kanji(text);
    return Form{std::move(text), std::move(kanji), readings(key), std::move(lemmas)};
  };
  const auto share = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return std::find_first_of(a.begin(), a.end(), b.begin(), b.end()) != a.end();
  };
  const Form query = form_of(std::string(word));
  std::vector<Form> forms;
  std::unordered_set<std::string> seen{query.text};
  std::vector<std::string> texts = flagged(fmt::format("{}{}", KANJI_MARK, typed.kanji), "s");
  texts.push_back(typed.kanji);  // the kanji alone (読込), which IPAdic often lacks
  for (std::string& text : texts)
    if (okurigana(text) && seen.insert(text).second) forms.push_back(form_of(std::move(text)));
  // The words inflected by the query and by its spellings: 読込み, 読み込み: 読み込む.
  std::vector<std::string> lemmas = query.lemmas;
  for (const Form& f : forms)
    if (share(query.readings, f.readings)) lemmas.insert(lemmas.end(), f.lemmas.begin(), f.lemmas.end());
  for (Form& f : forms) {
    if (query.readings.empty() && f.readings.empty()) continue;  // no reading known: 生き物 is not 生物
    const bool same = !query.readings.empty() && !f.readings.empty()
                          ? share(query.readings, f.readings) || share(lemmas, f.lemmas)
                          : typed.shortens(f.kanji) || f.kanji.shortens(typed);
    if (same) out.push_back(std::move(f.text));
  }
  return out;
}

}  // namespace sagasu
