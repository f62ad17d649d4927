#include "sagasu/analyzer.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/utext.h>
#include <xapian.h>

#include <algorithm>
#include <stdexcept>

#include "sagasu/unicode.h"

namespace sagasu {

// ICU's word break iterator over a UTF-8 UText: native indices are byte
// offsets, so tokens get their offsets without a UTF-16 round trip.
struct Analyzer::Segmenter {
  std::unique_ptr<icu::BreakIterator> iter;
  Xapian::Stem stem{"english"};

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

bool is_katakana_text(std::string_view s) {
  return unicode::all_of(s, unicode::is_katakana);
}

// ICU splits about one katakana word in five (シン/ボ/リック/リンク,
// ハンドラ/ー): adjacent katakana pieces with nothing between them are one word.
void join_katakana(std::string_view text, std::vector<Token>& tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  for (Token& t : tokens) {
    if (!out.empty() && out.back().kind == TokenKind::Word && out.back().byte_end == t.byte_begin &&
        is_katakana_text(out.back().text) && is_katakana_text(t.text)) {
      Token& prev = out.back();
      prev.byte_end = t.byte_end;
      prev.text.assign(text.substr(prev.byte_begin, prev.byte_end - prev.byte_begin));
      continue;
    }
    out.push_back(std::move(t));
  }
  tokens.swap(out);
}

// Full/half width, compatibility characters and case: ＧＰＵ = GPU, ｻｰﾊﾞ = サーバ.
// サーバー and サーバ are one word (unicode::drop_long_vowels), ヴァリアント and
// バリアント too (unicode::unify_v_sounds).
void fold(std::vector<Token>& tokens) {
  std::size_t w = 0;
  for (std::size_t r = 0; r < tokens.size(); ++r) {
    tokens[r].text = unicode::nfkc_casefold(tokens[r].text);
    if (tokens[r].text.empty()) continue;
    if (is_katakana_text(tokens[r].text)) {
      unicode::unify_v_sounds(tokens[r].text);
      unicode::drop_long_vowels(tokens[r].text);
    }
    if (w != r) tokens[w] = std::move(tokens[r]);
    ++w;
  }
  tokens.resize(w);
}

// English words are also indexed by their stem (training → train).
void add_stems(const Xapian::Stem& stem, std::vector<Token>& tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size() + tokens.size() / 2);
  for (Token& t : tokens) {
    const bool latin = t.kind == TokenKind::Word && t.text.size() >= 2 &&
                       std::all_of(t.text.begin(), t.text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    out.push_back(std::move(t));
    if (latin) {
      Token s = out.back();
      s.text = stem(s.text);
      s.kind = TokenKind::Stem;
      out.push_back(std::move(s));
    }
  }
  tokens.swap(out);
}

bool lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}

// A name written as one word is also its words, as a reader reads it:
// MegaScale is mega + scale, XMLParser xml + parser, file_name file + name,
// email.policy email + policy. Only a word of ASCII letters (and digits)
// is split: at '_' and '.', before a capital that follows a small letter,
// and before a capital followed by small letters that ends a run of
// capitals; parts of one character are left out (iPhone: phone), and so is
// a word that is one part (LLMs, GPT4).
void add_parts(std::string_view text, std::uint32_t at, std::vector<Token>& out) {
  if (text.size() < 4 || !std::all_of(text.begin(), text.end(), [](char c) {
        return lower(c) || upper(c) || digit(c) || c == '_' || c == '.';
      }))
    return;
  std::vector<std::pair<std::size_t, std::size_t>> parts;  // [begin, end) in text
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size() || text[i] == '_' || text[i] == '.';
    const bool camel = !end && i > begin && upper(text[i]) &&
                       (lower(text[i - 1]) || (upper(text[i - 1]) && i + 2 < text.size() &&
                                               lower(text[i + 1]) && lower(text[i + 2])));
    if (!end && !camel) continue;
    if (i > begin) parts.emplace_back(begin, i);
    begin = end ? i + 1 : i;
  }
  if (parts.size() < 2) return;
  for (const auto& [b, e] : parts) {
    const std::string_view part = text.substr(b, e - b);
    if (part.size() < 2 || !std::any_of(part.begin(), part.end(), [](char c) { return !digit(c); })) continue;
    Token p;
    for (char c : part) p.text += upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
    p.byte_begin = at + static_cast<std::uint32_t>(b);
    p.byte_end = at + static_cast<std::uint32_t>(e);
    p.kind = TokenKind::Part;
    out.push_back(std::move(p));
  }
}

