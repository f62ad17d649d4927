#include "sagasu/indexer.h"

#include <fmt/format.h>
#include <xapian.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "sagasu/document_builder.h"
#include "sagasu/entity_resolver.h"
#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/schema.h"
#include "sagasu/unicode.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

// The vault-relative, '/'-separated path of p.
std::string rel_path(const fs::path& root, const fs::path& p) { return p.lexically_relative(root).generic_string(); }

bool wanted_extension(const fs::path& p, const std::vector<std::string>& exts) {
  const std::string name = p.filename().string();
  for (const auto& e : exts) {
    if (e == "*") return true;
    const std::string suffix = "." + e;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  }
  return false;
}

// Every file to index below root, sorted; problems go to skipped. Hidden
// folders (.obsidian, .git, .sagasu, .trash) are not notes; symbolic links to
// folders are not followed, so link loops cannot trap the walk.
void walk(const fs::path& root, const IndexOptions& opts, std::vector<fs::path>& files,
          std::vector<Skipped>& skipped, std::vector<Skipped>& notices) {
  std::vector<fs::path> stack{root};
  while (!stack.empty()) {
    const fs::path dir = stack.back();
    stack.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      skipped.push_back({rel_path(root, dir), fmt::format("cannot read folder: {}", ec.message())});
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        skipped.push_back({rel_path(root, dir), fmt::format("cannot read folder: {}", ec.message())});
        break;
      }
      const fs::path& p = it->path();
      const std::string name = p.filename().string();
      if (!name.empty() && name.front() == '.') continue;
      std::error_code sec;
      const bool is_link = it->is_symlink(sec);
      const fs::file_status st = fs::status(p, sec);  // follows links
      if (is_link && sec) {
        if (wanted_extension(p, opts.extensions)) skipped.push_back({rel_path(root, p), "broken symbolic link"});
        continue;
      }
      if (fs::is_directory(st)) {
        if (is_link) notices.push_back({rel_path(root, p), "symbolic link to a folder, not followed"});
        else stack.push_back(p);
        continue;
      }
      if (!wanted_extension(p, opts.extensions)) continue;
      if (!fs::is_regular_file(st)) {
        skipped.push_back({rel_path(root, p), "not a regular file"});
        continue;
      }
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
}

// Reads a whole file; throws Error naming the file.
std::string read_file(const fs::path& p, const std::string& shown, std::uint64_t limit) {
  std::error_code ec;
  const auto size = fs::file_size(p, ec);
  if (ec) throw Error(fmt::format("{}: cannot read: {}", shown, ec.message()));
  if (size > limit) throw Error(fmt::format("{}: file too large ({} bytes, limit {})", shown, size, limit));
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read: {}", shown, std::strerror(errno)));
  std::string data;
  data.resize(size);
  in.read(data.data(), static_cast<std::streamsize>(size));
  if (in.bad()) throw Error(fmt::format("{}: cannot read: {}", shown, std::strerror(errno)));
  data.resize(static_cast<std::size_t>(in.gcount()));
  return data;
}

Xapian::WritableDatabase open_writable(const std::string& path, bool overwrite) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) throw Error(fmt::format("{}: cannot create index folder: {}", path, ec.message()));
  try {
    return Xapian::WritableDatabase(path, overwrite ? Xapian::DB_CREATE_OR_OVERWRITE : Xapian::DB_CREATE_OR_OPEN);
  } catch (const Xapian::DatabaseLockError&) {
    throw Error(fmt::format("{}: index is locked by another indexer", path));
  } catch (const Xapian::Error& e) {
    throw Error(fmt::format("{}: cannot open index: {}", path, e.get_msg()));
  }
}

}  // namespace

