#include "sagasu/word_list.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "sagasu/schema.h"
#include "sagasu/strings.h"
#include "sagasu/substring.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr std::string_view MAGIC{"SGWL2\0\0\0", 8};

std::string file_in(const std::string& folder) {
  return (fs::path(folder) / WORD_LIST_FILE).string();
}

// A word's line: the word, and when its folding differs, a tab and the folding.
void append_line(std::string& out, std::string_view word, std::string_view folded) {
  out += word;
  if (folded != word) (out += '\t') += folded;
  out += '\n';
}

// The list's lines ("\n", then a line per word) for db's words, in term order (byte order).
std::string lines_of(const Xapian::Database& db) {
  std::string words;
  for_each_word_term(db, [&](const std::string& term) { (words += term) += '\n'; });
  // Folded in one call (a line break folds to itself, so lines stay lines).
  const std::string folded = fold_text(words).text;
  const std::vector<std::string> word_lines = strings::split(words, '\n');
  const std::vector<std::string> folded_lines = strings::split(folded, '\n');
  std::string out = "\n";
  for (std::size_t i = 0; i + 1 < word_lines.size(); ++i)
    append_line(out, word_lines[i], i < folded_lines.size() ? folded_lines[i] : word_lines[i]);
  return out;
}

}  // namespace

void WordList::write(const Xapian::Database& db, const std::string& folder) {
  const std::string file = file_in(folder);
  const Xapian::rev revision = db.get_revision();
  if (generation_file::describes(file, MAGIC, revision)) return;
  generation_file::replace(file, generation_file::header(MAGIC, revision) + lines_of(db));
}

void WordList::update(const Xapian::Database& db, const std::string& folder, Xapian::rev before,
                      const std::set<std::string>& touched) {
  const std::string file = file_in(folder);
  const Xapian::rev revision = db.get_revision();
  if (generation_file::describes(file, MAGIC, revision)) return;
  const auto map = generation_file::Mapped::open(file, MAGIC, before);
  if (!map || map->size() <= generation_file::HEADER || map->data()[map->size() - 1] != '\n')
    return write(db, folder);
  // The old lines and the touched words that db holds, merged in term order
  // (the words' byte order, the list's).
  std::string_view old(reinterpret_cast<const char*>(map->data()) + generation_file::HEADER + 1,
                       map->size() - generation_file::HEADER - 1);
  std::string out = generation_file::header(MAGIC, revision);
  out += '\n';
  auto touched_word = touched.begin();
  auto add_touched = [&](const std::string& word) {
    if (schema::is_word_term(word) && db.term_exists(word)) append_line(out, word, fold_text(word).text);
  };
  std::string_view last;
  while (!old.empty()) {
    const std::size_t eol = old.find('\n');
    const std::string_view line = old.substr(0, eol + 1);
    old.remove_prefix(eol + 1);
    const std::string_view word = line.substr(0, std::min(line.find('\t'), line.size() - 1));
    // A list out of order is damaged: it is written whole, not carried on.
    if (word.empty() || (!last.empty() && !(last < word))) return write(db, folder);
    last = word;
    for (; touched_word != touched.end() && *touched_word < word; ++touched_word) add_touched(*touched_word);
    if (touched_word != touched.end() && *touched_word == word) {
      add_touched(*touched_word++);  // (its line again if db still holds it)
      continue;
    }
    out += line;
  }
  for (; touched_word != touched.end(); ++touched_word) add_touched(*touched_word);
  generation_file::replace(file, out);
}

std::shared_ptr<const WordList> WordList::open(const std::string& folder, const Xapian::Database& db) {
  auto map = generation_file::Mapped::open(file_in(folder), MAGIC, db.get_revision());
  if (!map || map->size() <= generation_file::HEADER || map->data()[generation_file::HEADER] != '\n' ||
      map->data()[map->size() - 1] != '\n')
    return nullptr;
  std::shared_ptr<WordList> list(new WordList());
  list->m_map = std::move(map);
  list->m_lines =
      std::string_view(reinterpret_cast<const char*>(list->m_map->data()) + generation_file::HEADER,
                       list->m_map->size() - generation_file::HEADER);
  return list;
}

std::shared_ptr<const WordList> WordList::of(const Xapian::Database& db) {
  std::shared_ptr<WordList> list(new WordList());
  list->m_built = lines_of(db);
  list->m_lines = list->m_built;
  return list;
}

std::shared_ptr<const WordList> WordList::merged(const std::vector<std::shared_ptr<const WordList>>& lists) {
  // Each list's lines after its leading "\n"; the smallest word of their
  // first lines goes next, once (a word two shards hold folds alike in both).
  std::vector<std::string_view> rest;
  std::size_t size = 1;
  for (const auto& l : lists) {
    rest.push_back(l->m_lines.substr(std::min<std::size_t>(1, l->m_lines.size())));
    size += rest.back().size();
  }
  const auto word_of = [](std::string_view lines) { return lines.substr(0, lines.find_first_of("\t\n")); };
  std::shared_ptr<WordList> list(new WordList());
  list->m_built.reserve(size);
  list->m_built = "\n";
  for (;;) {
    std::string_view least;
    bool any = false;
    for (const std::string_view r : rest)
      if (!r.empty() && (!any || word_of(r) < least)) {
        least = word_of(r);
        any = true;
      }
    if (!any) break;
    bool written = false;
    for (std::string_view& r : rest) {
      if (r.empty() || word_of(r) != least) continue;
      const std::size_t eol = std::min(r.find('\n'), r.size() - 1);
      if (!written) list->m_built += r.substr(0, eol + 1);
      written = true;
      r.remove_prefix(eol + 1);
    }
  }
  list->m_lines = list->m_built;
  return list;
}

std::vector<std::string> WordList::containing(std::string_view needle, Side side, std::size_t max,
                                              std::vector<std::string>* foldings) const {
  std::vector<std::string> out;
  if (needle.empty() || needle.find_first_of("\t\n") != std::string_view::npos) return out;
  const char* begin = m_lines.data();
  const char* end = m_lines.data() + m_lines.size();
  const char* at = begin;
  while (out.size() < max) {
    const void* hit = ::memmem(at, static_cast<std::size_t>(end - at), needle.data(), needle.size());
    if (!hit) break;
    const char* h = static_cast<const char*>(hit);
    const char* line =
        static_cast<const char*>(::memrchr(begin, '\n', static_cast<std::size_t>(h - begin))) + 1;
    const char* eol = static_cast<const char*>(std::memchr(h, '\n', static_cast<std::size_t>(end - h)));
    const char* tab = static_cast<const char*>(std::memchr(line, '\t', static_cast<std::size_t>(eol - line)));
    // The word is the line up to the tab; its folding is after it, or the word itself.
    const bool in_word = !tab || h < tab;
    const bool wanted = side == Side::Word ? in_word : !tab || !in_word;
    if (wanted) out.emplace_back(line, static_cast<std::size_t>((tab ? tab : eol) - line));
    if (wanted && foldings) foldings->push_back(tab ? std::string(tab + 1, eol) : out.back());
    // A hit in a word that has a folding of its own: the folding may hold the needle too.
    at = !wanted && side == Side::Folding ? tab : eol;
  }
  return out;
}

}  // namespace sagasu
