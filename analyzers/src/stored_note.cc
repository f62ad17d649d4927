#include "sagasu/stored_note.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <nlohmann/json.hpp>

#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/strings.h"

namespace sagasu {
namespace {

// META's field names.
constexpr const char* META_PATH = "path";
constexpr const char* META_TITLE = "title";
constexpr const char* META_KIND = "kind";
constexpr const char* META_NAMES = "names";
constexpr const char* META_CITATIONS = "citations";  // [[begin, end, key]] spans in the text

// The digest's layout and what it holds (the kinds, venues, years and glosses
// a note states): a version another build of Sagasu wrote is read again from the note.
// d11: a term of Japanese and a Latin word is glossed whole (仮想 DOM（virtual DOM）).
constexpr std::string_view DIGEST_VERSION = "d11";
constexpr std::string_view COVERAGE_VERSION = "c1";

// Provenance's names, in its order.
constexpr std::array<const char*, 12> PROVENANCE_NAMES{"gloss",   "abbreviation", "link",       "dictionary",
                                                       "name",    "sound",        "words",      "romaji",
                                                       "reading", "okurigana",    "definition", "kana"};

}  // namespace

const char* to_string(Provenance how) {
  return PROVENANCE_NAMES.at(static_cast<std::size_t>(how));
}

std::optional<Provenance> provenance_of(std::string_view name) {
  for (std::size_t i = 0; i < PROVENANCE_NAMES.size(); ++i)
    if (name == PROVENANCE_NAMES[i]) return static_cast<Provenance>(i);
  return std::nullopt;
}

std::string NoteMeta::encode() const {
  nlohmann::json j;
  j[META_PATH] = path;
  j[META_TITLE] = title;
  j[META_KIND] = kind;
  j[META_NAMES] = names;
  auto cites = nlohmann::json::array();
  for (const auto& c : citations) cites.push_back({c.begin, c.end, c.key});
  j[META_CITATIONS] = std::move(cites);
  return j.dump();
}

std::optional<NoteMeta> NoteMeta::decode(std::string_view value) {
  const auto j = nlohmann::json::parse(value, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  NoteMeta m;
  try {
    m.path = j.value(META_PATH, "");
    m.title = j.value(META_TITLE, "");
    m.kind = j.value(META_KIND, "");
    for (const auto& a : j.value(META_NAMES, nlohmann::json::array()))
      if (a.is_string()) m.names.push_back(a.get<std::string>());
    // Offsets only as the unsigned integers encode() writes: a float such as
    // 1e55 would convert to size_t with undefined behaviour (found by fuzzing).
    for (const auto& c : j.value(META_CITATIONS, nlohmann::json::array()))
      if (c.is_array() && c.size() == 3 && c[0].is_number_unsigned() && c[1].is_number_unsigned() &&
          c[2].is_string())
        m.citations.push_back({c[0].get<std::size_t>(), c[1].get<std::size_t>(), c[2].get<std::string>()});
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return m;
}

NoteMeta NoteMeta::of(const Xapian::Document& doc) {
  auto m = decode(doc.get_value(schema::SLOT_META));
  if (!m) throw Error(fmt::format("document {} has unreadable metadata", doc.get_docid()));
  return std::move(*m);
}

std::string FileState::encode() const {
  return fmt::format("{}{}{}{}{}{}{}", path, '\0', size, '\0', mtime_ns, '\0', hash);
}

// (Read for every note of the vault by every run: its four fields are cut out
// in place, not split into strings.)
std::optional<FileState> FileState::decode(std::string_view value) {
  std::string_view f[4];
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t end = value.find('\0');
    if (end == std::string_view::npos) return std::nullopt;
    f[i] = value.substr(0, end);
    value.remove_prefix(end + 1);
  }
  if (value.find('\0') != std::string_view::npos) return std::nullopt;
  f[3] = value;
  FileState state{std::string(f[0]), 0, 0, std::string(f[3])};
  std::from_chars(f[1].data(), f[1].data() + f[1].size(), state.size);  // (not a number: 0)
  std::from_chars(f[2].data(), f[2].data() + f[2].size(), state.mtime_ns);
  return state;
}

std::string_view FileState::path_of(std::string_view value) {
  return value.substr(0, value.find('\0'));
}

std::string NoteCoverage::encode() const {
  std::string out(COVERAGE_VERSION);
  put_field(out, std::to_string(sources.size()));
  for (const auto& [facet, from] : sources) {
    put_field(out, facet);
    put_field(out, std::to_string(from.size()));
    for (const auto& f : from) put_field(out, f);
  }
  put_field(out, std::to_string(unmapped.size()));
  for (const auto& u : unmapped) put_field(out, u);
  return out;
}

std::optional<NoteCoverage> NoteCoverage::decode(std::string_view in) {
  if (in.substr(0, COVERAGE_VERSION.size()) != COVERAGE_VERSION) return std::nullopt;
  in.remove_prefix(COVERAGE_VERSION.size());
  NoteCoverage c;
  std::string count, facet, s;
  auto number = [&](std::size_t& n) {
    if (!get_field(in, count)) return false;
    n = std::strtoul(count.c_str(), nullptr, 10);
    return true;
  };
  std::size_t facets = 0, n = 0;
  if (!number(facets)) return std::nullopt;
  for (std::size_t i = 0; i < facets; ++i) {
    if (!get_field(in, facet) || !number(n)) return std::nullopt;
    auto& from = c.sources[facet];
    for (std::size_t j = 0; j < n; ++j) {
      if (!get_field(in, s)) return std::nullopt;
      from.insert(s);
    }
  }
  if (!number(n)) return std::nullopt;
  for (std::size_t j = 0; j < n; ++j) {
    if (!get_field(in, s)) return std::nullopt;
    c.unmapped.push_back(s);
  }
  if (!in.empty()) return std::nullopt;
  return c;
}

NoteText NoteText::of(const Xapian::Document& doc) {
  NoteText t;
  t.body = doc.get_data();
  // Only the title and names of META: the verifier reads this for every
  // candidate, and a note's citation spans (long keys) are not needed here.
  const auto j = nlohmann::json::parse(doc.get_value(schema::SLOT_META), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return t;
  if (const auto title = j.find(META_TITLE); title != j.end() && title->is_string())
    t.names = title->get<std::string>();
  if (const auto names = j.find(META_NAMES); names != j.end() && names->is_array())
    for (const auto& n : *names)
      if (n.is_string()) t.names += "\n" + n.get<std::string>();
  return t;
}

void put_field(std::string& out, std::string_view s) {
  std::size_t n = s.size();
  do {
    unsigned char b = n & 0x7F;
    n >>= 7;
    if (n) b |= 0x80;
    out += static_cast<char>(b);
  } while (n);
  out.append(s);
}

bool get_field(std::string_view& in, std::string_view& field) {
  std::size_t n = 0;
  int shift = 0;
  while (true) {
    if (in.empty() || shift > 35) return false;
    const unsigned char b = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    n |= static_cast<std::size_t>(b & 0x7F) << shift;
    shift += 7;
    if (!(b & 0x80)) break;
  }
  if (in.size() < n) return false;
  field = in.substr(0, n);
  in.remove_prefix(n);
  return true;
}

bool get_field(std::string_view& in, std::string& s) {
  std::string_view field;
  if (!get_field(in, field)) return false;
  s.assign(field);
  return true;
}

bool NoteDigest::operator==(const NoteDigest& o) const {
  return title == o.title && display_title == o.display_title && source == o.source && aliases == o.aliases &&
         kind_words == o.kind_words && structure == o.structure && labelled == o.labelled &&
         names == o.names && venues == o.venues && years == o.years && text_year == o.text_year &&
         bibliographic == o.bibliographic && defined == o.defined && defined_by == o.defined_by &&
         hints == o.hints && lists == o.lists && glosses == o.glosses;
}

std::string NoteDigest::encode() const {
  std::string out(DIGEST_VERSION);
  put_field(out, title);
  put_field(out, display_title);
  put_field(out, source ? "1" : "");
  put_field(out, std::to_string(kind_words.size()));
  for (const auto& w : kind_words) put_field(out, (w.declared ? "=" : "#") + w.word);
  put_field(out, structure.value_or(""));
  put_field(out, std::to_string(aliases.size()));
  for (const auto& a : aliases) put_field(out, a);
  put_field(out, std::to_string(labelled.size()));
  for (const auto& [name, kind] : labelled) {
    put_field(out, name);
    put_field(out, kind);
  }
  for (const auto* list : {&names, &venues, &years}) {
    put_field(out, std::to_string(list->size()));
    for (const auto& n : *list) put_field(out, n);
  }
  put_field(out, text_year);
  put_field(out, bibliographic ? "1" : "");
  put_field(out, defined.value_or(""));
  put_field(out, defined_by);
  put_field(out, std::to_string(hints.size()));
  for (const auto& h : hints) {
    put_field(out, h.name);
    put_field(out, h.kind);
    put_field(out, h.marker);
  }
  put_field(out, std::to_string(lists.size()));
  for (const auto& list : lists) {
    put_field(out, std::to_string(list.size()));
    for (const auto& n : list) put_field(out, n);
  }
  put_field(out, std::to_string(glosses.size()));
  for (const auto& g : glosses) {
    put_field(out, g.a);
    put_field(out, g.b);
    put_field(out, to_string(g.how));
  }
  return out;
}

bool NoteDigest::current(std::string_view value) {
  return strings::starts_with(value, DIGEST_VERSION);
}

std::string_view NoteDigest::version() {
  return DIGEST_VERSION;
}

namespace {

// A count field, into n.
bool get_count(std::string_view& in, std::size_t& n) {
  std::string_view field;
  if (!get_field(in, field)) return false;
  n = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), n);
  return ec == std::errc() && end == field.data() + field.size();
}

// A counted list of fields, each told to `each`.
template <class Each>
bool get_list(std::string_view& in, Each each) {
  std::size_t n = 0;
  if (!get_count(in, n)) return false;
  std::string_view field;
  for (std::size_t i = 0; i < n; ++i) {
    if (!get_field(in, field)) return false;
    each(field);
  }
  return true;
}

std::optional<Kind> kind_of(std::string_view v) {
  return v.empty() ? std::nullopt : std::optional<Kind>(v);
}

// A digest's fields as a NoteDigest (`page_only`: the page's fields, the rest left empty).
class ToDigest : public DigestFields {
 public:
  explicit ToDigest(NoteDigest& d, bool page_only = false) : m_d(d), m_page_only(page_only) {}
  void title(std::string_view v) override { m_d.title = v; }
  void display_title(std::string_view v) override { m_d.display_title = v; }
  void source(bool v) override { m_d.source = v; }
  void kind_word(std::string_view w, bool declared) override {
    m_d.kind_words.push_back({std::string(w), declared});
  }
  void structure(std::string_view k) override { m_d.structure = kind_of(k); }
  void alias(std::string_view v) override { m_d.aliases.emplace_back(v); }
  bool beyond_page() const override { return !m_page_only; }
  void labelled(std::string_view name, std::string_view kind) override {
    m_d.labelled.emplace_back(name, kind);
  }
  void name(std::string_view v) override { m_d.names.emplace_back(v); }
  void venue(std::string_view v) override { m_d.venues.emplace_back(v); }
  void year(std::string_view v) override { m_d.years.emplace_back(v); }
  void text_year(std::string_view v) override { m_d.text_year = v; }
  void bibliographic(bool v) override { m_d.bibliographic = v; }
  void defined(std::string_view kind, std::string_view by) override {
    m_d.defined = kind_of(kind);
    m_d.defined_by = by;
  }
  void hint(std::string_view name, std::string_view kind, std::string_view marker) override {
    m_d.hints.push_back({std::string(name), Kind(kind), std::string(marker)});
  }
  void list() override { m_d.lists.emplace_back(); }
  void member(std::string_view v) override { m_d.lists.back().emplace_back(v); }
  void gloss(std::string_view a, std::string_view b, Provenance how) override {
    m_d.glosses.push_back({std::string(a), std::string(b), how});
  }

 private:
  NoteDigest& m_d;
  bool m_page_only;
};

}  // namespace

bool NoteDigest::read(std::string_view in, DigestFields& to) {
  if (in.substr(0, DIGEST_VERSION.size()) != DIGEST_VERSION) return false;
  in.remove_prefix(DIGEST_VERSION.size());
  std::string_view a, b, c;
  const auto field = [&](std::string_view& f) { return get_field(in, f); };
  if (!field(a) || !field(b) || !field(c)) return false;
  to.title(a);
  to.display_title(b);
  to.source(c == "1");
  bool words_ok = true;
  if (!get_list(in,
                [&](std::string_view w) {
                  if (w.empty())
                    words_ok = false;
                  else
                    to.kind_word(w.substr(1), w[0] == '=');
                }) ||
      !words_ok || !field(a))
    return false;
  to.structure(a);
  if (!get_list(in, [&](std::string_view v) { to.alias(v); })) return false;
  if (!to.beyond_page()) return true;
  std::size_t n = 0;
  if (!get_count(in, n)) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!field(a) || !field(b) || b.empty()) return false;
    to.labelled(a, b);
  }
  if (!get_list(in, [&](std::string_view v) { to.name(v); }) ||
      !get_list(in, [&](std::string_view v) { to.venue(v); }) ||
      !get_list(in, [&](std::string_view v) { to.year(v); }) || !field(a) || !field(b))
    return false;
  to.text_year(a);
  to.bibliographic(b == "1");
  if (!field(a) || !field(b) || !get_count(in, n)) return false;
  to.defined(a, b);
  for (std::size_t i = 0; i < n; ++i) {
    if (!field(a) || !field(b) || !field(c)) return false;
    to.hint(a, b, c);
  }
  if (!get_count(in, n)) return false;
  for (std::size_t i = 0; i < n; ++i) {
    to.list();
    if (!get_list(in, [&](std::string_view v) { to.member(v); })) return false;
  }
  if (!get_count(in, n)) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!field(a) || !field(b) || !field(c)) return false;
    const std::optional<Provenance> how = provenance_of(c);
    if (!how || !is_learned(*how)) return false;
    to.gloss(a, b, *how);
  }
  return in.empty();
}

