#include "sagasu/indexer.h"

#include <fmt/format.h>
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <system_error>
#include <thread>

#include "document_builder.h"
#include "entity_pass.h"
#include "entity_resolver.h"
#include "index_state.h"
#include "index_writer.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "shard_set.h"
#include "vault_walk.h"

namespace fs = std::filesystem;

namespace sagasu {

IndexReport run_index(const IndexOptions& opts) {
  const auto started = std::chrono::steady_clock::now();
  IndexReport report;
  const VaultScan scan = walk_vault(opts, report);
  const fs::path& root = scan.root;
  const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());

  // The lock first: nothing is read from the index that another writer could change.
  ShardSet shards(opts);
  report.shards = shards.size();
  const bool fresh = shards.fresh();
  IndexState state(scan, shards, opts, jobs, report);
  std::vector<RunNote>& work = state.notes();
  EntityPass entity_pass(state, shards, opts, root, report);
  const EntityResolver& resolver = entity_pass.resolver();
  const std::set<std::string>& refresh = entity_pass.refresh();
  const bool any_change = entity_pass.any_change();

  IndexWriter(shards, resolver, opts, jobs).write(state, refresh, report);

  if (!opts.dry_run) {
    // Every shard holds the whole vault's metadata: a searcher reads it from
    // any one of them (Xapian reads metadata from the first database).
    std::vector<std::pair<std::string, std::string>> meta = entity_pass.metadata();
    meta.emplace_back(std::string(schema::META_VAULT), root.string());
    meta.emplace_back(std::string(schema::META_SCHEMA_VERSION), std::string(schema::SCHEMA_VERSION));
    std::map<std::string, std::set<std::string>> synonyms;
    if (any_change || fresh) {
      // Synonyms from the vault itself: a page's title and its aliases name one
      // thing (ByteDance = バイトダンス, チェックポイント = checkpoint); and entity
      // filters by alias. The table is rebuilt whole, so it always matches the notes.
      Analyzer analyzer;
      for (const RunNote& w : work) {
        if (!w.has_digest() || w.digest.aliases.empty()) continue;
        const NoteDigest& d = w.digest;
        std::vector<std::string> group{analyzer.key(d.display_title)};
        if (!d.source && d.title != d.display_title) group.push_back(analyzer.key(d.title));
        for (const auto& a : d.aliases) group.push_back(analyzer.key(a));
        for (const auto& from : group)
          for (const auto& to : group)
            if (!from.empty() && !to.empty() && from != to && from.size() <= schema::MAX_TERM_BYTES &&
                to.size() <= schema::MAX_TERM_BYTES)
              synonyms[from].insert(to);
        for (const auto& a : d.aliases)
          for (const schema::Field* prefix : {&schema::PERSON, &schema::ORG, &schema::LINK}) {
            const std::string from = schema::filter_term(*prefix, a), to = schema::filter_term(*prefix, d.title);
            if (from != to && from.size() > prefix->prefix.size()) synonyms[from].insert(to);
          }
      }
    }
    for (std::size_t k = 0; k < shards.size(); ++k) {
      Xapian::WritableDatabase& sdb = shards.db(k);
      if (any_change || fresh) {
        const std::string px(schema::META_SYNONYM);
        std::vector<std::string> old_keys;
        for (auto m = sdb.metadata_keys_begin(px); m != sdb.metadata_keys_end(px); ++m) old_keys.push_back(*m);
        for (const auto& key : old_keys)
          if (!synonyms.count(key.substr(px.size()))) sdb.set_metadata(key, "");
        for (const auto& [from, to] : synonyms) {
          if (px.size() + from.size() > schema::MAX_TERM_BYTES) continue;  // Xapian's key limit: no such name is typed
          std::string joined;
          for (const auto& t : to) joined += (joined.empty() ? "" : "\n") + t;
          sdb.set_metadata(px + from, joined);
        }
      }
      for (const auto& [key, value] : meta) sdb.set_metadata(key, value);
      if (shards.size() > 1) sdb.set_metadata(std::string(schema::META_SHARD), fmt::format("{}/{}", k, shards.size()));
    }
    shards.commit();
    report.rebuilt = fresh;
  }

  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace sagasu
