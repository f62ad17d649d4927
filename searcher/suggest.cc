#include "suggest.h"

#include <algorithm>

#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

// Words shorter than this (in characters) are not corrected.
constexpr std::size_t MIN_CORRECTED = 3;

// The edits a correction of a word of n characters may make: about one in
// four characters, and none for words too short to tell a typo from another
// word (量子 → 量, つれ → つ).
std::size_t max_edits(std::size_t n) {
  return n < MIN_CORRECTED ? 0 : std::max<std::size_t>(1, n / 4);
}

std::string closest(const Xapian::Database& db, const std::string& w) {
  std::string best;
  if (w.empty() || db.term_exists(w)) return best;  // a known word: nothing to correct
  const std::u32string target = unicode::code_points(w);
  const std::size_t max_d = max_edits(target.size());
  if (max_d == 0) return best;
  std::size_t first_len = 0;
  unicode::next_code_point(w, first_len);
  const std::string first = w.substr(0, first_len);
  std::size_t best_d = max_d + 1;
  Xapian::doccount best_freq = 0;
  for (auto t = db.allterms_begin(first); t != db.allterms_end(first); ++t) {
    const std::string term = *t;
    const std::u32string cand = unicode::code_points(term);
    if (cand.size() < MIN_CORRECTED - 1 || cand.size() + max_d < target.size() ||
        cand.size() > target.size() + max_d)
      continue;
    const std::size_t d = strings::edit_distance(target, cand);
    if (d > max_d) continue;
    if (d < best_d || (d == best_d && t.get_termfreq() > best_freq)) {
      best = term;
      best_d = d;
      best_freq = t.get_termfreq();
    }
  }
  return best;
}

}  // namespace

std::vector<std::string> suggest_words(const Xapian::Database& db, const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const auto& w : words) out.push_back(closest(db, w));
  return out;
}

Correction correct(const Xapian::Database& db, const std::string& query, const std::vector<Chunk>& chunks) {
  Correction out;
  std::string corrected = query;
  bool changed = false;
  for (const auto& c : chunks) {
    if (c.field_text) continue;
    const auto fixes = suggest_words(db, c.info.words);
    for (const auto& f : fixes)
      if (!f.empty()) out.suggestions.push_back(f);
    const auto at = corrected.find(c.info.text);
    if (c.info.words.size() == 1 && !c.info.phrase && !fixes[0].empty() && at != std::string::npos) {
      corrected.replace(at, c.info.text.size(), fixes[0]);
      changed = true;
    }
  }
  if (changed) out.query = std::move(corrected);
  return out;
}

}  // namespace sagasu
