// The token filters of the analyzer chain, in chain order.
#include <xapian.h>

#include <algorithm>

#include "sagasu/analyzer.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

bool is_katakana_text(std::string_view s) {
  return unicode::all_of(s, unicode::is_katakana);
}

// ICU splits about one katakana word in five (シン/ボ/リック/リンク,
// ハンドラ/ー): adjacent katakana pieces with nothing between them are one word.
class KatakanaJoin final : public TokenFilter {
 public:
  const char* name() const override { return "katakana-join"; }
  void apply(std::string_view original, std::vector<Token>& tokens) const override {
    std::vector<Token> out;
    out.reserve(tokens.size());
    for (Token& t : tokens) {
      if (!out.empty() && out.back().kind == TokenKind::Word && out.back().byte_end == t.byte_begin &&
          is_katakana_text(out.back().text) && is_katakana_text(t.text)) {
        Token& prev = out.back();
        prev.byte_end = t.byte_end;
        prev.text.assign(original.substr(prev.byte_begin, prev.byte_end - prev.byte_begin));
        continue;
      }
      out.push_back(std::move(t));
    }
    tokens.swap(out);
  }
};

// Full/half width, compatibility characters and case: ＧＰＵ = GPU, ｻｰﾊﾞ = サーバ.
class NfkcCasefold final : public TokenFilter {
 public:
  const char* name() const override { return "nfkc-casefold"; }
  void apply(std::string_view, std::vector<Token>& tokens) const override {
    std::size_t w = 0;
    for (std::size_t r = 0; r < tokens.size(); ++r) {
      tokens[r].text = unicode::nfkc_casefold(tokens[r].text);
      if (tokens[r].text.empty()) continue;
      if (w != r) tokens[w] = std::move(tokens[r]);
      ++w;
    }
    tokens.resize(w);
  }
};

// サーバー and サーバ are one word (unicode::drop_long_vowels).
class LongVowel final : public TokenFilter {
 public:
  const char* name() const override { return "long-vowel"; }
  void apply(std::string_view, std::vector<Token>& tokens) const override {
    for (Token& t : tokens)
      if (t.kind == TokenKind::Word && is_katakana_text(t.text)) unicode::drop_long_vowels(t.text);
  }
};

// English words are also indexed by their stem (training → train).
class EnglishStem final : public TokenFilter {
 public:
  const char* name() const override { return "english-stem"; }
  void apply(std::string_view, std::vector<Token>& tokens) const override {
    std::vector<Token> out;
    out.reserve(tokens.size() + tokens.size() / 2);
    for (Token& t : tokens) {
      bool latin = t.kind == TokenKind::Word && t.text.size() >= 2;
      if (latin)
        for (char c : t.text)
          if (c < 'a' || c > 'z') {
            latin = false;
            break;
          }
      out.push_back(std::move(t));
      if (latin) {
        Token s = out.back();
        s.text = m_stem(s.text);
        s.kind = TokenKind::Stem;
        out.push_back(std::move(s));
      }
    }
    tokens.swap(out);
  }

 private:
  mutable Xapian::Stem m_stem{"english"};
};

// A name written as one word is also its words, as a reader reads it:
// MegaScale is mega + scale, XMLParser xml + parser, file_name file + name,
// email.policy email + policy. Only a word of ASCII letters (and digits)
// is split: at '_' and '.', before a capital that follows a small letter,
// and before a capital followed by small letters that ends a run of
// capitals; parts of one character are left out (iPhone: phone), and so is
// a word that is one part (LLMs, GPT4).
class NameParts final : public TokenFilter {
 public:
  const char* name() const override { return "name-parts"; }
  void apply(std::string_view original, std::vector<Token>& tokens) const override {
    std::vector<Token> out;
    out.reserve(tokens.size());
    for (Token& t : tokens) {
      const bool word = t.kind == TokenKind::Word;
      const std::string_view text = original.substr(t.byte_begin, t.byte_end - t.byte_begin);
      out.push_back(std::move(t));
      if (word) add_parts(text, out.back().byte_begin, out);
    }
    tokens.swap(out);
  }

 private:
  static bool lower(char c) { return c >= 'a' && c <= 'z'; }
  static bool upper(char c) { return c >= 'A' && c <= 'Z'; }
  static bool digit(char c) { return c >= '0' && c <= '9'; }

  static void add_parts(std::string_view text, std::uint32_t at, std::vector<Token>& out) {
    if (text.size() < 4 || !std::all_of(text.begin(), text.end(), [](char c) {
          return lower(c) || upper(c) || digit(c) || c == '_' || c == '.';
        }))
      return;
    std::vector<std::pair<std::size_t, std::size_t>> parts;  // [begin, end) in text
    std::size_t begin = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      const bool end = i == text.size() || text[i] == '_' || text[i] == '.';
      const bool camel = !end && i > begin && upper(text[i]) &&
                         (lower(text[i - 1]) ||
                          (upper(text[i - 1]) && i + 2 < text.size() && lower(text[i + 1]) && lower(text[i + 2])));
      if (!end && !camel) continue;
      if (i > begin) parts.emplace_back(begin, i);
      begin = end ? i + 1 : i;
    }
    if (parts.size() < 2) return;
    for (const auto& [b, e] : parts) {
      const std::string_view part = text.substr(b, e - b);
      if (part.size() < 2 || !std::any_of(part.begin(), part.end(), [](char c) { return !digit(c); }))
        continue;
      Token p;
      for (char c : part) p.text += upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
      p.byte_begin = at + static_cast<std::uint32_t>(b);
      p.byte_end = at + static_cast<std::uint32_t>(e);
      p.kind = TokenKind::Part;
      out.push_back(std::move(p));
    }
  }
};

}  // namespace

std::unique_ptr<TokenFilter> make_name_parts_filter() {
  return std::make_unique<NameParts>();
}
std::unique_ptr<TokenFilter> make_katakana_join_filter() {
  return std::make_unique<KatakanaJoin>();
}
std::unique_ptr<TokenFilter> make_nfkc_casefold_filter() {
  return std::make_unique<NfkcCasefold>();
}
std::unique_ptr<TokenFilter> make_long_vowel_filter() {
  return std::make_unique<LongVowel>();
}
std::unique_ptr<TokenFilter> make_english_stem_filter() {
  return std::make_unique<EnglishStem>();
}

}  // namespace sagasu
