// The token filters of the analyzer chain, in chain order.
#include <xapian.h>

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

}  // namespace

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
