// The vault's aliases as the index keeps them (schema.h: META_SYNONYM
// metadata, which every shard holds and the remote backend serves): a page's
// title and aliases name one thing.
#pragma once

#include <xapian.h>

#include <string>
#include <vector>

namespace sagasu {

class Synonyms {
 public:
  explicit Synonyms(const Xapian::Database& db) : m_db(db) {}
  /// The other names of a key: a text key (Analyzer::key) or an entity filter
  /// term (schema::filter_term); none when the key names nothing.
  std::vector<std::string> of(const std::string& key) const;

 private:
  const Xapian::Database& m_db;
};

}  // namespace sagasu
