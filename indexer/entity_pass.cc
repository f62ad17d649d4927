#include "entity_pass.h"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>

#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/unicode.h"
#include "vault_walk.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr const char* OVERRIDES_FILE = ".sagasu/entities.tsv";

// The override file's text; the overrides last read when it cannot be read,
// as an unreadable file must not silently undo them.
std::string read_overrides(const fs::path& root, const std::string& last_read, IndexReport& report) {
  std::error_code ec;
  const fs::path file = root / OVERRIDES_FILE;
  if (!fs::exists(file, ec)) return {};
  try {
    return read_vault_file(root.string(), file.string(), OVERRIDES_FILE, 1u << 24);
  } catch (const Error& e) {
    std::string reason = e.what();
    const std::string shown = std::string(OVERRIDES_FILE) + ": ";
    if (reason.rfind(shown, 0) == 0) reason.erase(0, shown.size());
    report.skipped.push_back({OVERRIDES_FILE, reason + " (the overrides last read are kept)"});
    return last_read;
  }
}

// The stored resolution: schema::RESOLUTION_FILE beside the first shard's
// generation, which each shard's META_RESOLUTION_HASH vouches for (an older
// Sagasu kept it in the index, META_RESOLUTION, where it is still read).
using schema::RESOLUTION_FILE;

// The hash of the resolution every shard holds, when the hashes vouch for it:
// each shard's was stored by the last commit (META_RESOLUTION_REVISION is the
// revision that commit made), and all are the same. A commit by another
// writer since (an older Sagasu, which stores a resolution but no hash) or a
// run killed between two shards' commits leaves none that vouches: "".
// (The entity rows' hash, META_ENTITY_ROWS_HASH, is vouched for the same way.)
std::string vouched_hash(ShardSet& shards, std::string_view key = schema::META_RESOLUTION_HASH) {
  std::string hash;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const Xapian::Database& db = shards.db(k);
    const std::string h = db.get_metadata(std::string(key));
    if (h.empty() || (k > 0 && h != hash) ||
        db.get_metadata(std::string(schema::META_RESOLUTION_REVISION)) != std::to_string(db.get_revision()))
      return {};
    hash = h;
  }
  return hash;
}

// The encoded resolution the last run stored, as the index holds it, if every
// shard holds the same one (compared, when no hash vouches for them); and its hash.
std::optional<std::string> stored_encoding(ShardSet& shards, const std::string& vouched, std::string& hash) {
  std::string last = shards.metadata(schema::META_RESOLUTION);
  hash = content_hash(last);
  if (!vouched.empty()) return hash == vouched ? std::optional(std::move(last)) : std::nullopt;
  for (std::size_t k = 1; k < shards.size(); ++k)
    if (shards.db(k).get_metadata(std::string(schema::META_RESOLUTION)) != last) return std::nullopt;
  return last;
}

// The resolution the last run stored, read, with the kinds it was resolved
// with, and its hash: from its file beside the index when a hash vouches for
// the resolution and the file has that hash, else from the index, where an
// older Sagasu kept it (and the file made for the next run).
std::optional<EntityResolver> stored_resolution(ShardSet& shards, std::string& hash) {
  const auto kinds = KindVocabulary::decode(shards.metadata(schema::META_KINDS));
  if (!kinds) return std::nullopt;
  const std::string vouched = vouched_hash(shards);
  if (auto copy = shards.cached(RESOLUTION_FILE, vouched)) {
    hash = vouched;
    return EntityResolver::deserialize(std::move(copy), *kinds);
  }
  auto encoded = stored_encoding(shards, vouched, hash);
  if (!encoded || encoded->empty()) return std::nullopt;
  shards.cache(RESOLUTION_FILE, *encoded);
  return EntityResolver::deserialize(std::move(*encoded), *kinds);
}

