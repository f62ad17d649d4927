#include "index_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string_view>

#include "entity_resolver.h"
#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/unicode.h"

namespace sagasu {

const NoteDigest& RunNote::digest() const {
  if (!m_digest) m_digest = old ? NoteDigest::decode(old->digest).value_or(NoteDigest{}) : NoteDigest{};
  return *m_digest;
}

std::string RunNote::encoded_digest() const {
  return m_digest || !old ? digest().encode() : old->digest;
}

IndexState::IndexState(const VaultScan& scan, ShardSet& shards, const IndexOptions& opts,
                       const VaultConfig& config, unsigned jobs, IndexReport& report)
    : m_scan(scan) {
  if (!shards.fresh()) load(shards, opts);
  classify(opts, config, jobs);
  report_problems(opts, report);
}

void IndexState::load(ShardSet& shards, const IndexOptions& opts) {
  const std::string vault = shards.metadata(schema::META_VAULT);
  if (!vault.empty() && vault != m_scan.root.string())
    throw Error(fmt::format("{}: index was built from vault {}, not {}; use --rebuild to replace it",
                            opts.index, vault, m_scan.root.string()));
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Xapian::WritableDatabase& db = shards.db(k);
    std::vector<std::pair<Xapian::docid, IndexedNote*>> by_docid;  // in docid order, as streams run
    for (auto v = db.valuestream_begin(schema::SLOT_STATE); v != db.valuestream_end(schema::SLOT_STATE);
         ++v) {
      auto state = FileState::decode(*v);
      if (!state) continue;
      IndexedNote& ix = m_indexed[state->path];
      ix.shard = k;
      ix.docid = v.get_docid();
      ix.state = std::move(*state);
      by_docid.emplace_back(ix.docid, &ix);
    }
    // The other values in docid order too: streams, not a document fetch
    // each, joined with the states as they go.
    auto join = [&](Xapian::valueno slot, std::string IndexedNote::*field) {
      auto at = by_docid.begin();
      for (auto v = db.valuestream_begin(slot); v != db.valuestream_end(slot) && at != by_docid.end(); ++v) {
        while (at != by_docid.end() && at->first < v.get_docid()) ++at;
        if (at != by_docid.end() && at->first == v.get_docid()) at->second->*field = *v;
      }
    };
    join(schema::SLOT_DIGEST, &IndexedNote::digest);
    join(schema::SLOT_SIGNATURE, &IndexedNote::signature);
  }
}

void IndexState::classify(const IndexOptions& opts, const VaultConfig& config, unsigned jobs) {
  const std::vector<VaultFile>& files = m_scan.files;
  m_notes.resize(files.size());
  std::vector<std::size_t> to_read;
  // Files and indexed paths are both in path order: one merge finds each
  // file's indexed version and the indexed paths no file has.
  auto indexed = m_indexed.begin();
  for (std::size_t i = 0; i < files.size(); ++i) {
    RunNote& n = m_notes[i];
    n.file = &files[i];
    for (; indexed != m_indexed.end() && indexed->first < files[i].path; ++indexed)
      m_vanished.push_back(indexed->first);
    if (indexed != m_indexed.end() && indexed->first == files[i].path) n.old = &(indexed++)->second;
    if (unicode::find_invalid_utf8(files[i].path) != std::string::npos) {
      n.status = RunNote::Status::Failed;
      n.error = "file name is not valid UTF-8";
      continue;
    }
    if (n.old && n.old->state.size == files[i].size && n.old->state.mtime_ns == files[i].mtime_ns &&
        NoteDigest::current(n.old->digest)) {
      n.status = RunNote::Status::Unchanged;  // its digest is decoded if a later phase asks for it
      n.hash = n.old->state.hash;
    } else {
      to_read.push_back(i);
    }
  }
  const NoteParser parser;
  std::atomic<std::size_t> done{0};
  parallel_for(to_read.size(), jobs, [&](std::size_t k, unsigned) {
    RunNote& n = m_notes[to_read[k]];
    try {
      const std::string content = read_vault_file(n.file->file, n.file->path, opts.max_file_bytes);
      n.hash = content_hash(content);
      if (n.old && n.old->state.hash == n.hash && NoteDigest::current(n.old->digest)) {
        n.status = RunNote::Status::Touched;
      } else {
        n.note = std::make_unique<Note>(parser.parse(n.file->path, content));
        n.set_digest(make_digest(*n.note, read_metadata(*n.note, config)));
        n.status = RunNote::Status::Changed;
      }
    } catch (const Error& e) {
      std::string reason = e.what();
      if (reason.rfind(n.file->path + ": ", 0) == 0) reason.erase(0, n.file->path.size() + 2);
      n.status = RunNote::Status::Failed;
      n.error = reason;
    }
    if (opts.progress) opts.progress(++done, to_read.size());
  });
  for (; indexed != m_indexed.end(); ++indexed) m_vanished.push_back(indexed->first);
}

void IndexState::report_problems(const IndexOptions& opts, IndexReport& report) {
  // A file that fails keeps its indexed version (nothing is lost); it is reported.
  for (RunNote& n : m_notes) {
    if (n.status != RunNote::Status::Failed) continue;
    report.skipped.push_back({n.file->path, n.error});  // (its digest: the indexed one)
  }
  std::sort(report.skipped.begin(), report.skipped.end(),
            [](const Skipped& a, const Skipped& b) { return a.path < b.path; });
  for (const RunNote& n : m_notes)
    if (n.note)
      for (const auto& warning : n.note->warnings) report.warnings.push_back({n.file->path, warning});
  if (opts.strict && !report.skipped.empty())
    throw Error(fmt::format(
        "{}: {} file(s) skipped and --strict given; the index is unchanged (first: {}: {})", opts.vault,
        report.skipped.size(), report.skipped.front().path, report.skipped.front().reason));
}

bool IndexState::vault_changed() const {
  return !m_vanished.empty() || std::any_of(m_notes.begin(), m_notes.end(), [](const RunNote& n) {
    return n.status == RunNote::Status::Changed;
  });
}

std::set<std::string> IndexState::kept() const {
  std::set<std::string> kept;
  for (const RunNote& n : m_notes)
    if (n.status == RunNote::Status::Failed && n.old) kept.insert(n.file->path);
  for (const auto& [path, ix] : m_indexed)
    for (const auto& dir : m_scan.unreadable_dirs)
      if (dir == "." || path.rfind(dir + "/", 0) == 0) kept.insert(path);
  return kept;
}

}  // namespace sagasu
