#include "sagasu/snippet.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "sagasu/strings.h"
#include "sagasu/substring.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

using strings::starts_with;

bool is_continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

struct Sentence {
  std::size_t begin, end;
};

// The longest "(Source: …)" parenthetical looked for after a sentence end.
constexpr std::size_t MAX_CITATION_BYTES = 1024;

// Sentence ends: 。！？ and Latin . ! ? before white space, and line breaks
// but a wrap (line_wrap: a word a filled line wraps stays in its sentence).
// A "(Source: …)" right after the end belongs to the sentence it supports.
std::vector<Sentence> split_sentences(std::string_view text) {
  std::vector<Sentence> out;
  std::size_t begin = 0;
  auto close = [&](std::size_t end) {
    // Attach a following citation parenthetical.
    std::size_t j = end;
    while (j < text.size() && text[j] == ' ') ++j;
    std::string_view rest = text.substr(j);
    if (starts_with(rest, "(Source:") || starts_with(rest, "\xEF\xBC\x88Source")) {
      // The parenthetical ends where its brackets balance (titles carry "(OSDI 2026)"),
      // within MAX_CITATION_BYTES: an unbalanced one is no citation, and no
      // sentence end rescans the rest of a long line (「。(Source: (」 × 10,000).
      int depth = 0;
      const std::size_t limit = std::min(text.size(), j + MAX_CITATION_BYTES);
      for (std::size_t p = j; p < limit && text[p] != '\n';) {
        std::string_view at = text.substr(p);
        const bool open = at[0] == '(' || starts_with(at, "\xEF\xBC\x88");
        const bool shut = at[0] == ')' || starts_with(at, "\xEF\xBC\x89");
        const std::size_t len = at[0] == '(' || at[0] == ')' ? 1 : (open || shut ? 3 : 1);
        depth += open ? 1 : shut ? -1 : 0;
        p += len;
        if (shut && depth == 0) {
          end = p;
          break;
        }
      }
    }
    std::size_t b = begin;
    while (b < end && (text[b] == ' ' || text[b] == '\n')) ++b;
    if (b < end) out.push_back({b, end});
    begin = end;
    return end;
  };
  // Only a line break, a Latin . ! ? or the first byte of 。！？ can end a
  // sentence: jump from one to the next (texts are megabytes long).
  static constexpr std::string_view ENDS{"\n.!?\xE3\xEF", 6};
  for (std::size_t i = text.find_first_of(ENDS); i < text.size(); i = text.find_first_of(ENDS, i)) {
    const std::string_view rest = text.substr(i);
    if (text[i] == '\n') {
      if (const auto wrap = line_wrap(text, i)) {
        i = wrap->second;
        continue;
      }
      close(i);
      begin = i + 1;
      ++i;
      continue;
    }
    if (starts_with(rest, "\xE3\x80\x82") || starts_with(rest, "\xEF\xBC\x81") ||
        starts_with(rest, "\xEF\xBC\x9F")) {  // 。！？
      i = close(i + 3);
      continue;
    }
    if ((text[i] == '.' || text[i] == '!' || text[i] == '?') &&
        (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
      i = close(i + 1);
      continue;
    }
    ++i;
  }
  if (begin < text.size()) close(text.size());
  return out;
}

}  // namespace

bool SnippetGenerator::may_match(std::string_view text) const {
  // Cheap and never wrong in the unsafe direction: every word term is a
  // substring of the width/case-folded text it came from (a stem, minus its
  // last letter, of its word), every substring of the kana-folded text. (Line
  // breaks are left out: a word a line wraps, ファ\nイル, is one word.)
  std::string joined;
  joined.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') {
      joined += text[i];
      continue;
    }
    while (i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\t')) ++i;
  }
  const std::string folded = unicode::nfkc_casefold(joined);
  for (const auto& w : m_terms.words)
    if (folded.find(w) != std::string::npos) return true;
  for (const auto& phrase : m_terms.phrases)
    if (!phrase.empty() && std::all_of(phrase.begin(), phrase.end(), [&](const std::string& w) {
          return folded.find(w) != std::string::npos;
        }))
      return true;
  if (!m_terms.substrings.empty()) {
    const std::string kana = fold_text(text).text;
    for (const auto& sub : m_terms.substrings)
      if (kana.find(sub.folded) != std::string::npos) return true;
  }
  for (const auto& lit : m_terms.literals)
    if (text.find(lit) != std::string_view::npos) return true;
  return false;
}

