#include "note_metadata.h"

#include <algorithm>
#include <cctype>

#include "sagasu/names.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

using strings::starts_with;
using strings::trim;

std::string_view to_string(Origin o) {
  static constexpr std::string_view NAMES[] = {"front matter", "table",     "inline field",
                                               "path",         "file name", "text"};
  static_assert(std::size(NAMES) == static_cast<std::size_t>(Origin::Text) + 1);
  return NAMES[static_cast<std::size_t>(o)];
}

std::vector<std::string> years_in(std::string_view v) {
  std::vector<std::string> out;
  auto digit = [&](std::size_t i) { return i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])); };
  for (std::size_t i = 0; i + 4 <= v.size(); ++i) {
    if ((i > 0 && digit(i - 1)) || digit(i + 4) || !digit(i) || !digit(i + 1) || !digit(i + 2) ||
        !digit(i + 3))
      continue;
    if (v.substr(i, 2) == "19" || v.substr(i, 2) == "20") out.emplace_back(v.substr(i, 4));
    i += 3;
  }
  return out;
}

bool NoteMetadata::bibliographic() const {
  auto own = [](const std::vector<Found>& values) {
    return std::any_of(values.begin(), values.end(), [](const Found& f) { return f.origin != Origin::Path; });
  };
  return own(persons) && (own(venues) || own(years));
}

namespace {

// A value as text: [[Target|shown]] → shown, [[Target]] → Target, [text](url) → text.
std::string plain(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    if (starts_with(v.substr(i), "[[")) {
      const auto close = v.find("]]", i + 2);
      if (close != std::string_view::npos) {
        std::string_view inner = v.substr(i + 2, close - i - 2);
        const auto bar = inner.find('|');
        out.append(bar == std::string_view::npos ? inner : inner.substr(bar + 1));
        i = close + 2;
        continue;
      }
    }
    if (v[i] == '[') {
      const auto close = v.find("](", i);
      const auto paren = close == std::string_view::npos ? close : v.find(')', close);
      if (paren != std::string_view::npos) {
        out.append(v.substr(i + 1, close - i - 1));
        i = paren + 1;
        continue;
      }
    }
    out += v[i++];
  }
  // Emphasis around the whole value ("*人文学部研究論集*") is not part of it.
  return std::string(trim(trim(out), "*_`"));
}

// The venues (and the years beside them) of a value such as "ICRA 2025 / arXiv":
// where a real venue is named, arXiv is only where the copy is.
void add_venues(NoteMetadata& m, std::string_view value, Origin o, const VaultConfig& config) {
  std::vector<std::string> venues;
  for (auto piece : strings::split(value, '/'))
    for (auto part : strings::split(piece, ';')) {
      std::string name(trim(part));
      for (const auto& y : years_in(name)) {
        m.years.push_back({y, o});
        name.replace(name.find(y), 4, " ");
      }
      name = normalize_venue(trim(name, " \t,.()'"));
      if (name.empty() || std::all_of(name.begin(), name.end(),
                                      [](char c) { return std::ispunct(static_cast<unsigned char>(c)); }))
        continue;
      venues.push_back(config.known_venue(name).value_or(name));
    }
  if (venues.size() > 1)
    venues.erase(std::remove_if(venues.begin(), venues.end(),
                                [](const std::string& v) { return unicode::fold_name(v) == "arxiv"; }),
                 venues.end());
  for (auto& v : venues) m.venues.push_back({std::move(v), o});
}

