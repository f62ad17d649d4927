// run_index: the phases of an index run, in order. Each phase is a file of
// its own; this one only hands what one phase found to the next.
#include "sagasu/indexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <sstream>
#include <thread>

#include "entity_pass.h"
#include "facet_coverage.h"
#include "index_metadata.h"
#include "index_settings.h"
#include "index_state.h"
#include "index_store.h"
#include "index_writer.h"
#include "sagasu/dictionary.h"
#include "sagasu/index_error.h"
#include "sagasu/index_layout.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "shard_set.h"
#include "terminate_watch.h"
#include "vault_config.h"
#include "vault_walk.h"

namespace sagasu {
namespace {

constexpr const char* CONFIG_FILE = ".sagasu/config.yaml";

// --config, else the vault's own config file when it has one, else the defaults.
VaultConfig load_config(const IndexOptions& opts) {
  if (!opts.config.empty()) return VaultConfig::load(opts.config, opts.config);
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::path(opts.vault) / CONFIG_FILE;
  if (!std::filesystem::exists(file, ec)) return VaultConfig();
  // A vault from a stranger cannot make the indexer read a file outside it.
  const std::string root = std::filesystem::canonical(opts.vault, ec).string();
  if (ec || !inside_folder(root, file.string()))
    throw Error(fmt::format(
        "{}: a symbolic link to a file outside the vault, not read (give it with --config)", CONFIG_FILE));
  return VaultConfig::load(file, CONFIG_FILE);
}

// A value as one line of a "path<TAB>reason" list: a tab, a newline or a
// backslash in a file name escaped (\t, \n, \\), so no name adds a line.
std::string one_line(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '\t' || c == '\n' || c == '\\') out += '\\';
    out += c == '\t' ? 't' : c == '\n' ? 'n' : c;
  }
  return out;
}

// An id for this run's commit (META_RUN): unlike any other run's.
std::string run_id() {
  std::random_device device;
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return fmt::format("{:016x}{:08x}", static_cast<std::uint64_t>(now), device());
}

// The tables derived from every note's digest (the synonyms, the glossary),
// each built again when a note it draws on changed (all of them for a new
// generation, or when folders could not be read).
VaultTables derived_tables(const IndexState& state, const ShardSet& shards, const VaultScan& scan,
                           const IndexOptions& opts, IndexReport& report) {
  VaultTables tables;
  const DerivedChange derived =
      shards.fresh() || !scan.unreadable_dirs.empty() || !shards.metadata(schema::META_UNREADABLE).empty()
          ? DerivedChange{true, true}
          : derived_change(state);
  if (opts.glossary || (!opts.dry_run && derived.glossary)) {
    state.load_digests();
    auto glossary = vault_glossary(state.notes());
    if (opts.glossary) report.glossary = glossary;
    if (!opts.dry_run && derived.glossary) tables.glossary = std::move(glossary);
  }
  if (!opts.dry_run && derived.synonyms) {
    state.load_digests();
    tables.synonyms = vault_synonyms(state.notes());
  }
  return tables;
}

// Each shard's coverage tally, which an update brings up to date: the one
// its last commit stored, or counted now, before anything is written
// (`all_stored`: false when one was counted).
std::vector<CoverageTally> stored_tallies(ShardSet& shards, bool& all_stored) {
  std::vector<CoverageTally> tallies(shards.size());
  if (!shards.fresh())
    for (std::size_t k = 0; k < shards.size(); ++k) {
      bool stored = false;
      tallies[k] = CoverageTally::of(shards.db(k), stored);
      all_stored = all_stored && stored;
    }
  return tallies;
}

// What the run itself leaves in the metadata: the vault config and the
// settings it ran with, the digests' version, the run's id, the folders it
// could not read and the files it skipped.
void add_run_metadata(std::vector<std::pair<std::string, std::string>>& metadata, const VaultConfig& config,
                      const std::string& settings, const IndexState& state, const VaultScan& scan,
                      const IndexReport& report) {
  metadata.emplace_back(std::string(schema::META_CONFIG), config.text());
  metadata.emplace_back(std::string(schema::META_SETTINGS), settings);
  metadata.emplace_back(std::string(schema::META_DIGESTS), state.digests_version());
  metadata.emplace_back(std::string(schema::META_RUN), run_id());
  std::string unreadable;
  for (const auto& dir : scan.unreadable_dirs) unreadable += dir + "\n";
  metadata.emplace_back(std::string(schema::META_UNREADABLE), unreadable);
  std::string skipped;
  for (std::size_t i = 0; i < report.skipped.size() && i < schema::MAX_SKIPPED_SHOWN; ++i)
    skipped += fmt::format("{}\t{}\n", one_line(report.skipped[i].path), one_line(report.skipped[i].reason));
  if (report.skipped.size() > schema::MAX_SKIPPED_SHOWN)
    skipped += fmt::format("…\t{} more\n", report.skipped.size() - schema::MAX_SKIPPED_SHOWN);
  metadata.emplace_back(std::string(schema::META_SKIPPED), skipped);
}

// The table of generation `name` (at path) that a fault is in, each checked
// alone ("gen-000002/docdata.glass"), else the generation's name.
std::string damaged_table(const std::string& path, const std::string& name) {
  for (const char* table : {"postlist", "docdata", "termlist", "position", "spelling", "synonym"}) {
    const std::string file = fmt::format("{}/{}.glass", path, table);
    if (!std::filesystem::exists(file)) continue;
    try {
      if (Xapian::Database::check(file, 0, nullptr) == 0) continue;
    } catch (const Xapian::Error&) {
    }
    return fmt::format("{}/{}.glass", name, table);
  }
  return name;
}