// Does every note's digest stand as the index holds it (no note new, gone or
// rewritten in what resolution reads)? Then resolving the vault again gives
// the stored resolution, and the run keeps it.
bool digests_unchanged(const IndexState& state) {
  if (!state.vanished().empty()) return false;
  const auto& notes = state.notes();
  std::vector<std::size_t> changed;
  for (std::size_t i = 0; i < notes.size(); ++i)
    if (notes[i].status == RunNote::Status::Changed) changed.push_back(i);
  state.load_values(changed);
  return std::all_of(changed.begin(), changed.end(),
                     [&](std::size_t i) { return state.digest_unchanged(notes[i]); });
}

// The config's lists of people and organizations: their kinds and other spellings.
void add_name_lists(const VaultConfig& config, EntityResolver& resolver) {
  for (const auto& [name, others] : config.people()) resolver.add_name(name, kinds::PERSON, others);
  for (const auto& [name, others] : config.organizations())
    resolver.add_name(name, kinds::ORGANIZATION, others);
}

// Notes whose facets depend on an entity whose name or kind changed: they are
// rebuilt too, though their files did not change.
// The resolution before the change is the one the last run stored (the same
// config, or the index would be rebuilt), else that of the indexed digests.
std::set<std::string> notes_to_refresh(const EntityResolver& now, const IndexState& state, ShardSet& shards,
                                       const VaultConfig& config, const std::string& old_overrides) {
  std::string hash;
  std::optional<EntityResolver> before = stored_resolution(shards, hash);
  if (!before) {
    before.emplace(config.kinds());
    add_name_lists(config, *before);
    state.load_digests();
    for (const auto& [path, ix] : state.indexed())
      if (auto d = NoteDigest::decode(*ix.digest)) before->add(std::move(*d));
    before->load_overrides(old_overrides);
    before->finish();
  }
  const std::set<std::string> changed = now.changed_names(*before);
  std::set<std::string> refresh;
  // The notes linking a changed name.
  std::set<std::pair<std::size_t, Xapian::docid>> linking;
  for (const auto& name : changed) {
    const std::string term = schema::filter_term(schema::LINK, name);
    for (std::size_t k = 0; k < shards.size(); ++k)
      for (auto p = shards.db(k).postlist_begin(term); p != shards.db(k).postlist_end(term); ++p)
        linking.emplace(k, *p);
  }
  if (!linking.empty())
    for (const auto& [path, ix] : state.indexed())
      if (linking.count({ix.shard, ix.docid})) refresh.insert(path);
  // The pages of a changed name: every note whose title folds as the name
  // does (two folders may hold pages of one name). Titles that fold alike
  // resolve alike, so only the titles resolving as a changed name are folded.
  std::map<std::string, std::set<std::string>> folded_by_canonical;
  for (const auto& name : changed) folded_by_canonical[now.canonical(name)].insert(unicode::fold_name(name));
  for (const RunNote& n : state.notes()) {
    if (!n.has_digest()) continue;
    const std::string_view title = note_title(n.file->path);  // (its digest's title, without reading it)
    const auto it = folded_by_canonical.find(now.canonical(title));
    if (it != folded_by_canonical.end() && it->second.count(unicode::fold_name(title)))
      refresh.insert(n.file->path);
  }
  return refresh;
}

// Every name the notes link, list or credit, with its kind and evidence (for
// --report entities: `entity_notes`); the unresolved ones again with the
// notes mentioning them. Without entity_notes only the names of no kind are
// gathered (a full pass of a large vault: each named entity's evidence written
// out was half a second of a run that prints none of it).
void report_entities(const std::vector<std::string_view>& paths, const EntityResolver& resolver,
                     bool entity_notes, IndexReport& report) {
  std::map<std::string, EntityInfo, std::less<>> entities;
  std::vector<EntityResolver::Mention> mentions;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    resolver.mentions(i, mentions);
    for (const auto& m : mentions) {
      if (m.kind && !entity_notes) continue;
      auto e = entities.find(m.canonical);
      if (e == entities.end()) {
        e = entities.emplace(std::string(m.canonical), EntityInfo{}).first;
        e->second.name = e->first;
        e->second.kind = resolver.kind(e->first);
        e->second.evidence = std::string(to_string(resolver.evidence(e->first)));
        if (const std::string detail = resolver.evidence_detail(e->first); !detail.empty())
          e->second.evidence += ": " + detail;
      }
      e->second.notes.emplace(paths[i]);
    }
  }
  for (auto& [name, e] : entities) {
    if (!e.kind) report.unresolved.push_back({e.name, e.notes});
    if (entity_notes) report.entities.push_back(std::move(e));
  }
}

