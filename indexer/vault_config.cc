#include "vault_config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/unicode.h"

namespace sagasu {

using unicode::fold_name;

Facet facet_named(std::string_view name) {
  for (Facet f : FACETS)
    if (f->name == name) return f;
  return nullptr;
}

namespace {

// The keys common vaults write, per facet: Zotero and Obsidian front matter,
// BibTeX field names, the rows of a paper-note table, their Japanese names.
// Kind keys in order of trust: entity_type says more than type.
const std::map<Facet, std::vector<std::string_view>>& default_keys() {
  static const std::map<Facet, std::vector<std::string_view>> keys{
      {&schema::VENUE,
       {"venue", "conference", "journal", "booktitle", "publication", "publicationTitle", "container-title",
        "proceedings", "source", "会議", "学会", "掲載誌", "雑誌"}},
      {&schema::YEAR,
       {"year", "date", "published", "date_published", "publication_date", "issued", "発行年", "出版年"}},
      {&schema::PERSON, {"author", "authors", "creator", "creators", "editor", "editors", "著者", "作者"}},
      {&schema::ORG,
       {"affiliation", "affiliations", "organization", "organisation", "organizations", "institution",
        "institutions", "所属", "所属機関"}},
      {&schema::KIND, {"entity_type", "kind", "type", "category"}},
      // tags and tag are the parser's (Note::tags: split into words, '#' dropped); a config may add keys.
      {&schema::TAG, {}},
  };
  return keys;
}

// Venues a path may name by their short name, with their usual spelling.
constexpr std::string_view KNOWN_VENUES[] = {
    "AAAI",  "ACL",         "arXiv", "ASPLOS", "CHI",    "CoRL",   "CSCW", "CVPR", "DAC",   "ECCV",
    "EMNLP", "EuroSys",     "FAST",  "HPCA",   "HRI",    "ICASSP", "ICCV", "ICLR", "ICML",  "ICRA",
    "IJCAI", "Interspeech", "IROS",  "ISCA",   "ISMIR",  "ITSC",   "IV",   "KDD",  "MICRO", "MLSys",
    "NAACL", "NeurIPS",     "NIME",  "NSDI",   "OOPSLA", "OSDI",   "PLDI", "POPL", "PPoPP", "RSS",
    "SC",    "SIGGRAPH",    "SIGIR", "SIGMOD", "SOSP",   "UIST",   "VLDB", "WWW"};

// Folders and file names that carry a venue and a year: papers/icra2025-arxiv/,
// 2025-icra-slug.md (a known venue only); a magazine issue, 「Scientific American 1970年6月号」.
constexpr std::pair<std::string_view, bool> DEFAULT_PATHS[] = {
    {"(?:^|/)(?<venue>[A-Za-z]{2,12})[-_ ]?(?<year>(?:19|20)\\d\\d)(?:[-_ ][^/]*)?/", true},
    {"(?:^|/)(?<year>(?:19|20)\\d\\d)[-_ ](?<venue>[A-Za-z]{2,12})[-_ ][^/]*$", true},
    {"(?:^|/)(?<venue>[^/]+?) ?(?<year>(?:19|20)\\d\\d)年\\d{1,2}月号\\.[^/.]+$", false},
};

}  // namespace

// Reads a config file into a VaultConfig, one error per problem, with its line.
class ConfigReader {
 public:
  ConfigReader(VaultConfig& config, std::string_view shown) : m_config(config), m_shown(shown) {}

  void read(const YAML::Node& root) {
    if (root.IsNull()) return;
    if (!root.IsMap())
      fail(root, "expected a map of sections (keys, ignore, paths, kinds, venues, people, organizations)");
    for (const auto& section : root) {
      const std::string name = scalar(section.first, "a section name");
      if (name == "keys")
        read_keys(section.second);
      else if (name == "ignore")
        for (const auto& key : list(section.second, "ignore")) m_config.m_ignored.insert(fold_name(key));
      else if (name == "paths")
        read_paths(section.second);
      else if (name == "kinds")
        read_kinds(section.second);
      else if (name == "venues")
        read_names(section.second, "venues", m_config.m_venues_lists);
      else if (name == "people")
        read_names(section.second, "people", m_config.m_people);
      else if (name == "organizations")
        read_names(section.second, "organizations", m_config.m_orgs);
      else
        fail(section.first,
             fmt::format("unknown section '{}' (expected keys, ignore, paths, kinds, venues, people or "
                         "organizations)",
                         name));
    }
  }

  // "FILE:LINE: problem": the run stops there.
  [[noreturn]] void fail(const YAML::Node& at, std::string_view problem) const {
    throw Error(fmt::format("{}:{}: {}", m_shown, at.Mark().line + 1, problem));
  }

 private:
  VaultConfig& m_config;
  std::string m_shown;

  std::string scalar(const YAML::Node& n, std::string_view what) const {
    if (!n.IsScalar()) fail(n, fmt::format("expected {}", what));
    return n.as<std::string>();
  }

  std::vector<std::string> list(const YAML::Node& n, std::string_view what) const {
    std::vector<std::string> out;
    if (n.IsNull()) return out;
    if (n.IsScalar()) return {n.as<std::string>()};
    if (!n.IsSequence()) fail(n, fmt::format("{}: expected a list", what));
    for (const auto& item : n)
      out.push_back(scalar(item, fmt::format("{}: a word, not a list or a map", what)));
    return out;
  }