void NoteDigest::tell(DigestFields& to) const {
  to.title(title);
  to.display_title(display_title);
  to.source(source);
  for (const auto& w : kind_words) to.kind_word(w.word, w.declared);
  to.structure(structure ? std::string_view(*structure) : std::string_view());
  for (const auto& a : aliases) to.alias(a);
  if (!to.beyond_page()) return;
  for (const auto& [name, kind] : labelled) to.labelled(name, kind);
  for (const auto& n : names) to.name(n);
  for (const auto& v : venues) to.venue(v);
  for (const auto& y : years) to.year(y);
  to.text_year(text_year);
  to.bibliographic(bibliographic);
  to.defined(defined ? std::string_view(*defined) : std::string_view(), defined_by);
  for (const auto& h : hints) to.hint(h.name, h.kind, h.marker);
  for (const auto& list : lists) {
    to.list();
    for (const auto& n : list) to.member(n);
  }
  for (const auto& g : glosses) to.gloss(g.a, g.b, g.how);
}

std::optional<std::vector<Gloss>> NoteDigest::decode_glosses(std::string_view in) {
  struct Glosses : DigestFields {
    std::vector<Gloss> glosses;
    void gloss(std::string_view a, std::string_view b, Provenance how) override {
      glosses.push_back({std::string(a), std::string(b), how});
    }
  } g;
  if (!read(in, g)) return std::nullopt;
  return std::move(g.glosses);
}

std::optional<NoteDigest> NoteDigest::decode_page(std::string_view in) {
  NoteDigest d;
  ToDigest to(d, true);
  if (!read(in, to)) return std::nullopt;
  return d;
}

std::optional<NoteDigest> NoteDigest::decode(std::string_view in) {
  NoteDigest d;
  ToDigest to(d);
  if (!read(in, to)) return std::nullopt;
  return d;
}

}  // namespace sagasu