std::vector<std::pair<std::size_t, std::size_t>> SnippetGenerator::match_spans(std::string_view text) const {
  std::vector<std::pair<std::size_t, std::size_t>> raw;
  if (m_terms.empty() || !may_match(text)) return raw;
  if (!m_terms.words.empty() || !m_terms.phrases.empty()) {
    std::vector<Token> words;  // the word tokens, for the phrases
    for (Token& t : m_analyzer.analyze(text)) {
      if (t.kind != TokenKind::Stem && m_terms.words.count(t.text) > 0)
        raw.emplace_back(t.byte_begin, t.byte_end);
      if (t.kind == TokenKind::Word && !m_terms.phrases.empty()) words.push_back(std::move(t));
    }
    for (const auto& phrase : m_terms.phrases)
      for (std::size_t i = 0; !phrase.empty() && i + phrase.size() <= words.size(); ++i) {
        std::size_t n = 0;
        while (n < phrase.size() && words[i + n].text == phrase[n] &&
               (n == 0 || words[i + n].position == words[i + n - 1].position + 1))
          ++n;
        if (n == phrase.size()) raw.emplace_back(words[i].byte_begin, words[i + n - 1].byte_end);
      }
  }
  for (const auto& needle : m_terms.substrings)
    for (auto span : find_substring(m_analyzer, text, needle)) {
      // Folding dropped the query's trailing long vowels: a match of サーバ
      // in サーバー is the whole word.
      while (span.second < text.size()) {
        std::size_t next = span.second;
        if (!unicode::is_long_vowel_mark(unicode::next_code_point(text, next))) break;
        span.second = next;
      }
      raw.push_back(span);
    }
  for (const auto& needle : m_terms.literals)
    for (std::size_t p = text.find(needle); !needle.empty() && p != std::string_view::npos;
         p = text.find(needle, p + needle.size()))
      raw.emplace_back(p, p + needle.size());
  std::sort(raw.begin(), raw.end());
  // Overlapping and adjacent matches (nothing or spaces between) are one span.
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (const auto& r : raw) {
    if (!spans.empty()) {
      auto& last = spans.back();
      if (r.first <= last.second ||
          text.substr(last.second, r.first - last.second).find_first_not_of(' ') == std::string_view::npos) {
        last.second = std::max(last.second, r.second);
        continue;
      }
    }
    spans.push_back(r);
  }
  return spans;
}

namespace {

// The fragment of one sentence: the sentence, or a window of max_bytes
// around its first match; its matches highlighted, the sources it cites.
Fragment fragment(std::string_view text, const Sentence& s,
                  const std::vector<std::pair<std::size_t, std::size_t>>& spans,
                  const std::vector<CitationSpan>& citations, std::size_t max_bytes) {
  std::size_t begin = s.begin, end = s.end;
  // Spans inside the sentence.
  std::vector<std::pair<std::size_t, std::size_t>> inside;
  for (const auto& sp : spans)
    if (sp.first >= s.begin && sp.second <= s.end) inside.push_back(sp);
  if (end - begin > max_bytes) {
    // Centre the window on the first match, never cutting a character, and
    // a match only when the first one alone is longer than the window
    // (the fragment keeps its budget: a 1 MB "word" is not printed whole).
    const std::size_t anchor = inside.empty() ? begin : inside.front().first;
    begin = anchor > begin + max_bytes / 3 ? anchor - max_bytes / 3 : begin;
    while (begin > s.begin && is_continuation(static_cast<unsigned char>(text[begin]))) --begin;
    end = std::min(s.end, begin + max_bytes);
    while (end > begin && end < s.end && is_continuation(static_cast<unsigned char>(text[end]))) --end;
    for (const auto& sp : inside)
      if (sp.first < end && sp.second > end && sp.first != anchor) end = sp.first;
    if (end <= begin) {  // a budget under one character: the character
      end = begin + 1;
      while (end < s.end && is_continuation(static_cast<unsigned char>(text[end]))) ++end;
    }
  }
  Fragment f;
  // The text without its wraps (ファ⏎イル shown as ファイル), and where an
  // offset of the stored text falls in it.
  Unwrapped shown;
  f.text =
      unwrap(text, shown, begin, end) ? std::move(shown.text) : std::string(text.substr(begin, end - begin));
  const auto at = [&](std::size_t offset) {
    return shown.in_text(static_cast<std::uint32_t>(offset - begin));
  };
  f.source_begin = begin;
  f.cut_before = begin > s.begin;
  f.cut_after = end < s.end;
  for (const auto& sp : inside)
    if (sp.first >= begin && sp.first < end)
      f.highlights.emplace_back(at(sp.first), at(std::min(sp.second, end)));
  for (const auto& c : citations)
    if (c.begin >= s.begin && c.end <= s.end &&
        std::find(f.sources.begin(), f.sources.end(), c.key) == f.sources.end())
      f.sources.push_back(c.key);
  return f;
}

// What a highlighted word counts as among a sentence's distinct pieces: a
// Latin word in either case and number once (SDC, SDCs; Iterator, iterators).
std::string piece(std::string_view word) {
  std::string out(word);
  if (!std::all_of(out.begin(), out.end(),
                   [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)); }))
    return out;
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char ch) { return std::tolower(static_cast<unsigned char>(ch)); });
  if (out.size() > 2 && out.back() == 's' && out[out.size() - 2] != 's') out.pop_back();
  return out;
}

}  // namespace

