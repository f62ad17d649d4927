// sagasu-parity: grep parity on a real vault. Words, phrases and partial
// words are drawn (seeded) from the notes' stored text; for each:
//   --exact must give exactly the notes whose text holds it (grep -F on the
//   stored text), and the default search (tight, as a pipeline gets it) a
//   superset of them, every extra note explained by a named fold: case, width,
//   a word a line wraps, long vowel, kana variant, English stem, alias, the words adjacent with
//   other spacing, a tag the note gives itself, or a bridge (an equivalent in the other language, which
//   the note holds as words). An extra note no fold explains, or a missed one, fails.
// Then the literal-substring property (substrings.h) over the same vault.
// With --vault, words drawn from the files themselves (front-matter values
// and link addresses included, a third of the draws from those): --exact must
// give exactly the notes whose file or file name holds the word (grep -F;
// front-matter keys are structure, not text, and are left out of both), the
// default search a superset.
#include <fmt/format.h>
#include <xapian.h>

#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "sagasu/analyzer.h"
#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/searcher.h"
#include "sagasu/stored_note.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"
#include "substrings.h"
#include "synonyms.h"

namespace po = boost::program_options;
using namespace sagasu;
using namespace sagasu::eval;

namespace {

// Kana folding as the README promises it for variants, from tables written
// for the test: hiragana → katakana, small kana → full size.
std::string kana_fold(std::string_view s) {
  static const std::u32string HIRAGANA =
      U"ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねの"
      U"はばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖ";
  static const std::u32string KATAKANA =
      U"ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノ"
      U"ハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶ";
  static const std::u32string SMALL = U"ァィゥェォッャュョヮヵヶ";
  static const std::u32string FULL = U"アイウエオツヤユヨワカケ";
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = unicode::next_code_point(s, i);
    if (auto at = HIRAGANA.find(c); at != std::u32string::npos) c = KATAKANA[at];
    if (auto at = SMALL.find(c); at != std::u32string::npos) c = FULL[at];
    unicode::append_utf8(out, c);
  }
  return out;
}

std::string ascii_lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

enum class SampleKind { Word, Phrase, Partial };
const char* name_of(SampleKind k) {
  return k == SampleKind::Word ? "word" : k == SampleKind::Phrase ? "phrase" : "partial";
}

struct Sample {
  SampleKind kind;
  std::string text;  // as it stands in the note
  std::string query() const { return kind == SampleKind::Phrase ? "\"" + text + "\"" : text; }
};

// A query word a user could type: no query syntax, two characters or more.
bool typable(const std::string& s) {
  if (unicode::length(s) < 2 || s.front() == '-') return false;
  if (s.find_first_of("\"()\t\r\n") != std::string::npos) return false;
  return !not_one_word(s, s) || s.find(' ') != std::string::npos;  // a phrase's space is fine
}

// Draws a sample around a random place of a random note: a word of the
// analyzer, two adjacent words (a phrase), or the middle of a long word.
std::optional<Sample> draw(std::mt19937& rng, const std::vector<std::string>& bodies, Analyzer& analyzer,
                           SampleKind kind) {
  const std::string& text = bodies[rng() % bodies.size()];
  if (text.size() < 8) return std::nullopt;
  std::size_t at = rng() % text.size();
  const std::size_t line_begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const std::size_t line_end = std::min(text.find('\n', at), text.size());
  const std::string_view line =
      std::string_view(text).substr(line_begin, std::min<std::size_t>(line_end - line_begin, 600));
  std::vector<Token> words;
  for (Token& t : analyzer.analyze(line))
    if (t.kind == TokenKind::Word) words.push_back(std::move(t));
  if (words.size() < 2) return std::nullopt;
  const std::size_t i = rng() % (words.size() - 1);
  auto original = [&](std::size_t b, std::size_t e) { return std::string(line.substr(b, e - b)); };
  Sample s{kind, {}};
  if (kind == SampleKind::Word) {
    s.text = original(words[i].byte_begin, words[i].byte_end);
  } else if (kind == SampleKind::Phrase) {
    const std::string between = original(words[i].byte_end, words[i + 1].byte_begin);
    if (between != " ") return std::nullopt;  // two words a space apart, as a person quotes them
    s.text = original(words[i].byte_begin, words[i + 1].byte_end);
  } else {
    const std::string w = original(words[i].byte_begin, words[i].byte_end);
    if (unicode::length(w) < 4) return std::nullopt;
    std::size_t b = 0, e = w.size();
    unicode::next_code_point(w, b);  // drop the first character
    while (e > 0 && (static_cast<unsigned char>(w[--e]) & 0xC0) == 0x80) {
    }  // and the last
    s.text = w.substr(b, e - b);
  }
  if (!typable(s.text)) return std::nullopt;
  return s;
}

