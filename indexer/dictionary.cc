#include "dictionary.h"

#include <fmt/format.h>
#include <unicode/unistr.h>
#include <unistd.h>
#include <xxhash.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <unordered_set>

#include "sagasu/analyzer.h"
#include "sagasu/schema.h"
#include "sagasu/sounds.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr std::size_t MAX_GLOSS_WORDS = 4;
constexpr int DICTIONARY_CACHE_VERSION = 1;  // raise when parse_dictionaries keeps other pairs

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A headword written in kanji or katakana, two characters or more (a kana
// reading alone names too many things).
bool is_headword(std::string_view w) {
  if (unicode::length(w) < 2) return false;
  for (std::size_t i = 0; i < w.size();) {
    const char32_t c = unicode::next_code_point(w, i);
    if (!unicode::is_katakana(c) && !unicode::is_han(c) && c != U'・') return false;
  }
  return true;
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

struct Entry {
  std::vector<std::string> headwords;
  std::vector<std::string> glosses;  // the first sense's, and those marked (comp)
  bool person = false;               // ENAMDICT: a surname or a given name
};

// "強化学習;強化學習 [きょうかがくしゅう] /(n) (comp) reinforcement learning/EntL…/"
Entry parse_line(std::string_view line) {
  Entry e;
  const std::size_t slash = line.find(" /");
  if (slash == std::string_view::npos) return e;
  std::string_view head = line.substr(0, slash);
  if (const std::size_t reading = head.find(" ["); reading != std::string_view::npos) head = head.substr(0, reading);
  for (std::string w : strings::split(head, ';')) {
    if (const std::size_t tag = w.find('('); tag != std::string::npos) w.resize(tag);  // 強化学習(P)
    if (is_headword(w)) e.headwords.push_back(std::move(w));
  }
  if (e.headwords.empty()) return e;
  int sense = 1;
  for (std::string_view field : strings::split(line.substr(slash + 2), '/')) {
    field = strings::trim(field);
    if (field.empty() || strings::starts_with(field, "EntL") || field == "(P)") continue;
    bool comp = false;
    // Leading tags: (n,vs) (2) (comp) {comp} …
    while (!field.empty() && (field.front() == '(' || field.front() == '{')) {
      const std::size_t close = field.find(field.front() == '(' ? ')' : '}');
      if (close == std::string_view::npos) break;
      const std::string_view tag = field.substr(1, close - 1);
      if (!tag.empty() && tag.find_first_not_of("0123456789") == std::string_view::npos)
        sense = std::atoi(std::string(tag).c_str());
      for (const auto& t : strings::split(std::string(tag), ',')) {
        if (t == "comp") comp = true;
        if (t == "s" || t == "g" || t == "m" || t == "f") e.person = true;
      }
      field = strings::trim(field.substr(close + 1));
    }
    // A note after the gloss: "normalization (e.g. in floating-point …)",
    // "parallel (electronics, computing, etc.)" (a computing sense, as (comp) says).
    if (field.size() > 2 && field.back() == ')')
      if (const std::size_t open = field.rfind(" ("); open != std::string_view::npos) {
        comp = comp || strings::contains(field.substr(open), "comput");
        field = strings::trim(field.substr(0, open));
      }
    if (sense != 1 && !comp) continue;
    if (std::string g = english_gloss(field); !g.empty()) e.glosses.push_back(std::move(g));
  }
  return e;
}

// A whole file; "" when it cannot be read.
std::string read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return "";
  std::string bytes(static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg())), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) return "";
  return bytes;
}

// The file's text, converted from EUC-JP; "" when it cannot be read.
std::string read_euc_jp(const std::string& file) {
  const std::string raw = read_file(file);
  std::string text;
  if (!raw.empty())
    icu::UnicodeString(raw.data(), static_cast<int32_t>(raw.size()), "EUC-JP").toUTF8String(text);
  return text;
}

// The dictionaries' pairs, one per line: "headword<TAB>its words<TAB>English<TAB>w|n"
// (n: a person's name), the headword's words as the analyzer cuts them.
// What does not depend on the vault, so it is computed once and cached.
std::string parse_dictionaries(const std::string& folder) {
  const std::string words_text = read_euc_jp(folder + "/edict");
  if (words_text.empty()) return "";
  Analyzer analyzer;
  std::string out;
  auto emit = [&](const Entry& e, char flag) {
    for (const auto& h : e.headwords) {
      std::string words;
      for (const auto& w : analyzer.words(h)) words += (words.empty() ? "" : " ") + w;
      for (const auto& g : e.glosses) ((((((out += h) += '\t') += words) += '\t') += g) += '\t') += flag + std::string("\n");
    }
  };
  std::unordered_set<std::string> english;
  for (std::string_view line : strings::split(words_text, '\n')) {
    const Entry e = parse_line(line);
    if (e.headwords.empty() || e.glosses.empty()) continue;
    for (const auto& g : e.glosses) english.insert(g);
    emit(e, 'w');
  }
  // ENAMDICT: persons' names (黒橋 = Kurohashi), not those that are also
  // English words (a name read "Hang" is not the word hang) or shorter than four letters.
  for (std::string_view line : strings::split(read_euc_jp(folder + "/enamdict"), '\n')) {
    Entry e = parse_line(line);
    if (!e.person || e.headwords.empty()) continue;
    std::vector<std::string> names;
    for (auto& g : e.glosses)
      if (g.size() >= 4 && g.find(' ') == std::string::npos && !english.count(g)) names.push_back(std::move(g));
    e.glosses = std::move(names);
    emit(e, 'n');
  }
  return out;
}

