// The literal-substring check shared by sagasu-eval (the sample vault) and
// sagasu-parity (the real vaults): strings drawn from the notes' stored text
// must find every note that holds them, and --exact exactly those that hold
// them as drawn; the expected notes come from a reference written for the
// test, not from the engine's folding.
#pragma once

#include <fmt/format.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <xapian.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/schema.h"
#include "sagasu/searcher.h"
#include "sagasu/stored_note.h"
#include "sagasu/unicode.h"

namespace sagasu::eval {

// The literal-substring check's reference for what the substring tier must
// always find (README "Matching"): a string of one or more characters in the
// note's text after NFKC_Casefold (width, case, compatibility forms). Kana
// variants (hiragana = katakana, small kana) are found only where they name
// the same word, so they are not part of what every drawn string must find.
// Written for the test, sharing no code with the engine's fold_text (ICU's
// normalizer called directly), so that a bug in the engine's folding cannot
// hide itself by folding the expected notes too.
class ReferenceFold {
 public:
  ReferenceFold() {
    UErrorCode status = U_ZERO_ERROR;
    m_nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
    if (U_FAILURE(status)) throw std::runtime_error("ICU: no NFKC_Casefold normalizer");
  }

  std::string operator()(std::string_view text) const {
    UErrorCode status = U_ZERO_ERROR;
    const icu::UnicodeString normalized = m_nfkc_cf->normalize(
        icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size()))),
        status);
    if (U_FAILURE(status))
      throw std::runtime_error(fmt::format("ICU: cannot normalize: {}", u_errorName(status)));
    std::string out;
    return normalized.toUTF8String(out);
  }

 private:
  const icu::Normalizer2* m_nfkc_cf = nullptr;
};

// Why a drawn string is not a query a user could type as one word, or nullptr
// when it is one: the query language reads blanks (ASCII ones, U+3000 and the
// no-break and typographic spaces), quotes, parentheses, a leading '-', a
// leading "field:" (known or not) and the bare operators OR, AND and NOT as syntax, and a
// string that folds to nothing has nothing to search for.
inline const char* not_one_word(std::string_view needle, std::string_view folded) {
  if (needle.find_first_of(" \t\r\n") != std::string_view::npos) return "a blank (space, tab, line break)";
  // The query language separates words at these too (an IME's U+3000, no-break spaces).
  for (std::string_view blank : {"\u3000", "\u00a0", "\u202f", "\u205f"})
    if (needle.find(blank) != std::string_view::npos) return "a blank (space, tab, line break)";
  for (char32_t c = 0x2000; c <= 0x200A; ++c) {
    std::string blank;
    unicode::append_utf8(blank, c);
    if (needle.find(blank) != std::string_view::npos) return "a blank (space, tab, line break)";
  }
  if (needle.find_first_of("\"()") != std::string_view::npos) return "a quote or parenthesis";
  if (needle.front() == '-') return "a leading '-'";
  if (needle == "OR" || needle == "AND" || needle == "NOT") return "an operator";
  if (schema::field_prefix(needle) != schema::Prefix::None) return "a field prefix";
  if (folded.find_first_not_of(" \t\r\n") == std::string_view::npos) return "nothing but blanks once folded";
  return nullptr;
}

struct SubstringCounts {
  std::size_t checked = 0, failed = 0;
  std::size_t exact_failed = 0;  // --exact hits other than the notes holding the string as drawn
  std::map<std::string, std::size_t> not_words;  // drawn strings left out, by reason
};

// The notes' text: path → title, other names and body, as stored and folded by the reference.
struct ReferenceText {
  std::string raw, folded;
};
inline std::map<std::string, ReferenceText> reference_texts(const Xapian::Database& db,
                                                            const ReferenceFold& fold) {
  std::map<std::string, ReferenceText> out;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document doc = db.get_document(*it);
    const NoteMeta meta = NoteMeta::of(doc);
    std::string all = meta.title + "\n";
    for (const auto& a : meta.names) all += a + "\n";
    all += doc.get_data();
    out[meta.path] = {all, fold(all)};
  }
  return out;
}

// The notes a search returns for the query as typed (every one of them, no fallback).
// A word of letters and digits the vault has is found inside longer words
// by --loose alone (README "Matching": art is no hit in start): its notes are
// the hits of both.
inline std::set<std::string> found(Searcher& searcher, const std::string& query, std::size_t all,
                                   bool exact) {
  SearchRequest req;
  req.query = query;
  req.limit = all;
  req.snippets = 0;
  req.exact = exact;
  req.facets.clear();
  std::set<std::string> got;
  SearchResult r = searcher.search(req);
  for (const auto& h : r.hits) got.insert(h.path);
  if (r.loose_by.inside_words) {
    req.loose = true;
    for (const auto& h : searcher.search(req).hits) got.insert(h.path);
  }
  return got;
}

// Substrings drawn from the notes' stored text: every note whose text holds
// the drawn string, both folded by ReferenceFold, must be returned. A search
// that throws is a failure: the drawn strings that are not one query word
// are left out beforehand.
inline SubstringCounts substring_check(const std::string& index, Searcher& searcher, std::size_t count,
                                       bool verbose, unsigned seed = 20261130) {
  const Xapian::Database db(index);
  const ReferenceFold fold;
  const auto notes = reference_texts(db, fold);
  std::vector<std::string> raw;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it)
    raw.push_back(db.get_document(*it).get_data());
  std::mt19937 rng(seed);
  SubstringCounts counts;
  std::size_t attempts = 0;
  while (counts.checked < count && attempts++ < count * 50 && !notes.empty()) {
    const std::string& text = raw[rng() % raw.size()];
    if (text.empty()) continue;
    // A start on a character boundary, 1–8 characters long.
    std::size_t start = rng() % text.size();
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    const std::size_t chars = 1 + rng() % 8;
    std::size_t end = start;
    for (std::size_t k = 0; k < chars && end < text.size(); ++k) unicode::next_code_point(text, end);
    const std::string needle = text.substr(start, end - start);
    const std::string folded = fold(needle);
    if (const char* why = not_one_word(needle, folded)) {
      ++counts.not_words[why];
      continue;
    }
    ++counts.checked;
    std::set<std::string> truth, as_typed;
    for (const auto& [path, note] : notes) {
      if (note.folded.find(folded) != std::string::npos) truth.insert(path);
      if (note.raw.find(needle) != std::string::npos) as_typed.insert(path);
    }
    std::set<std::string> got, exact;
    try {
      got = found(searcher, needle, notes.size(), false);
      exact = found(searcher, needle, notes.size(), true);
    } catch (const std::exception& e) {
      ++counts.failed;
      fmt::print("substring ERROR '{}': the search failed: {}\n", needle, e.what());
      continue;
    }
    // --exact: exactly the notes holding the string as drawn (grep -F on the stored text).
    if (exact != as_typed) {
      ++counts.exact_failed;
      fmt::print("exact MISMATCH '{}': {} notes hold it, --exact gives {}\n", needle, as_typed.size(),
                 exact.size());
    }
    std::vector<std::string> missing;
    for (const auto& p : truth)
      if (!got.count(p)) missing.push_back(p);
    if (!missing.empty()) {
      ++counts.failed;
      fmt::print("substring MISS '{}': {} of {} notes missing, e.g. {}\n", needle, missing.size(),
                 truth.size(), missing[0]);
    } else if (verbose) {
      fmt::print("substring ok   '{}' ({} notes)\n", needle, truth.size());
    }
  }
  return counts;
}

}  // namespace sagasu::eval