std::vector<Fragment> SnippetGenerator::generate(std::string_view text,
                                                 const std::vector<CitationSpan>& citations,
                                                 std::size_t max_fragments, std::size_t max_bytes) const {
  std::vector<Fragment> out;
  if (text.empty() || max_fragments == 0) return out;
  const auto sentences = split_sentences(text);
  if (sentences.empty()) return out;
  // Segmentation is the costly part: only sentences that may match are
  // analysed, and only the first few that do, so a long manual costs what a
  // short note does (the fragments come from its first matching sentences).
  // A sentence is read from its line's start (WRAP_CONTEXT bytes back at
  // most), so that a wrap at its line's end (line_wrap) is seen as indexing
  // saw it: a sentence starting mid-line is no short line.
  constexpr std::size_t WRAP_CONTEXT = 256;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t matching = 0;
  for (const Sentence& sentence : sentences) {
    if (matching == MAX_MATCHING_SENTENCES) break;
    const std::size_t line = sentence.begin == 0 ? 0 : text.rfind('\n', sentence.begin - 1) + 1;
    std::size_t from = std::max(line, sentence.begin - std::min(sentence.begin, WRAP_CONTEXT));
    while (from > line && is_continuation(static_cast<unsigned char>(text[from]))) --from;
    const std::size_t before = spans.size();
    for (const auto& [b, e] : match_spans(text.substr(from, sentence.end - from)))
      if (from + b >= sentence.begin) spans.emplace_back(from + b, from + e);
    matching += spans.size() > before;
  }

  struct Scored {
    std::size_t index;
    std::size_t distinct;
    std::size_t count;
  };
  std::vector<Scored> scored;
  std::size_t s_i = 0;
  for (std::size_t si = 0; si < sentences.size(); ++si) {
    const Sentence& s = sentences[si];
    std::set<std::string> distinct;
    std::size_t count = 0;
    while (s_i < spans.size() && spans[s_i].second <= s.begin) ++s_i;
    for (std::size_t k = s_i; k < spans.size() && spans[k].first < s.end; ++k) {
      distinct.insert(piece(text.substr(spans[k].first, spans[k].second - spans[k].first)));
      ++count;
    }
    if (count) scored.push_back({si, distinct.size(), count});
  }
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.distinct != b.distinct) return a.distinct > b.distinct;
    return std::min<std::size_t>(a.count, 8) > std::min<std::size_t>(b.count, 8);
  });
  std::vector<std::size_t> chosen;
  for (const auto& s : scored) {
    if (chosen.size() == max_fragments) break;
    chosen.push_back(s.index);
  }
  if (chosen.empty()) chosen.push_back(0);
  std::sort(chosen.begin(), chosen.end());

  for (std::size_t si : chosen) out.push_back(fragment(text, sentences[si], spans, citations, max_bytes));
  return out;
}

}  // namespace sagasu