  void read_keys(const YAML::Node& n) {
    if (!n.IsMap()) fail(n, "keys: expected facet: [property keys], e.g. venue: [Source]");
    for (const auto& kv : n) {
      const std::string facet = scalar(kv.first, "a facet name");
      const auto f = facet_named(facet);
      if (!f)
        fail(kv.first,
             fmt::format("keys.{}: unknown facet (expected venue, year, person, org, kind or tag)", facet));
      for (const auto& key : list(kv.second, "keys." + facet)) m_config.m_keys[f].push_back(fold_name(key));
    }
  }

  void read_paths(const YAML::Node& n) {
    if (!n.IsSequence()) fail(n, "paths: expected a list of regular expressions");
    std::size_t i = 0;
    for (const auto& item : n) {
      const std::string what = fmt::format("paths[{}]", i++);
      std::string error;
      auto p = compile_path(scalar(item, what + ": a regular expression"), false, error);
      if (!p) fail(item, what + ": " + error);
      m_config.m_paths.push_back(std::move(*p));
    }
  }

  void read_kinds(const YAML::Node& n) {
    if (!n.IsMap()) fail(n, "kinds: expected kind: [the vault's words for it], e.g. book: [monograph]");
    for (const auto& kv : n) {
      const std::string kind = scalar(kv.first, "a kind");
      m_config.m_kinds.add_kind(kind);
      for (const auto& word : list(kv.second, "kinds." + kind)) m_config.m_kinds.add_synonym(word, kind);
    }
  }

  void read_names(const YAML::Node& n, std::string_view section,
                  std::map<std::string, std::vector<std::string>>& into) {
    if (n.IsSequence()) {  // names without other spellings
      for (const auto& item : n) into[scalar(item, fmt::format("{}: a name", section))];
      return;
    }
    if (!n.IsMap()) fail(n, fmt::format("{}: expected name: [other spellings]", section));
    for (const auto& kv : n) {
      const std::string name = scalar(kv.first, "a name");
      for (const auto& other : list(kv.second, fmt::format("{}.{}", section, name)))
        into[name].push_back(other);
      into[name];
    }
  }

 public:
  // A path pattern; nullopt and error set when it does not compile or names no facet.
  static std::optional<PathPattern> compile_path(const std::string& source, bool defaults,
                                                 std::string& error) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError pe;
    std::shared_ptr<icu::RegexPattern> regex(
        icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(source), 0, pe, status));
    if (U_FAILURE(status)) {
      error = fmt::format("bad regular expression at character {}: {}", pe.offset + 1, u_errorName(status));
      return std::nullopt;
    }
    PathPattern p{regex, {}, defaults};
    for (Facet f : FACETS) {
      UErrorCode s = U_ZERO_ERROR;
      const int group = regex->groupNumberFromName(icu::UnicodeString::fromUTF8(std::string(f->name)), s);
      if (U_SUCCESS(s)) p.groups.emplace_back(f, group);
    }
    if (p.groups.empty()) {
      error = "no named group (?<venue>…), (?<year>…), (?<person>…), (?<org>…), (?<kind>…) or (?<tag>…)";
      return std::nullopt;
    }
    return p;
  }
};

VaultConfig::VaultConfig() {
  for (const auto& [facet, keys] : default_keys())
    for (std::string_view key : keys) m_keys[facet].push_back(fold_name(key));
  for (std::string_view v : KNOWN_VENUES) m_venues[fold_name(v)] = std::string(v);
  for (const auto& [source, known_only] : DEFAULT_PATHS) {
    std::string error;
    if (auto p = ConfigReader::compile_path(std::string(source), known_only, error))
      m_paths.push_back(std::move(*p));
  }
}

VaultConfig VaultConfig::load(const std::filesystem::path& file, std::string_view shown) {
  VaultConfig config;
  config.m_text = read_regular_file(file.string(), fmt::format("{} (the config file)", shown), 1u << 20);
  ConfigReader reader(config, shown);
  try {
    reader.read(YAML::Load(config.m_text));
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}:{}: malformed YAML: {}", shown, e.mark.line + 1, e.msg));
  }
  // Keys the vault uses otherwise (a `date` that is the day a note was written) are read by no facet.
  for (auto& [facet, keys] : config.m_keys)
    keys.erase(std::remove_if(keys.begin(), keys.end(),
                              [&](const std::string& k) { return config.m_ignored.count(k) > 0; }),
               keys.end());
  for (const auto& [canonical, others] : config.m_venues_lists) {
    config.m_venues[fold_name(canonical)] = canonical;
    for (const auto& o : others) config.m_venues[fold_name(o)] = canonical;
  }
  return config;
}

int VaultConfig::key_rank(Facet facet, std::string_view key) const {
  const auto it = m_keys.find(facet);
  if (it == m_keys.end()) return -1;
  const auto at = std::find(it->second.begin(), it->second.end(), fold_name(key));
  return at == it->second.end() ? -1 : static_cast<int>(at - it->second.begin());
}

bool VaultConfig::known_key(std::string_view key) const {
  const std::string folded = fold_name(key);
  // Keys every note may have, which no facet needs: the coverage report does not list them.
  for (std::string_view k : {"title", "aliases", "alias", "cssclass", "cssclasses", "tags", "tag"})
    if (folded == k) return true;
  if (m_ignored.count(folded)) return true;
  return std::any_of(FACETS.begin(), FACETS.end(), [&](Facet f) { return key_rank(f, key) >= 0; });
}

std::optional<std::string> VaultConfig::known_venue(std::string_view venue) const {
  const auto it = m_venues.find(fold_name(venue));
  if (it == m_venues.end()) return std::nullopt;
  return it->second;
}

}  // namespace sagasu