IndexReport run_phases(const IndexOptions& opts) {
  const auto started = std::chrono::steady_clock::now();
  const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  IndexReport report;
  // 0. The vault config: a broken one stops the run before anything is read or written.
  const VaultConfig config = load_config(opts);
  auto phase = [&](std::string_view name) {
    if (opts.phase) opts.phase(name);
  };
  // 1. The files of the vault.
  phase("scan");
  const VaultScan scan = walk_vault(opts, report);
  // 2. The index, locked before anything is read from it; what it holds, and
  //    each file classified against that (changed files parsed).
  ShardSet shards(opts, config.text());
  report.shards = shards.size();
  report.lock_taken_over = shards.lock_taken_over();
  IndexState state(scan, shards, opts, config, jobs, report);
  if (!shards.fresh()) refuse_left_out(state, scan, opts);
  // 3. Entities: the resolution of the whole vault, the notes it refreshes.
  phase("entities");
  report.unresolved_before = EntityPass::unresolved_in_index(opts.index);
  const EntityPass entities(state, shards, opts, config, scan.root, report);
  report.entities_by = entities.reused() ? "kept" : "resolved";
  // Then the decoded digests are let go: the documents need only their encodings.
  VaultTables tables = derived_tables(state, shards, scan, opts, report);
  state.release_digests(jobs);
  // 4. The documents.
  phase("index");
  bool tallies_stored = true;
  std::vector<CoverageTally> tallies = stored_tallies(shards, tallies_stored);
  IndexWriter writer(shards, entities.resolver(), opts, config, jobs);
  writer.write(state, entities.refresh(), report, tallies);
  // 5. The metadata (the synonym table and the glossary again only when a digest changed),
  //    then the commit that makes the whole run visible at once.
  //    A run that changed nothing (no document, no entity) commits nothing:
  //    its summary is the one the last commit stored.
  if (!opts.dry_run) {
    check_vault_in_place(scan, report);
    phase("commit");
    // A fresh generation is counted whole (merged and reopened: nothing pending).
    CoverageTally whole;
    for (std::size_t k = 0; k < shards.size(); ++k) {
      if (shards.fresh()) tallies[k] = CoverageTally::read(shards.db(k));
      whole.add(tallies[k]);
    }
    whole.fill(report);
    // The dictionaries are read (parsed and cached the first time) at index
    // time, so a search finds them ready: on every run, as a new cache (the
    // dictionaries updated, or another Sagasu) must not wait for a note to change.
    report.dictionary_problem = Dictionary::prepare();
    const std::string settings = encode_settings(opts);
    const bool nothing_written = !shards.fresh() && !writer.wrote() && !entities.any_change() &&
                                 entities.reused() && shards.metadata(schema::META_SETTINGS) == settings;
    if (nothing_written && tallies_stored) {
      for (auto& w : shards.keep_as_is()) report.warnings.push_back(std::move(w));
    } else {
      auto metadata = entities.metadata(shards);
      add_run_metadata(metadata, config, settings, state, scan, report);
      // The sound table depends on the vault's words: whole for a fresh
      // generation, else the keys of the words of the documents written or taken out.
      phase("sounds");
      if (shards.fresh())
        tables.sounds = vault_sounds(shards.databases());
      else if (writer.wrote())
        tables.sound_changes = sound_changes(writer.changes().words, shards);
      write_metadata(shards, scan.root.string(), metadata, tables);
      for (std::size_t k = 0; k < shards.size(); ++k) tallies[k].store(shards.db(k));
      entities.stamp(shards);
      for (auto& w : shards.commit(writer.changes())) report.warnings.push_back(std::move(w));
      report.rebuilt = shards.fresh();
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace

IndexReport run_index(const IndexOptions& given) {
  IndexOptions opts = given;
  settle_options(opts);
  const TerminateWatch watch(opts.index);
  try {
    return run_phases(opts);
  } catch (const Xapian::Error& e) {
    throw index_failure(opts.index, e, REBUILD_INDEX);
  }
}

CheckReport check_index(const IndexOptions& opts) {
  const auto started = std::chrono::steady_clock::now();
  if (!std::filesystem::is_directory(opts.index)) throw Error(fmt::format("{}: no index here", opts.index));
  const IndexStore store(opts.index, opts.wait, false);
  std::vector<std::string> generations = store.shards();
  if (generations.empty()) generations.push_back(store.current());
  CheckReport report;
  for (const std::string& name : generations) {
    if (name.empty())
      throw Error(
          fmt::format("{}: not an index (its {} names no generation)", opts.index, layout::STUB_FILE));
    const std::string path = store.path_of(name);
    std::ostringstream faults;
    try {
      if (Xapian::Database::check(path, 0, &faults) > 0) {
        std::string first = faults.str();
        throw damaged_index(
            opts.index, fmt::format("{}: {}", damaged_table(path, name), first.substr(0, first.find('\n'))),
            REBUILD_INDEX);
      }
      report.notes += Xapian::Database(path).get_doccount();
    } catch (const Xapian::Error& e) {
      if (!system_refusal(e).empty()) throw index_failure(opts.index, e, REBUILD_INDEX);
      throw damaged_index(opts.index, fmt::format("{}: {}", damaged_table(path, name), e.get_description()),
                          REBUILD_INDEX);
    }
    ++report.generations;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace sagasu
