#include "entity_pass.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/strings.h"
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
    return read_vault_file(file, OVERRIDES_FILE, 1u << 24);
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
std::string vouched_hash(ShardSet& shards) {
  std::string hash;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const Xapian::Database& db = shards.db(k);
    const std::string h = db.get_metadata(std::string(schema::META_RESOLUTION_HASH));
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

// Is there a resolution the last run stored, the same on every shard? Its
// hash, if so: where the hashes vouch for it, it is not read.
bool stored_everywhere(ShardSet& shards, std::string& hash) {
  const std::string vouched = vouched_hash(shards);
  if (!vouched.empty()) {
    hash = vouched;
    return true;
  }
  const auto encoded = stored_encoding(shards, vouched, hash);
  return encoded && !encoded->empty();
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

// The documents whose notes name a page or name (its link term's postings), as
// (shard, docid); nullopt when its name is too long to be a term.
std::optional<std::set<std::pair<std::size_t, Xapian::docid>>> postings(const std::string& name,
                                                                        ShardSet& shards) {
  const std::string term = schema::filter_term(schema::LINK, name);
  if (term.size() >= schema::MAX_TERM_BYTES) return std::nullopt;
  std::set<std::pair<std::size_t, Xapian::docid>> docs;
  for (std::size_t k = 0; k < shards.size(); ++k)
    for (auto p = shards.db(k).postlist_begin(term); p != shards.db(k).postlist_end(term); ++p)
      docs.emplace(k, *p);
  return docs;
}

// Does a note's digest hold a spelling `is` takes, as a name, under a label,
// in the words around a link or in a list?
template <class Is>
bool spells(const NoteDigest& d, Is is) {
  return std::any_of(d.names.begin(), d.names.end(), is) ||
         std::any_of(d.labelled.begin(), d.labelled.end(), [&](const auto& l) { return is(l.first); }) ||
         std::any_of(d.hints.begin(), d.hints.end(), [&](const auto& h) { return is(h.name); }) ||
         std::any_of(d.lists.begin(), d.lists.end(),
                     [&](const auto& list) { return std::any_of(list.begin(), list.end(), is); });
}

// Does a note name a name (a spelling folding to its key) among its names?
bool names_key(const NoteDigest& d, const std::string& key) {
  return std::any_of(d.names.begin(), d.names.end(),
                     [&](const std::string& n) { return unicode::fold_name(n) == key; });
}

// Does any note spell this title? (Each note's stored digest is searched for
// its bytes first: most are not decoded.)
bool spelled_anywhere(const std::string& title, const IndexState& state) {
  state.load_digests();
  const std::boyer_moore_horspool_searcher bytes(title.begin(), title.end());
  for (const RunNote& n : state.notes()) {
    if (!n.has_digest()) continue;
    const std::string encoded = n.encoded_digest();
    if (std::search(encoded.begin(), encoded.end(), bytes) == encoded.end()) continue;
    if (spells(n.digest(), [&](const std::string& s) { return s == title; })) return true;
  }
  return false;
}

// The synonym table's entry (schema.h: META_SYNONYM) of a name's link term, which names the
// pages whose aliases fold like it; nullopt when the term is too long for the table to hold one.
std::optional<std::string> synonym_entry(std::string_view name) {
  const std::string term = schema::filter_term(schema::LINK, name);
  std::string entry = std::string(schema::META_SYNONYM) + term;
  if (term.size() >= schema::MAX_TERM_BYTES || entry.size() > schema::MAX_TERM_BYTES) return std::nullopt;
  return entry;
}

// Can a deleted note's page go without resolving the vault again, as far as
// the index and the config tell (EntityResolver::removed and orphaned ask the
// rest)? Only when no other page's alias folds like its title (the synonym
// table has no key for it) and no name of the config does. Then the other
// notes whose documents name it (its name's postings), as (shard, docid).
std::optional<std::set<std::pair<std::size_t, Xapian::docid>>> namers(const NoteDigest& before,
                                                                      const IndexedNote& ix, ShardSet& shards,
                                                                      const VaultConfig& config) {
  const auto synonym = synonym_entry(before.title);
  if (!synonym || !shards.metadata(*synonym).empty()) return std::nullopt;
  const std::string key = unicode::fold_name(before.title);
  for (const auto* names : {&config.people(), &config.organizations()})
    for (const auto& [name, others] : *names) {
      if (unicode::fold_name(name) == key) return std::nullopt;
      for (const auto& other : others)
        if (unicode::fold_name(other) == key) return std::nullopt;
    }
  auto docs = postings(before.title, shards);
  if (docs) docs->erase({ix.shard, ix.docid});
  return docs;
}

// Notes moved to another folder: a new note and a deleted one of one title,
// the only ones of that title this run adds and deletes, are one note whose
// path changed. Each such deleted path → the index of its new note in
// state.notes(). (A deleted path below a folder that could not be read is not deleted.)
// `changed`: the notes of the run that changed (new ones among them).
std::map<std::string, std::size_t> moved_notes(const IndexState& state,
                                               const std::vector<std::size_t>& changed,
                                               const std::set<std::string>& kept) {
  std::unordered_map<std::string_view, std::pair<const std::string*, int>> deleted;  // title → path, how many
  for (const std::string& path : state.vanished()) {
    auto& [which, count] = deleted[note_title(path)];
    which = &path;
    ++count;
  }
  std::unordered_map<std::string_view, std::pair<std::size_t, int>> added;  // title → note, how many
  const auto& notes = state.notes();
  for (const std::size_t i : changed)
    if (!notes[i].old)
      if (const auto d = deleted.find(note_title(notes[i].file->path)); d != deleted.end()) {
        auto& [which, count] = added[d->first];
        which = i;
        ++count;
      }
  std::map<std::string, std::size_t> moves;
  for (const auto& [title, note] : added)
    if (const auto& [path, count] = deleted.at(title); note.second == 1 && count == 1 && !kept.count(*path))
      moves.emplace(*path, note.first);
  return moves;
}

// A page renamed with every link to it rewritten (as Obsidian renames a
// note): the one path this run deletes that is no move and the one new note
// that is none, the new note reading as the old one relinked under its new
// title (EntityResolver::relinked; its glosses and shown title aside). A source page or one
// with aliases is weighed as a deletion and a new note.
struct Rename {
  const std::string* path = nullptr;  // the path deleted
  std::size_t note = 0;               // the new note (in state.notes())
  NoteDigest page;                    // the page as the index holds it
  std::string to;                     // its new title
};
std::optional<Rename> renamed_note(const IndexState& state, const std::vector<std::size_t>& changed,
                                   const std::map<std::string, std::size_t>& moves,
                                   const std::set<std::string>& kept) {
  Rename rename;
  for (const std::string& path : state.vanished())
    if (!moves.count(path) && !kept.count(path)) {
      if (rename.path) return std::nullopt;
      rename.path = &path;
    }
  if (!rename.path) return std::nullopt;
  std::set<std::size_t> moved;
  for (const auto& [path, i] : moves) moved.insert(i);
  const auto& notes = state.notes();
  std::optional<std::size_t> added;
  for (const std::size_t i : changed)
    if (!notes[i].old && !moved.count(i)) {
      if (added) return std::nullopt;
      added = i;
    }
  if (!added) return std::nullopt;
  auto page = NoteDigest::decode(state.indexed_digest(*rename.path));
  if (!page || page->source || !page->aliases.empty()) return std::nullopt;
  const NoteDigest& after = notes[*added].digest();
  NoteDigest was = EntityResolver::relinked(*page, page->title, after.title);
  was.title = after.title;
  was.display_title = after.display_title;  // (resolution reads none; the synonym table is built again)
  was.glosses = after.glosses;
  if (!(was == after)) return std::nullopt;
  rename.note = *added;
  rename.page = std::move(*page);
  rename.to = after.title;
  return rename;
}

// The last run's unresolved entities and ambiguous aliases, into the report.
void decode_findings(const std::string& json, IndexReport& report);

// Does a resolution stay the same wherever a note stands in the vault's order
// (EntityResolver::moves_freely), and does no other page give an alias of its
// (the first page in path order takes an alias two pages give: the last run's findings list them)?
bool moves_freely(const NoteDigest& d, const EntityResolver& resolver,
                  const std::function<bool(std::string_view)>& is_page, ShardSet& shards) {
  if (!resolver.moves_freely(d, is_page)) return false;
  if (d.aliases.empty()) return true;
  IndexReport last;
  decode_findings(shards.metadata(schema::META_FINDINGS), last);
  return std::none_of(d.aliases.begin(), d.aliases.end(), [&](const std::string& alias) {
    return last.ambiguous.count(unicode::fold_name(alias));
  });
}

// What an extended resolution changed besides itself.
struct Extended {
  bool extends = false;  // the stored resolution was extended (not kept as it is)
  // The names no page has that a note now mentions (true), or no longer does.
  struct Mention {
    std::string name, note;
    bool mentioned = true;
  };
  std::vector<Mention> mentions;
  bool pages_moved = false;         // a note's own kind or facts as a work changed
  std::vector<NoteDigest> aliased;  // the notes whose pages have more aliases
  // The aliases pages gave up: (folded key, page) each; the synonym table is built again.
  std::vector<std::pair<std::string, std::string>> aliases_gone;
  bool aliases_given_up = false;  // (whatever their keys: the synonym table's are the analyzer's)
  bool glosses = false;  // a note's glosses changed: the glossary is built again
  std::vector<std::string> adopted;  // names no page had that a new page took
  std::string stored_hash;           // the stored resolution's hash, once read or vouched for
  std::vector<std::pair<std::string, std::string>> moved;  // notes moved: (the path left, the new path)
};

// The config's lists of people and organizations: their kinds and other spellings.
void add_name_lists(const VaultConfig& config, EntityResolver& resolver);

// Does anything but one page's alias give this folded key: a page's title,
// another page's alias, a name of the config's lists? (EntityResolver::
// extended and removed, for a page giving up an alias.) Read from the vault
// as it is. An alias of a note changed (before or after) or deleted in this
// run, but the one weighed, or a deleted note's title, is contested: what it
// gives depends on the order the run's notes are weighed in, so the
// resolution is then resolved again (contested()).
// The other notes' aliases are not read: the synonym table names, under the
// key's link term, the title of every page an alias folding to the key
// named when the run began (as namers() reads it); each of those but the
// weighed page is a page the run leaves as it was (a changed or deleted one
// is in the run's keys). Only a key too long for the table reads every note's aliases.
class KeyGivers {
 public:
  /// `moves`: the notes moved or renamed, whose deleted paths are their new notes'.
  KeyGivers(const IndexState& state, ShardSet& shards, const VaultConfig& config,
            const std::map<std::string, std::size_t>& moves)
      : m_state(state), m_shards(shards), m_config(config), m_moves(moves) {}
  /// The note weighed next (its own aliases are no other page's).
  void weighing(const std::string& path) { m_self = &path; }
  bool contested() const { return m_contested; }
  bool operator()(std::string_view key) {
    if (!m_read) read();
    if (const auto run = m_run.find(std::string(key)); run != m_run.end())
      for (const std::string* path : run->second)
        if (!m_self || *path != *m_self) {
          m_contested = true;
          return true;
        }
    if (m_titles.count(std::string(key)) || m_keys.count(std::string(key))) return true;
    return m_aliases_read ? false : other_page_alias(key);
  }

 private:
  const IndexState& m_state;
  ShardSet& m_shards;
  const VaultConfig& m_config;
  const std::map<std::string, std::size_t>& m_moves;
  const std::string* m_self = nullptr;
  bool m_read = false, m_contested = false;
  bool m_aliases_read = false;                    // (every note's, in m_keys)
  std::unordered_set<std::string> m_keys;         // given as the vault is (but titles)
  std::unordered_map<std::string, int> m_titles;  // the notes' folded titles, how many
  std::unordered_map<std::string, std::vector<const std::string*>> m_run;  // given or taken in this run
  std::unordered_map<std::string, std::vector<const std::string*>> m_gone;  // deleted notes' folded titles

  void read() {
    m_read = true;
    m_titles.reserve(m_state.notes().size());
    for (const RunNote& n : m_state.notes()) {
      if (!n.has_digest()) continue;
      ++m_titles[unicode::fold_name(note_title(n.file->path))];
      if (n.status != RunNote::Status::Changed) continue;
      for (const auto& alias : n.page().aliases) m_run[unicode::fold_name(alias)].push_back(&n.file->path);
      if (n.old && n.old->digest)
        if (const auto old = NoteDigest::decode_page(*n.old->digest))
          for (const auto& alias : old->aliases) m_run[unicode::fold_name(alias)].push_back(&n.file->path);
    }
    for (const std::string& path : m_state.vanished()) {
      const auto moved = m_moves.find(path);
      const std::string* who = moved == m_moves.end() ? &path : &m_state.notes()[moved->second].file->path;
      const std::string title = unicode::fold_name(note_title(path));
      m_run[title].push_back(who);
      m_gone[title].push_back(who);
      if (const auto old = NoteDigest::decode_page(m_state.indexed_digest(path)))
        for (const auto& alias : old->aliases) m_run[unicode::fold_name(alias)].push_back(who);
    }
    for (const auto* names : {&m_config.people(), &m_config.organizations()})
      for (const auto& [name, others] : *names) {
        m_keys.insert(unicode::fold_name(name));
        for (const auto& other : others) m_keys.insert(unicode::fold_name(other));
      }
  }

  // Does an alias of a page the run leaves as it was fold to the key? Asked of the synonym
  // table (its pages as the run began); of every note's aliases when the key is too long for it.
  bool other_page_alias(std::string_view key) {
    const auto entry = synonym_entry(key);
    if (!entry) {
      read_aliases();
      return m_keys.count(std::string(key)) > 0;
    }
    const std::string self = m_self ? unicode::fold_name(note_title(*m_self)) : std::string();
    // A deleted note of this folded title but the weighed one (which may have moved from it)?
    const auto gone_other = [&](const std::string& title) {
      const auto gone = m_gone.find(title);
      return gone != m_gone.end() && std::any_of(gone->second.begin(), gone->second.end(),
                                                 [&](const auto* who) { return !m_self || *who != *m_self; });
    };
    for (const auto& line : strings::split_nonempty(m_shards.metadata(*entry), '\n')) {
      const std::string title = line.substr(std::min(line.size(), schema::LINK.prefix.size()));
      if (line.compare(0, schema::LINK.prefix.size(), schema::LINK.prefix) != 0 ||
          line.size() >= schema::MAX_TERM_BYTES) {
        m_contested = true;  // (not a page's whole link term: which page it names is not known)
        return true;
      }
      // The weighed page's own title names it there when it gave the alias; a page of a title
      // folding like its own, or a deleted one, would name it alike: which gave it is not known.
      if (m_self && title == self) {
        const auto current = m_titles.find(self);
        const int others = (current == m_titles.end() ? 0 : current->second) - (self_deleted() ? 0 : 1);
        if (others > 0 || gone_other(self)) {
          m_contested = true;
          return true;
        }
        continue;
      }
      if (gone_other(title)) m_contested = true;
      return true;
    }
    return false;
  }

  // Is the weighed note a deleted one (not among the vault's notes)?
  bool self_deleted() const {
    const auto& gone = m_state.vanished();
    return m_self && std::find(gone.begin(), gone.end(), *m_self) != gone.end();
  }

  // Every note's aliases into m_keys (the changed ones' are the run's).
  void read_aliases() {
    m_aliases_read = true;
    m_state.load_digests();
    for (const RunNote& n : m_state.notes())
      if (n.has_digest() && n.status != RunNote::Status::Changed)
        for (const auto& alias : n.page().aliases) m_keys.insert(unicode::fold_name(alias));
  }
};

// The resolution the index keeps, when it still holds: no override changed,
// and every changed note's digest is the same or changed in a way that
// provably moves no name (EntityResolver::keeps: a link added to a page that
// says what it is); or the stored resolution updated by what each change,
// new note and deleted note touches (EntityResolver::extended and removed: a
// new name, a name given up, a new page no note names, a page's own kind,
// more aliases; then `change` says what else changed). Resolving a large
// vault is most of such a run. `stored` is the stored resolution, when it had to be read.
std::optional<EntityResolver> kept_resolution(const IndexState& state, ShardSet& shards,
                                              const IndexOptions& opts, const VaultConfig& config,
                                              const std::string& old_overrides, const std::string& overrides,
                                              std::optional<EntityResolver>& stored, Extended& change) {
  if (shards.fresh() || opts.entity_notes || shards.metadata(schema::META_FINDINGS).empty())
    return std::nullopt;
  const auto& notes = state.notes();
  std::vector<std::size_t> changed;  // their indexed digests are compared
  for (std::size_t i = 0; i < notes.size(); ++i)
    if (notes[i].status == RunNote::Status::Changed) changed.push_back(i);
  state.load_values(changed);
  const std::set<std::string> kept = state.vanished().empty() ? std::set<std::string>() : state.kept();
  const std::map<std::string, std::size_t> moves = moved_notes(state, changed, kept);
  std::unordered_map<std::size_t, const std::string*> moved_from;  // a moved note → the path it left
  for (const auto& [path, i] : moves) moved_from.emplace(i, &path);
  std::optional<Rename> rename = renamed_note(state, changed, moves, kept);
  std::map<std::string, std::size_t> replaced = moves;  // deleted paths whose notes are elsewhere now
  if (rename) replaced.emplace(*rename->path, rename->note);
  // A changed note's digest before this run, as the vault after a rename reads it (its links relinked).
  const auto relinked = [&](NoteDigest d) {
    return rename ? EntityResolver::relinked(std::move(d), rename->page.title, rename->to) : d;
  };
  // A changed note's digest before this run: its path's, or the path it moved from; none for a new note.
  const auto previous = [&](std::size_t j) -> const std::string* {
    if (notes[j].old) return notes[j].old->digest.get();
    const auto from = moved_from.find(j);
    return from == moved_from.end() ? nullptr : &state.indexed_digest(*from->second);
  };
  std::unordered_map<std::string_view, int> titles;  // the vault's pages (notes per title), once read
  const auto is_page = [&](std::string_view name) { return titles.count(name) > 0; };
  KeyGivers givers(state, shards, config, replaced);  // (read when a page gives up an alias)
  const auto gives_key = [&](std::string_view key) { return givers(key); };
  // The stored resolution and the vault's titles, read when a digest differs.
  bool deleting = false;  // (weighing the notes deleted)
  const auto read_stored = [&] {
    if (stored) return true;
    if (!(stored = stored_resolution(shards, change.stored_hash))) return false;
    titles.reserve(notes.size() + state.vanished().size());
    for (const RunNote& page : notes)
      if (page.has_digest()) ++titles[note_title(page.file->path)];
    // (The notes deleted are pages still while the changed ones are weighed: they go last.)
    if (!deleting)
      for (const std::string& path : state.vanished())
        if (!replaced.count(path)) ++titles[note_title(path)];
    return true;
  };
  // The resolution as the notes before left it.
  std::optional<EntityResolver> extended;
  const auto now = [&]() -> const EntityResolver& { return extended ? *extended : *stored; };
  // The notes naming a page or name (its postings' documents: `named_by`, and
  // every note changed in this run but `self`), in the vault's order, as now()
  // knows them: a changed note weighed already (before `upto`) as it is now,
  // one not yet as it was (kept in `was`).
  std::deque<NoteDigest> was;
  struct Naming {
    std::vector<const NoteDigest*> digests;
    std::vector<const std::string*> paths;  // (each digest's note)
  };
  const auto naming_notes = [&](const std::set<std::pair<std::size_t, Xapian::docid>>& named_by,
                                std::size_t self, std::size_t upto) -> std::optional<Naming> {
    std::vector<std::size_t> which;
    for (std::size_t j = 0; j < notes.size(); ++j)
      if (j != self && notes[j].has_digest() &&
          (notes[j].status == RunNote::Status::Changed ||
           (notes[j].old && named_by.count({notes[j].old->shard, notes[j].old->docid}))))
        which.push_back(j);
    state.load_values(which);
    Naming naming;
    for (const std::size_t j : which) {
      if (notes[j].status != RunNote::Status::Changed || j < upto || (rename && j == rename->note)) {
        naming.digests.push_back(&notes[j].digest());
      } else if (const std::string* encoded = previous(j)) {
        auto old = NoteDigest::decode(*encoded);
        if (!old) return std::nullopt;
        naming.digests.push_back(&was.emplace_back(relinked(std::move(*old))));
      } else {
        continue;  // (a new note not weighed yet)
      }
      naming.paths.push_back(&notes[j].file->path);
    }
    return naming;
  };
  // The notes deleted (each weighed after every changed one, in turn).
  std::map<std::pair<std::size_t, Xapian::docid>, std::string> vanished_docs;  // each deleted note's document
  for (const std::string& path : state.vanished())
    if (const auto ix = state.indexed().find(path); ix != state.indexed().end())
      vanished_docs.emplace(std::make_pair(ix->second.shard, ix->second.docid), path);
  std::set<std::string> weighed_vanished;
  for (const auto& [path, note] : replaced) weighed_vanished.insert(path);  // (weighed as their new notes)
  // (Does a deleted note not weighed yet name it? Its mentions are still counted, but it is no naming note.)
  const auto named_by_unweighed = [&](const std::set<std::pair<std::size_t, Xapian::docid>>& named_by) {
    for (const auto& doc : named_by)
      if (const auto v = vanished_docs.find(doc);
          v != vanished_docs.end() && !weighed_vanished.count(v->second))
        return true;
    return false;
  };
  // EntityResolver::NamingOf: every note naming a name (its postings' notes
  // and the run's changed ones), as now() knows them, the changed ones before
  // `upto` as they are now; and, in `paths`, those naming it by a name.
  using NamingPaths = std::map<std::string, std::vector<std::string>>;
  const auto naming_upto = [&](std::size_t upto, NamingPaths& paths_of) {
    return [&, upto](std::string_view name) -> std::optional<std::vector<const NoteDigest*>> {
      const auto named_by = postings(std::string(name), shards);
      if (!named_by || named_by_unweighed(*named_by)) return std::nullopt;
      auto naming = naming_notes(*named_by, notes.size(), upto);
      if (!naming) return std::nullopt;
      const std::string key = unicode::fold_name(name);
      auto& paths = paths_of[std::string(name)];
      paths.clear();
      for (std::size_t j = 0; j < naming->digests.size(); ++j)
        if (names_key(*naming->digests[j], key)) paths.push_back(*naming->paths[j]);
      return std::move(naming->digests);
    };
  };
  // A page's digest, as now() knows it: a changed note weighed already (before
  // `upto`, or `upto` itself) as it is now, one not yet as it was; none for a
  // title two notes have, or a new note not weighed yet.
  const auto page_of = [&](std::string_view title, std::size_t upto) -> const NoteDigest* {
    if (const auto t = titles.find(title); t == titles.end() || t->second != 1) return nullptr;
    for (std::size_t j = 0; j < notes.size(); ++j) {
      if (!notes[j].has_digest() || note_title(notes[j].file->path) != title) continue;
      if (notes[j].status != RunNote::Status::Changed || j <= upto || (rename && j == rename->note)) {
        state.load_values({j});
        return &notes[j].digest();
      }
      const std::string* encoded = previous(j);
      if (!encoded) return nullptr;
      auto old = NoteDigest::decode(*encoded);
      return old ? &was.emplace_back(relinked(std::move(*old))) : nullptr;
    }
    return nullptr;
  };
  // Each name decided again: resolved, if it was not; or unresolved in the notes naming it.
  const auto decided = [&](EntityResolver::Extension& what, NamingPaths& naming_paths) {
    for (auto& name : what.rekinded) {
      if (extended->kind(name)) {
        change.adopted.push_back(std::move(name));
      } else {
        for (auto& path : naming_paths[name]) change.mentions.push_back({name, std::move(path), true});
      }
    }
  };
  // A page renamed: the resolution with it renamed first, every note naming it
  // rewritten in this run (they are then weighed as changes from their digests
  // relinked). Else (a link left as it was, ...) the two notes are weighed as a
  // deletion and a new note, as before.
  if (rename) {
    if (!read_stored()) return std::nullopt;
    const NoteDigest& page = rename->page;
    std::optional<EntityResolver> r;
    // (Another note of its old title keeps that page: not a rename of it.)
    if (const auto named_by = namers(page, state.indexed().at(*rename->path), shards, config);
        named_by && titles.at(rename->to) == 1 && !is_page(page.title) &&
        moves_freely(page, *stored, is_page, shards)) {
      std::set<std::pair<std::size_t, Xapian::docid>> rewritten;  // the changed notes' documents
      for (const std::size_t i : changed)
        if (notes[i].old) rewritten.emplace(notes[i].old->shard, notes[i].old->docid);
      if (std::all_of(named_by->begin(), named_by->end(),
                      [&](const auto& doc) { return rewritten.count(doc); }))
        r = stored->renamed(page, rename->to);
    }
    if (r) {
      extended = std::move(r);
      change.pages_moved = true;
      change.glosses = page.glosses != notes[rename->note].digest().glosses;
      // (A page without aliases has no synonyms: the synonym table stays.)
    } else {
      replaced.erase(*rename->path);
      weighed_vanished.erase(*rename->path);
      ++titles[note_title(*rename->path)];
      rename.reset();
    }
  }
  for (const std::size_t i : changed) {
    const RunNote& n = notes[i];
    if (rename && i == rename->note) continue;  // (renamed above)
    std::optional<NoteDigest> before;  // none: a new note
    const std::string* encoded = previous(i);
    if (encoded && !(before = NoteDigest::decode(*encoded))) return std::nullopt;
    if (before) before = relinked(std::move(*before));
    // A note moved: the same note elsewhere in the vault's order, when its place decides nothing.
    if (moved_from.count(i) &&
        !(read_stored() && titles.at(note_title(n.file->path)) == 1 &&
          moves_freely(*before, *stored, is_page, shards) && moves_freely(*before, now(), is_page, shards)))
      return std::nullopt;
    if (before && *before == n.digest()) continue;
    if (!read_stored()) return std::nullopt;
    // (Each note's change is weighed against the vault with the changes before it.)
    if (before && now().keeps(*before, n.digest(), is_page)) continue;
    // (Two notes of one title are one page whose kind and facts both give:
    // only a full pass weighs a change of either's page, or a new one.)
    const bool shared_title = titles.find(note_title(n.file->path))->second > 1;
    // (A new note of a title another note has that says nothing of the page: weighed from that
    // page mentioning nothing, as a new note is.)
    std::optional<NoteDigest> second;
    if (shared_title && !before && now().silent(n.digest(), is_page))
      second = EntityResolver::unwritten(n.digest());
    if (shared_title && !second && !(before && EntityResolver::same_page(*before, n.digest())))
      return std::nullopt;
    EntityResolver::Extension what;
    givers.weighing(n.file->path);
    // (The notes naming a name whose labels or link words change here, this one among them.)
    NamingPaths naming_paths;
    const auto naming_of = naming_upto(i + 1, naming_paths);
    const auto page_now = [&, i](std::string_view title) { return page_of(title, i); };
    const NoteDigest* from = second ? &*second : before ? &*before : nullptr;  // (none: a new page)
    auto more = now().extended(from, n.digest(), is_page, &what, gives_key, naming_of, page_now);
    // A new page for a name other notes use: the notes naming it are found by its postings.
    if (!more && !before && !second) {
      const auto named_by = postings(n.digest().title, shards);
      const auto naming = named_by ? naming_notes(*named_by, i, i) : std::nullopt;
      if (naming)
        more = now().adopted(n.digest(), naming->digests, is_page, &what, gives_key, naming_of, page_now);
      if (more) change.adopted.push_back(what.adopted);
    }
    // A page named by a new alias as notes name a name no page has: it takes that name.
    if (!more && before && !shared_title) {
      more = now().aliased(*before, n.digest(), is_page, &what, gives_key, naming_of, page_now);
      if (more) change.adopted.push_back(what.adopted);
    }
    // A page giving up an alias notes name it by: their spellings a name of its own, which the
    // notes naming it by a name mention.
    if (!more && before && !shared_title) {
      more = now().unaliased(*before, n.digest(), is_page, &what, gives_key, naming_of, page_now);
      if (more) {
        const auto named_by = postings(n.digest().title, shards);
        const auto naming = named_by ? naming_notes(*named_by, i, i + 1) : std::nullopt;
        if (!naming) return std::nullopt;
        // (By the key of the name they became: the page may give up other aliases too.)
        const std::string key = unicode::fold_name(what.orphan);
        for (std::size_t j = 0; j < naming->digests.size(); ++j)
          if (names_key(*naming->digests[j], key))
            change.mentions.push_back({what.orphan, *naming->paths[j], true});
      }
    }
    if (!more || givers.contested()) return std::nullopt;
    // (The page's kind decided again from this note alone: the other note of its title gives too.)
    if (shared_title &&
        (what.page || std::count(what.rekinded.begin(), what.rekinded.end(), n.digest().title)))
      return std::nullopt;
    extended = std::move(more);
    for (auto& name : what.added) change.mentions.push_back({std::move(name), n.file->path, true});
    for (auto& name : what.dropped) change.mentions.push_back({std::move(name), n.file->path, false});
    change.pages_moved = change.pages_moved || what.page;
    if (what.aliases) change.aliased.push_back(n.digest());
    change.glosses = change.glosses || what.glosses;
    decided(what, naming_paths);
    for (auto& key : what.alias_keys_gone) change.aliases_gone.emplace_back(std::move(key), n.digest().title);
    change.aliases_given_up = change.aliases_given_up || what.aliases_given_up;
  }
  // Notes deleted, once every changed note is weighed (as if they were there
  // still): a page no other note names now (EntityResolver::removed), or one
  // whose name becomes theirs (orphaned).
  if (stored)
    for (const std::string& path : state.vanished())
      if (const auto t = titles.find(note_title(path)); !replaced.count(path) && --t->second == 0)
        titles.erase(t);
  deleting = true;
  for (const std::string& path : state.vanished()) {
    if (replaced.count(path)) continue;         // (weighed as its new note)
    if (kept.count(path)) return std::nullopt;  // (below a folder that could not be read: not deleted)
    const IndexedNote& ix = state.indexed().at(path);
    const auto before = NoteDigest::decode(state.indexed_digest(path));
    if (!before) return std::nullopt;
    if (!read_stored()) return std::nullopt;
    // One of two notes of a title, saying nothing of the page: its mentions given up, the page stays.
    const bool second = is_page(before->title) && now().silent(*before, is_page);
    std::optional<std::set<std::pair<std::size_t, Xapian::docid>>> named_by;
    if (!second && !(named_by = namers(*before, ix, shards, config))) return std::nullopt;
    EntityResolver::Extension what;
    std::optional<EntityResolver> less;
    givers.weighing(path);
    // (The notes naming a name its labels, link words or lists named.)
    NamingPaths rekind_paths;
    const auto naming_of = naming_upto(notes.size(), rekind_paths);
    const auto page_now = [&](std::string_view title) { return page_of(title, notes.size()); };
    weighed_vanished.insert(path);
    if (second) {
      less = now().extended(&*before, EntityResolver::unwritten(*before), is_page, &what, gives_key,
                            naming_of, page_now);
      // (The page's kind decided again from the other note alone: a full pass.)
      if (less && (what.page || std::count(what.rekinded.begin(), what.rekinded.end(), before->title)))
        return std::nullopt;
    } else {
      if (named_by_unweighed(*named_by)) return std::nullopt;
      // The notes naming it now: those whose documents did and the changed ones
      // (a note may name it now that none did: a review's counterexample).
      const auto naming = naming_notes(*named_by, notes.size(), notes.size());
      if (!naming) return std::nullopt;
      const std::string key = unicode::fold_name(before->title);
      std::vector<const std::string*> naming_paths;  // (those naming it by a name)
      bool named = false;
      for (std::size_t j = 0; j < naming->digests.size(); ++j) {
        const NoteDigest& d = *naming->digests[j];
        if (names_key(d, key)) naming_paths.push_back(naming->paths[j]);
        named = named || spells(d, [&](const std::string& n) { return unicode::fold_name(n) == key; });
      }
      if (!named) {
        // A source page or one titled like an attachment: labels, link words and
        // lists name those without postings; every note is read for its title.
        const bool unnamed = !before->title.empty() &&
                             (before->title.front() == '@' || is_attachment(before->title)) &&
                             !spelled_anywhere(before->title, state);
        less = now().removed(*before, is_page, &what, gives_key, unnamed, naming_of, page_now);
      } else {
        // Other notes name it: its name becomes one of their own.
        less = now().orphaned(*before, naming->digests, is_page, &what, gives_key, naming_of, page_now);
        if (less) {
          for (const std::string* p : naming_paths) change.mentions.push_back({what.orphan, *p, true});
          change.pages_moved = true;
        }
      }
    }
    if (!less || givers.contested()) return std::nullopt;
    extended = std::move(less);
    for (auto& name : what.dropped) change.mentions.push_back({std::move(name), path, false});
    // (Names its labels gave kinds decided again: the notes naming them follow.)
    change.pages_moved = change.pages_moved || what.page;
    decided(what, rekind_paths);
    for (auto& gone : what.alias_keys_gone) change.aliases_gone.emplace_back(std::move(gone), before->title);
    change.aliases_given_up = change.aliases_given_up || what.aliases_given_up;
    change.glosses = change.glosses || what.glosses;
  }
  // The override file rewritten: each name whose override changed decides its kind again
  // (EntityResolver::overridden), from its page and the notes naming it.
  if (overrides != old_overrides) {
    if (!read_stored()) return std::nullopt;
    const auto overrides_of = [&](const std::string& tsv) {
      EntityResolver scratch(config.kinds());
      add_name_lists(config, scratch);
      scratch.load_overrides(tsv);
      return scratch.overrides();
    };
    const auto page_now = [&](std::string_view title) { return page_of(title, notes.size()); };
    NamingPaths naming_paths;
    const auto naming_of = naming_upto(notes.size(), naming_paths);
    EntityResolver::Extension what;
    auto more = now().overridden(overrides_of(old_overrides), overrides_of(overrides), page_now, naming_of,
                                 is_page, &what);
    if (!more) return std::nullopt;
    extended = std::move(more);
    change.pages_moved = true;
    // Each name decided again: unresolved in the notes naming it, or not at all.
    for (auto& [name, paths] : naming_paths) {
      if (now().kind(name)) {
        change.adopted.push_back(name);
      } else {
        for (auto& path : paths) change.mentions.push_back({name, std::move(path), true});
      }
    }
  }
  for (const auto& [path, i] : replaced) change.moved.emplace_back(path, notes[i].file->path);
  if (extended) {
    change.extends = true;
    return extended;
  }
  // No note changed at all: no document is built, so the resolution is only
  // kept, not read (a no-op at 100k notes: 0.1 s less, and 0.16 s less for
  // reading its hash only). It must be there, the same on every shard.
  if (!state.vault_changed()) {
    if (!stored_everywhere(shards, change.stored_hash)) return std::nullopt;
    return EntityResolver();
  }
  return stored ? std::move(stored) : stored_resolution(shards, change.stored_hash);
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
// `before` is the stored one when it was read already.
std::set<std::string> notes_to_refresh(const EntityResolver& now, const IndexState& state, ShardSet& shards,
                                       const VaultConfig& config, const std::string& old_overrides,
                                       std::optional<EntityResolver> before) {
  std::string hash;
  if (!before) before = stored_resolution(shards, hash);
  if (!before) {
    before.emplace(config.kinds());
    add_name_lists(config, *before);
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
void report_entities(const IndexState& state, const EntityResolver& resolver, bool entity_notes,
                     IndexReport& report) {
  std::map<std::string, EntityInfo> entities;
  // Each spelling's entity, found once (a large vault mentions names millions
  // of times); none for a spelling of a name of known kind (without entity_notes).
  std::unordered_map<std::string_view, EntityInfo*> by_spelling;
  for (const RunNote& n : state.notes()) {
    if (!n.has_digest()) continue;
    for (const auto& name : n.digest().names) {
      auto [at, first_time] = by_spelling.try_emplace(name, nullptr);
      if (first_time) {
        std::string canon = resolver.canonical(name);
        std::optional<Kind> kind = resolver.kind(canon);
        if (kind && !entity_notes) continue;
        auto [e, inserted] = entities.try_emplace(std::move(canon));
        at->second = &e->second;
        if (inserted) {
          e->second.name = e->first;
          e->second.kind = std::move(kind);
          e->second.evidence = std::string(to_string(resolver.evidence(e->first)));
          if (const std::string detail = resolver.evidence_detail(e->first); !detail.empty())
            e->second.evidence += ": " + detail;
        }
      }
      // Which notes mention it: only when asked for (a large vault has millions of mentions).
      if (at->second) at->second->notes.insert(n.file->path);
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
  std::optional<EntityResolver> stored;  // read at most once
  Extended change;
  if (auto kept = after_unreadable ? std::nullopt
                                   : kept_resolution(state, shards, opts, config, old_overrides, m_overrides,
                                                     stored, change)) {
    m_resolver = std::move(*kept);
    m_reused = true;
    m_extended = change.extends;
    m_kept_hash = std::move(change.stored_hash);
    m_aliased = std::move(change.aliased);
    m_synonyms_stale = change.aliases_given_up;
    m_glossary_stale = change.glosses;
    // (The override file read again: its problems, as a full pass reports them.)
    if (m_overrides != old_overrides)
      for (const auto& problem : EntityResolver(config.kinds()).load_overrides(m_overrides))
        report.warnings.push_back({OVERRIDES_FILE, problem});
    decode_findings(shards.metadata(schema::META_FINDINGS), report);
    // The notes moved mention what they did, by their new paths.
    for (auto& u : report.unresolved)
      for (const auto& [from, to] : change.moved)
        if (u.notes.erase(from)) u.notes.insert(to);
    if (!change.moved.empty()) m_findings = encode_findings(report);
    if (m_extended) {
      // An alias a page gave up is no longer one of the ambiguous ones' (one page left: none).
      for (const auto& [key, page] : change.aliases_gone)
        if (const auto it = report.ambiguous.find(key); it != report.ambiguous.end()) {
          it->second.erase(page);
          if (it->second.size() < 2) report.ambiguous.erase(it);
        }
      // New names or pages, names given up: the resolution is stored again;
      // the names of no kind the notes now mention are unresolved in these
      // notes too, those they no longer mention not (the findings' names stay in order).
      auto& unresolved = report.unresolved;
      for (const auto& [name, note, mentioned] : change.mentions) {
        if (m_resolver.kind(name)) continue;
        auto at = std::lower_bound(unresolved.begin(), unresolved.end(), name,
                                   [](const auto& u, const std::string& n) { return u.name < n; });
        if (at == unresolved.end() || at->name != name) {
          if (mentioned) unresolved.insert(at, {name, {note}});
        } else if (mentioned) {
          at->notes.insert(note);
        } else if (at->notes.erase(note) && at->notes.empty()) {
          unresolved.erase(at);
        }
      }
      // A name no page had that a new page took, or one decided again: resolved
      // now, if it has a kind at the end of the run (one note's change may give
      // it one that another's takes away).
      // (A name a page of another spelling took, `c` by `C.md`: its kind is the page's.)
      for (const auto& name : change.adopted)
        if (m_resolver.kind(m_resolver.canonical(name)))
          unresolved.erase(std::remove_if(unresolved.begin(), unresolved.end(),
                                          [&](const auto& u) { return u.name == name; }),
                           unresolved.end());
      m_findings = encode_findings(report);
      // A page's kind or a work's facts changed: the notes linking it follow.
      // (New names and names given up move no other note.)
      if (change.pages_moved)
        m_refresh = notes_to_refresh(m_resolver, state, shards, config, old_overrides, std::move(stored));
    }
    return;
  }
  resolve(state, opts, config, report);
  if (!shards.fresh() && m_any_change)
    m_refresh = notes_to_refresh(m_resolver, state, shards, config, old_overrides, std::move(stored));
}

// Pass 1 over every note's digest in path order, then the override file.
void EntityPass::resolve(const IndexState& state, const IndexOptions& opts, const VaultConfig& config,
                         IndexReport& report) {
  add_name_lists(config, m_resolver);
  // The indexed digests are read, then decoded on every core (each note's by one thread).
  state.load_digests();
  const auto& notes = state.notes();
  const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  parallel_for(notes.size(), jobs, [&](std::size_t i, unsigned) {
    if (notes[i].has_digest()) notes[i].digest();
  });
  for (const RunNote& n : notes)
    if (n.has_digest()) m_resolver.add(n.digest());
  for (const auto& problem : m_resolver.load_overrides(m_overrides))
    report.warnings.push_back({OVERRIDES_FILE, problem});
  m_resolver.finish();
  report.ambiguous = m_resolver.ambiguous();
  report_entities(state, m_resolver, opts.entity_notes, report);
  m_findings = encode_findings(report);
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
  if (stores_resolution()) {
    meta.emplace_back(std::string(schema::META_FINDINGS), m_findings);
    // (A 100k vault's resolution is 20 MB: copied into the index and committed
    // there, then copied to its file, it was 0.2 s of a run that adds a name.)
    const std::string_view resolution = m_resolver.stored_encoding();
    meta.emplace_back(std::string(schema::META_RESOLUTION_HASH), content_hash(resolution));
    // (An older run's resolution in the index goes: no later run may take it for this one.)
    meta.emplace_back(std::string(schema::META_RESOLUTION),
                      shards.cache(RESOLUTION_FILE, resolution) ? std::string() : std::string(resolution));
    meta.emplace_back(std::string(schema::META_KINDS), m_resolver.vocabulary().encode());
    return meta;
  }
  if (!m_findings.empty())
    meta.emplace_back(std::string(schema::META_FINDINGS), m_findings);  // (notes moved)
  if (!m_kept_hash.empty()) {
    // (The hash of the resolution kept: an index written before hashes were kept gains it.)
    meta.emplace_back(std::string(schema::META_RESOLUTION_HASH), m_kept_hash);
    // An older Sagasu's resolution in the index, which its file beside the index now holds,
    // goes (a rebuild has none); one the file does not hold (a full disk) stays.
    if (shards.holds_metadata(schema::META_RESOLUTION) && shards.cached(RESOLUTION_FILE, m_kept_hash))
      meta.emplace_back(std::string(schema::META_RESOLUTION), std::string());
  }
  return meta;
}

void EntityPass::stamp(ShardSet& shards) const {
  const bool hashed = stores_resolution() || !m_kept_hash.empty();  // (metadata() stored the hash)
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Xapian::WritableDatabase& db = shards.db(k);
    db.set_metadata(std::string(schema::META_RESOLUTION_REVISION),
                    hashed ? std::to_string(db.get_revision() + 1) : std::string());
  }
}

}  // namespace sagasu
