// Did you mean: the closest index words to unknown query words, and the query
// with them in place. The library proposes; whether to run the corrected
// query is the caller's decision (the searcher command runs it once).
#pragma once

#include <xapian.h>

#include <string>
#include <vector>

#include "query_builder.h"

namespace sagasu {

/// For each word, the closest index word by edit distance, or an empty string
/// when the word is known or nothing is close: index words of two or more
/// characters that share the first character and differ by at most one edit
/// in four characters (one for 3–7, two for 8–11, …); words under three
/// characters are not corrected; the most frequent of the closest wins.
std::vector<std::string> suggest_words(const Xapian::Database& db, const std::vector<std::string>& words);

/// Did-you-mean for a query that found nothing: every suggested word (in
/// suggestions) and the query with each single unknown word replaced by its
/// suggestion (empty when nothing could be replaced).
struct Correction {
  std::vector<std::string> suggestions;
  std::string query;
};
Correction correct(const Xapian::Database& db, const std::string& query, const std::vector<Chunk>& chunks);

}  // namespace sagasu
