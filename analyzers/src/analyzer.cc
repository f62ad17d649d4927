#include "sagasu/analyzer.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/utext.h>

#include <stdexcept>

#include "sagasu/unicode.h"

namespace sagasu {

// ICU's word break iterator over a UTF-8 UText: native indices are byte
// offsets, so tokens get their offsets without a UTF-16 round trip.
struct Analyzer::Segmenter {
  std::unique_ptr<icu::BreakIterator> iter;

  Segmenter() {
    UErrorCode status = U_ZERO_ERROR;
    iter.reset(icu::BreakIterator::createWordInstance(icu::Locale("ja"), status));
    if (U_FAILURE(status) || !iter)
      throw std::runtime_error(std::string("ICU: cannot create the word break iterator: ") +
                               u_errorName(status));
  }

  void segment(std::string_view text, std::vector<Token>& out) {
    UErrorCode status = U_ZERO_ERROR;
    UText* ut = utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status);
    if (U_FAILURE(status)) throw std::runtime_error("ICU: cannot open text");
    iter->setText(ut, status);
    if (U_FAILURE(status)) {
      utext_close(ut);
      throw std::runtime_error("ICU: cannot segment text");
    }
    int32_t begin = iter->first();
    for (int32_t end = iter->next(); end != icu::BreakIterator::DONE; begin = end, end = iter->next()) {
      // Rule status below UBRK_WORD_NONE_LIMIT: spaces and punctuation.
      if (iter->getRuleStatus() < UBRK_WORD_NONE_LIMIT) continue;
      Token t;
      t.byte_begin = static_cast<uint32_t>(begin);
      t.byte_end = static_cast<uint32_t>(end);
      t.text.assign(text.substr(begin, end - begin));
      out.push_back(std::move(t));
    }
    // Detach the text before the UText goes away. The iterator keeps its own
    // clone of the empty text: ours is closed too (it owns a buffer on the heap).
    UText empty = UTEXT_INITIALIZER;
    utext_openUTF8(&empty, "", 0, &status);
    iter->setText(&empty, status);
    utext_close(&empty);
    utext_close(ut);
  }
};

namespace {

// Does the text between two words end a sentence, a clause, a table cell or a
// list item? 。、，．！？；： (and their half-width forms); , ; | always; . : ! ?
// before a blank (not std::vector, 10:30); a blank line; a line that
// starts a list item, a heading, a quote or a table row.
bool parts_words(std::string_view between) {
  static constexpr std::string_view CJK[] = {"。", "、", "，", "．", "！", "？", "；", "：", "｡", "､"};
  for (std::string_view p : CJK)
    if (between.find(p) != std::string_view::npos) return true;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  for (std::size_t i = 0; i < between.size(); ++i) {
    const char c = between[i];
    const char next = i + 1 < between.size() ? between[i + 1] : 'w';  // (the next word)
    if (c == ',' || c == ';' || c == '|') return true;
    if ((c == '.' || c == ':' || c == '!' || c == '?') && blank(next)) return true;
    if (c == '\n') {
      std::size_t j = i + 1;
      while (j < between.size() && (between[j] == ' ' || between[j] == '\t' || between[j] == '\r')) ++j;
      if (j < between.size() && std::string_view("\n-*+#>").find(between[j]) != std::string_view::npos)
        return true;
    }
  }
  return false;
}

}  // namespace

Analyzer::Analyzer() : m_segmenter(std::make_unique<Segmenter>()) {
  m_filters.push_back(make_katakana_join_filter());
  m_filters.push_back(make_nfkc_casefold_filter());
  m_filters.push_back(make_long_vowel_filter());
  m_filters.push_back(make_english_stem_filter());
  m_filters.push_back(make_name_parts_filter());
}

Analyzer::~Analyzer() = default;

std::vector<Token> Analyzer::analyze(std::string_view text, std::uint32_t first_position) {
  std::string expanded;  // こゝろ read as こころ, at the same offsets
  if (unicode::expand_iteration_marks(text, expanded)) text = expanded;
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 4);
  m_segmenter->segment(text, tokens);
  for (const auto& f : m_filters) f->apply(text, tokens);
  // Words follow each other; where punctuation parts them (parts_words), a
  // position is left out, so that no phrase spans a sentence's or clause's end.
  std::uint32_t pos = first_position;
  const Token* last = nullptr;
  for (Token& t : tokens) {
    if (t.kind == TokenKind::Word) {
      if (last)
        pos += last->byte_end <= t.byte_begin &&
                       parts_words(text.substr(last->byte_end, t.byte_begin - last->byte_end))
                   ? 2
                   : 1;
      last = &t;
    }
    t.position = pos;
  }
  return tokens;
}

std::vector<std::string> Analyzer::words(std::string_view text) {
  std::vector<std::string> out;
  for (Token& t : analyze(text))
    if (t.kind == TokenKind::Word) out.push_back(std::move(t.text));
  return out;
}

std::string Analyzer::key(std::string_view text) {
  std::string out;
  for (const auto& w : words(text)) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace sagasu
