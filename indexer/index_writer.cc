#include "index_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>

#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "sagasu/word_list.h"
#include "vault_walk.h"

namespace sagasu {
namespace {

// The value a document keeps of its file: STATE.
std::string state_value(const RunNote& note) {
  const VaultFile& f = *note.file;
  return FileState{f.path, f.size, f.mtime_ns, note.file_hash()}.encode();
}

// The values a document keeps of its file and of its note's entities: STATE and DIGEST.
void stamp(Xapian::Document& doc, const RunNote& note) {
  doc.add_value(schema::SLOT_STATE, state_value(note));
  doc.add_value(schema::SLOT_DIGEST, note.encoded_digest());
}

// Notes that failed while building (not when first read) are reported too.
void report_build_failures(std::vector<RunNote>& notes, IndexReport& report) {
  for (RunNote& n : notes)
    if (n.status == RunNote::Status::Failed && n.error.rfind(n.file->path + ": ", 0) == 0) {
      report.skipped.push_back({n.file->path, n.error.substr(n.file->path.size() + 2)});
      n.error.clear();
    }
}

}  // namespace

IndexWriter::IndexWriter(ShardSet& shards, const EntityResolver& resolver, const IndexOptions& opts,
                         const VaultConfig& config, unsigned jobs)
    : m_shards(shards), m_resolver(resolver), m_opts(opts), m_config(config), m_jobs(jobs) {}

void IndexWriter::write(IndexState& state, const std::set<std::string>& refresh, IndexReport& report,
                        std::vector<CoverageTally>& tallies) {
  m_tallies = &tallies;
  m_scan = &state.scan();
  std::vector<std::size_t> to_build;
  const std::vector<RunNote>& notes = state.notes();
  for (std::size_t i = 0; i < notes.size(); ++i) {
    const RunNote& n = notes[i];
    if (n.status == RunNote::Status::Failed) continue;
    if (m_shards.fresh() || n.status == RunNote::Status::Changed || !n.old || refresh.count(n.file->path))
      to_build.push_back(i);
  }
  if (m_shards.fresh() && !m_opts.dry_run) {
    build_fresh(state, to_build, report);
    m_wrote = true;
  } else {
    update(state, to_build, report);
  }
}

// The one document path of fresh builds and updates: a note of this run →
// its finished document (built, with STATE and DIGEST). Nothing when the
// index holds that document already (an update, and the same signature), or
// when the note fails (it is marked failed).
std::optional<Xapian::Document> IndexWriter::document(RunNote& note, DocumentBuilder& builder) {
  try {
    if (!note.note) {
      // An unchanged file rebuilt (for its entities, or in a fresh build): read and parse it again.
      const std::string content = read_vault_file(m_scan->root.string(), m_scan->file_of(*note.file),
                                                  note.file->path, m_opts.max_file_bytes);
      note.note = std::make_unique<Note>(m_parser.parse(note.file->path, content));
      note.hash = content_hash(content);
    }
    const FieldValues values = field_values(*note.note, read_metadata(*note.note, m_config), m_resolver);
    std::optional<Xapian::Document> doc;
    if (!note.old || *note.old->signature != builder.signature(*note.note, values)) {
      doc = builder.build(*note.note, values);
      stamp(*doc, note);
      if (m_shards.size() > 1)
        doc->add_value(schema::SLOT_SHARD, schema::shard_value(m_shards.shard_of(note.file->path)));
    }
    note.note.reset();  // done with it: keep memory flat
    return doc;
  } catch (const Error& e) {
    note.status = RunNote::Status::Failed;
    note.error = e.what();
    return std::nullopt;
  }
}

void IndexWriter::build_fresh(IndexState& state, const std::vector<std::size_t>& to_build,
                              IndexReport& report) {
  std::vector<RunNote>& notes = state.notes();
  // (The notes were let go as soon as their digests were made: each part
  // reads and parses its own again, so memory holds the notes of the parts
  // being written, not the whole vault.)
  for (std::size_t s = 0; s < m_shards.size(); ++s) {
    std::vector<RunNote*> mine;
    for (std::size_t k : to_build)
      if (m_shards.shard_of(notes[k].file->path) == s) mine.push_back(&notes[k]);
    build_shard(s, mine, to_build.size());
  }
  for (std::size_t k : to_build)
    if (notes[k].status != RunNote::Status::Failed) {
      ++report.added;
      report.added_paths.push_back(notes[k].file->path);
    }
  report_build_failures(notes, report);
}

std::size_t fresh_build_parts(std::size_t notes, unsigned jobs) {
  constexpr std::size_t DOCS_PER_PART = 2000;
  jobs = std::max(jobs, 1u);
  std::size_t parts = std::max<std::size_t>(
      {1, std::min<std::size_t>(jobs, notes / 64 + 1), (notes + DOCS_PER_PART - 1) / DOCS_PER_PART});
  // A count the cores share evenly, so that none waits through the last
  // round: 10,000 notes on two cores in 6 parts take 3 rounds of a sixth
  // each, where 5 parts took 3 rounds of a fifth.
  if (parts > jobs && parts % jobs) parts += jobs - parts % jobs;
  return parts;
}

// Disjoint sub-indexes over contiguous slices of the shard's notes in path
// order (fresh_build_parts of them), written by every core in turn and
// merged by one Xapian compaction: memory stays bounded (Xapian's inverter
// holds one part), no part's tables grow large enough to make each flush
// dearer than the last, and the result is compact, its content the same for any -j.
// The parts are temporary: not synced (the merged generation is).
void IndexWriter::build_shard(std::size_t shard, const std::vector<RunNote*>& notes, std::size_t total) {
  const std::size_t n = notes.size();
  const std::size_t parts = fresh_build_parts(n, m_jobs);
  std::vector<std::exception_ptr> part_errors(parts);
  parallel_for(parts, m_jobs, [&](std::size_t p, unsigned) {
    try {
      Xapian::WritableDatabase sub(m_shards.part_path(shard, p),
                                   Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_NO_SYNC);
      Analyzer analyzer;
      DocumentBuilder builder(analyzer);
      for (std::size_t k = n * p / parts; k < n * (p + 1) / parts; ++k) {
        if (auto doc = document(*notes[k], builder)) sub.add_document(*doc);
        progress(total);
      }
      sub.commit();
    } catch (const Xapian::Error&) {
      part_errors[p] = std::current_exception();  // run_index says what it means (a full disk, …)
    }
  });
  for (const auto& e : part_errors)
    if (e) std::rethrow_exception(e);
  if (m_opts.phase) m_opts.phase("merge");  // the one hook of the progress display
  Xapian::Database merged;
  for (std::size_t p = 0; p < parts; ++p) merged.add_database(Xapian::Database(m_shards.part_path(shard, p)));
  merged.compact(m_shards.new_path(shard));
  merged.close();
  std::error_code ec;
  for (std::size_t p = 0; p < parts; ++p) std::filesystem::remove_all(m_shards.part_path(shard, p), ec);
  m_shards.open_new(shard);
}

// Documents are built in parallel; one thread writes them, in path order,
// a slice at a time: a run that re-adds thousands of notes holds one slice's
// documents, not all of them (measured on ja-techdocs, 2,800 notes re-added:
// 1.26 GB held whole, against 468 MB for a fresh build of all 4,100).
void IndexWriter::update(IndexState& state, const std::vector<std::size_t>& to_build, IndexReport& report) {
  constexpr std::size_t SLICE = 256;
  std::vector<RunNote>& notes = state.notes();
  m_changes.docids.resize(m_shards.size());
  std::vector<std::optional<Xapian::Document>> built(notes.size());
  state.load_values(to_build);  // their indexed signatures and digests, before the threads start
  std::vector<std::unique_ptr<Analyzer>> analyzers(m_jobs);
  if (!m_opts.dry_run) m_shards.begin_transaction();
  Renames renames(state);
  std::size_t applied = 0;  // the notes before this one are written
  for (std::size_t from = 0; from < to_build.size() || applied < notes.size();) {
    const std::size_t to = std::min(to_build.size(), from + SLICE);
    parallel_for(to - from, m_jobs, [&](std::size_t k, unsigned t) {
      if (!analyzers[t]) analyzers[t] = std::make_unique<Analyzer>();
      DocumentBuilder builder(*analyzers[t]);
      built[to_build[from + k]] = document(notes[to_build[from + k]], builder);
      progress(to_build.size());
    });
    const std::size_t until = to == to_build.size() ? notes.size() : to_build[to];
    apply(state, built, applied, until, renames, report);
    applied = until;
    from = to;
  }
  report_build_failures(notes, report);
  delete_vanished(state, renames.renamed, report);
}

IndexWriter::Renames::Renames(const IndexState& state) {
  for (const auto& path : state.vanished())
    vanished_by_hash.emplace(state.indexed().at(path).state.hash, path);
}

void IndexWriter::apply(IndexState& state, std::vector<std::optional<Xapian::Document>>& built,
                        std::size_t from, std::size_t to, Renames& renames, IndexReport& report) {
  std::vector<RunNote>& notes = state.notes();
  for (std::size_t i = from; i < to; ++i) {
    const RunNote& n = notes[i];
    if (n.status == RunNote::Status::Failed) continue;
    if (!built[i]) {
      keep(n, report);
      continue;
    }
    // A rename: a new path whose content equals a vanished one's.
    std::string renamed_from;
    if (auto v = n.old ? renames.vanished_by_hash.end() : renames.vanished_by_hash.find(n.file_hash());
        v != renames.vanished_by_hash.end()) {
      renamed_from = v->second;
      renames.vanished_by_hash.erase(v);
    }
    if (!m_opts.dry_run) {
      if (n.old) count_out(n.old->shard, n.old->docid);
      const std::size_t shard = m_shards.shard_of(n.file->path);
      count(shard, m_shards.db(shard).replace_document(schema::unique_id_term(n.file->path), *built[i]),
            *built[i], 1);
      m_wrote = true;
    }
    built[i].reset();
    if (!renamed_from.empty()) {
      ++report.renamed;
      report.renamed_paths.emplace_back(renamed_from, n.file->path);
      renames.renamed.insert(renamed_from);  // not a deletion: it moved
      if (!m_opts.dry_run) {
        const IndexedNote& moved = state.indexed().at(renamed_from);
        count_out(moved.shard, moved.docid);
        m_shards.db(moved.shard).delete_document(schema::unique_id_term(renamed_from));
      }
    } else if (n.old) {
      ++report.updated;
      report.updated_paths.push_back(n.file->path);
    } else {
      ++report.added;
      report.added_paths.push_back(n.file->path);
    }
  }
}

// A note whose document stays. Same content with a new mtime: only the state
// changes (Xapian rewrites just the values); a note read again for a digest
// of an older version gets this version's.
void IndexWriter::keep(const RunNote& note, IndexReport& report) {
  ++report.unchanged;
  const IndexedNote* old = note.old;
  if (m_opts.dry_run || !old) return;
  const bool moved = old->state.mtime_ns != note.file->mtime_ns || old->state.size != note.file->size;
  std::optional<std::string> digest;  // a note read again: this version's, when it differs
  if (note.status == RunNote::Status::Changed)
    if (std::string now = note.encoded_digest(); !old->digest || *old->digest != now) digest = std::move(now);
  if (!moved && !digest) return;
  Xapian::WritableDatabase& db = m_shards.db(old->shard);
  Xapian::Document doc = db.get_document(old->docid);
  doc.add_value(schema::SLOT_STATE, state_value(note));
  if (digest) doc.add_value(schema::SLOT_DIGEST, *digest);
  db.replace_document(old->docid, doc);
  m_changes.docids[old->shard].insert(old->docid);  // (values only: its words stay)
  m_wrote = true;
}

// Notes gone from the vault, unless they moved or keep their documents (a
// failed file, a folder that could not be read): those count as unchanged.
void IndexWriter::delete_vanished(const IndexState& state, const std::set<std::string>& renamed,
                                  IndexReport& report) {
  const std::set<std::string> kept = state.kept();
  for (const auto& path : state.vanished())
    if (!renamed.count(path) && !kept.count(path)) {
      ++report.deleted;
      report.deleted_paths.push_back(path);
      const IndexedNote& ix = state.indexed().at(path);
      if (!m_opts.dry_run) {
        count_out(ix.shard, ix.docid);
        m_shards.db(ix.shard).delete_document(ix.docid);
        m_wrote = true;
      }
    }
  report.unchanged += kept.size();
}

void IndexWriter::count_out(std::size_t k, Xapian::docid docid) {
  count(k, docid, m_shards.db(k).get_document(docid, Xapian::DOC_ASSUME_VALID), -1);
}

void IndexWriter::count(std::size_t k, Xapian::docid docid, const Xapian::Document& doc, int sign) {
  (*m_tallies)[k].count(doc, sign);
  m_changes.docids[k].insert(docid);
  for_each_word_term(doc, [&](const std::string& w) { m_changes.words.insert(w); });
}

void IndexWriter::progress(std::size_t total) {
  if (m_opts.progress) m_opts.progress(++m_done, total);
}

}  // namespace sagasu
