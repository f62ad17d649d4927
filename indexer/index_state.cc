#include "index_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "entity_resolver.h"
#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/unicode.h"

namespace sagasu {

const NoteDigest& RunNote::digest() const {
  if (!m_digest) {
    if (m_encoded) {
      m_digest = std::make_unique<NoteDigest>(NoteDigest::decode(*m_encoded).value_or(NoteDigest{}));
      return *m_digest;
    }
    // A phase that needs indexed digests loads them first (IndexState::load_digests, load_values).
    if (old && !old->digest) throw std::logic_error("RunNote::digest: the indexed digest was not read");
    m_digest = std::make_unique<NoteDigest>(old ? NoteDigest::decode(*old->digest).value_or(NoteDigest{})
                                                : NoteDigest{});
  }
  return *m_digest;
}

void RunNote::release_digest() {
  if (!m_digest) return;
  if (m_read_now && !m_encoded) m_encoded = std::make_unique<std::string>(m_digest->encode());
  m_digest.reset();
}

NoteDigest RunNote::page() const {
  if (!m_digest && (m_encoded || (old && old->digest)))
    return NoteDigest::decode_page(m_encoded ? *m_encoded : *old->digest).value_or(NoteDigest{});
  const NoteDigest& d = digest();
  NoteDigest page;
  page.title = d.title;
  page.display_title = d.display_title;
  page.source = d.source;
  page.kind_words = d.kind_words;
  page.structure = d.structure;
  page.aliases = d.aliases;
  return page;
}

std::vector<Gloss> RunNote::glosses() const {
  if (!m_digest && (m_encoded || (old && old->digest)))
    return NoteDigest::decode_glosses(m_encoded ? *m_encoded : *old->digest).value_or(std::vector<Gloss>{});
  return digest().glosses;
}

bool IndexState::digest_unchanged(const RunNote& n) const {
  if (!n.read_now()) return true;
  return n.old && NoteDigest::decode(indexed_digest(n.file->path)) == n.digest();
}

std::string RunNote::encoded_digest() const {
  if (m_encoded) return *m_encoded;
  if (m_digest || !old) return digest().encode();
  if (!old->digest) throw std::logic_error("RunNote::encoded_digest: the indexed digest was not read");
  return *old->digest;
}

IndexState::IndexState(const VaultScan& scan, ShardSet& shards, const IndexOptions& opts,
                       const VaultConfig& config, unsigned jobs, IndexReport& report)
    : m_scan(scan), m_shards(shards) {
  if (!shards.fresh()) load(opts);
  classify(opts, config, jobs);
  report_problems(opts, report);
}

// The notes' states, in docid order; their digests only when the index does
// not say they are all current (each is then checked).
void IndexState::load(const IndexOptions& opts) {
  const std::string vault = m_shards.metadata(schema::META_VAULT);
  if (!vault.empty() && vault != m_scan.root.string())
    throw Error(fmt::format("{}: index was built from vault {}, not {}; use --rebuild to replace it",
                            opts.index, vault, m_scan.root.string()));
  m_by_docid.resize(m_shards.size());
  m_digests_current = true;
  for (std::size_t k = 0; k < m_shards.size(); ++k) {
    Xapian::WritableDatabase& db = m_shards.db(k);
    m_digests_current =
        m_digests_current && db.get_metadata(std::string(schema::META_DIGESTS)) == NoteDigest::version();
    for (auto v = db.valuestream_begin(schema::SLOT_STATE); v != db.valuestream_end(schema::SLOT_STATE);
         ++v) {
      auto state = FileState::decode(*v);
      if (!state) continue;
      // (A build writes the notes in path order: each is most often the last so far.)
      IndexedNote& ix = m_indexed.try_emplace(m_indexed.end(), std::move(state->path))->second;
      ix.shard = static_cast<std::uint32_t>(k);
      ix.docid = v.get_docid();
      ix.state = {state->size, state->mtime_ns, std::move(state->hash)};
      m_by_docid[k].emplace_back(ix.docid, &ix);
    }
  }
  if (!m_digests_current) load_digests();
}

void IndexState::load_digests() const {
  if (m_digests_loaded) return;
  // A stream per shard (not a document fetch each), joined with the states in docid order.
  for (std::size_t k = 0; k < m_by_docid.size(); ++k) {
    Xapian::Database& db = m_shards.db(k);
    const auto& by_docid = m_by_docid[k];
    auto at = by_docid.begin();
    for (auto v = db.valuestream_begin(schema::SLOT_DIGEST);
         v != db.valuestream_end(schema::SLOT_DIGEST) && at != by_docid.end(); ++v) {
      while (at != by_docid.end() && at->first < v.get_docid()) ++at;
      if (at != by_docid.end() && at->first == v.get_docid())
        at->second->digest = std::make_unique<std::string>(*v);
    }
    for (const auto& [docid, ix] : by_docid)
      if (!ix->digest)
        ix->digest = std::make_unique<std::string>();  // a document without one: an empty digest
  }
  m_digests_loaded = true;
}

void IndexState::release_digests(unsigned jobs) {
  parallel_for(m_notes.size(), jobs, [&](std::size_t i, unsigned) { m_notes[i].release_digest(); });
}

const std::string& IndexState::indexed_digest(const std::string& path) const {
  const IndexedNote& ix = m_indexed.at(path);
  if (!ix.digest)
    ix.digest = std::make_unique<std::string>(
        m_shards.db(ix.shard).get_document(ix.docid).get_value(schema::SLOT_DIGEST));
  return *ix.digest;
}

void IndexState::load_values(const std::vector<std::size_t>& which) const {
  for (std::size_t i : which) {
    const IndexedNote* ix = m_notes[i].old;
    if (!ix || (ix->digest && ix->signature)) continue;
    const Xapian::Document doc = m_shards.db(ix->shard).get_document(ix->docid, Xapian::DOC_ASSUME_VALID);
    if (!ix->digest) ix->digest = std::make_unique<std::string>(doc.get_value(schema::SLOT_DIGEST));
    ix->signature = std::make_unique<std::string>(doc.get_value(schema::SLOT_SIGNATURE));
  }
}

bool IndexState::digest_current(const IndexedNote& ix) const {
  return m_digests_current || (ix.digest && NoteDigest::current(*ix.digest));
}

std::string IndexState::digests_version() const {
  // Every document written this run has a current digest, and so has every
  // one kept as it was unless a note kept for a failure or an unreadable folder has another.
  if (m_digests_current) return std::string(NoteDigest::version());
  for (const auto& path : kept())
    if (const auto it = m_indexed.find(path); it != m_indexed.end() && !digest_current(it->second)) return "";
  return std::string(NoteDigest::version());
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
        digest_current(*n.old)) {
      // Its digest is decoded if a later phase asks for it; its hash is the index's (file_hash()).
      n.status = RunNote::Status::Unchanged;
    } else {
      to_read.push_back(i);
    }
  }
  const NoteParser parser;
  const bool fresh = m_shards.fresh();
  std::atomic<std::size_t> done{0};
  parallel_for(to_read.size(), jobs, [&](std::size_t k, unsigned) {
    RunNote& n = m_notes[to_read[k]];
    try {
      const std::string content =
          read_vault_file(m_scan.root.string(), m_scan.file_of(*n.file), n.file->path, opts.max_file_bytes);
      n.hash = content_hash(content);
      if (n.old && n.old->state.hash == n.hash && digest_current(*n.old)) {
        n.status = RunNote::Status::Touched;
      } else {
        n.note = std::make_unique<Note>(parser.parse(n.file->path, content));
        n.set_digest(make_digest(*n.note, read_metadata(*n.note, config)));
        n.warnings = std::move(n.note->warnings);
        n.status = RunNote::Status::Changed;
        // A fresh build writes every note in parts that read and parse their
        // own again: holding the whole vault parsed meanwhile is its peak of memory.
        if (fresh) n.note.reset();
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
    for (const auto& warning : n.warnings) report.warnings.push_back({n.file->path, warning});
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