IndexReport run_index(const IndexOptions& opts) {
  const auto started = std::chrono::steady_clock::now();
  IndexReport report;
  std::error_code ec;
  const fs::path root = fs::canonical(opts.vault, ec);
  if (ec || !fs::is_directory(root)) throw Error(fmt::format("{}: not a vault folder: {}", opts.vault,
                                                             ec ? ec.message() : "not a directory"));

  // Pass 1: read and parse every note.
  std::vector<fs::path> files;
  walk(root, opts, files, report.skipped, report.warnings);
  NoteParser parser;
  std::vector<std::unique_ptr<Note>> notes;
  std::vector<std::string> kept_ids;  // notes that failed but keep their indexed version
  for (const fs::path& p : files) {
    const std::string rel = rel_path(root, p);
    if (unicode::find_invalid_utf8(rel) != std::string::npos) {
      report.skipped.push_back({rel, "file name is not valid UTF-8"});
      continue;
    }
    try {
      const std::string content = read_file(p, rel, opts.max_file_bytes);
      auto note = std::make_unique<Note>(parser.parse(rel, content));
      for (const auto& w : note->warnings) report.warnings.push_back({rel, w});
      notes.push_back(std::move(note));
    } catch (const Error& e) {
      std::string reason = e.what();
      if (reason.rfind(rel + ": ", 0) == 0) reason.erase(0, rel.size() + 2);
      report.skipped.push_back({rel, reason});
      kept_ids.push_back(schema::unique_id_term(rel));
    }
  }

  // Entities: every page's kind and aliases, then the override file.
  EntityResolver resolver;
  for (const auto& n : notes) resolver.add_note(*n);
  const fs::path overrides = root / ".sagasu" / "entities.tsv";
  if (fs::exists(overrides, ec)) {
    try {
      for (const auto& problem : resolver.load_overrides(read_file(overrides, ".sagasu/entities.tsv", 1u << 24)))
        report.warnings.push_back({".sagasu/entities.tsv", problem});
    } catch (const Error& e) {
      report.warnings.push_back({".sagasu/entities.tsv", e.what()});
    }
  }
  resolver.finish();
  report.ambiguous = resolver.ambiguous();

  // Pass 2: write what changed.
  Xapian::WritableDatabase db = open_writable(opts.index, opts.rebuild);
  const std::string vault_meta = db.get_metadata(std::string(schema::META_VAULT));
  if (!vault_meta.empty() && vault_meta != root.string() && !opts.rebuild)
    throw Error(fmt::format("{}: index was built from vault {}, not {}; use --rebuild to replace it",
                            opts.index, vault_meta, root.string()));
  // Notes of another vault are not kept: every old document goes.
  if (!vault_meta.empty() && vault_meta != root.string()) kept_ids.clear();
  const bool fresh = db.get_doccount() == 0;
  Analyzer analyzer;
  DocumentBuilder builder(analyzer);
  std::map<std::string, EntityInfo> entities;
  std::set<std::string> seen(kept_ids.begin(), kept_ids.end());
  for (const auto& n : notes) {
    const NoteFacets facets = resolve_facets(*n, resolver);
    for (const auto& name : facets.links) {
      auto& e = entities[name];
      e.name = name;
      if (const auto k = resolver.kind(name)) e.kind = std::string(to_string(*k));
      e.evidence = std::string(to_string(resolver.evidence(name)));
      e.notes.insert(n->path);
    }
    const std::string id = schema::unique_id_term(n->path);
    seen.insert(id);
    if (fresh) {
      db.add_document(builder.build(*n, facets));
      ++report.added;
      continue;
    }
    auto post = db.postlist_begin(id);
    if (post == db.postlist_end(id)) {
      db.replace_document(id, builder.build(*n, facets));
      ++report.added;
      continue;
    }
    const std::string old_sig = db.get_document(*post).get_value(schema::SLOT_SIGNATURE);
    if (old_sig == builder.signature(*n, facets)) {
      ++report.unchanged;
      continue;
    }
    db.replace_document(id, builder.build(*n, facets));
    ++report.updated;
  }
  std::vector<std::string> gone;
  const std::string id_prefix(schema::UNIQUE_ID.prefix);
  for (auto t = db.allterms_begin(id_prefix); t != db.allterms_end(id_prefix); ++t)
    if (!seen.count(*t)) gone.push_back(*t);
  for (const auto& t : gone) db.delete_document(t);
  report.deleted = gone.size();
  // Synonyms from the vault itself: a page's title and its aliases name one
  // thing (ByteDance = バイトダンス, チェックポイント = checkpoint). The table
  // is rebuilt whole each run, so it always matches the notes.
  std::vector<std::string> old_keys;
  for (auto k = db.synonym_keys_begin(); k != db.synonym_keys_end(); ++k) old_keys.push_back(*k);
  for (const auto& k : old_keys) db.clear_synonyms(k);
  for (const auto& n : notes) {
    if (n->aliases.empty()) continue;
    std::vector<std::string> group{analyzer.key(display_title(*n))};
    if (!n->source && n->title != display_title(*n)) group.push_back(analyzer.key(n->title));
    for (const auto& a : n->aliases) group.push_back(analyzer.key(a));
    for (const auto& from : group)
      for (const auto& to : group)
        if (!from.empty() && !to.empty() && from != to && from.size() <= schema::MAX_TERM_BYTES &&
            to.size() <= schema::MAX_TERM_BYTES)
          db.add_synonym(from, to);
  }
  // Entity filters by alias: the folded alias's filter term → the page's.
  for (const auto& n : notes)
    for (const auto& a : n->aliases)
      for (const auto* prefix : {&schema::PERSON, &schema::ORG, &schema::LINK}) {
        const std::string from = schema::filter_term(*prefix, a), to = schema::filter_term(*prefix, n->title);
        if (from != to && from.size() > prefix->prefix.size()) db.add_synonym(from, to);
      }
  db.set_metadata(std::string(schema::META_VAULT), root.string());
  db.set_metadata(std::string(schema::META_SCHEMA_VERSION), std::string(schema::SCHEMA_VERSION));
  db.commit();

  for (auto& [name, e] : entities) {
    if (!e.kind) report.unresolved.push_back({e.name, e.notes});
    report.entities.push_back(std::move(e));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace sagasu
