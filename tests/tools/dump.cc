// sagasu-dump: prints an index in a canonical order (documents by unique id,
// with every term, wdf, position and value; the synonym table; the metadata),
// so that two indexes can be compared with diff: an incremental update must
// give exactly what a full rebuild gives. Values are named by their slot in
// schema.h; META, STATE and DIGEST are decoded with their one codec
// (stored_note.h) and printed field by field, so a difference names the field.
// The entity resolution, kept in a file beside the generation, is printed
// with the metadata that vouches for it.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <xapian.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "sagasu/facet_columns.h"
#include "sagasu/index_layout.h"
#include "sagasu/note.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "vault_walk.h"  // content_hash

using namespace sagasu;

namespace {

// A value as printed: NUL bytes (the separator of packed and STATE values) shown as \0.
std::string shown(std::string_view v) {
  std::string out;
  for (char c : v) out += c == '\0' ? std::string("\\0") : std::string(1, c);
  return out;
}

// The slot's name in schema.h, or "" for a slot it does not name.
std::string_view slot_name(unsigned slot) {
  for (const auto& s : schema::SLOTS)
    if (s.slot == slot) return s.name;
  return "";
}

std::string kind_or_none(const std::optional<Kind>& k) {
  return k.value_or("-");
}

// A structured value's fields print as "value SLOT NAME.FIELD VALUE", lists
// one item a line in stored order; each printer says false when the value
// does not decode.
using Field = std::function<void(std::string_view name, std::string_view value)>;

bool print_meta(std::string_view v, const Field& field) {
  const auto m = NoteMeta::decode(v);
  if (!m) return false;
  field("path", m->path);
  field("title", m->title);
  field("kind", m->kind);
  for (const auto& n : m->names) field("name", n);
  for (const auto& c : m->citations) field("citation", fmt::format("{}-{} {}", c.begin, c.end, c.key));
  return true;
}

bool print_state(std::string_view v, const Field& field) {
  const auto s = FileState::decode(v);
  if (!s) return false;
  field("path", s->path);
  field("size", std::to_string(s->size));
  field("mtime_ns", std::to_string(s->mtime_ns));
  field("hash", s->hash);
  return true;
}

bool print_digest(std::string_view v, const Field& field) {
  const auto d = NoteDigest::decode(v);
  if (!d) return false;
  field("title", d->title);
  field("display_title", d->display_title);
  field("source", d->source ? "yes" : "no");
  for (const auto& a : d->aliases) field("alias", a);
  for (const auto& w : d->kind_words) field(w.declared ? "declared" : "kind_tag", w.word);
  field("structure", kind_or_none(d->structure));
  for (const auto& [name, kind] : d->labelled) field("labelled", fmt::format("{} {}", kind, name));
  for (const auto& n : d->names) field("name", n);
  return true;
}

bool print_coverage(std::string_view v, const Field& field) {
  const auto c = NoteCoverage::decode(v);
  if (!c) return false;
  for (const auto& [facet, from] : c->sources)
    field("from", fmt::format("{} {}", facet, fmt::join(from, ", ")));
  for (const auto& u : c->unmapped) field("unmapped", u);
  return true;
}

void print_value(unsigned slot, std::string_view v) {
  const std::string head = fmt::format("  value {} {}", slot, slot_name(slot));
  const Field field = [&](std::string_view name, std::string_view value) {
    fmt::print("{}.{} {}\n", head, name, shown(value));
  };
  bool decoded = true;
  if (slot == schema::SLOT_META)
    decoded = print_meta(v, field);
  else if (slot == schema::SLOT_STATE)
    decoded = print_state(v, field);
  else if (slot == schema::SLOT_DIGEST)
    decoded = print_digest(v, field);
  else if (slot == schema::SLOT_COVERAGE)
    decoded = print_coverage(v, field);
  else
    fmt::print("{} {}\n", head, shown(v));
  // Printed raw and marked, so that it differs from any value that decodes.
  if (!decoded) fmt::print("{} UNDECODABLE {}\n", head, shown(v));
}

// The folder of the generation an index folder's stub names (or the folder itself).
std::string generation_folder(const std::string& index) {
  const auto entries = layout::read_stub(index);
  return entries.size() == 1 ? (std::filesystem::path(index) / entries.front()).string() : index;
}

// A document's values in the facet columns, facet by facet.
void print_columns(const FacetColumns& columns, Xapian::docid did) {
  for (const auto& f : schema::FIELDS) {
    if (!f.is_facet()) continue;
    const FacetColumn* c = columns.column(static_cast<Xapian::valueno>(f.facet_slot));
    if (!c) {
      fmt::print("  column {} missing\n", f.name);
      continue;
    }
    std::vector<std::uint32_t> counts(c->values.size(), 0);
    c->count(did, counts);
    std::vector<std::string_view> values;
    for (std::size_t o = 0; o < counts.size(); ++o)
      if (counts[o]) values.push_back(c->values[o]);
    std::sort(values.begin(), values.end());
    fmt::print("  column {} {}\n", f.name, fmt::join(values, "|"));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: sagasu-dump INDEX\n");
    return 2;
  }
  try {
    Xapian::Database db(argv[1]);
    std::map<std::string, Xapian::docid> by_id;
    for (auto t = db.allterms_begin("Q"); t != db.allterms_end("Q"); ++t) {
      auto p = db.postlist_begin(*t);
      if (p != db.postlist_end(*t)) by_id[*t] = *p;
    }
    fmt::print("documents {}\n", db.get_doccount());
    // The facet columns of the generation, when they describe this revision.
    const auto columns = FacetColumns::open(generation_folder(argv[1]), db);
    fmt::print("facet columns {}\n", columns ? "current" : "none or stale");
    for (const auto& [id, did] : by_id) {
      const Xapian::Document doc = db.get_document(did);
      fmt::print("doc {}\n", id);
      if (columns) print_columns(*columns, did);
      for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
        std::string pos;
        for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p) pos += fmt::format(" {}", *p);
        fmt::print("  term {} wdf {}{}\n", *t, t.get_wdf(), pos.empty() ? "" : " pos" + pos);
      }
      for (auto v = doc.values_begin(); v != doc.values_end(); ++v) print_value(v.get_valueno(), *v);
      fmt::print("  data {}\n", doc.get_data());
    }
    for (auto k = db.synonym_keys_begin(); k != db.synonym_keys_end(); ++k)
      for (auto s = db.synonyms_begin(*k); s != db.synonyms_end(*k); ++s)
        fmt::print("synonym {} -> {}\n", *k, *s);
    for (auto k = db.metadata_keys_begin(); k != db.metadata_keys_end(); ++k)
      if (*k != schema::META_COVERAGE_REVISION && *k != schema::META_RESOLUTION_REVISION &&
          *k != schema::META_RUN &&
          *k != schema::META_SKIPPED)  // how the index came to be, not what it holds
        fmt::print("metadata {} {}\n", *k, db.get_metadata(*k));
    // (The file entity_pass.cc keeps the resolution in; it is the index's while it has the hash the index
    // holds.)
    std::ifstream in(std::filesystem::path(generation_folder(argv[1])) / schema::RESOLUTION_FILE,
                     std::ios::binary);
    const std::string resolution{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const bool current =
        db.get_metadata(std::string(schema::META_RESOLUTION_HASH)) == content_hash(resolution);
    fmt::print("resolution file {}\n", current ? shown(resolution) : "none or stale");
  } catch (const Xapian::Error& e) {
    fmt::print(stderr, "sagasu-dump: {}: {}\n", argv[1], e.get_description());
    return 2;
  }
  return 0;
}
