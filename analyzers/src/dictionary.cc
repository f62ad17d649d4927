#include "sagasu/dictionary.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unicode/unistr.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_set>

#include "sagasu/analyzer.h"
#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr std::size_t MAX_GLOSS_WORDS = 4;
constexpr int DICTIONARY_CACHE_VERSION = 4;  // raise when parse_dictionaries keeps other pairs

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

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
  if (const std::size_t reading = head.find(" ["); reading != std::string_view::npos)
    head = head.substr(0, reading);
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
  try {
    return read_regular_file(file, file);
  } catch (const Error&) {
    return "";
  }
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
  const std::string raw = read_file(file);
  std::string text;
  if (!raw.empty())
    icu::UnicodeString(raw.data(), static_cast<int32_t>(raw.size()), "EUC-JP").toUTF8String(text);
  return text;
}

// The dictionaries' lookup table, sorted (below); it does not depend on the
// vault, so it is computed once and cached.
std::string parse_dictionaries(const std::string& folder) {
  const std::string words_text = read_euc_jp(folder + "/edict");
  if (words_text.empty()) return "";
  Analyzer analyzer;
  // The lookup table, a line per bridge: a word's key (Analyzer::key; an
  // English one is its lower-cased words, as the analyzer cuts English), the
  // equivalent, and what it is: w (a word), n (a person's name); both ways.
  std::vector<std::string> lines;
  auto emit = [&](const Entry& e, bool names) {
    const char flag = names ? 'n' : 'w';
    for (const auto& h : e.headwords) {
      const std::string key = analyzer.key(h);
      for (std::size_t i = 0; i < e.glosses.size(); ++i) {
        const std::string& g = e.glosses[i];
        std::string gkey;
        for (const auto& w : english_words(g)) gkey += (gkey.empty() ? "" : " ") + w;
        if (key.empty() || gkey.empty() || key == gkey) continue;
        lines.push_back(fmt::format("{}\t{}\t{}\n", key, g, flag));
        lines.push_back(fmt::format("{}\t{}\t{}\n", gkey, h, flag));
      }
    }
  };
  std::unordered_set<std::string> english, headwords;
  for (std::string_view line : strings::split(words_text, '\n')) {
    const Entry e = parse_line(line);
    if (e.headwords.empty() || e.glosses.empty()) continue;
    for (const auto& g : e.glosses) english.insert(g);
    headwords.insert(e.headwords.begin(), e.headwords.end());
    emit(e, false);
  }
  // ENAMDICT: persons' names (黒橋 = Kurohashi), not those that are also
  // English words (a name read "Hang" is not the word hang) or shorter than
  // four letters, nor a name written as a word of the language (中村 is a
  // name, but 東 is a word first).
  for (std::string_view line : strings::split(read_euc_jp(folder + "/enamdict"), '\n')) {
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
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  std::string out;
  for (const auto& l : lines) out += l;
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

// Parses the dictionaries of folder into their cache (when it can be
// written), and returns the table.
std::string parse_into_cache(const std::string& folder, const std::string& cache) {
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

}  // namespace

std::string dictionary_folder() {
  const char* e = std::getenv("SAGASU_EDICT");
  return e ? std::string(e) : std::string("/usr/share/edict");
}

Dictionary::Dictionary(const std::string& folder, bool parse) {
  if (folder.empty()) return;
  const std::string cache = cache_file(folder);
  // Parsed once, then mapped from the cache (kept here when it cannot be written).
  if (parse && (cache.empty() || !fs::exists(cache))) m_text = parse_into_cache(folder, cache);
  if (!cache.empty()) {
    const RegularFile file(cache);
    if (file && file.size() > 0) {
      void* map =
          ::mmap(nullptr, static_cast<std::size_t>(file.size()), PROT_READ, MAP_PRIVATE, file.fd(), 0);
      if (map != MAP_FAILED) {
        m_map = map;
        m_size = static_cast<std::size_t>(file.size());
        m_text.clear();
      }
    }
  }
}

Dictionary::~Dictionary() {
  if (m_map) ::munmap(m_map, m_size);
}

const Dictionary& Dictionary::system() {
  static const Dictionary dictionary(dictionary_folder(), false);
  return dictionary;
}

std::string Dictionary::prepare() {
  const std::string folder = dictionary_folder();
  if (folder.empty()) return "";
  const std::string edict = (fs::path(folder) / "edict").string();
  std::error_code ec;
  if (!fs::exists(edict, ec)) return "";  // not installed: no dictionary, and nothing to say
  const std::string cache = cache_file(folder);
  if (cache.empty()) return fmt::format("{}: not used: no cache folder (set XDG_CACHE_HOME or HOME)", edict);
  if (fs::exists(cache, ec)) {
    if (const RegularFile file(cache); !file) return fmt::format("{}: not used: {}", cache, file.error());
    return "";
  }
  if (const RegularFile file(edict); !file) return fmt::format("{}: cannot be read: {}", edict, file.error());
  if (parse_into_cache(folder, cache).empty())
    return fmt::format("{}: no entry in EDICT's format (EUC-JP)", edict);
  if (!fs::exists(cache, ec))
    return fmt::format("{}: cannot be written: the dictionaries are not used", cache);
  return "";
}

std::string_view Dictionary::table() const {
  return m_map ? std::string_view(static_cast<const char*>(m_map), m_size) : std::string_view(m_text);
}

std::vector<DictionaryEntry> Dictionary::of(std::string_view key) const {
  std::vector<DictionaryEntry> out;
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
    const std::vector<std::string> f = strings::split(line, '\t');
    if (f.size() != 3 || f[0] != key) break;
    out.push_back({f[1], f[2] == "n"});
  }
  return out;
}

}  // namespace sagasu