// Why the default search may find a note that does not hold the sample as it
// stands, or nullptr when no fold explains it.
class Explainer {
 public:
  Explainer(const Xapian::Database& db, Analyzer& analyzer, const std::map<std::string, ReferenceText>& notes)
      : m_db(db), m_analyzer(analyzer), m_notes(notes) {}

  /// bridged: the equivalents the search says the note matched (Hit::bridged).
  const char* why(const Sample& s, const std::string& path, const std::vector<std::string>& bridged) {
    const ReferenceText& note = m_notes.at(path);
    if (ascii_lower(note.raw).find(ascii_lower(s.text)) != std::string::npos) return "case";
    const std::string width = m_fold(s.text);
    if (note.folded.find(width) != std::string::npos) return "width";
    std::string shorter = width;
    while (unicode::length(shorter) > 2 && shorter.size() >= 3 &&
           shorter.compare(shorter.size() - 3, 3, "ー") == 0)
      shorter.resize(shorter.size() - 3);
    if (shorter != width && note.folded.find(shorter) != std::string::npos) return "long vowel";
    if (kana_fold(note.folded).find(kana_fold(shorter)) != std::string::npos) return "kana variant";
    // The same folds in the text as a reader reads its wraps (インター⏎フェイス).
    if (const std::string read = m_fold(unwrapped(note.raw));
        read.find(shorter) != std::string::npos ||
        kana_fold(read).find(kana_fold(shorter)) != std::string::npos)
      return "wrap";
    const Xapian::Document doc = doc_of(path);
    const std::vector<Token> tokens = m_analyzer.analyze(s.text);
    std::vector<std::string> words;
    for (const Token& t : tokens) {
      if (t.kind == TokenKind::Word)
        words.push_back(t.text);
      else if (t.kind == TokenKind::Stem && s.kind != SampleKind::Phrase &&
               has_term(doc, std::string(schema::STEM.prefix) + t.text))
        return "stem";
    }
    if (!words.empty() && adjacent(doc, words)) return "spacing";  // the words adjacent, other blanks between
    // A tag the note gives itself holds it (its words are the note's words,
    // README "Matching"; grep finds it in the front matter): tools has oo.
    const std::string tag_prefix(schema::TAG.prefix);
    for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t)
      if (strings::starts_with(*t, tag_prefix) &&
          m_fold((*t).substr(tag_prefix.size())).find(width) != std::string::npos)
        return "tag";
    for (const auto& other : synonyms(words))
      if (adjacent(doc, strings::split_nonempty(other, ' '))) return "alias";
    for (const auto& equivalent : bridged) {
      if (adjacent(doc, m_analyzer.words(equivalent))) return "bridge";
      // One English word: as the search takes it, by its stem too (pass: passed).
      const std::vector<Token> eq = m_analyzer.analyze(equivalent);
      if (eq.size() == 2 && eq[1].kind == TokenKind::Stem &&
          has_term(doc, std::string(schema::STEM.prefix) + eq[1].text))
        return "bridge";
    }
    return nullptr;
  }

 private:
  // The text with its wraps left out (line_wrap): a word a filled line wraps, as a reader reads it.
  static std::string unwrapped(const std::string& raw) {
    Unwrapped out;
    return unwrap(raw, out) ? out.text : raw;
  }
  Xapian::Document doc_of(const std::string& path) const {
    return m_db.get_document(*m_db.postlist_begin(schema::unique_id_term(path)));
  }
  static bool has_term(const Xapian::Document& doc, const std::string& term) {
    auto t = doc.termlist_begin();
    t.skip_to(term);
    return t != doc.termlist_end() && *t == term;
  }
  bool adjacent(const Xapian::Document& doc, const std::vector<std::string>& words) const {
    if (words.empty()) return false;
    std::vector<std::set<Xapian::termpos>> pos;
    for (const auto& w : words) {
      if (!has_term(doc, w)) return false;
      pos.emplace_back(m_db.positionlist_begin(doc.get_docid(), w),
                       m_db.positionlist_end(doc.get_docid(), w));
    }
    for (const auto p : pos.front()) {
      bool all = true;
      for (std::size_t i = 1; i < pos.size() && all; ++i)
        all = pos[i].count(p + static_cast<Xapian::termpos>(i)) > 0;
      if (all) return true;
    }
    return false;
  }
  std::vector<std::string> synonyms(const std::vector<std::string>& words) const {
    std::string key;
    for (const auto& w : words) key += (key.empty() ? "" : " ") + w;
    return Synonyms(m_db).of(key);  // the index's alias table, read as the searcher reads it
  }

  const Xapian::Database& m_db;
  Analyzer& m_analyzer;
  const std::map<std::string, ReferenceText>& m_notes;
  ReferenceFold m_fold;
};

