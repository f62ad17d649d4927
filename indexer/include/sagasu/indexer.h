// The indexer library: walks a vault and brings a Xapian index up to date.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/stored_note.h"

namespace sagasu {

/// What to index and where.
struct IndexOptions {
  // What a run leaves unset (empty, 0) is what the index was built with
  // (settle_options), else the default given here.
  std::string vault;  ///< vault root directory
  std::string index;  ///< index folder
  /// The vault config file (default: VAULT/.sagasu/config.yaml when it
  /// exists). A config the index was not built with rebuilds it.
  std::string config;
  std::vector<std::string> extensions;  ///< file name endings to index ("*" = every file; default: md)
  std::uint64_t max_file_bytes = 0;     ///< larger files are skipped (default: 8 MiB)
  bool rebuild = false;  ///< build a new index beside the live one and switch to it (also for another vault)
  bool wait = false;     ///< wait for another indexer's lock instead of failing
  bool dry_run = false;  ///< find what would change; write nothing
  bool strict = false;   ///< any skipped file is an error: nothing is written
  unsigned jobs = 0;     ///< threads parsing and analysing notes (0: one per core)
  /// Split the notes by path hash into this many shard indexes (0: as many as the
  /// index has, 1 for a new one). Another count than the index's rebuilds it.
  unsigned shards = 0;
  bool entity_notes = false;  ///< fill IndexReport::entities, each with the notes mentioning it
  bool glossary = false;      ///< fill IndexReport::glossary (indexer --report glossary)
  /// Called as each phase of the run starts, with its name: "scan" (the vault
  /// walked, new and changed files read and parsed), "entities" (the
  /// vault's links resolved), "index" (documents built and written), "merge"
  /// (a fresh build's parts compacted into the new index), "commit".
  std::function<void(std::string_view phase)> phase;
  /// Called now and then with (done, to do) of the phase in hand: files read
  /// in "scan", notes in "index".
  std::function<void(std::size_t, std::size_t)> progress;
};

/// A file that was not indexed, and why.
struct Skipped {
  std::string path;    ///< vault-relative
  std::string reason;  ///< one line
};

/// An entity whose kind nothing in the vault tells.
struct Unresolved {
  std::string name;
  std::set<std::string> notes;  ///< vault-relative paths mentioning it
};

/// A page or name that notes link to, and what it was resolved as.
struct EntityInfo {
  std::string name;                 ///< canonical name
  std::optional<std::string> kind;  ///< "person", "organization", …; nullopt if unresolved
  std::string evidence;             ///< how the kind was decided ("own page", "list label", …)
  std::set<std::string> notes;      ///< vault-relative paths linking to it
};

/// How many notes of the index have a value of a facet, and where the values came from.
struct FacetCoverage {
  std::string facet;                           ///< "venue", "year", "person", "org"
  std::size_t notes = 0;                       ///< notes with at least one value
  std::map<std::string, std::size_t> sources;  ///< source ("table", "path", "links", …) → notes
};

/// What a run did (or, with dry_run, would do).
struct IndexReport {
  std::size_t added = 0, updated = 0, unchanged = 0, deleted = 0, renamed = 0;
  std::vector<std::string> added_paths, updated_paths, deleted_paths;
  std::vector<std::pair<std::string, std::string>> renamed_paths;  ///< from, to
  std::vector<Skipped> skipped;
  std::vector<Skipped> warnings;  ///< indexed, but with a recoverable problem (e.g. broken front matter)
  std::vector<Unresolved> unresolved;
  /// How many entities were unresolved after the run before this one (what
  /// the index kept); nullopt when it kept nothing (a new index).
  std::optional<std::size_t> unresolved_before;
  std::vector<EntityInfo> entities;  ///< every linked name, by name (IndexOptions::entity_notes only)
  std::map<std::string, std::set<std::string>> ambiguous;  ///< alias → pages claiming it
  /// How the run knew the entities: "kept" (no note's digest and no override
  /// changed: the resolution the index keeps) or "resolved" (every note's
  /// digest resolved anew, in one pass).
  std::string entities_by;
  /// The whole index after the run (not with dry_run): notes, each facet's
  /// coverage, the kinds, and the property keys no facet reads, commonest first.
  std::size_t indexed = 0;
  std::vector<FacetCoverage> coverage;
  std::vector<std::pair<std::string, std::size_t>> kinds;
  std::vector<std::pair<std::string, std::size_t>> unmapped_keys;
  /// With IndexOptions::glossary: every equivalent the vault states, with the notes that state it.
  std::map<Gloss, std::set<std::string>> glossary;
  /// The holder named by a lock no process held any more (an indexer killed,
  /// or gone with its machine), taken over by this run; "" when none.
  std::string lock_taken_over;
  /// Why the bridge tier's dictionaries, installed, are not used (unreadable,
  /// not in EDICT's format, no cache folder); "" when they are, or are absent.
  std::string dictionary_problem;
  bool rebuilt = false;    ///< a new generation was built and switched to
  std::size_t shards = 1;  ///< the number of shard indexes written
  double seconds = 0;
  std::size_t notes() const { return added + updated + unchanged + renamed; }
};

/// Fills what opts leaves unset (vault, config, extensions, max_file_bytes)
/// with the settings the index at opts.index was built with, else the
/// defaults. Returns each setting given that differs from the index's, one
/// line each ("--ext md,txt (the index was built with --ext md)"). Throws
/// UsageError when no vault is given and the index names none. run_index and
/// VaultWatch settle their own copy.
std::vector<std::string> settle_options(IndexOptions& opts);

/// Indexes opts.vault into opts.index. A note the index holds whose file is
/// still in the vault is not dropped because opts.extensions leaves it out:
/// that is an Error unless opts.rebuild. Per-file problems go into the report;
/// problems with the vault or the index itself throw sagasu::Error.
IndexReport run_index(const IndexOptions& opts);

/// What check_index read.
struct CheckReport {
  std::size_t generations = 0;  ///< generation folders read (one per shard)
  std::size_t notes = 0;
  double seconds = 0;
};

/// Reads every table of the index's current generation (each shard's), as
/// xapian-check does, holding the writer lock (opts.wait: waits for it). An
/// update reads only what it changes, so damage elsewhere (a block of
/// another note's stored text) would show only when a search reads it.
/// Throws Error: the index is damaged (the generation and the fault named),
/// or cannot be read (the system's reason).
CheckReport check_index(const IndexOptions& opts);

/// How a watch waits for changes to settle.
struct WatchSettings {
  /// A batch starts when the vault has been quiet this long (an editor's save
  /// by rename, a swap file, a sync tool's burst are one batch)…
  std::chrono::milliseconds settle{250};
  /// …or this long after the first change of a burst that does not settle.
  std::chrono::milliseconds longest{1500};
};

/// A vault kept indexed while it changes (Linux inotify). The writer lock of
/// the index is taken when the watch starts and held until it ends, naming
/// the watch as its holder ("…, watching VAULT"); every folder of the vault is
/// watched but hidden ones and symbolic links (as run_index walks it), the
/// index folder if it lies inside, and folders made later are watched as they
/// appear. Each run is run_index: one incremental transaction, so the index is
/// what a full rebuild would make of the vault as it was. Waiting costs no CPU.
class VaultWatch {
 public:
  /// Takes the lock (opts.wait: waits for it) and watches the vault's folders.
  /// Throws Error when the vault is not a folder, the index is locked, or the
  /// system's inotify watch limit is reached (with the setting to raise).
  explicit VaultWatch(const IndexOptions& opts, WatchSettings settings = {});
  ~VaultWatch();
  VaultWatch(const VaultWatch&) = delete;
  VaultWatch& operator=(const VaultWatch&) = delete;

  /// One index run under the held lock: the first as opts says (progress,
  /// --rebuild), the later ones incremental and silent.
  IndexReport index();
  /// Blocks until notes, folders or the vault's .sagasu files changed and the
  /// changes settled (true), or until stop() (false).
  bool wait();
  /// Makes wait() return false, now or when next called. Async-signal-safe:
  /// a SIGINT or SIGTERM handler may call it.
  void stop() noexcept;
  /// The number of folders watched.
  std::size_t folders() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace sagasu