// The findings: the unresolved entities and ambiguous aliases of a report, as JSON.
std::string encode_findings(const IndexReport& report) {
  nlohmann::json findings{{"unresolved", nlohmann::json::array()}, {"ambiguous", nlohmann::json::array()}};
  for (const auto& u : report.unresolved)
    findings["unresolved"].push_back({{"name", u.name}, {"notes", u.notes}});
  for (const auto& [alias, pages] : report.ambiguous)
    findings["ambiguous"].push_back({{"alias", alias}, {"pages", pages}});
  return findings.dump();
}

// The last run's unresolved entities and ambiguous aliases, into the report.
void decode_findings(const std::string& json, IndexReport& report) {
  const auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded()) return;
  for (const auto& u : j.value("unresolved", nlohmann::json::array()))
    report.unresolved.push_back({u.value("name", ""), u.value("notes", std::set<std::string>{})});
  for (const auto& a : j.value("ambiguous", nlohmann::json::array()))
    report.ambiguous[a.value("alias", "")] = a.value("pages", std::set<std::string>{});
}

}  // namespace

EntityPass::EntityPass(const IndexState& state, ShardSet& shards, const IndexOptions& opts,
                       const VaultConfig& config, const fs::path& root, IndexReport& report)
    : m_resolver(config.kinds()) {
  const std::string old_overrides = shards.metadata(schema::META_OVERRIDES);
  m_overrides = read_overrides(root, old_overrides, report);
  // (After a run that could not read some folders, what it derived without their notes is derived again.)
  const bool after_unreadable = !shards.metadata(schema::META_UNREADABLE).empty();
  m_any_change = shards.fresh() || m_overrides != old_overrides || state.vault_changed() || after_unreadable;
  // What resolution reads is as the last run left it: its resolution and findings stand.
  std::optional<EntityResolver> stored;
  if (!shards.fresh() && !after_unreadable && !opts.entity_notes && m_overrides == old_overrides &&
      !shards.metadata(schema::META_FINDINGS).empty() && digests_unchanged(state)) {
    stored = stored_resolution(shards, m_kept_hash);
    if (stored) {
      m_kept_rows_hash = vouched_hash(shards, schema::META_ENTITY_ROWS_HASH);
      m_resolver = std::move(*stored);
      m_reused = true;
      decode_findings(shards.metadata(schema::META_FINDINGS), report);
      return;
    }
  }
  resolve(state, shards, opts, config, report);
  if (!shards.fresh() && m_any_change)
    m_refresh = notes_to_refresh(m_resolver, state, shards, config, old_overrides);
}