void add_name_parts(std::string_view text, std::vector<Token>& tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  for (Token& t : tokens) {
    const bool word = t.kind == TokenKind::Word;
    const std::string_view name = text.substr(t.byte_begin, t.byte_end - t.byte_begin);
    out.push_back(std::move(t));
    if (word) add_parts(name, out.back().byte_begin, out);
  }
  tokens.swap(out);
}

}  // namespace

std::uint32_t Unwrapped::taken(std::uint32_t at, bool with_at) const {
  const auto it = std::upper_bound(cuts.begin(), cuts.end(), at, [&](std::uint32_t a, const auto& cut) {
    return with_at ? a < cut.first : a <= cut.first;
  });
  return it == cuts.begin() ? 0 : std::prev(it)->second;
}

std::uint32_t Unwrapped::in_text(std::uint32_t original) const {
  std::uint32_t taken = 0;  // the bytes cut before the cut looked at
  for (const auto& [at, upto] : cuts) {
    if (original < at + taken) break;
    if (original < at + upto) return at;  // a byte the cut took out
    taken = upto;
  }
  return original - taken;
}

bool unwrap(std::string_view text, Unwrapped& out, std::size_t from, std::size_t to) {
  to = std::min(to, text.size());
  std::size_t kept = from;  // the bytes of text copied to out
  for (std::size_t nl = text.find('\n', from); nl < to; nl = text.find('\n', nl + 1)) {
    const auto wrap = line_wrap(text, nl);
    if (!wrap || wrap->first < kept || wrap->second > to) continue;
    out.text.append(text.substr(kept, wrap->first - kept));
    kept = wrap->second;
    out.cuts.emplace_back(static_cast<std::uint32_t>(out.text.size()),
                          static_cast<std::uint32_t>(kept - from - out.text.size()));
  }
  if (out.cuts.empty()) return false;
  out.text.append(text.substr(kept, to - kept));
  return true;
}

// A line break inside Japanese text that fills its lines is a wrap, not a
// word's end (man pages, vimdoc, text copied from a PDF: ファ\nイル, 管\n理).
// A line ending and the next beginning with a Japanese letter is so when the
// line is at least WRAP_COLUMNS wide, not a heading. On ja-techdocs, of 6,436
// breaks between katakana after 40 columns or more, 6,231 join a word the
// vault also writes unbroken (most others, read, are wraps too: ファイルアク
// セスパーミッシ|ョン); of 391 after a shorter line, 331 do not (a heading, a
// name, a list without marks). A string a .po file continues on the next
// line ("…ス"⏎"ライス…") is wrapped so too (36,820 lines of ja-techdocs).
std::optional<std::pair<std::size_t, std::size_t>> line_wrap(std::string_view text, std::size_t newline) {
  constexpr std::size_t WRAP_COLUMNS = 40;
  const auto japanese_letter = [](char32_t c) {
    return unicode::is_han(c) || unicode::is_hiragana(c) || unicode::is_katakana(c);
  };
  const std::size_t line = newline == 0 ? 0 : text.rfind('\n', newline - 1) + 1;  // (npos + 1: 0)
  std::size_t end = newline > line && text[newline - 1] == '\r' ? newline - 1 : newline;
  std::size_t next = newline + 1;
  while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
  // A string continued on the next line ("…ス"⏎"ライス…": gettext, C): the quotes go too.
  if (end > line && text[end - 1] == '"' && next < text.size() && text[next] == '"') --end, ++next;
  if (end == line || next == text.size() || text[line] == '#') return std::nullopt;
  std::size_t before = unicode::char_start(text, end - 1), after = next;
  if (!japanese_letter(unicode::next_code_point(text, before)) ||
      !japanese_letter(unicode::next_code_point(text, after)) ||
      unicode::display_width(text.substr(line, end - line)) < WRAP_COLUMNS)
    return std::nullopt;
  return std::pair(end, next);
}

Analyzer::Analyzer() : m_segmenter(std::make_unique<Segmenter>()) {}

Analyzer::~Analyzer() = default;

std::vector<Token> Analyzer::analyze(std::string_view text, std::uint32_t first_position) {
  std::string expanded;  // こゝろ read as こころ, at the same offsets
  if (unicode::expand_iteration_marks(text, expanded)) text = expanded;
  Unwrapped unwrapped;  // its tokens' offsets are mapped back below
  const bool wrapped = unwrap(text, unwrapped);
  if (wrapped) text = unwrapped.text;
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 4);
  m_segmenter->segment(text, tokens);
  join_katakana(text, tokens);
  fold(tokens);
  add_stems(m_segmenter->stem, tokens);
  add_name_parts(text, tokens);
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
  if (wrapped)
    for (Token& t : tokens)
      t.byte_begin = unwrapped.begin(t.byte_begin), t.byte_end = unwrapped.end(t.byte_end);
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
