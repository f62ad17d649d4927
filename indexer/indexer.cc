#include "sagasu/indexer.h"

#include <fmt/format.h>
#include <xapian.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <system_error>
#include <thread>

#include "document_builder.h"
#include "entity_pass.h"
#include "entity_resolver.h"
#include "index_state.h"
#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "shard_set.h"
#include "vault_walk.h"

namespace fs = std::filesystem;

namespace sagasu {

IndexReport run_index(const IndexOptions& opts) {
  const auto started = std::chrono::steady_clock::now();
  IndexReport report;
  std::error_code ec;
  const VaultScan scan = walk_vault(opts, report);
  const fs::path& root = scan.root;
  const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());

  // The lock first: nothing is read from the index that another writer could change.
  ShardSet shards(opts);
  report.shards = shards.size();
  const bool fresh = shards.fresh();
  IndexState state(scan, shards, opts, jobs, report);
  std::vector<RunNote>& work = state.notes();
  const std::map<std::string, IndexedNote>& indexed = state.indexed();
  EntityPass entity_pass(state, shards, opts, root, report);
  const EntityResolver& resolver = entity_pass.resolver();
  const std::set<std::string>& refresh = entity_pass.refresh();
  const bool any_change = entity_pass.any_change();

  // Renames: a new path whose content equals a vanished one's.
  std::map<std::string, std::string> vanished_by_hash;  // hash → old path
  for (const auto& path : state.vanished()) vanished_by_hash.emplace(indexed.at(path).state.hash, path);
  std::set<std::string> renamed;