// Does a venue that a `source:` names read as one: a venue the config knows,
// a proceedings or journal name, or a short name written with a year (ICRA 2025)?
bool reads_as_venue(const std::string& venue, bool with_year, const VaultConfig& config) {
  if (config.known_venue(venue)) return true;
  const std::string folded = unicode::fold_name(venue);
  for (const char* word : {"proceedings", "conference", "symposium", "workshop", "journal", "transactions",
                           "letters", "review", "magazine", "論文誌", "学会", "会議", "研究会", "紀要",
                           "論集", "大会", "シンポジウム", "ジャーナル", "学会誌"})
    if (folded.find(unicode::fold_name(word)) != std::string::npos) return true;
  // A short name of capitals, written with a year: NeurIPS 2024, CoRL'23.
  const auto capitals = std::count_if(venue.begin(), venue.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  return with_year && capitals >= 2 && venue.size() <= 12 && venue.find(' ') == std::string::npos;
}

void add_value(NoteMetadata& m, Facet f, const std::string& raw, Origin o, const VaultConfig& config) {
  const std::string v = plain(raw);
  if (v.empty()) return;
  // A file ([[paper.pdf]]) is where a text is, not what it is.
  if (f != &schema::KIND && f != &schema::TAG && is_attachment(v)) return;
  if (f == &schema::VENUE) {
    // A `source:` that is a link (a web clipping's URL) names no venue.
    if (raw.find("://") == std::string::npos) add_venues(m, v, o, config);
  } else if (f == &schema::YEAR) {
    if (const auto ys = years_in(v); !ys.empty()) m.years.push_back({ys.front(), o});
  } else if (f == &schema::PERSON) {
    for (auto& p : names::split_people(v)) m.persons.push_back({std::move(p), o});
  } else if (f == &schema::ORG) {
    for (auto& org : names::split_organizations(v)) m.orgs.push_back({std::move(org), o});
  } else if (f == &schema::KIND) {
    // `type: entity` says only that entity_type tells the kind.
    if (unicode::fold_name(v) != "entity") m.kind_words.push_back({v, true});
  } else if (f == &schema::TAG) {
    m.tags.push_back({v, o});
  }
}

// A property's source is the origin of the same name.
static_assert(static_cast<int>(PropertySource::FrontMatter) == static_cast<int>(Origin::FrontMatter) &&
              static_cast<int>(PropertySource::Table) == static_cast<int>(Origin::Table) &&
              static_cast<int>(PropertySource::InlineField) == static_cast<int>(Origin::InlineField));

// Every property the config maps, kind keys by their rank (entity_type before type).
void read_properties(const Note& note, const VaultConfig& config, NoteMetadata& m) {
  std::vector<std::pair<int, KindWord>> kinds;
  for (const Property& p : note.properties) {
    const auto o = static_cast<Origin>(p.source);
    bool used = false;
    for (Facet f : FACETS) {
      const int rank = config.key_rank(f, p.key);
      if (rank < 0) continue;
      used = true;
      if (f == &schema::PERSON) {
        // One name alone must read as a person's; an author list is one of people.
        const std::size_t from = m.persons.size();
        for (const auto& v : p.values) add_value(m, f, v, o, config);
        if (m.persons.size() - from < 2)
          for (std::size_t i = from; i < m.persons.size(); ++i)
            m.persons[i].person_shaped = names::reads_as_person(m.persons[i].value);
        continue;
      }
      if (f == &schema::VENUE && unicode::fold_name(p.key) == "source") {
        // `source:` is where anything came from (a sync plugin's LINE, a file):
        // a venue only when it reads as one.
        NoteMetadata v;
        for (const auto& value : p.values) add_value(v, f, value, o, config);
        std::size_t kept = 0;
        for (auto& venue : v.venues)
          if (reads_as_venue(venue.value, !v.years.empty(), config)) {
            m.venues.push_back(std::move(venue));
            ++kept;
          }
        if (kept > 0) m.years.insert(m.years.end(), v.years.begin(), v.years.end());
        continue;
      }
      if (f != &schema::KIND) {
        for (const auto& v : p.values) add_value(m, f, v, o, config);
        continue;
      }
      NoteMetadata k;
      for (const auto& v : p.values) add_value(k, f, v, o, config);
      for (auto& w : k.kind_words) kinds.emplace_back(rank, std::move(w));
    }
    if (!used && !config.known_key(p.key))
      m.unmapped.push_back(std::string(to_string(p.source)) + ": " + p.key);
  }
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [rank, w] : kinds) m.kind_words.push_back(std::move(w));
}