// Pass 1 over every note's digest in path order, then the override file.
void EntityPass::resolve(const IndexState& state, ShardSet& shards, const IndexOptions& opts,
                         const VaultConfig& config, IndexReport& report) {
  add_name_lists(config, m_resolver);
  // The notes that did not change from the rows the last run stored; the
  // others from their digests, read in place (the indexed ones, when no rows
  // could be read).
  const auto& notes = state.notes();
  const bool rows =
      !shards.fresh() && m_resolver.read_rows(shards.cached(
                             schema::ENTITY_ROWS_FILE, vouched_hash(shards, schema::META_ENTITY_ROWS_HASH)));
  if (!rows) state.load_digests();
  std::unordered_map<std::string_view, std::size_t> stored;  // path → its stored note (when not in order)
  std::size_t next = 0;  // the stored note expected next (both are in path order)
  const auto stored_note = [&](std::string_view path) -> std::optional<std::size_t> {
    if (next < m_resolver.stored_notes() && m_resolver.stored_path(next) == path) return next++;
    if (stored.empty())
      for (std::size_t j = 0; j < m_resolver.stored_notes(); ++j)
        stored.emplace(m_resolver.stored_path(j), j);
    const auto at = stored.find(path);
    if (at == stored.end()) return std::nullopt;
    next = at->second + 1;
    return at->second;
  };
  std::vector<std::string_view> paths;  // the notes added, in order
  for (const RunNote& n : notes) {
    if (!n.has_digest()) continue;
    paths.push_back(n.file->path);
    const std::optional<std::size_t> j = rows && !n.read_now() ? stored_note(n.file->path) : std::nullopt;
    if (j)
      m_resolver.add_stored(*j);
    else if (n.read_now())
      m_resolver.add(n.digest());
    else
      m_resolver.add_encoded(state.indexed_digest(n.file->path));
  }
  for (const auto& problem : m_resolver.load_overrides(m_overrides))
    report.warnings.push_back({OVERRIDES_FILE, problem});
  m_resolver.finish();
  report.ambiguous = m_resolver.ambiguous();
  report_entities(paths, m_resolver, opts.entity_notes, report);
  m_findings = encode_findings(report);
  // The rows are kept beside the index now, before the commit that stores
  // their hash: a run stopped in between leaves a file no hash vouches for.
  // (Rows that cannot be written, on a full disk: none, and the next run reads every digest.)
  m_rows_hash = shards.cache(schema::ENTITY_ROWS_FILE, [&](const auto& out) { m_resolver.rows(paths, out); });
  m_resolver.release_rows();
}

std::optional<std::size_t> EntityPass::unresolved_in_index(const std::string& index) {
  std::string findings;
  try {
    findings = Xapian::Database(index).get_metadata(std::string(schema::META_FINDINGS));
  } catch (const Xapian::Error&) {
    return std::nullopt;  // no index yet
  }
  IndexReport last;
  decode_findings(findings, last);
  if (findings.empty()) return std::nullopt;
  return last.unresolved.size();
}

std::vector<std::pair<std::string, std::string>> EntityPass::metadata(const ShardSet& shards) const {
  std::vector<std::pair<std::string, std::string>> meta{{std::string(schema::META_OVERRIDES), m_overrides}};
  if (!m_reused) {
    meta.emplace_back(std::string(schema::META_FINDINGS), m_findings);
    // (A 100k vault's resolution is 20 MB: copied into the index and committed
    // there, then copied to its file, it was 0.2 s of a run that adds a name.)
    const std::string_view resolution = m_resolver.stored_encoding();
    meta.emplace_back(std::string(schema::META_RESOLUTION_HASH), content_hash(resolution));
    // (An older run's resolution in the index goes: no later run may take it for this one.)
    meta.emplace_back(std::string(schema::META_RESOLUTION),
                      shards.cache(RESOLUTION_FILE, resolution) ? std::string() : std::string(resolution));
    meta.emplace_back(std::string(schema::META_KINDS), m_resolver.vocabulary().encode());
    meta.emplace_back(std::string(schema::META_ENTITY_ROWS_HASH), m_rows_hash);
    return meta;
  }
  // (The resolution kept: its hash and its rows' again, for the revision this commit makes.)
  if (!m_kept_hash.empty()) meta.emplace_back(std::string(schema::META_RESOLUTION_HASH), m_kept_hash);
  meta.emplace_back(std::string(schema::META_ENTITY_ROWS_HASH), m_kept_rows_hash);
  return meta;
}

void EntityPass::stamp(ShardSet& shards) const {
  const bool hashed = !m_reused || !m_kept_hash.empty();  // (metadata() stored the hash)
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Xapian::WritableDatabase& db = shards.db(k);
    db.set_metadata(std::string(schema::META_RESOLUTION_REVISION),
                    hashed ? std::to_string(db.get_revision() + 1) : std::string());
  }
}

}  // namespace sagasu