struct Tally {
  std::map<std::string, std::size_t> samples, extra_by_fold;
  std::size_t exact_mismatch = 0, missed = 0, unexplained = 0;
};

void check(const Sample& s, Searcher& searcher, Explainer& explain,
           const std::map<std::string, ReferenceText>& notes, Tally& t, bool verbose) {
  std::set<std::string> grep;
  for (const auto& [path, note] : notes)
    if (note.raw.find(s.text) != std::string::npos) grep.insert(path);
  const std::set<std::string> exact = found(searcher, s.query(), notes.size(), true);
  // The default search, and the equivalents each bridged note matched.
  std::map<std::string, std::vector<std::string>> loose;
  std::set<std::string> inside;  // a word of the vault inside longer words: --loose's (README "Matching")
  {
    SearchRequest req;
    req.query = s.query();
    req.limit = notes.size();
    req.snippets = 0;
    req.facets.clear();
    const SearchResult r = searcher.search(req);
    for (const auto& h : r.hits) {
      auto& equivalents = loose[h.path];
      for (const auto& [piece, b] : h.bridged) equivalents.push_back(b.equivalent);
    }
    if (r.loose_by.inside_words) {
      req.loose = true;
      for (const auto& h : searcher.search(req).hits) inside.insert(h.path);
    }
  }
  ++t.samples[name_of(s.kind)];
  if (exact != grep) {
    ++t.exact_mismatch;
    fmt::print("EXACT   {} '{}': grep {} notes, --exact {}\n", name_of(s.kind), s.text, grep.size(),
               exact.size());
  }
  for (const auto& p : grep)
    if (!loose.count(p) && !inside.count(p)) {
      ++t.missed;
      fmt::print("MISSED  {} '{}': {}\n", name_of(s.kind), s.text, p);
    }
  for (const auto& [p, bridged] : loose) {
    if (grep.count(p)) continue;
    if (const char* why = explain.why(s, p, bridged)) {
      ++t.extra_by_fold[why];
      if (verbose) fmt::print("extra   {} '{}': {} ({})\n", name_of(s.kind), s.text, p, why);
    } else {
      ++t.unexplained;
      fmt::print("UNEXPLAINED {} '{}': {}\n", name_of(s.kind), s.text, p);
    }
  }
}


// A file's text as grep -F sees it, but for the front matter's keys: a
// line `key: value` of the front matter keeps its value alone.
std::string without_keys(const std::string& file) {
  if (file.rfind("---\n", 0) != 0) return file;
  const std::size_t end = file.find("\n---", 3);
  if (end == std::string::npos) return file;
  std::string out = "---\n";
  for (const std::string& line : strings::split(file.substr(4, end - 4), '\n')) {
    // Indented keys (a nested map) and a list item's are keys too.
    std::size_t from = line.find_first_not_of(' ');
    if (from != std::string::npos && line.compare(from, 2, "- ") == 0) from += 2;
    const std::size_t colon = line.find(':', from == std::string::npos ? 0 : from);
    const bool keyed = from != std::string::npos && colon != std::string::npos && colon > from &&
                       (colon + 1 == line.size() || line[colon + 1] == ' ') &&
                       line.substr(from, colon - from).find_first_of(" \"'[{") == std::string::npos;
    out += (keyed ? line.substr(0, from) + line.substr(colon + 1) : line) + "\n";
  }
  return out + file.substr(end + 1);
}