// The named groups of every match of a path pattern. A default pattern's
// venue must be a venue the config knows: "notes2024/" names no venue.
void read_path(const PathPattern& pp, const std::string& path, const VaultConfig& config, NoteMetadata& m) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString upath = icu::UnicodeString::fromUTF8(path);
  std::unique_ptr<icu::RegexMatcher> matcher(pp.regex->matcher(upath, status));
  if (U_FAILURE(status)) return;
  while (matcher->find(status) && U_SUCCESS(status)) {
    std::vector<std::pair<Facet, std::string>> found;
    bool unknown_venue = false;
    for (const auto& [facet, group] : pp.groups) {
      UErrorCode s = U_ZERO_ERROR;
      std::string value;
      matcher->group(group, s).toUTF8String(value);
      if (U_FAILURE(s) || value.empty()) continue;
      if (facet == &schema::VENUE && pp.known_venues_only && !config.known_venue(value)) unknown_venue = true;
      found.emplace_back(facet, std::move(value));
    }
    if (unknown_venue) continue;
    for (const auto& [facet, value] : found) add_value(m, facet, value, Origin::Path, config);
  }
}

// A line that states no year of the work: a bare link, an ISBN, a date stamp.
bool no_year_line(std::string_view line) {
  line = trim(line);
  if (starts_with(line, "http://") || starts_with(line, "https://") || starts_with(line, "ISBN") ||
      starts_with(line, "978-") || starts_with(line, "979-"))
    return true;
  return line.size() == 10 && years_in(line).size() == 1 &&
         line.find_first_not_of("0123456789/-.") == line.npos;
}

// The year a work's title or opening lines give: "Scientific American 1970年6月号",
// "2023年 左右社", "Jonathan Sterne, 2021, Duke University Press". URLs do not count.
std::optional<std::string> opening_year(const Note& note) {
  std::vector<std::string> lines{note.display_title()};
  const std::vector<std::string> tags = note.own_tags;
  for (const auto& line : strings::split(note.text, '\n')) {
    if (lines.size() > 3) break;
    const auto words = strings::split_nonempty(line, ' ');
    const bool tag_line =
        !words.empty() && std::all_of(words.begin(), words.end(), [&](const std::string& w) {
          return std::find(tags.begin(), tags.end(), w) != tags.end();
        });
    if (!tag_line && !trim(line).empty() && !no_year_line(line)) lines.push_back(line);
  }
  for (const auto& line : lines)
    for (const auto& word : strings::split_nonempty(line, ' '))
      if (word.find("://") == std::string::npos)
        if (const auto ys = years_in(word); !ys.empty()) return ys.front();
  return std::nullopt;
}

}  // namespace

NoteMetadata read_metadata(const Note& note, const VaultConfig& config) {
  NoteMetadata m;
  if (note.source) {
    m.kind_words.push_back({std::string(kinds::SOURCE), true});
    m.venues.push_back({note.source->venue, Origin::FileName});
    m.years.push_back({std::to_string(note.source->year), Origin::FileName});
  }
  read_properties(note, config, m);
  for (const PathPattern& pp : config.paths()) read_path(pp, note.path, config, m);
  for (const auto& tag : note.own_tags) {
    // A nested tag under a kind key says the kind: #type/paper.
    const auto slash = tag.find('/');
    if (slash != std::string::npos && config.key_rank(&schema::KIND, tag.substr(0, slash)) >= 0)
      m.kind_words.push_back({tag.substr(slash + 1), true});
    else
      m.kind_words.push_back({tag, false});
  }
  m.text_year = opening_year(note);
  return m;
}

}  // namespace sagasu
