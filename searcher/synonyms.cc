#include "synonyms.h"

#include <set>

#include "sagasu/schema.h"
#include "sagasu/strings.h"

namespace sagasu {

namespace {

// A key's entry (schema.h): the titles it is another name of, and the aliases it heads.
struct Entry {
  std::vector<std::string> titles, aliases;
};

Entry entry(const Xapian::Database& db, const std::string& key) {
  Entry e;
  const std::string px(schema::META_SYNONYM);
  if (key.empty() || px.size() + key.size() > schema::MAX_TERM_BYTES) return e;
  bool head = false;
  for (std::string& line : strings::split_nonempty(db.get_metadata(px + key), '\n')) {
    if (line == schema::SYNONYM_HEAD)
      head = true;
    else
      (head ? e.aliases : e.titles).push_back(std::move(line));
  }
  return e;
}

}  // namespace

std::vector<std::string> Synonyms::of(const std::string& key) const {
  // A title's other names are its aliases; an alias's are its titles and
  // their other aliases. Titles come first. (An index written before the star
  // held every pair: its entries are all titles here, with the same answer.)
  const Entry e = entry(m_db, key);
  std::vector<std::string> out = e.titles;
  for (const std::string& a : e.aliases) out.push_back(a);
  for (const std::string& title : e.titles)
    for (std::string& alias : entry(m_db, title).aliases) out.push_back(std::move(alias));
  std::vector<std::string> unique;
  std::set<std::string> seen{key};
  for (std::string& name : out)
    if (seen.insert(name).second) unique.push_back(std::move(name));
  return unique;
}

}  // namespace sagasu
