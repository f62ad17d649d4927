// The vault config file (.sagasu/config.yaml, or indexer --config FILE): what
// the facets read besides the defaults. Property keys (front matter, table
// rows, inline fields) per facet and keys no facet reads (ignore), path
// patterns (regular expressions with named groups) per facet, the kind vocabulary and its synonyms, venue
// spellings, and lists of people's and organizations' names. Without a file the defaults cover the common
// conventions; a file adds to them. A file that is wrong is one error naming the file, the line and the
// problem, before anything is written.
#pragma once

#include <unicode/regex.h>

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/kinds.h"
#include "sagasu/schema.h"

namespace sagasu {

/// A field of the schema's table that metadata can set.
using Facet = const schema::Field*;
/// The fields metadata can set: the facets, and tags. The config file calls
/// them by their names in schema.h (venue, year, person, org, kind, tag).
inline constexpr std::array<Facet, 6> FACETS{&schema::VENUE, &schema::YEAR, &schema::PERSON,
                                             &schema::ORG,   &schema::KIND, &schema::TAG};
/// The field of FACETS with this name, or nullptr.
Facet facet_named(std::string_view name);

/// A regular expression over vault-relative paths whose named groups are facets.
struct PathPattern {
  std::shared_ptr<const icu::RegexPattern> regex;  ///< compiled; matchers are made per use (thread-safe)
  std::vector<std::pair<Facet, int>> groups;       ///< facet → group number
  bool known_venues_only = false;                  ///< a default pattern: its venue must be a known venue
};

/// A vault's config: the defaults, and what its file adds.
class VaultConfig {
 public:
  /// The defaults alone (no file).
  VaultConfig();
  /// The defaults and the file, when file is not empty. Throws Error
  /// "FILE:LINE: problem" for a file that cannot be read or is wrong.
  static VaultConfig load(const std::filesystem::path& file, std::string_view shown_name);

  /// The file's text ("" without a file): an index built with another config is built again.
  const std::string& text() const { return m_text; }
  /// Where the facet's keys list this property key (folded as a name): 0 for
  /// the first (most trusted) key; -1 when the facet does not read it.
  int key_rank(Facet facet, std::string_view key) const;
  /// Is the key read for any facet (or a key every note has, such as title and aliases)?
  bool known_key(std::string_view key) const;
  const std::vector<PathPattern>& paths() const { return m_paths; }
  const KindVocabulary& kinds() const { return m_kinds; }
  /// The canonical spelling of a venue the config or the defaults know ("icra" → "ICRA"), if any.
  std::optional<std::string> known_venue(std::string_view venue) const;
  /// Name lists: canonical name → other spellings, per kind (person, organization).
  const std::map<std::string, std::vector<std::string>>& people() const { return m_people; }
  const std::map<std::string, std::vector<std::string>>& organizations() const { return m_orgs; }

 private:
  std::string m_text;
  std::map<Facet, std::vector<std::string>> m_keys;  // folded keys
  std::vector<PathPattern> m_paths;
  KindVocabulary m_kinds = KindVocabulary::defaults();
  std::map<std::string, std::string> m_venues;                     // folded spelling → canonical
  std::map<std::string, std::vector<std::string>> m_venues_lists;  // the file's venues section
  std::map<std::string, std::vector<std::string>> m_people, m_orgs;
  std::set<std::string> m_ignored;  // folded keys no facet reads, defaults or not

  friend class ConfigReader;
};

}  // namespace sagasu
