// A token of analysed text.
#pragma once

#include <cstdint>
#include <string>

namespace sagasu {

/// What a token stands for in the index.
enum class TokenKind : std::uint8_t {
  Word,  ///< a word term, positional
  Stem,  ///< the English stem of the preceding Word, same position, indexed with prefix Z
  /// A word of a name written as one (MegaScale, file_name, email.policy):
  /// indexed as a word at its name's position, so it matches as a word.
  Part,
};

/// One token: normalised text, word position, and byte offsets into the
/// original (un-normalised) input. Filters change text, never offsets.
struct Token {
  std::string text;
  std::uint32_t position = 0;
  std::uint32_t byte_begin = 0;
  std::uint32_t byte_end = 0;
  TokenKind kind = TokenKind::Word;

  bool operator==(const Token& o) const {
    return text == o.text && position == o.position && byte_begin == o.byte_begin && byte_end == o.byte_end &&
           kind == o.kind;
  }
};

}  // namespace sagasu