  // Pass 2: build what changed, in parallel batches; one thread writes, in path order.
  std::vector<std::size_t> to_build;
  for (std::size_t i = 0; i < work.size(); ++i) {
    RunNote& w = work[i];
    if (w.status == RunNote::Status::Failed) continue;
    if (fresh || w.status == RunNote::Status::Changed || !w.old || refresh.count(w.file->path)) to_build.push_back(i);
  }
  std::vector<std::unique_ptr<Analyzer>> analyzers(jobs);
  std::vector<std::optional<Xapian::Document>> built(work.size());
  std::vector<std::string> signatures(work.size());
  // An unchanged file rebuilt (for its entities, or in a fresh build): read and parse it again.
  const NoteParser parser;
  auto parse_again = [&](RunNote& w) {
    if (w.note) return;
    const std::string content = read_vault_file(w.file->file, w.file->path, opts.max_file_bytes);
    w.note = std::make_unique<Note>(parser.parse(w.file->path, content));
    w.hash = content_hash(content);
  };
  std::atomic<std::size_t> done{0};
  auto state_of = [&](const RunNote& w) {
    return FileState{w.file->path, w.file->size, w.file->mtime_ns, w.hash}.encode();
  };
  if (fresh && !opts.dry_run) {
    // Shard by shard: disjoint sub-indexes, one per thread over a contiguous
    // slice of the shard's notes in path order, merged by Xapian's
    // compaction: every core feeds Xapian, and the result is compact and the
    // same for any -j.
    for (std::size_t s_k = 0; s_k < shards.size(); ++s_k) {
      std::vector<std::size_t> mine;
      for (std::size_t k : to_build)
        if (shards.shard_of(work[k].file->path) == s_k) mine.push_back(k);
      const std::size_t n = mine.size();
      const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(jobs, n / 64 + 1));
      std::vector<std::string> part_errors(parts);
      parallel_for(parts, static_cast<unsigned>(parts), [&](std::size_t p, unsigned) {
        try {
          Xapian::WritableDatabase sub(shards.part_path(s_k, p), Xapian::DB_CREATE_OR_OVERWRITE);
          Analyzer analyzer;
          DocumentBuilder builder(analyzer);
          for (std::size_t k = n * p / parts; k < n * (p + 1) / parts; ++k) {
            RunNote& w = work[mine[k]];
            try {
              parse_again(w);
              Xapian::Document doc = builder.build(*w.note, resolve_facets(*w.note, resolver));
              doc.add_value(schema::SLOT_STATE, state_of(w));
              doc.add_value(schema::SLOT_DIGEST, w.digest.encode());
              sub.add_document(doc);
              w.note.reset();  // done with it: keep memory flat
            } catch (const Error& e) {
              w.status = RunNote::Status::Failed;
              w.error = e.what();
            }
            if (opts.progress) opts.progress(++done, to_build.size());
          }
          sub.commit();
        } catch (const Xapian::Error& e) {
          part_errors[p] = e.get_description();
        }
      });
      for (const auto& e : part_errors)
        if (!e.empty()) throw Error(fmt::format("{}: cannot write the index: {}", opts.index, e));
      Xapian::Database merged;
      for (std::size_t p = 0; p < parts; ++p) merged.add_database(Xapian::Database(shards.part_path(s_k, p)));
      merged.compact(shards.new_path(s_k));
      merged.close();
      for (std::size_t p = 0; p < parts; ++p) fs::remove_all(shards.part_path(s_k, p), ec);
      shards.open_new(s_k);
    }
    for (std::size_t k : to_build)
      if (work[k].status != RunNote::Status::Failed) {
        ++report.added;
        report.added_paths.push_back(work[k].file->path);
      }
    to_build.clear();  // written: the update path below has nothing to do
  }
  parallel_for(to_build.size(), jobs, [&](std::size_t k, unsigned t) {
    RunNote& w = work[to_build[k]];
    try {
      parse_again(w);
      if (!analyzers[t]) analyzers[t] = std::make_unique<Analyzer>();
      DocumentBuilder builder(*analyzers[t]);
      const NoteFacets facets = resolve_facets(*w.note, resolver);
      signatures[to_build[k]] = builder.signature(*w.note, facets);
      if (!fresh && w.old && w.old->signature == signatures[to_build[k]] && w.status != RunNote::Status::Changed) return;
      built[to_build[k]] = builder.build(*w.note, facets);
    } catch (const Error& e) {
      w.status = RunNote::Status::Failed;
      w.error = e.what();
    }
    if (opts.progress) opts.progress(++done, to_build.size());
  });

  for (std::size_t i = 0; i < work.size(); ++i)
    if (work[i].status == RunNote::Status::Failed && work[i].error.rfind(work[i].file->path + ": ", 0) == 0) {
      // failed while building (not when first read): report it too
      report.skipped.push_back({work[i].file->path, work[i].error.substr(work[i].file->path.size() + 2)});
      work[i].error.clear();
    }
  if (!fresh && !opts.dry_run) shards.begin_transaction();
  for (std::size_t i = 0; i < work.size() && !(fresh && !opts.dry_run); ++i) {
    RunNote& w = work[i];
    if (w.status == RunNote::Status::Failed) continue;
    const std::string id = schema::unique_id_term(w.file->path);
    if (built[i]) {
      // A changed note whose document is unchanged (same signature) keeps its document.
      if (!fresh && w.old && w.old->signature == signatures[i]) {
        built[i].reset();
      }
    }
    if (built[i]) {
      Xapian::Document& doc = *built[i];
      doc.add_value(schema::SLOT_STATE, state_of(w));
      doc.add_value(schema::SLOT_DIGEST, w.digest.encode());
      std::string renamed_from;
      if (!w.old) {
        auto v = vanished_by_hash.find(w.hash);
        if (v != vanished_by_hash.end()) {
          renamed_from = v->second;
          vanished_by_hash.erase(v);
        }
      }
      Xapian::WritableDatabase& target = shards.db(shards.shard_of(w.file->path));
      if (!opts.dry_run) {
        if (fresh) target.add_document(doc);
        else target.replace_document(id, doc);
      }
      if (!renamed_from.empty()) {
        ++report.renamed;
        report.renamed_paths.emplace_back(renamed_from, w.file->path);
        renamed.insert(renamed_from);  // not a deletion: it moved
        if (!opts.dry_run) shards.db(indexed.at(renamed_from).shard).delete_document(schema::unique_id_term(renamed_from));
      } else if (w.old || (fresh && indexed.count(w.file->path))) {
        ++report.updated;
        report.updated_paths.push_back(w.file->path);
      } else {
        ++report.added;
        report.added_paths.push_back(w.file->path);
      }
      continue;
    }
    ++report.unchanged;
    // Same content, new mtime: only the state changes (Xapian rewrites just the value).
    if (!opts.dry_run && w.old && (w.old->state.mtime_ns != w.file->mtime_ns || w.old->state.size != w.file->size)) {
      Xapian::WritableDatabase& own = shards.db(w.old->shard);
      Xapian::Document doc = own.get_document(w.old->docid);
      doc.add_value(schema::SLOT_STATE, state_of(w));
      doc.add_value(schema::SLOT_DIGEST, w.digest.encode());
      own.replace_document(w.old->docid, doc);
    }
  }
  // Notes gone from the vault (a failed file keeps its document).
  const std::set<std::string> kept = state.kept();
  for (const auto& path : state.vanished())
    if (!renamed.count(path) && !kept.count(path)) {
      ++report.deleted;
      report.deleted_paths.push_back(path);
      if (!opts.dry_run && !fresh) shards.db(indexed.at(path).shard).delete_document(indexed.at(path).docid);
    }

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

  // Kept documents count as unchanged notes.
  report.unchanged += kept.size();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace sagasu