// The places of a file a search used to miss, where a third of the words are
// drawn: the front matter's lines and the addresses of Markdown links.
std::vector<std::string> hidden_places(const std::string& file) {
  std::vector<std::string> out;
  if (file.rfind("---\n", 0) == 0)
    if (const std::size_t end = file.find("\n---", 3); end != std::string::npos)
      for (const std::string& line : strings::split(file.substr(4, end - 4), '\n')) out.push_back(line);
  for (std::size_t at = file.find("]("); at != std::string::npos; at = file.find("](", at + 2)) {
    const std::size_t close = file.find_first_of(")\n", at + 2);
    if (close != std::string::npos && file[close] == ')') out.push_back(file.substr(at + 2, close - at - 2));
  }
  return out;
}

struct FileCounts {
  std::size_t checked = 0, ascii = 0, hidden = 0, exact_mismatch = 0, missed = 0;
};

// Words drawn from the files of the vault (every other one ASCII, a third of
// the draws from hidden places): --exact = grep -F on the file and its name,
// the default a superset.
FileCounts file_check(const std::string& vault, const std::map<std::string, ReferenceText>& notes,
                      Searcher& searcher, Analyzer& analyzer, std::size_t count, unsigned seed) {
  std::map<std::string, std::string> files;  // path → text without front-matter keys
  std::vector<const std::string*> order;
  std::vector<std::vector<std::string>> hidden;
  for (const auto& [path, note] : notes) {
    std::ifstream in(std::filesystem::path(vault) / path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot read the indexed note {}", vault, path));
    const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    files[path] = std::string(note_title(path)) + "\n" + without_keys(file);  // its name is the note's too
    order.push_back(&files[path]);
    hidden.push_back(hidden_places(files[path]));
  }
  std::vector<std::size_t> with_hidden;
  for (std::size_t i = 0; i < hidden.size(); ++i)
    if (!hidden[i].empty()) with_hidden.push_back(i);
  std::mt19937 rng(seed + 1);
  FileCounts c;
  std::set<std::string> seen;
  for (std::size_t attempts = 0; c.checked < count && attempts < count * 200; ++attempts) {
    const bool want_ascii = c.checked % 2 == 0;
    const bool want_hidden = attempts % 3 == 0 && !with_hidden.empty();  // a third of the draws
    std::string_view line;
    std::string place;
    if (want_hidden) {
      const auto& places = hidden[with_hidden[rng() % with_hidden.size()]];
      place = places[rng() % places.size()];
      line = place;
    } else {
      const std::string& text = *order[rng() % order.size()];
      if (text.empty()) continue;
      const std::size_t at = rng() % text.size();
      const std::size_t b = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
      const std::size_t e = std::min(text.find('\n', at), text.size());
      line = std::string_view(text).substr(b, std::min<std::size_t>(e - b, 600));
    }
    std::vector<Token> words;
    for (Token& t : analyzer.analyze(line))
      if (t.kind == TokenKind::Word) words.push_back(std::move(t));
    if (words.empty()) continue;
    const Token& w = words[rng() % words.size()];
    const std::string word(line.substr(w.byte_begin, w.byte_end - w.byte_begin));
    const bool ascii = std::all_of(word.begin(), word.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; });
    if (ascii != want_ascii || !typable(word) || !seen.insert(word).second) continue;
    std::set<std::string> grep;
    for (const auto& [path, text] : files)
      if (text.find(word) != std::string::npos) grep.insert(path);
    const std::set<std::string> exact = found(searcher, word, notes.size(), true);
    const std::set<std::string> loose = found(searcher, word, notes.size(), false);
    ++c.checked;
    c.ascii += ascii;
    c.hidden += want_hidden;
    if (exact != grep) {
      ++c.exact_mismatch;
      std::string diff;
      for (const auto& p : grep)
        if (!exact.count(p)) diff += " -" + p;
      for (const auto& p : exact)
        if (!grep.count(p)) diff += " +" + p;
      fmt::print("FILE EXACT '{}'{}: grep -F {} notes, --exact {}:{}\n", word, want_hidden ? " (hidden)" : "",
                 grep.size(), exact.size(), diff.substr(0, 300));
    }
    for (const auto& p : grep)
      if (!loose.count(p)) {
        ++c.missed;
        fmt::print("FILE MISSED '{}': {}\n", word, p);
      }
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::string index, name, vault;
  std::size_t file_words = 500;
  std::size_t samples = 100, substrings = 500;
  unsigned seed = 20261201;
  bool verbose = false;
  po::options_description d("Usage: sagasu-parity --index DIR [options]\n\nOptions");
  d.add_options()("index", po::value(&index)->required(), "index of a real vault")(
      "name", po::value(&name), "the vault's name, for the report")(
      "samples", po::value(&samples), "words, phrases and partial words to check (default 100)")(
      "substrings", po::value(&substrings), "literal substrings to check (default 500)")(
      "vault", po::value(&vault), "the vault's folder: also check words drawn from its files")(
      "file-words", po::value(&file_words), "words drawn from the files with --vault (default 500)")(
      "seed", po::value(&seed), "the draw's seed (default 20261201)")(
      "verbose", po::bool_switch(&verbose), "list every extra hit and the fold that explains it");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, d), vm);
    po::notify(vm);
    Searcher searcher(index);
    const Xapian::Database db(index);
    const auto notes = reference_texts(db, ReferenceFold());
    std::vector<std::string> bodies;
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it)
      bodies.push_back(db.get_document(*it).get_data());
    Analyzer analyzer;
    Explainer explain(db, analyzer, notes);
    std::mt19937 rng(seed);
    Tally t;
    std::size_t drawn = 0;
    for (std::size_t attempts = 0; drawn < samples && attempts < samples * 100; ++attempts) {
      const SampleKind kind = static_cast<SampleKind>(drawn % 3);
      if (auto s = draw(rng, bodies, analyzer, kind)) {
        check(*s, searcher, explain, notes, t, verbose);
        ++drawn;
      }
    }
    std::string per_kind, per_fold;
    for (const auto& [k, n] : t.samples) per_kind += fmt::format(" {} {}", k, n);
    for (const auto& [f, n] : t.extra_by_fold) per_fold += fmt::format(" {} {}", f, n);
    fmt::print(
        "{}: {} samples ({}); --exact = grep: {} mismatches; default missed {}; extra hits by fold:{}; "
        "unexplained {}\n",
        name.empty() ? index : name, drawn, per_kind.empty() ? "" : per_kind.substr(1), t.exact_mismatch,
        t.missed, per_fold.empty() ? " none" : per_fold, t.unexplained);
    const SubstringCounts sub = substring_check(index, searcher, substrings, verbose, seed);
    fmt::print(
        "{}: literal substrings: {} checked, {} missed a note or failed, --exact other than grep -F: {}\n",
        name.empty() ? index : name, sub.checked, sub.failed, sub.exact_failed);
    FileCounts files;
    if (!vault.empty()) {
      files = file_check(vault, notes, searcher, analyzer, file_words, seed);
      fmt::print("{}: {} words from the files ({} ASCII, {} from front matter and link addresses): "
                 "--exact other than grep -F: {}; default missed a note: {}\n",
                 name.empty() ? index : name, files.checked, files.ascii, files.hidden, files.exact_mismatch,
                 files.missed);
    }
    const bool ok = files.exact_mismatch == 0 && files.missed == 0 &&
                    (vault.empty() || files.checked == file_words) && t.exact_mismatch == 0 && t.missed == 0 && t.unexplained == 0 && sub.failed == 0 &&
                    sub.exact_failed == 0 && drawn == samples;
    fmt::print("{}\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
  } catch (const po::error& e) {
    fmt::print(stderr, "sagasu-parity: {}\n", e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "sagasu-parity: {}\n", e.what());
  }
  return 2;
}
