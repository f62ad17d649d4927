// Katakana compounds. Japanese writes a compound of loanwords as one run of
// katakana, one word term (ファイルロック, デッドロック: file lock, deadlock),
// and a word's letters are as often inside other words there (ブロック,
// クロック: block, clock). A longer word holds the word typed when it reads
// as the vault's words one after another with the word typed one of them
// (README "Matching"). The rules were chosen against longer words of
// ja-techdocs judged by reading (git log has the figures).
#pragma once

#include <xapian.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sagasu {

/// The katakana words of a database, folded (full-size kana), and how many
/// notes have each: the words a compound is read as.
class KatakanaWords {
 public:
  explicit KatakanaWords(const Xapian::Database& db);
  /// Notes with the folded word (with a long vowel mark at its end or not).
  Xapian::doccount notes(std::string_view folded) const;

 private:
  std::unordered_map<std::string, Xapian::doccount> m_notes;
};

/// Is the folded string one katakana word of two characters or more (ロック)?
bool katakana_word(std::string_view folded);

/// Is `word` (folded, no long vowel mark at its end) the start of a word of
/// the vault that more notes have, among `longer` (folded words holding it):
/// a word typed in part (プログラ: プログラム), whatever the vault holds alone?
bool partial_word(std::string_view word, const std::vector<std::string>& longer, const KatakanaWords& words);

/// Which of `longer` (folded words holding `word`) hold it as one of their
/// words: read as the fewest words of the vault (then the commonest), one of
/// those is `word` (with a long vowel mark or not) or a word that holds it so.
/// ファイルロック, ドメインネームサーバ (ネームサーバ holds サーバ) do;
/// ブロック, コードブロック (コード + ブロック) do not. A longer word with
/// no such reading holds it at one end, the rest no word of the vault
/// (デジタルデータ where デジタル is never alone).
std::vector<bool> holding_as_word(std::string_view word, const std::vector<std::string>& longer,
                                  const KatakanaWords& words);

}  // namespace sagasu
