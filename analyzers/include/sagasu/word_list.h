// The word list: every word term of a database (schema.h's unprefixed,
// case-folded terms), one per line, in a file beside the database of a
// generation. The substring tier uses it to prove candidates without reading
// their text: a note holding a word that contains the typed string (width
// and case folded) contains the string where a person accepts it — プログラ
// in プログラミング, server in webservers — so only the candidates with no
// such word are checked on their stored text. A scan of the mapped list
// costs about a millisecond per few megabytes, independent of the hits.
// Written by the indexer after each commit, read by the searcher; a file of
// another revision (a run killed before writing it) is ignored.
//
// File: "SGWL1\0\0\0"  u64 revision (generation_file.h)  then "\n" and each
// word followed by "\n", in the database's term order.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/generation_file.h"

namespace sagasu {

/// The file name of the word list in a generation folder.
inline constexpr std::string_view WORD_LIST_FILE = "sagasu-words";

class WordList {
 public:
  /// Writes the word list of db into folder (atomically) unless the file
  /// there describes db's revision already. Throws Error naming the file.
  static void write(const Xapian::Database& db, const std::string& folder);
  /// The list in folder when it describes exactly this revision of db; nullptr otherwise.
  static std::shared_ptr<const WordList> open(const std::string& folder, const Xapian::Database& db);

  /// The words that contain needle (which must not hold '\n'), at most max of
  /// them, in list order.
  std::vector<std::string> containing(std::string_view needle, std::size_t max) const;

 private:
  WordList() = default;
  std::unique_ptr<generation_file::Mapped> m_map;
};

}  // namespace sagasu