// The cache of parse_dictionaries for these dictionary files (their paths,
// sizes and times, and the schema: the analyzer's words), below
// $XDG_CACHE_HOME or ~/.cache; "" without either.
std::string cache_file(const std::string& folder) {
  std::string id = fmt::format("sagasu {} {}", schema::SCHEMA_VERSION, DICTIONARY_CACHE_VERSION);
  for (const char* name : {"edict", "enamdict"}) {
    const fs::path f = fs::path(folder) / name;
    std::error_code ec;
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

// The dictionaries' pairs: from the cache, or parsed (and cached when it can be).
std::string dictionary_text(const std::string& folder) {
  const std::string cache = cache_file(folder);
  if (!cache.empty())
    if (std::string text = read_file(cache); !text.empty()) return text;
  std::string text = parse_dictionaries(folder);
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

// The vault's words: every word term of dbs.
std::unordered_set<std::string> vocabulary_of(const std::vector<Xapian::Database>& dbs) {
  std::unordered_set<std::string> vocabulary;
  for (const auto& db : dbs) {
    auto t = db.allterms_begin();
    const auto end = db.allterms_end();
    while (t != end) {
      std::string term = *t;
      if (!schema::is_word_term(term)) {
        t.skip_to(std::string(schema::WORD_TERMS_AFTER_PREFIXES));
        continue;
      }
      vocabulary.insert(std::move(term));
      ++t;
    }
  }
  return vocabulary;
}

}  // namespace

std::string dictionary_folder() {
  const char* e = std::getenv("SAGASU_EDICT");
  return e ? std::string(e) : std::string("/usr/share/edict");
}

DictionaryPairs dictionary_pairs(const std::vector<Xapian::Database>& dbs) {
  DictionaryPairs out;
  const std::unordered_set<std::string> vocabulary = vocabulary_of(dbs);
  // Sounds: every katakana and English word by its key (a katakana word the
  // vault lacks, エヌビディア, still finds "nvidia").
  for (const auto& w : vocabulary)
    if (std::string key = sound_key(w); !key.empty()) out.sounds[std::move(key)].insert(w);
  const std::string folder = dictionary_folder();
  const std::string text = folder.empty() ? "" : dictionary_text(folder);
  // Are all the words of a text, parted at the separators, words of the vault?
  std::string word;
  auto all_known = [&](std::string_view words, std::string_view separators) {
    bool any = false;
    for (std::size_t i = 0; i <= words.size();) {
      const std::size_t e = std::min(words.find_first_of(separators, i), words.size());
      if (e > i) {
        word.assign(words.substr(i, e - i));
        if (!vocabulary.count(word)) return false;
        any = true;
      }
      i = e + 1;
    }
    return any;
  };
  std::set<std::pair<std::string, std::string>> to_english, to_japanese, names_to_english, names_to_japanese;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t eol = std::min(text.find('\n', at), text.size());
    const std::string_view line(text.data() + at, eol - at);
    at = eol + 1;
    std::string_view f[4];
    std::size_t n = 0;
    for (std::size_t i = 0; n < 4 && i <= line.size(); ++n) {
      const std::size_t e = std::min(line.find('\t', i), line.size());
      f[n] = line.substr(i, e - i);
      i = e + 1;
    }
    if (n != 4) continue;
    const bool name = f[3] == "n";
    // English words as the analyzer has them: lower-cased, parted at blanks and hyphens.
    if (all_known(f[2], " -")) (name ? names_to_english : to_english).emplace(f[0], f[2]);
    if (all_known(f[1], " ")) (name ? names_to_japanese : to_japanese).emplace(f[2], f[0]);
  }
  out.to_english.assign(to_english.begin(), to_english.end());
  out.to_japanese.assign(to_japanese.begin(), to_japanese.end());
  out.names_to_english.assign(names_to_english.begin(), names_to_english.end());
  out.names_to_japanese.assign(names_to_japanese.begin(), names_to_japanese.end());
  return out;
}

}  // namespace sagasu
