// The indexer library: walks a vault and brings a Xapian index up to date.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sagasu {

/// What to index and where.
struct IndexOptions {
  std::string vault;                          ///< vault root directory
  std::string index;                          ///< index folder
  /// The vault config file ("": VAULT/.sagasu/config.yaml when it exists). A
  /// config the index was not built with rebuilds it.
  std::string config;
  std::vector<std::string> extensions{"md"};  ///< file name endings to index ("*" = every file)
  std::uint64_t max_file_bytes = 8u << 20;    ///< larger files are skipped
  bool rebuild = false;   ///< build a new index beside the live one and switch to it (also for another vault)
  bool wait = false;      ///< wait for another indexer's lock instead of failing
  bool dry_run = false;   ///< find what would change; write nothing
  bool strict = false;    ///< any skipped file is an error: nothing is written
  unsigned jobs = 0;      ///< threads parsing and analysing notes (0: one per core)
  /// Split the notes by path hash into this many shard indexes (0: as many as the
  /// index has, 1 for a new one). Another count than the index's rebuilds it.
  unsigned shards = 0;
  bool entity_notes = false;  ///< list for every entity the notes mentioning it (unresolved ones always)
  /// Called now and then with (notes done, notes to do) while notes are analysed.
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
  std::vector<EntityInfo> entities;  ///< every linked name, by name
  std::map<std::string, std::set<std::string>> ambiguous;  ///< alias → pages claiming it
  /// The whole index after the run (not with dry_run): notes, each facet's
  /// coverage, the kinds, and the property keys no facet reads, commonest first.
  std::size_t indexed = 0;
  std::vector<FacetCoverage> coverage;
  std::vector<std::pair<std::string, std::size_t>> kinds;
  std::vector<std::pair<std::string, std::size_t>> unmapped_keys;
  bool rebuilt = false;  ///< a new generation was built and switched to
  std::size_t shards = 1;  ///< the number of shard indexes written
  double seconds = 0;
  std::size_t notes() const { return added + updated + unchanged + renamed; }
};

/// Indexes opts.vault into opts.index. Per-file problems go into the report;
/// problems with the vault or the index itself throw sagasu::Error.
IndexReport run_index(const IndexOptions& opts);

}  // namespace sagasu
